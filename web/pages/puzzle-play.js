// A puzzle played on the board, shared by the puzzle page (pages/puzzle.js)
// and the streak (pages/streak.js), with their filters and what they keep
// on the device: the puzzle's position in the
// WebAssembly rules (`Game.fromNotation`), the board drawn across or
// upright as the space allows, with the solver's row nearest the player;
// a click on a legal hole of the solver's is handed to the page as a move
// token (the page judges it); the solution's moves are played one by one,
// the opponent's forced replies after a pause.

import { t } from '../i18n.js';
import { html } from '../html.js';
import { Board } from '../board.js';
import { Game } from '../wasm/hoyito_wasm.js';

/** The variant and board filters of both pages, kept on this device. */
export const FILTER_KEY = 'hoyito.puzzle.filter';

/** The value kept under `key` on this device, or `fallback`. */
export function read(key, fallback) {
  try { return JSON.parse(localStorage.getItem(key)) ?? fallback; } catch { return fallback; }
}
/** Keeps `value` under `key` on this device (not in private mode). */
export function write(key, value) {
  try { localStorage.setItem(key, JSON.stringify(value)); } catch { /* private mode: not kept */ }
}

/** The variant and board filters (the selects `pz-variant`, `pz-holes`), with `extra` links. */
export function filterForm(extra) {
  return html`<form id="pz-filter" class="controls pz-filter">
      <label>${t('new.variant')} <select id="pz-variant"><option value="">${t('puzzle.any')}</option>${['I', 'II', 'III'].map((v) => html`<option value="${v}">Hoyito ${v}</option>`)}</select></label>
      <label>${t('new.holes')} <select id="pz-holes"><option value="">${t('puzzle.any')}</option>${[6, 4].map((n) => html`<option value="${n}">2×${n}</option>`)}</select></label>
      ${extra}
    </form>`;
}

/** The line saying that the puzzles come from the offline pack of `count` puzzles, or nothing (`count` 0). */
export const packNote = (count) => (count ? t('puzzle.from_pack', { count }) : '');

// The least cell of a hole lying across (CSS px), as on the analysis board.
const MIN_CELL = 40;
/** A pause before the opponent's forced reply, so that the player sees it come. */
export const REPLY_MS = 500;

/** The side to move in a puzzle's position: the solver. */
export const solver = (p) => (p.position.split(' ')[1] === 'n' ? 'north' : 'south');
/** A value with its sign (`+8`, `-4`, `0`). */
export const signed = (v) => (v > 0 ? `+${v}` : String(v));

/**
 * The board of a puzzle in `wrap`. `onMove(token)` is called when the
 * player clicks a legal hole of the solver's while the page lets them
 * play (`render({active: true})`) and no reply is pending.
 */
export class PuzzleBoard {
  constructor(wrap, onMove) {
    this.wrap = wrap;
    this.onMove = onMove;
    this.board = null;
    this.game = null;
    this.puzzle = null;
    this.step = 0;
    this.last = null;
    this.busy = false;
    this.active = false;
    this.timer = null;
  }

  /** Sets up puzzle `p` at its start. */
  start(p) {
    this.cancel();
    this.puzzle = p;
    this.step = 0;
    this.last = null;
    if (this.game) this.game.free();
    this.game = Game.fromNotation({ variant: p.variant, holes: p.holes }, p.position);
  }

  /** The solution's move expected now. */
  expected() { return this.puzzle.solution[this.step]; }

  /** Whether the solution has been played to its end. */
  done() { return this.step >= this.puzzle.solution.length; }

  /** Whether the solver is to play the next move of the solution now. */
  solving() { return this.active && !this.busy && this.step % 2 === 0 && !this.done(); }

  /** The board index of the mover's hole of `token` (`3` → South's hole 3). */
  holeOf(token, side = this.game.state().to_move) {
    return (side === 'south' ? 0 : this.puzzle.holes) + Number(/^\d+/.exec(token)[0]) - 1;
  }

  /** The position now, in the notation of docs/NOTATION.md. */
  notation() { return this.game.notation(); }

  /** Draws the position; `active`: the player may play; `hint`: the solution's hole is marked. */
  render({ active = this.active, hint = false } = {}) {
    this.active = active;
    const n = this.puzzle.holes;
    const across = this.wrap.clientWidth / (n + 2) >= MIN_CELL;
    if (!this.board || this.board.n !== n || this.board.vertical === across) {
      this.wrap.replaceChildren();
      this.board = new Board(this.wrap, n, (i) => this.click(i), !across);
    }
    this.board.setFlipped(solver(this.puzzle) === 'north');
    const s = this.game.state();
    const legal = new Set();
    const solving = this.solving() && !s.over;
    if (solving) for (const m of this.game.legalMoves()) legal.add(this.holeOf(m, s.to_move));
    this.board.render({
      board: s.board, closed: s.closed, captured: [s.captured[0], s.captured[1]], legal, focusable: true, last: this.last,
    });
    this.board.clearMarks('hint');
    if (solving && hint) this.board.mark(this.holeOf(this.expected(), s.to_move), 'hint', true);
  }

  click(i) {
    if (!this.solving()) return;
    const s = this.game.state();
    const n = this.puzzle.holes;
    if (s.to_move === 'south' ? i >= n : i < n) return;
    const token = String((i % n) + 1);
    if (this.game.legalMoves().includes(token)) this.onMove(token);
  }

  /** Shakes the hole of the solver's move `token` (a move refused). */
  refuse(token) {
    this.board.flash(this.holeOf(token), 'refused', 400);
  }

  /** Plays `token` for the side to move. */
  play(token) {
    const side = this.game.state().to_move;
    this.game.play(token);
    this.last = { from: [this.holeOf(token, side)], captured: [] };
    this.step += 1;
  }

  /**
   * Plays the solver's move `token` (the solution's), then after a pause
   * the opponent's forced reply, if the solution goes on, and calls
   * `replied(reply)`; draws the board at each.
   */
  advance(token, replied) {
    this.play(token);
    if (this.done()) { this.render(); return; }
    this.busy = true;
    this.render();
    this.timer = setTimeout(() => {
      this.busy = false;
      const reply = this.expected();
      this.play(reply);
      this.render();
      replied(reply);
    }, REPLY_MS);
  }

  /** Plays the rest of the solution, a move at a time; `finished()` after the last. */
  playOut(finished = () => {}) {
    this.cancel();
    this.active = false;
    const step = () => {
      if (this.done()) { this.render(); finished(); return; }
      this.play(this.expected());
      this.render();
      this.timer = setTimeout(step, REPLY_MS);
    };
    step();
  }

  /** Stops a pending reply or replay. */
  cancel() {
    clearTimeout(this.timer);
    this.timer = null;
    this.busy = false;
  }

  /** Frees the WebAssembly game. */
  free() {
    this.cancel();
    if (this.game) this.game.free();
    this.game = null;
  }
}
