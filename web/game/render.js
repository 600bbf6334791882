// Drawing the game page from its state: the board, the players, the status
// line, the controls, the list of moves, the result box (with each
// player's rating change once a rated game was rated), the invite box.

import { t } from '../i18n.js';
import { Board } from '../board.js';
import { seats } from '../api.js';
import { sideName, toast, dismissToast } from '../ui.js';
import { html, setHtml } from '../html.js';
import {
  stopSentence, stopStepLabel, drawEndControls, afterButtons, bindAfter, endLine, resultSentence, stoppedWinner,
} from './endings.js';
import { drawClock } from './clock.js';
import { drawAlerts } from './alerts.js';
import { drawChat } from './chat.js';
import { drawPresence } from './presence.js';
import { changeLine } from '../ratings.js';
import {
  holesPerRow, holds, canMove, legalHoles, playerName, buildFrames, engineToMove, say, shownKey, isOver,
  isYou, moveMarks, stepOutcome, waitingForOpponent, may,
} from './state.js';

/** Shows a toast about the state shown now; it goes as soon as that state changes. */
export function note(G, msg, kind = 'info') {
  G.S.note = { id: toast(msg, kind), key: shownKey(G.S) };
}

/** Hides the toast about a state no longer shown. */
export function dropStaleNote(G) {
  const { S } = G;
  if (S.note && S.note.key !== shownKey(S)) {
    dismissToast(S.note.id);
    S.note = null;
  }
}

// Narrowest hole cell (CSS px) of a board drawn across; narrower stands it upright.
const MIN_CELL = 48;
// A finger's size (CSS px): a board drawn with holes this large keeps its way.
const TOUCH = 44;
// The least size (CSS px) of a hole: the smallest target WCAG 2.2 allows
// (2.5.8, AA). A long row on a short screen draws its holes smaller than a
// finger rather than push the players' bars and the actions out of view;
// below this the page grows and scrolls.
const LEAST = 24;

/**
 * Whether a board of `n` holes a row stands upright in the room the game's
 * screen leaves it: upright when that draws its holes larger than across,
 * and across would draw them narrower than {@link MIN_CELL}.
 */
function standsUpright(G, n) {
  const wrap = G.$('board-wrap');
  // Measured at the room the screen leaves it, not at the least height it was last given.
  const area = wrap.parentElement;
  const held = area.style.minHeight;
  area.style.minHeight = '';
  const w = wrap.clientWidth;
  const h = wrap.clientHeight || Infinity;
  area.style.minHeight = held;
  // The board's drawing: across (n + 2) × 3 cells, upright 3.4 × (n + 2).
  const across = Math.min(w / (n + 2), h / 3);
  const upright = Math.min(w / 3.4, h / (n + 2));
  const best = across < MIN_CELL && upright > across;
  // A board already drawn keeps its way unless the other is clearly
  // better: a line of text more or less must not turn it round under a finger.
  const b = G.S.board;
  if (b && b.n === n && b.vertical !== best) {
    const [now, other] = b.vertical ? [upright, across] : [across, upright];
    if (other < now * 1.2 && now >= TOUCH) return b.vertical;
  }
  return best;
}

/** Whether the board drawn stands as the room it has now asks (else it is drawn again). */
export function boardFits(G) {
  const { S } = G;
  return !S.board || !S.view || S.board.vertical === standsUpright(G, holesPerRow(S));
}

/**
 * Creates the board (again, if the number of holes changed, or it must
 * stand upright or lie across to keep its holes large enough to touch)
 * and orients it.
 */
export function ensureBoard(G) {
  const { S } = G;
  const n = holesPerRow(S);
  const vertical = standsUpright(G, n);
  if (!S.board || S.board.n !== n || S.board.vertical !== vertical) {
    S.board = new Board(G.$('board-wrap'), n, G.onHole, vertical);
  }
  // Upright, the board is never so short that a hole is smaller than the
  // least target (24 px): a longer row makes the page taller rather.
  G.$('board-wrap').parentElement.style.minHeight = vertical ? `${(n + 2) * LEAST}px` : '';
  // North's player sees their row at the bottom; the Flip button turns it round.
  S.board.setFlipped((S.seat === 'north') !== !!S.flip);
}

/** Redraws everything from `G.S.view`. */
export function renderAll(G) {
  const { S, $ } = G;
  const v = S.view;
  if (!v) return;
  ensureBoard(G);
  const frames = buildFrames(v);
  if (S.frame !== null && S.frame >= frames.length - 1) S.frame = null;
  dropStaleNote(G);
  if (S.frame !== null) {
    const f = frames[S.frame];
    S.board.render({
      board: f.board, closed: f.closed, captured: f.captured, legal: new Set(), last: moveMarks(S, f.step),
    });
    drawPlayers(G, f.captured, f.toMove);
    $('viewing').hidden = false;
    $('viewing').textContent = t('game.viewing', { seq: S.frame, total: frames.length - 1 });
  } else {
    const legal = legalHoles(S);
    // The first hole of a two-hole opening may be pressed again: that takes it back.
    if (S.first !== null) legal.add(S.first);
    const last = v.history.length && v.history[v.history.length - 1].round === v.round
      ? moveMarks(S, v.history[v.history.length - 1]) : null;
    S.board.render({
      board: v.state.board, closed: v.state.closed, captured: v.state.captured, legal, focusable: true, last,
    });
    S.board.clearMarks('selected');
    if (S.first !== null) S.board.mark(S.first, 'selected', true);
    // A hint is about the position it was asked in: an undo or a move drops it.
    if (S.hint !== null && S.hintAt !== `${v.epoch}:${v.seq}`) S.hint = null;
    S.board.clearMarks('hinted');
    if (S.hint !== null) S.board.mark(S.hint, 'hinted', true);
    drawPlayers(G, v.state.captured, isOver(v) ? null : v.state.to_move);
    $('viewing').hidden = true;
  }
  $('rated-tag').hidden = !v.rated;
  drawStatus(G, frames);
  drawStanding(G);
  drawControls(G);
  drawMoves(G, frames);
  drawSummary(G);
  drawInvite(G);
  drawTitle(G);
}

/** The tab's title: it tells a seated player when it is their move. */
export function drawTitle(G) {
  const { S } = G;
  const v = S.view;
  const yours = !isOver(v) && !S.sowing && !waitingForOpponent(v) && isYou(S, v.state.to_move);
  document.title = yours ? `${t('title.your_move')} — Hoyito` : `Hoyito — ${S.id}`;
  // The page's heading (for screen readers): the game's rules and mode.
  G.$('game-title').textContent = `Hoyito ${v.rules.variant} 2×${v.rules.holes} · ${t(`mode.${v.mode}`)}`;
}

function drawPlayers(G, captured, toMove) {
  const { S, $ } = G;
  const v = S.view;
  const top = S.board.flipped ? 'south' : 'north';
  const bottom = top === 'south' ? 'north' : 'south';
  for (const [slot, side] of [['p-top', top], ['p-bottom', bottom]]) {
    const k = side === 'south' ? 0 : 1;
    const reserve = v.state.reserve[k];
    $(slot).className = `player ${slot === 'p-top' ? 'upper' : 'lower'}${toMove === side ? ' to-move' : ''}`;
    // Each player's bar: the name, whether they have the game open, the
    // seeds captured (and the reserve of a match), and their clock.
    setHtml($(slot), html`<span class="name">${playerName(S, side)}</span>
      <span class="presence" data-side="${side}" hidden></span>
      <span class="cap" data-side="${side}"><strong>${captured[k]}</strong> ${t('game.captured')}</span>
      ${reserve ? html`<span class="muted reserve">+${reserve} ${t('game.reserve')}</span>` : ''}
      ${v.clock ? html`<span class="clock-side" data-side="${side}"></span>` : ''}`);
  }
}

/** The status line: whose move it is, or what is going on. */
export function drawStatus(G, frames = buildFrames(G.S.view)) {
  const { S, $ } = G;
  const v = S.view;
  const turn = (side) => (holds(S, side) && v.mode !== 'hotseat' ? t('game.your_turn') : t('game.turn', { name: playerName(S, side) }));
  let s;
  if (S.frame !== null) {
    const toMove = frames[S.frame].toMove;
    s = t('game.replay', { seq: S.frame, total: frames.length - 1 });
    if (toMove) s += ` · ${t('game.turn', { name: playerName(S, toMove) })}`;
  } else {
    const result = resultSentence(S, v);
    if (S.sowing) s = say(S, 'game.sowing', S.sowing);
    // Who won, and by how much, where the eye is: "Game over · Ana wins 28–20".
    else if (stopSentence(S, v)) s = [t('game.over'), stopSentence(S, v), result].filter(Boolean).join(' · ');
    else if (v.state.over) s = [t('game.over'), result].filter(Boolean).join(' · ');
    // A timed game starts once the second player has joined.
    else if (waitingForOpponent(v) && v.clock) s = t('game.waiting');
    else if (engineToMove(v)) s = t('game.thinking');
    else s = turn(v.state.to_move);
    if (v.match) s = `${t('game.round', { round: v.round })} · ${s}`;
    // How to take the first hole back: a tap on a touch screen; a click, or Esc, with a mouse and keys.
    if (S.first !== null) s += ` — ${t(matchMedia('(hover: hover) and (pointer: fine)').matches ? 'game.pick_second_keys' : 'game.pick_second')}`;
  }
  $('status').textContent = s;
  drawLastMove(G, frames);
}

/** The last move of the position shown, beside the status line: "Last: North 3 ×4". */
function drawLastMove(G, frames) {
  const { S, $ } = G;
  const k = S.frame === null ? frames.length - 1 : S.frame;
  const s = frames[k] && frames[k].step;
  const el = $('last-move');
  if (!s || s.kind !== 'move') { el.textContent = ''; return; }
  const { captured } = stepOutcome(frames, k);
  el.textContent = t('game.last_move', { move: `${sideName(s.side)} ${s.token}${captured > 0 ? ` ×${captured}` : ''}` });
}

/**
 * A match's standing, always in view while it is played: the rounds each
 * side has won and the seeds each holds in the round being played (its
 * captured seeds and reserve, as the rounds table counts them).
 */
export function drawStanding(G) {
  const { S, $ } = G;
  const v = S.view;
  const el = $('standing');
  el.hidden = !v.match;
  if (!v.match) return;
  const won = (side) => v.rounds.filter((r) => r.over && r.winner === side).length;
  const cur = v.rounds[v.rounds.length - 1];
  const [ss, ns] = cur ? cur.score : [0, 0];
  el.textContent = t('match.standing', {
    south: playerName(S, 'south'), north: playerName(S, 'north'), sw: won('south'), nw: won('north'), ss, ns,
  });
}

/**
 * The direction chooser of a game whose players choose the direction of
 * each move: shown at the hole picked (S.pick), its two directions as
 * buttons; either plays the move.
 */
export function drawDirPick(G) {
  const { S, $ } = G;
  const box = $('dir');
  const open = S.pick !== null && S.pick !== undefined && canMove(S) && !!S.view.direction_choice;
  box.hidden = !open;
  if (!open) return;
  for (const b of box.querySelectorAll('button')) {
    b.disabled = !S.view.legal_moves.some((m) => m.holes[0] === S.pick && m.dir === b.dataset.dir);
    b.setAttribute('aria-pressed', 'false');
  }
  // Placed by the hole: below it, or above it when it is in the lower half of the board.
  const area = box.parentElement.getBoundingClientRect();
  const hole = S.board.holes[S.pick].g.getBoundingClientRect();
  const below = hole.top + hole.height / 2 < area.top + area.height / 2;
  const h = box.offsetHeight;
  const y = below ? hole.bottom - area.top + 4 : hole.top - area.top - h - 4;
  box.style.top = `${Math.max(0, Math.min(area.height - h, y))}px`;
}

/** Shows, hides, enables and disables the buttons. */
export function drawControls(G) {
  const { S, $ } = G;
  const v = S.view;
  const mine = S.seat !== null;
  // What the room says this seat may do now (undo, resign, a hint…).
  const can = may(S);
  $('undo').hidden = !(mine && v.mode !== 'online');
  $('undo').disabled = !can.undo;
  $('resign').hidden = !can.resign;
  $('resign').disabled = S.sending;
  $('resign').textContent = t(v.match ? 'game.resign_match' : 'game.resign');
  // In a match a player may resign just the round being played.
  $('resign-round').hidden = !can.resign_round;
  $('resign-round').disabled = S.sending;
  $('hint').hidden = !(mine && v.mode !== 'online');
  $('hint').disabled = !(can.hint && canMove(S));
  drawDirPick(G);
  // Skip is offered while a move is shown seed by seed (in the action bar, in reach on a phone).
  $('skip').hidden = !S.animating;
  $('skip').disabled = !S.animating;
  $('to-chat').hidden = v.mode !== 'online';
  drawEndControls(G);
  drawClock(G);
  drawAlerts(G);
  drawChat(G);
  drawPresence(G);
}

function drawMoves(G, frames) {
  const { S, $ } = G;
  const ol = $('moves');
  const currentFrame = S.frame === null ? frames.length - 1 : S.frame;
  setHtml(ol, html`${frames.map((f, k) => {
    const s = f.step;
    let label;
    if (!s) label = t('game.start_pos');
    else if (s.kind === 'round') label = `— ${t('game.round', { round: s.round })} —`;
    else if (stopStepLabel(S, s)) label = `— ${stopStepLabel(S, s)} —`;
    else label = moveLabel(G.S, frames, k);
    const current = k === currentFrame;
    const cls = [current ? 'current' : '', s && s.kind !== 'move' ? 'event' : ''].filter(Boolean).join(' ');
    return html`<li${cls ? html` class="${cls}"` : ''}${current ? html` aria-current="step"` : ''}><button type="button" data-frame="${k}">${k ? `${k}. ` : ''}${label}</button></li>`;
  })}`);
  const cur = ol.querySelector('.current');
  if (cur) scrollWithin(ol, cur);
}

/**
 * Scrolls box `box` (not the page: scrollIntoView would move the whole page
 * on a phone, away from the board) just enough to show `el`.
 */
function scrollWithin(box, el) {
  const b = box.getBoundingClientRect();
  const r = el.getBoundingClientRect();
  if (r.top < b.top) box.scrollTop -= b.top - r.top;
  else if (r.bottom > b.bottom) box.scrollTop += Math.min(r.bottom - b.bottom, r.top - b.top);
  if (r.left < b.left) box.scrollLeft -= b.left - r.left;
  else if (r.right > b.right) box.scrollLeft += Math.min(r.right - b.right, r.left - b.left);
}

// A move in the list: `S 2L ×8 +` — the mover, the token, the seeds
// captured, and `+` when the mover moves again; a screen reader hears the
// direction, the capture and the extra turn in words.
function moveLabel(S, frames, k) {
  const s = frames[k].step;
  const { captured, again } = stepOutcome(frames, k);
  // The direction is told where the rules let the players choose it.
  const dir = S.view.rules.direction !== 'fixed' ? s.dir : null;
  return html`<span aria-hidden="true">${sideName(s.side).charAt(0)}</span><span class="sr-only">${sideName(s.side)}</span> ${s.token}${
    dir ? html`<span class="sr-only">, ${t('moves.dir', { dir: t(dir === 'R' ? 'dir.cw' : 'dir.ccw') })}</span>` : ''}${
    captured > 0 ? html` <span class="took" aria-hidden="true">×${captured}</span><span class="sr-only">, ${t('moves.captured', { n: captured })}</span>` : ''}${
    again ? html` <span class="again" aria-hidden="true" title="${t('moves.again')}">+</span><span class="sr-only">, ${t('moves.again')}</span>` : ''}`;
}

/** Whether the game (a match: the whole match) in `v` has ended. */
const ended = (v) => (v.match ? !!v.match_result || !!v.end : isOver(v));

/**
 * Whether the game ended with this view, the page having seen it going on
 * (a page opened on a finished game does not count).
 */
function endsNow(S) {
  const now = ended(S.view);
  const was = S.endSeen;
  S.endSeen = now;
  return now && was === false;
}

/** Whether each side has made a move in `v` (a rated game stopped before then is not rated). */
const bothMoved = (v) => ['south', 'north'].every((side) => v.history.some((s) => s.kind === 'move' && s.side === side));

/**
 * The rating change of each player of a rated game that ended ("Ana:
 * 1500? → 1662? (+162)"), once it was rated; or why it is not rated.
 */
function ratingLine(S, v) {
  if (!v.rated || v.match) return '';
  if (!v.rating) return bothMoved(v) ? '' : html`<p class="rating-change muted" id="not-rated">${t('game.not_rated')}</p>`;
  const one = (side) => html`<span class="rating-side" data-side="${side}">${playerName(S, side)}: ${changeLine(v.rating[side])}</span>`;
  return html`<p class="rating-change" id="rating-change">${t('game.ratings')}: ${one('south')} · ${one('north')}</p>`;
}

function drawSummary(G) {
  const { S, $ } = G;
  const v = S.view;
  const box = $('summary');
  // A replayed step is not over: the result shows with the live position.
  const justEnded = S.frame === null && endsNow(S);
  if ((!isOver(v) && !v.match_result) || S.frame !== null) { box.replaceChildren(); return; }
  const stopped = stopSentence(S, v);
  const resigned = stopped ? html`<p class="resigned">${stopped}</p>${endLine(v)}` : '';
  const winner = (w) => {
    if (w === 'aborted') return t('game.aborted_result');
    return w === 'draw' ? t('game.draw') : say(S, 'game.wins', w);
  };
  const result = stoppedWinner(v);
  let body;
  if (v.match) {
    const title = v.match_result
      ? (v.match_result.winner === 'draw'
        ? t('game.match_draw', { rounds: v.match_result.rounds })
        : say(S, 'game.match_over', v.match_result.winner, { rounds: v.match_result.rounds }))
      : t('game.round_over', { round: v.round });
    // A round the match was stopped in (resigned, drawn, aborted, flagged) shows how.
    const outcome = (r) => {
      if (r.over) return winner(r.winner) + (r.reason === 'conceded' ? ` (${t('reason.conceded')})` : '');
      if (result && r.round === v.rounds.length) return `${winner(result)} (${t(`end.${v.end}`)})`;
      return '…';
    };
    const rows = v.rounds.map((r) => html`<tr><td>${r.round}</td><td>${r.score[0]}</td><td>${r.score[1]}</td><td>${outcome(r)}</td></tr>`);
    body = html`<h2>${title}</h2>
      <div class="rounds-box"><table class="rounds"><caption>${t('game.rounds')}</caption><thead><tr><th>#</th><th>${sideName('south')}</th><th>${sideName('north')}</th><th></th></tr></thead><tbody>
      ${rows}
      </tbody></table></div>${resigned}${may(S).next_round ? html`<button type="button" class="primary" id="next-round">${t('game.next_round')}</button>` : ''}`;
  } else if (result) {
    const st = v.state;
    body = html`<h2>${t('game.over')}: ${winner(result)}</h2>${resigned}
      <p>${t('game.score')}: ${sideName('south')} ${st.captured[0]} – ${st.captured[1]} ${sideName('north')}</p>${ratingLine(S, v)}`;
  } else {
    const st = v.state;
    body = html`<h2>${t('game.over')}: ${winner(st.winner)}</h2>
      <p>${t('game.score')}: ${sideName('south')} ${st.captured[0]} – ${st.captured[1]} ${sideName('north')}
      · ${t('game.reason')}: ${t(`reason.${st.end_reason}`)}</p>${ratingLine(S, v)}`;
  }
  setHtml(box, html`<div class="summary card" role="status" tabindex="-1">${body}${afterButtons(S, v)}</div>`);
  // The result is in the game's screen, with the board: when the game ends
  // while the page watches, the page is brought back to its top (where a
  // phone shows the whole screen) and the result takes the focus.
  if (justEnded) {
    window.scrollTo(0, 0);
    const el = document.activeElement;
    if (!el || el === document.body || !el.isConnected || el.closest('#board-wrap')) box.firstElementChild.focus({ preventScroll: true });
  }
  // The rounds table shows its last rounds where it scrolls (a long match on a phone).
  const rounds = box.querySelector('.rounds-box');
  if (rounds) rounds.scrollTop = rounds.scrollHeight;
  const nr = $('next-round');
  if (nr) nr.addEventListener('click', G.nextRound);
  bindAfter(G);
}

function drawInvite(G) {
  const { S, $ } = G;
  const v = S.view;
  const box = $('invite');
  const st = seats.get(S.id);
  if (v.mode === 'online' && v.status === 'waiting' && st && st.invite) {
    const url = new URL(st.invite, location.origin).href;
    setHtml(box, html`<div class="invite card"><p>${t('game.invite')}</p>
      <div class="row"><input id="invite-url" readonly value="${url}" aria-label="${t('game.invite')}">
      <button type="button" id="copy">${t('game.copy')}</button></div><p class="muted">${t('game.waiting')}</p></div>`);
    $('copy').addEventListener('click', async () => {
      $('invite-url').select();
      try { await navigator.clipboard.writeText(url); } catch { document.execCommand('copy'); }
      toast(t('game.copied'));
    });
  } else if (!S.seat && !$('join-form')) {
    setHtml(box, html`<p class="muted watching">${t('game.watching')}</p>`);
  } else {
    box.replaceChildren();
  }
}
