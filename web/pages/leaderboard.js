// The leaderboard, /leaderboard?pool=II-blitz: the best ratings of a pool
// (a variant and a time class, chosen here) that are no longer
// provisional (docs/API.md, "Ratings"): rank, player (a link to their
// page), rating and rated games.

import { t } from '../i18n.js';
import { api } from '../api.js';
import { errorText } from '../ui.js';
import { html, setHtml } from '../html.js';
import { CLASSES, VARIANTS, parsePool, playerPath, poolLabel } from '../ratings.js';

/** The pool last chosen here (localStorage). */
const SAVED = 'hoyito.leaderboard';

/** Shows the leaderboard in `app`; returns its teardown. */
export function leaderboardPage(app) {
  document.title = `Hoyito — ${t('lb.title')}`;
  const asked = new URLSearchParams(location.search).get('pool');
  const saved = localStorage.getItem(SAVED);
  const first = parsePool(asked) ? asked : parsePool(saved) ? saved : 'I-blitz';
  const { variant, cls } = parsePool(first);
  const opt = (v, text, sel) => html`<option value="${v}"${sel ? html` selected` : ''}>${text}</option>`;
  setHtml(app, html`<section class="card narrow leaderboard"><h1>${t('lb.title')}</h1>
    <p class="muted">${t('lb.intro')}</p>
    <form class="lb-filter" id="lb-pool">
      <label>${t('new.variant')}<select name="variant">${VARIANTS.map((v) => opt(v, `Hoyito ${v}`, v === variant))}</select></label>
      <label>${t('lb.class')}<select name="cls">${CLASSES.map((c) => opt(c, t(`class.${c}`), c === cls))}</select></label>
    </form>
    <div id="lb-list">…</div></section>`);
  let gone = false;
  let asking = 0;
  async function show(pool) {
    const call = ++asking;
    const box = document.getElementById('lb-list');
    let players;
    try {
      ({ players } = await api('GET', `/api/leaderboard?pool=${encodeURIComponent(pool)}`));
    } catch (err) {
      if (!gone && call === asking) setHtml(box, html`<p role="alert">${errorText(err)}</p>`);
      return;
    }
    if (gone || call !== asking) return;
    if (!players.length) {
      setHtml(box, html`<p class="muted" id="lb-empty">${t('lb.empty', { pool: poolLabel(pool) })}</p>`);
      return;
    }
    setHtml(box, html`<table class="games lb"><caption class="sr-only">${t('lb.caption', { pool: poolLabel(pool) })}</caption>
      <thead><tr><th scope="col" class="num">#</th><th scope="col">${t('player.player')}</th>
      <th scope="col" class="num">${t('player.rating')}</th><th scope="col" class="num">${t('player.games')}</th></tr></thead>
      <tbody>${players.map((p, i) => html`<tr><td class="num">${i + 1}</td>
        <td class="who"><a href="${playerPath(p.username)}" data-nav>${p.username}</a></td>
        <td class="num"><strong>${Math.round(p.rating)}</strong></td><td class="num">${p.games}</td></tr>`)}</tbody></table>`);
  }
  const form = document.getElementById('lb-pool');
  form.addEventListener('submit', (e) => e.preventDefault());
  form.addEventListener('change', () => {
    const pool = `${form.variant.value}-${form.cls.value}`;
    localStorage.setItem(SAVED, pool);
    history.replaceState(null, '', `/leaderboard?pool=${pool}`);
    show(pool);
  });
  if (asked !== first) history.replaceState(null, '', `/leaderboard?pool=${first}`);
  show(first);
  return () => { gone = true; };
}
