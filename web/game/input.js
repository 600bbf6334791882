// What the player does on the game page: clicks on holes and buttons, keys,
// and the requests they send (move, undo, hint, resign a game, match or
// round, next round).

import { t } from '../i18n.js';
import { api } from '../api.js';
import { toastError } from '../ui.js';
import { skip } from './animation.js';
import { note } from './render.js';
import {
  holesPerRow, rowStart, holds, canMove, legalHoles, isOver,
} from './state.js';

function illegal(G, i, key = 'game.illegal') {
  const { S } = G;
  if (i !== null && S.board) S.board.flash(i, 'refused', 500);
  note(G, t(key), 'error');
}

async function send(G, token) {
  const { S } = G;
  S.sending = true;
  G.render();
  try {
    const r = await api('POST', `/api/games/${S.id}/moves`, { move: token, seq: S.view.seq }, S.token);
    G.accept(r.game, r.move);
  } catch (err) {
    toastError(err);
    // Refused (a conflict, a stale page): show the game as the server has it.
    if (err.status === 409 || err.status === 422) G.resync();
  } finally {
    S.sending = false;
    if (!S.animating) G.render();
  }
}

/** Plays the legal move (as the server's room lists it) that sows `holes` in direction `dir` (null: the only one). */
function playHoles(G, holes, dir) {
  const { S } = G;
  const v = S.view;
  const sows = (m) => (!dir || m.dir === dir) && m.holes.length === holes.length && m.holes.every((h, j) => h === holes[j]);
  const m = v.legal_moves.find(sows);
  S.first = null;
  S.pick = null;
  if (m) send(G, m.token);
  else illegal(G, holes[holes.length - 1]);
}

/**
 * The moves of `holes` in the room's list; where the players choose the
 * direction of each move, the directions they may be sown in.
 */
const movesOf = (v, holes) => v.legal_moves.filter((m) => m.holes.length === holes.length && m.holes.every((h, j) => h === holes[j]));

/** A click (or Enter) on hole `i`. */
export function onHole(G, i) {
  const { S } = G;
  const v = S.view;
  if (!v) return;
  if (S.frame !== null) { S.frame = null; G.render(); return; }
  if (S.animating) { skip(S); return; }
  // A second tap on the first hole of a two-hole opening takes it back.
  if (v.opening_pair && S.first === i) { S.first = null; S.pick = null; G.render(); return; }
  if (!canMove(S)) { illegal(G, i, isOver(v) || !S.seat || holds(S, v.state.to_move) ? 'game.illegal' : 'game.not_your_turn'); return; }
  if (!legalHoles(S).has(i)) { illegal(G, i); return; }
  if (v.opening_pair && S.first === null) { S.first = i; S.pick = null; G.render(); S.board.focusHole(i); return; }
  const holes = v.opening_pair ? [S.first, i] : [i];
  // The direction is chosen at the hole: its two directions are offered
  // beside it (a move that may go one way only is played at once).
  if (v.direction_choice && new Set(movesOf(v, holes).map((m) => m.dir)).size > 1) {
    S.pick = i;
    S.pickHoles = holes;
    G.render();
    const b = G.$('dir').querySelector('button:not(:disabled)');
    if (b) b.focus({ preventScroll: true });
    return;
  }
  playHoles(G, holes, null);
}

/** Plays the hole picked in direction `dir` (the chooser at the hole, or the L and R keys). */
function pickDir(G, dir) {
  const { S } = G;
  if (S.pick === null || S.pick === undefined || !canMove(S)) return;
  S.dir = dir;
  playHoles(G, S.pickHoles, dir);
}

/** Closes the direction chooser without playing; the focus goes back to its hole. */
function closePick(G) {
  const { S } = G;
  const i = S.pick;
  S.pick = null;
  G.render();
  if (i !== null && i !== undefined && S.board) S.board.focusHole(i);
}

async function undo(G) {
  const { S } = G;
  try {
    // The view undone from: refused (409 stale) if the game has moved on.
    const g = await api('POST', `/api/games/${S.id}/undo`, { seq: S.view.seq, epoch: S.view.epoch }, S.token);
    S.frame = null;
    S.first = null;
    S.pick = null;
    S.hint = null;
    G.accept(g, null);
  } catch (err) {
    toastError(err);
    if (err.status === 409) G.resync();
  }
}

async function hint(G) {
  const { S } = G;
  const at = `${S.view.epoch}:${S.view.seq}`;
  try {
    const h = await api('POST', `/api/games/${S.id}/hint`, undefined, S.token);
    // An answer about a position no longer shown (an undo, a move came) is dropped.
    if (!S.view || `${S.view.epoch}:${S.view.seq}` !== at || S.frame !== null) return;
    if (h.holes && h.holes.length) {
      if (S.view.direction_choice && h.dir) S.dir = h.dir;
      S.hint = h.holes[0];
      S.hintAt = at;
      G.render();
      S.board.focusHole(S.hint);
    }
    note(G, t('game.hint_is', { move: h.move }));
  } catch (err) { toastError(err); }
}

/** Resigns the game (or the whole match), once the player confirmed it. */
async function resign(G) {
  const { S } = G;
  if (!window.confirm(t('game.resign_confirm'))) return;
  try {
    const g = await api('POST', `/api/games/${S.id}/resign`, undefined, S.token);
    S.frame = null;
    S.first = null;
    S.pick = null;
    G.accept(g, null);
  } catch (err) {
    toastError(err);
    if (err.status === 409) G.resync();
  }
}

/** Resigns the round being played of a match, once the player confirmed it. */
async function resignRound(G) {
  const { S } = G;
  // The room says whether giving this round away leaves too few seeds for another.
  const v = S.latest || S.view;
  const side = S.seat === 'south' || S.seat === 'north' ? S.seat : v.state.to_move;
  const ends = v.conceding_ends_match && v.conceding_ends_match[side === 'north' ? 1 : 0];
  if (!window.confirm(t(ends ? 'game.resign_round_confirm_last' : 'game.resign_round_confirm'))) return;
  try {
    const g = await api('POST', `/api/games/${S.id}/resign`, { scope: 'round' }, S.token);
    S.frame = null;
    S.first = null;
    G.accept(g, null);
  } catch (err) {
    toastError(err);
    if (err.status === 409) G.resync();
  }
}

/** Starts the next round of a match. */
export async function nextRound(G) {
  const { S } = G;
  try {
    const g = await api('POST', `/api/games/${S.id}/next-round`, undefined, S.token);
    G.accept(g, null);
    // The new round's board, from the top of the page; the focus on it (its button went).
    window.scrollTo(0, 0);
    G.$('board-wrap').focus({ preventScroll: true });
  } catch (err) { toastError(err); }
}

// Moves the replay `delta` steps; past the last step is the live position.
function step(G, delta) {
  const { S } = G;
  if (!S.view) return;
  const last = S.view.history.length;
  const cur = S.frame === null ? last : S.frame;
  const next = Math.max(0, Math.min(last, cur + delta));
  S.frame = next >= last ? null : next;
  G.render();
}

/** Wires the page's buttons and keys; returns a function that unwires the keys. */
export function bindInput(G) {
  const { S, $ } = G;
  $('undo').addEventListener('click', () => undo(G));
  $('hint').addEventListener('click', () => hint(G));
  $('resign').addEventListener('click', () => resign(G));
  $('resign-round').addEventListener('click', () => resignRound(G));
  $('skip').addEventListener('click', () => skip(S));
  $('speed').addEventListener('change', (e) => { S.speed = e.target.value; localStorage.setItem('hoyito.speed', S.speed); });
  $('first').addEventListener('click', () => { S.frame = 0; G.render(); });
  $('prev').addEventListener('click', () => step(G, -1));
  $('next').addEventListener('click', () => step(G, 1));
  $('live').addEventListener('click', () => { S.frame = null; G.render(); });
  $('moves').addEventListener('click', (e) => {
    const b = e.target.closest('button[data-frame]');
    if (!b) return;
    const k = Number(b.dataset.frame);
    S.frame = k >= S.view.history.length ? null : k;
    G.render();
  });
  for (const b of $('dir').querySelectorAll('button')) {
    b.addEventListener('click', () => pickDir(G, b.dataset.dir));
  }
  // The menu of the rest (flip, speed, download, share, chat): a button opens it on a phone.
  const more = $('more');
  const menu = $('menu');
  const setMenu = (open) => {
    menu.classList.toggle('open', open);
    more.setAttribute('aria-expanded', String(open));
  };
  more.addEventListener('click', () => {
    const open = !menu.classList.contains('open');
    setMenu(open);
    if (open) menu.querySelector('button, select, a')?.focus({ preventScroll: true });
  });
  const onDocClick = (e) => {
    if (menu.classList.contains('open') && !menu.contains(e.target) && !more.contains(e.target)) setMenu(false);
  };
  document.addEventListener('click', onDocClick);
  menu.addEventListener('keydown', (e) => { if (e.key === 'Escape') { setMenu(false); more.focus(); e.stopPropagation(); } });
  $('to-chat').addEventListener('click', () => {
    setMenu(false);
    const chat = $('chat');
    chat.scrollIntoView({ block: 'start' });
    ($('chat-text') || chat).focus?.({ preventScroll: true });
  });

  function onKey(e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const tag = e.target.tagName;
    if (tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA') return;
    const v = S.view;
    if (!v) return;
    const digits = { 1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 7, 8: 8, 9: 9, 0: 10, '-': 11, '=': 12 };
    if (e.key in digits) {
      const k = digits[e.key];
      if (k > holesPerRow(S)) return;
      e.preventDefault();
      const side = isOver(v) ? 'south' : v.state.to_move;
      onHole(G, rowStart(S, side) + k - 1);
    } else if (['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown'].includes(e.key)) {
      // Across the legal holes in the viewer's order: left to right, or
      // top to bottom on an upright board.
      const legal = [...legalHoles(S)];
      if (!legal.length || !S.board) return;
      e.preventDefault();
      legal.sort((a, b) => S.board.order(a) - S.board.order(b));
      const focused = legal.indexOf(Number(document.activeElement?.dataset?.hole));
      const d = e.key === 'ArrowRight' || e.key === 'ArrowDown' ? 1 : -1;
      const next = focused < 0 ? (d > 0 ? 0 : legal.length - 1) : (focused + d + legal.length) % legal.length;
      S.board.focusHole(legal[next]);
    } else if (e.key === 'l' || e.key === 'L' || e.key === 'r' || e.key === 'R') {
      // With a hole picked, L or R plays it that way; else it is the direction previewed.
      if (v.direction_choice && S.pick !== null && S.pick !== undefined) pickDir(G, e.key.toUpperCase());
      else if (v.direction_choice) { S.dir = e.key.toUpperCase(); G.render(); }
    } else if (e.key === 'u' || e.key === 'U') {
      if (!$('undo').hidden && !$('undo').disabled) undo(G);
    } else if (e.key === 'h' || e.key === 'H') {
      if (!$('hint').hidden && canMove(S)) hint(G);
    } else if (e.key === 'Escape') {
      if (S.animating) skip(S);
      else if (S.pick !== null && S.pick !== undefined) closePick(G);
      else if (S.first !== null) { S.first = null; G.render(); }
    } else if (e.key === '[') {
      step(G, -1);
    } else if (e.key === ']') {
      step(G, 1);
    }
  }
  document.addEventListener('keydown', onKey);
  return () => { document.removeEventListener('keydown', onKey); document.removeEventListener('click', onDocClick); };
}
