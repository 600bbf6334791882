// Ending a game other than by playing it out — abort, draw offers (resign
// is in input.js) — takeback requests, which share the draw offer's way
// of asking and answering, and what comes after: how it ended, Rematch and New game.

import { t } from '../i18n.js';
import { api, seats } from '../api.js';
import { toast, toastError } from '../ui.js';
import { html, setHtml } from '../html.js';
import { navigate } from '../nav.js';
import {
  isOver, say, playerName, may,
} from './state.js';
import { isLocalId, createLocalGame } from '../local/backend.js';

/** The sentence telling how `v` was stopped (resigned, aborted, drawn, flagged), or ''. */
export function stopSentence(S, v) {
  if (v.resigned) return say(S, 'game.resigned', v.resigned);
  if (v.aborted) return say(S, 'game.aborted', v.aborted);
  if (v.flagged) return say(S, 'game.flagged', v.flagged);
  if (v.abandoned) return say(S, v.end === 'left-draw' ? 'game.left_draw' : 'game.left', v.abandoned);
  if (v.end === 'draw') return t('game.draw_agreed');
  return '';
}

const otherSide = (side) => (side === 'south' ? 'north' : 'south');

/** Who won a game (or match) stopped early, as the room says: the side, `draw` or `aborted`; null if it was not stopped. */
export const stoppedWinner = (v) => (v.end && v.end !== 'play' ? v.result : null);

/**
 * Who won the game shown, for the status line: "Ana wins 28–20" (the
 * winner's seeds first) or "Draw 24–24" for a game played out, "Ana wins"
 * for one stopped early or a match; '' while it goes on, or if aborted.
 */
export function resultSentence(S, v) {
  const st = v.state;
  const stopped = stoppedWinner(v);
  const w = (v.match_result && v.match_result.winner) || stopped || (st.over ? st.winner : null);
  if (!w || w === 'aborted') return '';
  const name = w === 'draw' ? t('game.draw') : say(S, 'game.wins', w);
  if (v.match_result || stopped) return name;
  // The seeds each holds, as the standing and the rounds table count them:
  // in a match the round's score the view gives (captured and reserve),
  // else the seeds captured.
  const round = v.match && v.rounds ? v.rounds.find((r) => r.round === v.round) : null;
  const [a, b] = round ? round.score : st.captured;
  return `${name} ${w === 'north' ? `${b}–${a}` : `${a}–${b}`}`;
}

/** The move-list label of a step that stopped the game, or null for other steps. */
export function stopStepLabel(S, s) {
  if (s.kind === 'resign') return say(S, 'game.resigned', s.side);
  if (s.kind === 'concede') return say(S, 'game.conceded', s.side);
  if (s.kind === 'abort') return say(S, 'game.aborted', s.side);
  if (s.kind === 'flag') return say(S, 'game.flagged', s.side);
  if (s.kind === 'left') return say(S, 'game.left', s.side);
  if (s.kind === 'left-draw') return say(S, 'game.left_draw', s.side);
  if (s.kind === 'draw') return t('game.draw_agreed');
  return null;
}

/** The side this browser plays alone (not a spectator, not both sides at one device), or null. */
const ownSide = (S) => (S.seat === 'south' || S.seat === 'north' ? S.seat : null);

/** Whether this browser's player may abort now (the room says so). */
export const canAbort = (S, v) => !!may(S, v).abort;

/** Whether this browser's player may offer a draw now (the room says so). */
export const canOfferDraw = (S, v) => !!may(S, v).offer_draw;

/** Whether this browser's player may ask to take back their last move now (the room says so). */
export const canAskTakeback = (S, v) => !!may(S, v).ask_takeback;

/**
 * What waits for the other player's answer: a draw offer or a takeback
 * request. Each has its field in the view, its request path, its box
 * (`#draw-offer`, `#takeback-offer`: answered there by the other player,
 * read by the one who asked and by spectators) and its strings.
 */
const OFFERS = {
  draw: {
    field: 'draw_offer', box: 'draw-offer', mayAccept: 'accept_draw', mayDecline: 'decline_draw', accept: 'accept-draw', decline: 'decline-draw', declined: 'drawDeclined',
    from: 'game.draw_offer_from', acceptText: 'game.accept_draw', declineText: 'game.decline_draw',
    mine: 'game.draw_offered', by: 'game.draw_offered_by', declinedBy: 'game.draw_declined_by',
  },
  takeback: {
    field: 'takeback_offer', box: 'takeback-offer', mayAccept: 'accept_takeback', mayDecline: 'decline_takeback', accept: 'accept-takeback', decline: 'decline-takeback', declined: 'takebackDeclined',
    from: 'game.takeback_from', acceptText: 'game.accept_takeback', declineText: 'game.decline_takeback',
    mine: 'game.takeback_asked', by: 'game.takeback_asked_by', declinedBy: 'game.takeback_declined_by',
  },
};

/**
 * Notes, as view `next` replaces `prev`, that the other player declined
 * this browser's draw offer or takeback request: it went with no step
 * stored (a move withdraws it; an accepted draw ends the game, an accepted
 * takeback goes back a step). The page says so until the next step.
 */
export function noticeDecline(S, prev, next) {
  const me = ownSide(S);
  if (!me || !prev || isOver(next) || next.epoch !== prev.epoch || next.seq !== prev.seq) return;
  for (const o of Object.values(OFFERS)) {
    if (prev[o.field] === me && !next[o.field]) S[o.declined] = `${next.epoch}:${next.seq}`;
  }
}

/** Shows and hides the abort, draw and takeback buttons, and the boxes answering an offer. */
export function drawEndControls(G) {
  const { S, $ } = G;
  const v = S.view;
  $('abort').hidden = !canAbort(S, v);
  $('offer-draw').hidden = !canOfferDraw(S, v);
  $('ask-takeback').hidden = !canAskTakeback(S, v);
  for (const kind of Object.keys(OFFERS)) drawOfferBox(G, kind);
}

/**
 * The box of an offer of `kind`: Accept and Decline for the player it is
 * made to (an alert: a screen reader says it at once); who made it, for
 * the others; that it was declined, for the player who made it.
 */
function drawOfferBox(G, kind) {
  const { S, $ } = G;
  const o = OFFERS[kind];
  const v = S.view;
  const me = ownSide(S);
  const by = v[o.field];
  const box = $(o.box);
  const mine = may(S, v);
  if (by && me && mine[o.mayDecline]) {
    if (!box.dataset.shown) {
      setHtml(box, html`<div class="card draw-offer" role="alert"><p>${t(o.from, { name: playerName(S, by) })}</p>
        <button type="button" class="primary" id="${o.accept}">${t(o.acceptText)}</button>
        <button type="button" id="${o.decline}">${t(o.declineText)}</button></div>`);
      box.dataset.shown = '1';
      delete box.dataset.line;
      $(o.accept).addEventListener('click', () => offerAction(G, kind, 'accept'));
      $(o.decline).addEventListener('click', () => offerAction(G, kind, 'decline'));
    }
    $(o.accept).disabled = !mine[o.mayAccept];
    return;
  }
  let line = html``;
  if (by && !isOver(v)) {
    line = by === me
      ? html`<p class="muted">${t(o.mine)}</p>`
      : html`<p class="muted">${t(o.by, { name: playerName(S, by) })}</p>`;
  } else if (me && !isOver(v) && S[o.declined] === `${v.epoch}:${v.seq}`) {
    line = html`<p class="muted declined" role="status">${t(o.declinedBy, { name: playerName(S, otherSide(me)) })}</p>`;
  }
  // Drawn again only when it changes: a screen reader hears it once.
  if (box.dataset.shown || box.dataset.line !== String(line)) setHtml(box, line);
  box.dataset.line = String(line);
  delete box.dataset.shown;
}

/** Sends `action` (offer, accept, decline) about an offer of `kind`. */
async function offerAction(G, kind, action) {
  const { S } = G;
  try {
    const r = await api('POST', `/api/games/${S.id}/${kind}`, { action }, S.token);
    if (kind === 'draw' && action === 'offer' && S.view.mode === 'engine' && !r.accepted) toast(t('game.draw_declined'));
    G.accept(r.game, null);
  } catch (err) {
    toastError(err);
    if (err.status === 409) G.resync();
  }
}

async function abort(G) {
  const { S } = G;
  if (!window.confirm(t('game.abort_confirm'))) return;
  try {
    G.accept(await api('POST', `/api/games/${S.id}/abort`, undefined, S.token), null);
  } catch (err) {
    toastError(err);
    if (err.status === 409) G.resync();
  }
}

/** Wires the abort, draw and takeback buttons. */
export function bindEndings(G) {
  G.$('abort').addEventListener('click', () => abort(G));
  G.$('offer-draw').addEventListener('click', () => offerAction(G, 'draw', 'offer'));
  G.$('ask-takeback').addEventListener('click', () => offerAction(G, 'takeback', 'offer'));
}

/** The settings of game `v` for a new game like it, with the sides swapped. */
function rematchBody(S, v) {
  const mySide = S.seat === 'north' ? 'north' : 'south';
  const body = {
    mode: v.mode, rules: v.rules, match: v.match, level: v.level,
    side: mySide === 'south' ? 'north' : 'south',
  };
  if (v.mode === 'engine') body.side = v.engine_side; // the engine's seat is now the player's
  const name = localStorage.getItem('hoyito.name');
  if (name && v.mode !== 'hotseat') body.name = name;
  if (v.clock) body.clock = { initial: v.clock.initial, increment: v.clock.increment, days: v.clock.days };
  return body;
}

/**
 * The Rematch and New game buttons under the result (for the game's
 * players). In an online game, the other player's request shows as an
 * offer to accept; once this browser holds a seat in the rematch, a link
 * to it.
 */
export function afterButtons(S, v) {
  if (!isOver(v) || !S.seat) return '';
  const r = v.mode === 'online' ? v.rematch : null;
  const newGame = html`<a class="button" href="/" data-nav id="new-game-link">${t('game.new_game')}</a>`;
  if (r && seats.get(r.id)) {
    return html`<div class="after"><a class="button primary" href="/g/${r.id}" data-nav id="rematch-link">${t('game.rematch_open')}</a>${newGame}</div>`;
  }
  if (r && r.by !== S.seat && !r.accepted) {
    return html`<div class="after"><p id="rematch-offer" class="offer">${t('game.rematch_offered', { name: playerName(S, r.by) })}</p>
      <button type="button" class="primary" id="rematch">${t('game.rematch_accept')}</button>${newGame}</div>`;
  }
  return html`<div class="after"><button type="button" class="primary" id="rematch">${t('game.rematch')}</button>${newGame}</div>`;
}

/** Asks the server for the rematch of online game `S.id`: both players' requests meet in one game. */
async function onlineRematch(S) {
  try {
    return await api('POST', `/api/games/${S.id}/rematch`, {}, S.token);
  } catch (err) {
    // Asked already (on another tab, say): the seat is in this browser.
    const id = S.view?.rematch?.id;
    if (err.code === 'rematch_asked' && id && seats.get(id)) return { id, ...seats.get(id) };
    throw err;
  }
}

/** Wires the Rematch button, if shown. */
export function bindAfter(G) {
  const b = G.$('rematch');
  if (!b) return;
  b.addEventListener('click', async () => {
    const { S } = G;
    b.disabled = true;
    try {
      let r;
      if (S.view.mode === 'online') r = await onlineRematch(S);
      // A game on this device is followed by another one on this device.
      else if (isLocalId(S.id)) r = await createLocalGame(rematchBody(S, S.view));
      else r = await api('POST', '/api/games', rematchBody(S, S.view));
      seats.set(r.id, { token: r.token, seat: r.seat, invite: r.invite || null });
      navigate(`/g/${r.id}`);
    } catch (err) {
      b.disabled = false;
      toastError(err);
    }
  });
}

/** The line of the result telling how the game ended. */
export const endLine = (v) => (v.end && v.end !== 'play' ? html`<p class="ended-by">${t('game.ended_by')}: ${t(`end.${v.end}`)}</p>` : '');
