// What the game page knows: the server's view of the game, the seat this
// browser holds, whose turn it is and which holes may be played, the
// replay frames. Pure functions of the state `S`, no drawing.

import { t } from '../i18n.js';
import { sideName } from '../ui.js';

/** A fresh state for game `id`, with the seat this browser holds (or null). */
export function createState(id, stored) {
  return {
    id,
    view: null, // the game as shown (lags `latest` while moves animate)
    latest: null, // the newest game view received
    seat: stored ? stored.seat : null, // 'south', 'north', 'both' or null (watching)
    token: stored ? stored.token : null,
    board: null, // the Board
    queue: [], // received {ev, game} waiting to be shown
    pumping: false,
    animating: false,
    skip: false,
    wake: null, // ends the current animation pause early
    dir: 'L', // chosen sowing direction
    first: null, // first hole picked of a two-hole opening
    pick: null, // the hole picked, waiting for its direction (rules where each move chooses it)
    pickHoles: null, // the holes of the move picked (two in a two-hole opening)
    frame: null, // replay step shown, or null for the live position
    sending: false,
    hint: null, // hinted hole
  endSeen: null, // whether the page has seen the game ended (null: not drawn yet)
  hintAt: null, // the position hinted, `epoch:seq`: a hint goes when it changes
    sowing: null, // the side whose move is being animated
    note: null, // the toast about the state shown: {id, key}
    speed: localStorage.getItem('hoyito.speed') || 'normal',
    captures: new Map(), // holes captured by each move seen live, by `epoch:seq`
  };
}

/** The holes move `ev` captured, from its sowing trace. */
export const capturedHoles = (ev) => ev.trace.events.filter((e) => e[0] === 'c').map((e) => e[1]);

/**
 * The marks of the move that led to `step` (a history entry): the hole(s)
 * it started from, as the server's room gives them, and the holes it captured, when the
 * move was seen live (a reloaded page knows only the tokens).
 */
export function moveMarks(S, step) {
  if (!step || step.kind !== 'move' || !step.holes) return null;
  return { from: step.holes, captured: S.captures.get(`${S.view.epoch}:${step.seq}`) || [] };
}

/**
 * What step `k` of `frames` did beyond its sowing: the seeds its mover
 * captured (the last-four award included), and whether its capture gave
 * the mover another move (the room's `extra_turn`).
 */
export function stepOutcome(frames, k) {
  const s = frames[k].step;
  if (!s || s.kind !== 'move') return { captured: 0, again: false };
  const m = s.side === 'south' ? 0 : 1;
  const captured = s.captured[m] - frames[k - 1].captured[m];
  return { captured, again: !!s.extra_turn };
}

/** Identifies the state shown: a toast about it goes when it changes. */
export const shownKey = (S) => (S.view ? `${S.view.epoch}:${S.view.seq}:${S.frame}:${S.sowing}` : '');

/** Holes per row. */
export const holesPerRow = (S) => S.view.rules.holes;

/** Board index of `side`'s first hole. */
export const rowStart = (S, side) => (side === 'south' ? 0 : holesPerRow(S));

/** Whether this browser plays `side`. */
export const holds = (S, side) => S.seat === 'both' || S.seat === side;

/** Whether the game (or the match) in `v` has ended: played out, or stopped (resigned, aborted, drawn, flagged). */
export const isOver = (v) => v.state.over || !!v.end;

/** Whether the computer is to move in `v` (it is thinking, or about to). */
export const engineToMove = (v) => v.mode === 'engine' && !isOver(v) && v.state.to_move === v.engine_side;

/**
 * Whether `v` says the computer is thinking while it is not its turn: an
 * undo came in during its search, which the server stops but does not
 * announce when it has stopped. Until it has, the server refuses moves.
 */
export const staleThinking = (v) => v.thinking && !engineToMove(v);

const NOTHING = Object.freeze({});

/**
 * What this browser's seat may do now in `v`, as the room decides it (the
 * view's `may`: `move`, `hint`, `undo`, `abort`, `resign`, `resign_round`,
 * `next_round`, `offer_draw`, `accept_draw`, `decline_draw`,
 * `ask_takeback`, `accept_takeback`, `decline_takeback`, `claim`); nothing
 * for a spectator.
 */
export const may = (S, v = S.view) => (v && S.seat && v.may && v.may[S.seat]) || NOTHING;

/** Whether `v` is an online game waiting for its second player. */
export const waitingForOpponent = (v) => v.mode === 'online' && v.status === 'waiting';

/** Whether this browser may move now: the room says so, and the page shows the live position, at rest. */
export function canMove(S) {
  return !!may(S).move && !S.animating && S.frame === null && !S.sending;
}

/** Legal holes (board indices) for the next click. */
export function legalHoles(S) {
  const v = S.view;
  const out = new Set();
  if (!canMove(S)) return out;
  for (const m of v.legal_moves) {
    if (S.first === null) out.add(m.holes[0]);
    else if (m.holes[0] === S.first && m.holes.length > 1) out.add(m.holes[1]);
  }
  return out;
}

/** Whether `side` is the reader (who holds that seat alone; a shared screen has no "you"). */
export const isYou = (S, side) => S.view.mode !== 'hotseat' && S.seat === side;

/** The name shown for `side`. */
export function playerName(S, side) {
  const v = S.view;
  if (v.mode === 'engine' && v.engine_side === side) return t('game.engine', { level: v.level });
  const nick = v.names && v.names[side];
  if (nick) return isYou(S, side) ? `${nick} (${t('game.you')})` : nick;
  if (isYou(S, side)) return v.mode === 'online' ? `${t('game.you')} (${sideName(side)})` : t('game.you');
  if (v.mode === 'online' && S.seat && S.seat !== 'both') return `${t('game.opponent')} (${sideName(side)})`;
  return sideName(side);
}

/**
 * The sentence `key` about `side`: its `key.you` form when `side` is the
 * reader ("You win"), else `key` with the player's name ("North wins").
 */
export const say = (S, key, side, vars = {}) => (isYou(S, side)
  ? t(`${key}.you`, vars)
  : t(key, { ...vars, name: playerName(S, side) }));

/** The replay frames: the start position, then one per stored step. */
export function buildFrames(v) {
  const r0 = v.rounds[0];
  const frames = [{ board: r0.start_board, closed: r0.closed, captured: [0, 0], toMove: r0.starter, label: t('game.start_pos') }];
  for (const s of v.history) {
    const r = v.rounds[s.round - 1];
    frames.push({ board: s.board, closed: r ? r.closed : [], captured: s.captured, toMove: s.to_move, step: s });
  }
  return frames;
}

/**
 * Takes a game view (and the move that led to it, if any) into the queue of
 * things to show, dropping anything older than what is already there.
 * Returns whether the queue changed; a jump (undo, a reconnect after missed
 * moves) empties the queue and asks a running animation to stop.
 */
/**
 * The full view of `game`. A move's answer and WebSocket message are deltas
 * (`history_from` set: only the steps from that index on); the earlier
 * steps come from the last view accepted. null if that view lacks them (a
 * message was missed, or an undo came): the caller fetches the game.
 */
export function complete(S, game) {
  if (game.history_from === undefined || game.history_from === null) return game;
  const cur = S.latest;
  if (!cur || cur.epoch !== game.epoch || cur.history.length < game.history_from) return null;
  const full = { ...game, history: cur.history.slice(0, game.history_from).concat(game.history) };
  delete full.history_from;
  return full;
}

export function accept(S, game, ev) {
  const cur = S.latest;
  if (cur && game.epoch < cur.epoch) return false;
  if (cur && game.epoch === cur.epoch && game.seq < cur.seq) return false;
  if (cur && game.epoch === cur.epoch && game.seq === cur.seq && ev) return false; // a move already seen
  if (ev && cur && game.epoch === cur.epoch && ev.seq === cur.seq + 1) {
    S.latest = game;
    S.queue.push({ ev, game });
    return true;
  }
  const same = cur && game.epoch === cur.epoch && game.seq === cur.seq;
  if (!same) {
    S.queue.length = 0;
    if (S.animating) { S.skip = true; if (S.wake) S.wake(); }
  }
  S.latest = game;
  S.queue.push({ ev: null, game });
  return true;
}
