// A player's games on their page (docs/API.md, "Ratings"): the online
// games they played to the end, rated or not, newest first and a page at a
// time, chosen by variant, result and rated, and head to head against
// another player (their username): the won, drawn and lost of the games
// chosen. Each game links to its page, each opponent to theirs.

import { t, getLang } from '../i18n.js';
import { api } from '../api.js';
import { errorText } from '../ui.js';
import { html, setHtml } from '../html.js';
import { VARIANTS, playerPath } from '../ratings.js';
import { pagerHtml, wirePager } from './pager.js';

/** Games a page of the list. */
const PAGE = 10;
/** The ids of the pager. */
const PAGER = { newer: 'pgames-newer', page: 'pgames-page', older: 'pgames-older' };

const date = (ms) => new Date(ms).toLocaleDateString(getLang(), { day: 'numeric', month: 'short', year: 'numeric' });

/** The result of `g` for the player who held `g.seat`: a key of the catalogue. */
function resultKey(g) {
  if (g.result === 'draw') return 'player.drew';
  if (g.result === 'south' || g.result === 'north') return g.result === g.seat ? 'player.won' : 'player.lost';
  return 'pgames.aborted';
}

/**
 * Shows the games of the player named `name` in `box` (a section of the
 * player's page): the filters, the tally and the list. Returns its
 * teardown.
 */
export function showPlayerGames(box, name) {
  const opt = (v, text) => html`<option value="${v}">${text}</option>`;
  setHtml(box, html`<h2 id="pgames-title">${t('pgames.title')}</h2>
    <form id="pgames-filter" class="lb-filter">
      <label>${t('new.variant')}<select name="variant">${opt('', t('pgames.any_variant'))}${VARIANTS.map((v) => opt(v, `Hoyito ${v}`))}</select></label>
      <label>${t('player.result')}<select name="result">${opt('', t('pgames.any_result'))}${opt('won', t('pgames.won'))}${opt('drawn', t('pgames.drawn'))}${opt('lost', t('pgames.lost'))}</select></label>
      <label>${t('pgames.rated')}<select name="rated">${opt('', t('pgames.any_rated'))}${opt('true', t('pgames.rated_only'))}${opt('false', t('pgames.unrated_only'))}</select></label>
    </form>
    <form id="pgames-h2h" class="h2h">
      <label>${t('pgames.against')}<input name="opponent" maxlength="24" autocomplete="off" spellcheck="false"></label>
      <button type="submit">${t('pgames.compare')}</button>
      <button type="button" id="pgames-everyone" hidden>${t('pgames.everyone')}</button>
    </form>
    <p id="pgames-tally" aria-live="polite"></p>
    <div id="pgames-list"></div>`);
  const filter = box.querySelector('#pgames-filter');
  const h2h = box.querySelector('#pgames-h2h');
  const everyone = box.querySelector('#pgames-everyone');
  const tally = box.querySelector('#pgames-tally');
  const list = box.querySelector('#pgames-list');
  let opponent = '';
  let gone = false;
  let asking = 0;

  /** Shows page `page`; `focus`: the pager's button to keep the focus on. */
  async function show(page, focus) {
    const call = ++asking;
    const q = new URLSearchParams({ limit: String(PAGE), offset: String(page * PAGE) });
    for (const k of ['variant', 'result', 'rated']) if (filter[k].value) q.set(k, filter[k].value);
    if (opponent) q.set('opponent', opponent);
    let r;
    try {
      r = await api('GET', `/api/players/${encodeURIComponent(name)}/games?${q}`);
    } catch (err) {
      if (gone || call !== asking) return;
      tally.textContent = '';
      everyone.hidden = !opponent;
      setHtml(list, html`<p role="alert" id="pgames-error">${errorText(err)}</p>`);
      return;
    }
    if (gone || call !== asking) return;
    const counts = { wins: r.wins, draws: r.draws, losses: r.losses };
    tally.textContent = r.opponent ? t('pgames.h2h', { name: r.opponent, ...counts }) : t('pgames.tally', counts);
    everyone.hidden = !r.opponent;
    const pages = Math.max(1, Math.ceil(r.total / PAGE));
    if (!r.games.length) {
      setHtml(list, html`<p class="muted" id="pgames-none">${t('pgames.none')}</p>`);
      return;
    }
    setHtml(list, html`<table class="games pgames"><caption class="sr-only">${t('pgames.title')}</caption><thead><tr>
      <th scope="col" class="wide-only">${t('player.date')}</th><th scope="col">${t('player.opponent')}</th>
      <th scope="col">${t('new.variant')}</th><th scope="col">${t('player.result')}</th></tr></thead>
      <tbody>${r.games.map((g) => html`<tr data-game="${g.id}">
        <td class="wide-only muted">${date(g.updated_ms)}</td>
        <td class="who">${g.opponent ? html`<a href="${playerPath(g.opponent)}" data-nav>${g.opponent}</a>` : html`<span class="muted">${t('pgames.anonymous')}</span>`}</td>
        <td>${g.rules.variant}${g.rated ? html` <span class="tag">${t('lobby.rated')}</span>` : ''}</td>
        <td><a href="/g/${g.id}" data-nav class="result">${t(resultKey(g))}</a></td></tr>`)}</tbody></table>
      ${pagerHtml(PAGER, page, pages, t('pgames.pages'))}`);
    wirePager(PAGER, page, show, focus);
  }

  filter.addEventListener('submit', (e) => e.preventDefault());
  filter.addEventListener('change', () => show(0));
  h2h.addEventListener('submit', (e) => {
    e.preventDefault();
    opponent = h2h.opponent.value.trim();
    show(0);
  });
  everyone.addEventListener('click', () => {
    opponent = '';
    h2h.opponent.value = '';
    show(0);
    h2h.opponent.focus();
  });
  show(0);
  return () => { gone = true; };
}
