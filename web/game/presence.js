// Who has an online game open, as the server counts its WebSockets: a
// label by each player's name (a filled or hollow dot and a word, not
// colour alone), the number of spectators, and, once the opponent of a
// game with a clock of minutes has been away long enough, the claim of the
// player who stayed (the win, or a draw). The server decides who may claim
// and when (the room's rule); the page only shows what the view says.

import { t } from '../i18n.js';
import { api } from '../api.js';
import { toastError } from '../ui.js';
import { html, setHtml } from '../html.js';
import { isOver, playerName, waitingForOpponent, may } from './state.js';

/** Takes the presence of a game view or a `presence` message (the newest received wins). */
export function takePresence(S, presence) {
  if (presence) S.presence = presence;
}

/** Whether presence is shown for the game: online, both seats taken. */
const shown = (v) => v.mode === 'online' && !waitingForOpponent(v) && !!v.presence;

/** Fills the presence labels by the players' names, the spectator count and the claim box. */
export function drawPresence(G) {
  const { S, $ } = G;
  const v = S.view;
  if (!v) return;
  const p = S.presence || v.presence;
  for (const el of document.querySelectorAll('#p-top .presence, #p-bottom .presence')) {
    if (!p || !shown(v)) { el.hidden = true; continue; }
    const on = !!p.connected[el.dataset.side];
    el.hidden = false;
    el.className = `presence ${on ? 'online' : 'away'}`;
    // The dot, and the word (said, and shown where there is room).
    setHtml(el, html`${on ? '●' : '○'} <span class="pword">${t(on ? 'presence.online' : 'presence.away')}</span>`);
    el.title = t(on ? 'presence.online' : 'presence.away');
  }
  const watchers = $('spectators');
  watchers.hidden = !(p && v.mode === 'online');
  if (p) watchers.textContent = t('presence.spectators', { n: p.spectators });
  drawClaim(G, p);
}

function drawClaim(G, p) {
  const { S, $ } = G;
  const v = S.view;
  const box = $('claim');
  const c = p && shown(v) && !isOver(v) ? p.claim : null;
  const mine = !!c && c.by === S.seat;
  // The buttons once the room says this player may claim.
  const ready = mine && c.ready && !!may(S).claim;
  // The presence message says the claim is open, but the view it came with
  // was made before (while the opponent was there): ask the server for the
  // view as it is now, whose `may` says whether this player may claim.
  if (mine && c.ready && !ready && S.claimAsked !== c.at_ms) {
    S.claimAsked = c.at_ms;
    G.resync();
  }
  const key = mine ? `${ready}` : '';
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  if (!mine) { box.replaceChildren(); return; }
  const name = playerName(S, c.by === 'south' ? 'north' : 'south');
  if (!ready) {
    setHtml(box, html`<p class="muted" role="status">${t('presence.opponent_away', { name })}</p>`);
    return;
  }
  setHtml(box, html`<div class="card claim" role="alert"><p>${t('presence.opponent_left', { name })}</p>
    <button type="button" class="primary" id="claim-win">${t('presence.claim_win')}</button>
    <button type="button" id="claim-draw">${t('presence.claim_draw')}</button></div>`);
  $('claim-win').addEventListener('click', () => claim(G, 'win'));
  $('claim-draw').addEventListener('click', () => claim(G, 'draw'));
}

async function claim(G, outcome) {
  const { S } = G;
  try {
    G.accept(await api('POST', `/api/games/${S.id}/claim`, { outcome }, S.token), null);
  } catch (err) {
    toastError(err);
    if (err.status === 409) G.resync();
  }
}
