// A game played on this device: the server's own game room (the Rust crate
// hoyito-room, through the WebAssembly module's `Room`) in place of the
// server. Its steps, their checks, undo, resignation, the view and the
// summary are the room's, so the game page shows and animates a local game
// exactly as a server one; this file adds only what the server adds of its
// own: the game's id, level and creation time, and whether the engine is
// thinking. Steps are tokens, as the server stores them; a game is rebuilt
// by replaying them.

import { Room } from '../wasm/hoyito_wasm.js';

/** An error of a local request, shaped like the server's (status, code). */
export class LocalError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** The room's refusal (an Error with `status` and `code`) as a LocalError. */
function refused(e, prefix = '') {
  if (e instanceof LocalError) return e;
  return new LocalError(e.status || 422, e.code || 'bad_step', `${prefix}${e.message || e}`);
}

/** Calls the room, turning its refusals into LocalErrors. */
function room(fn) {
  try { return fn(); } catch (e) { throw refused(e); }
}

/** What the room is opened with, of a game's `meta`. */
const setup = (meta) => ({ mode: meta.mode, rules: meta.rules, match: !!meta.match, engine_side: meta.engine_side });

/**
 * A local game: `meta` is what was fixed at creation ({id, mode, rules,
 * match, level, engine_side, created_ms}); `room` its WebAssembly room.
 */
export class LocalGame {
  constructor(meta, epoch = 0, tokens = []) {
    this.meta = meta;
    this.room = room(() => new Room(setup(meta), tokens, epoch));
    this.thinking = false;
  }

  /** Rebuilds a game from its stored steps (throws LocalError if one does not replay). */
  static replay(meta, epoch, tokens) { return new LocalGame(meta, epoch, tokens); }

  get seq() { return this.room.seq; }

  get epoch() { return this.room.epoch; }

  /** The stored tokens of every step. */
  tokens() { return this.room.tokens(); }

  /** Whether the game (or the match) is over: played out or stopped. */
  finished() { return this.room.finished(); }

  /** Whether the computer is to move. */
  engineToMove() { return this.room.engineToMove(); }

  /** Throws LocalError unless this device's player may move now. */
  checkTurn() { room(() => this.room.checkTurn(this.thinking)); }

  /** Plays move `token` for this device's player; returns its event. Throws LocalError; then nothing changed. */
  play(token) { return room(() => this.room.play(String(token))); }

  /** What the room is opened with (for the engine's worker). */
  setup() { return setup(this.meta); }

  /** Plays step `token` (a move, `next`, `concede:…`, `resign:…`); returns a move's event. Throws LocalError; then nothing changed. */
  step(token) { return room(() => this.room.step(String(token))); }

  /** Throws LocalError unless this device's player may ask for a hint now. */
  checkHint() { room(() => this.room.checkHint(this.thinking)); }

  /** The step by which the player aborts the game (throws LocalError once both have moved). */
  abortion() { return room(() => this.room.abortion()); }

  /** The step by which the player resigns the round (`round`) or the game. */
  resignation(round) { return room(() => this.room.resignation(!!round)); }

  /** How many steps an undo keeps (throws LocalError if nothing can be undone). */
  undoTarget() { return room(() => this.room.undoTarget()); }

  /** The game after an undo back to its first `keep` steps. */
  undone(keep) {
    const g = Object.create(LocalGame.prototype);
    g.meta = this.meta;
    g.room = room(() => this.room.undone(keep));
    g.thinking = false;
    return g;
  }

  /** The game view, as the server's GameView. */
  view() {
    const m = this.meta;
    return {
      ...this.room.view(this.thinking),
      id: m.id,
      level: m.level,
      seats: { south: true, north: true },
      draw_offer: null,
      takeback_offer: null,
      thinking: this.thinking,
      created_ms: m.created_ms,
      public: false,
      local: true,
    };
  }

  /** The list entry of the Games page, as the server's summary. */
  summary(updatedMs) {
    const m = this.meta;
    return {
      ...this.room.summary(),
      id: m.id, mode: m.mode, rules: m.rules, match: !!m.match,
      created_ms: m.created_ms, updated_ms: updatedMs, local: true,
    };
  }

  /** The game's record (the text `hoyito replay` reads). */
  record() { return this.room.record(); }

  /** Frees the WebAssembly memory of the game. */
  free() { this.room.free(); }
}
