// The Games page: the lobby (open seats to join in one click, games being
// played to watch, the games this browser holds a seat in) filtered by
// variant, then the list of recent games. A rated game says so; its open
// seat is for a signed-in player, so a signed-out one is asked to sign in.

import { t, getLang } from '../i18n.js';
import { api, seats, whoAmI } from '../api.js';
import { sideName, toastError } from '../ui.js';
import { html, setHtml } from '../html.js';
import { navigate } from '../nav.js';
import { serverReachable } from '../pwa.js';

// Plain text: the templates escape it.
const label = (g) => `Hoyito ${g.rules.variant} 2×${g.rules.holes}${g.match ? ` · ${t('games.match')}` : ''}`;
const clockLabel = (c) => (!c ? '' : c.days ? ` · ${t('clock.days', { n: c.days })}` : ` · ${c.initial / 60}+${c.increment}`);
const names = (g) => g.names.filter(Boolean).join(' – ');
/** The "Rated" label of a rated game, with a seek's range of ratings. */
const ratedTag = (g) => (g.rated ? html` <span class="tag rated-tag">${t('lobby.rated')}</span>${g.rating_range ? html` <span class="muted rating-range">${t('lobby.rating_range', { lo: g.rating_range[0], hi: g.rating_range[1] })}</span>` : ''}` : '');
/** The address of the Account page, coming back to the lobby once signed in. */
const SIGN_IN = '/account?next=%2Fgames';

/** The ids of the games whose seats this browser holds. */
function heldIds() {
  const ids = [];
  for (let i = 0; i < localStorage.length; i += 1) {
    const k = localStorage.key(i);
    if (k && k.startsWith('hoyito.seat.')) ids.push(k.slice('hoyito.seat.'.length));
  }
  return ids.filter((id) => /^[A-Za-z0-9]+$/.test(id)).slice(-100);
}

function lobbyList(items, row) {
  return items.length ? html`<ul class="lobby-list">${items.map(row)}</ul>` : html`<p class="muted">${t('lobby.none')}</p>`;
}

/** The games of the account signed in (each with its `seat`), or null. */
let accountGames = Promise.resolve(null);
/** The account signed in, or null. */
let signedIn = Promise.resolve(null);

async function loadAccountGames() {
  if (!await signedIn) return null;
  try { return (await api('GET', '/api/account/games?limit=100')).games; } catch { return null; }
}

function whoseTurn(g) {
  const mine = seats.get(g.id) || (g.seat ? { seat: g.seat } : null);
  if (g.status !== 'playing' || !g.to_move || !mine) return t(`status.${g.status}`);
  if (mine.seat === 'both' || mine.seat === g.to_move) return html`<strong class="your-turn">${t('lobby.your_turn')}</strong>`;
  return t('lobby.their_turn');
}

/** Games per page of the lobby's lists. */
const PAGE = 20;

/**
 * Shows the lobby's first `pages` pages (the open seats and the games
 * being played page together), with a "More games" button while either
 * list has more.
 */
async function showLobby(variant, pages = 1) {
  const ids = heldIds();
  const lobby = { open: [], playing: [], mine: [] };
  let more = false;
  for (let p = 0; p < pages; p += 1) {
    const q = new URLSearchParams({ limit: String(PAGE), offset: String(p * PAGE) });
    if (variant) q.set('variant', variant);
    if (p === 0 && ids.length) q.set('ids', ids.join(','));
    const page = await api('GET', `/api/lobby?${q}`);
    lobby.open.push(...page.open);
    lobby.playing.push(...page.playing);
    if (p === 0) {
      // My games: the account's (signed in), then this browser's others.
      const owned = (await accountGames) || [];
      const ownedIds = new Set(owned.map((g) => g.id));
      lobby.mine = [...owned, ...page.mine.filter((g) => !ownedIds.has(g.id))];
    }
    more = page.open.length === PAGE || page.playing.length === PAGE;
    if (!more) break;
  }
  const box = document.getElementById('lobby');
  if (!box) return;
  const mine = variant ? lobby.mine.filter((g) => g.rules.variant === variant) : lobby.mine;
  const account = await signedIn;
  // A rated game's seat is for a signed-in player: a signed-out one is sent to sign in first.
  const joinButton = (g) => (g.rated && !account
    ? html`<a class="button" href="${SIGN_IN}" data-nav data-sign-in="${g.id}">${t('lobby.sign_in_to_join')}</a>`
    : html`<button type="button" class="primary" data-join="${g.id}">${t('lobby.join')}</button>`);
  setHtml(box, html`<div id="lobby-note"></div>
    <h2>${t('lobby.open')}</h2>${lobbyList(lobby.open, (g) => html`<li><span>${label(g)}${clockLabel(g.clock)}${names(g) ? ` · ${t('lobby.by', { name: names(g) })}` : ''}${ratedTag(g)}</span>
      ${joinButton(g)}</li>`)}
    <h2>${t('lobby.playing')}</h2>${lobbyList(lobby.playing, (g) => html`<li><span>${label(g)}${names(g) ? ` · ${names(g)}` : ''} · ${g.score[0]}–${g.score[1]}${ratedTag(g)}</span>
      <a class="button" href="/g/${g.id}" data-nav>${t('lobby.watch')}</a></li>`)}
    ${more ? html`<p><button type="button" id="lobby-more">${t('lobby.more')}</button></p>` : ''}
    <h2>${t('lobby.mine')}</h2>${lobbyList(mine, (g) => html`<li><span>${label(g)}${names(g) ? ` · ${names(g)}` : ''} · ${whoseTurn(g)}${ratedTag(g)}</span>
      ${g.seat && !seats.get(g.id)
        ? html`<button type="button" data-take="${g.id}">${t('lobby.open_game')}</button>`
        : html`<a class="button" href="/g/${g.id}" data-nav>${t('lobby.open_game')}</a>`}</li>`)}`);
  const moreButton = document.getElementById('lobby-more');
  if (moreButton) {
    moreButton.addEventListener('click', async () => {
      moreButton.disabled = true;
      try {
        await showLobby(variant, pages + 1);
        // Keyboard users stay where they were: on the button, or on the
        // last game listed once there is no more.
        const next = document.getElementById('lobby-more');
        if (next) next.focus();
      } catch (err) {
        moreButton.disabled = false;
        toastError(err);
      }
    });
  }
  // A game of the account whose seat this browser does not hold: the seat
  // is handed over (a new token), then the game opens.
  for (const b of box.querySelectorAll('[data-take]')) {
    b.addEventListener('click', async () => {
      const id = b.dataset.take;
      b.disabled = true;
      try {
        const r = await api('POST', `/api/games/${id}/seat`);
        seats.set(id, { token: r.token, seat: r.seat });
        navigate(`/g/${id}`);
      } catch (err) {
        b.disabled = false;
        toastError(err);
      }
    });
  }
  for (const b of box.querySelectorAll('[data-join]')) {
    b.addEventListener('click', async () => {
      const id = b.dataset.join;
      b.disabled = true;
      try {
        const name = localStorage.getItem('hoyito.name');
        const r = await api('POST', `/api/games/${id}/join`, name ? { name } : {});
        seats.set(id, { token: r.token, seat: r.seat });
        navigate(`/g/${id}`);
      } catch (err) {
        b.disabled = false;
        if (err.code === 'signed_out') {
          // The session ended meanwhile: say so where the eye is, with the way to sign in.
          const note = document.getElementById('lobby-note');
          setHtml(note, html`<p class="card notice" role="alert">${t('join.rated_signed_out')} <a href="${SIGN_IN}" data-nav>${t('join.sign_in')}</a></p>`);
          return;
        }
        toastError(err);
        showLobby(variant).catch(toastError);
      }
    });
  }
}

/**
 * Shows the lobby, or, when the server cannot be reached (offline, or a
 * copy of the app on a static host), says so in its place: the list below
 * still has the games on this device. Other failures are told in a toast.
 */
function lobbyOrNote(variant) {
  return showLobby(variant).catch(async (err) => {
    // No answer at all (offline), or none from a Hoyito server (a static host).
    if (err.code !== 'offline' && await serverReachable()) { toastError(err); return; }
    const box = document.getElementById('lobby');
    if (box) setHtml(box, html`<p class="muted" id="games-offline" role="status">${t('games.offline')}</p>`);
  });
}

/** Shows the Games page in `app`. */
export async function gamesPage(app) {
  document.title = `Hoyito — ${t('games.title')}`;
  const variant = sessionStorage.getItem('hoyito.lobby.variant') || '';
  signedIn = whoAmI();
  accountGames = loadAccountGames();
  setHtml(app, html`<section class="card"><h1>${t('games.title')}</h1>
    <label class="lobby-filter">${t('lobby.variant')} <select id="lobby-variant">
      <option value="">${t('lobby.all')}</option>${['I', 'II', 'III'].map((v) => html`<option value="${v}"${v === variant ? html` selected` : ''}>Hoyito ${v}</option>`)}
    </select></label>
    <div id="lobby">…</div></section>
    <section class="card"><h2>${t('lobby.recent')}</h2><div id="list">…</div></section>`);
  document.getElementById('lobby-variant').addEventListener('change', (e) => {
    sessionStorage.setItem('hoyito.lobby.variant', e.target.value);
    lobbyOrNote(e.target.value);
  });
  lobbyOrNote(variant);
  try {
    const { games } = await api('GET', '/api/games?limit=100');
    const list = document.getElementById('list');
    if (!list) return;
    if (!games.length) { setHtml(list, html`<p class="muted">${t('games.none')}</p>`); return; }
    // Mode and time are left out on narrow screens (class wide-only).
    setHtml(list, html`<table class="games"><thead><tr>
      <th scope="col">${t('games.game')}</th><th scope="col" class="wide-only">${t('games.mode')}</th>
      <th scope="col">${t('games.rules')}</th><th scope="col">${t('games.status')}</th>
      <th scope="col">${t('games.score')}</th><th scope="col" class="wide-only">${t('games.updated')}</th>
      </tr></thead><tbody>${games.map((g) => html`
      <tr><td class="id"><a href="/g/${g.id}" data-nav>${g.id}</a></td>
      <td class="wide-only">${t(`mode.${g.mode}`)}</td>
      <td>${label(g)}${ratedTag(g)}</td>
      <td>${t(`status.${g.status}`)}${g.result ? ` · ${resultText(g.result)}` : ''}</td>
      <td>${g.score[0]}–${g.score[1]}</td>
      <td class="muted wide-only">${new Date(g.updated_ms).toLocaleString(getLang())}</td></tr>`)}</tbody></table>`);
  } catch (err) {
    toastError(err);
  }
}

function resultText(r) {
  if (r === 'draw') return t('game.draw');
  if (r === 'aborted') return t('game.aborted_result');
  return t('game.wins', { name: sideName(r) });
}
