// A game played on this device: the WebAssembly rules (../wasm/) in place
// of the server, giving the same GameView and MoveEvent shapes as the
// server's (crates/hoyito-server/src/view.rs), so the game page shows and
// animates a local game exactly as a server one. Steps are tokens, as the
// server stores them: a move's token, `next` (the next round of a match)
// `resign:<side>` or `concede:<side>` (a match's round resigned); a game is
// rebuilt by replaying them.

import { Game, Match } from '../wasm/hoyito_wasm.js';

/** The step that starts the next round of a match. */
export const NEXT_ROUND = 'next';
const RESIGN = 'resign:';
const CONCEDE = 'concede:';

/** An error of a local request, shaped like the server's (status, code). */
export class LocalError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

const other = (side) => (side === 'south' ? 'north' : 'south');

/**
 * A local game: `meta` is what was fixed at creation ({id, mode, rules,
 * match, level, engine_side, created_ms}); `steps` the stored step tokens.
 */
export class LocalGame {
  constructor(meta, epoch = 0) {
    this.meta = meta;
    this.epoch = epoch;
    this.play = meta.match ? new Match(meta.rules) : new Game(meta.rules);
    this.steps = []; // StepView objects, as the server's
    this.resigned = null;
    this.thinking = false;
  }

  /** Rebuilds a game from its stored steps (throws LocalError if one does not replay). */
  static replay(meta, epoch, tokens) {
    const g = new LocalGame(meta, epoch);
    tokens.forEach((tok, i) => {
      try {
        if (tok === NEXT_ROUND) g.nextRound();
        else if (tok.startsWith(RESIGN)) g.resign(tok.slice(RESIGN.length));
        else if (tok.startsWith(CONCEDE)) g.concede(tok.slice(CONCEDE.length));
        else g.move(tok);
      } catch (e) {
        throw new LocalError(422, 'bad_step', `step ${i + 1} (${tok}): ${e.message}`);
      }
    });
    return g;
  }

  get seq() { return this.steps.length; }

  /** The stored tokens of every step. */
  tokens() { return this.steps.map((s) => s.token || NEXT_ROUND); }

  /** Whether the game (or the match) is over: played out or resigned. */
  finished() { return this.resigned !== null || this.play.isOver(); }

  /** Whether the computer is to move. */
  engineToMove() {
    const st = this.play.state();
    return this.meta.mode === 'engine' && this.resigned === null && !st.over && st.to_move === this.meta.engine_side;
  }

  #step(kind, side, token) {
    const st = this.play.state();
    this.steps.push({
      seq: this.seq + 1, round: st.round, kind, side, token,
      board: st.board, captured: st.captured, to_move: st.over ? null : st.to_move,
    });
  }

  #checkNotResigned() {
    if (this.resigned !== null) throw new LocalError(409, 'game_over', `the game is over: ${this.resigned} resigned`);
  }

  /** Plays move `token`; returns the MoveEvent. Throws LocalError; then nothing changed. */
  move(token) {
    this.#checkNotResigned();
    let ev;
    try {
      ev = this.play.play(String(token));
    } catch (e) {
      const st = this.play.state();
      if (st.over || this.play.isOver()) throw new LocalError(409, 'game_over', e.message);
      throw new LocalError(422, 'illegal_move', e.message);
    }
    const event = { seq: this.seq + 1, epoch: this.epoch, ...ev };
    this.#step('move', ev.side, ev.token);
    return event;
  }

  /** Whether the current round of a match is over and the next can start. */
  canNextRound() { return this.resigned === null && !!this.meta.match && this.play.canStartNextRound(); }

  /** Starts the next round of a match. */
  nextRound() {
    if (!this.canNextRound()) {
      throw new LocalError(409, 'no_next_round', 'the next round can start only when a round of an unfinished match is over');
    }
    this.play.startNextRound();
    this.#step('round', null, null);
  }

  /** `side` resigns the game (or the whole match). */
  resign(side) {
    this.#checkNotResigned();
    if (side !== 'south' && side !== 'north') throw new LocalError(422, 'bad_step', `${side} is no side`);
    if (this.play.isOver()) throw new LocalError(409, 'game_over', `the ${this.meta.match ? 'match' : 'game'} is over`);
    const st = this.play.state();
    this.resigned = side;
    this.steps.push({
      seq: this.seq + 1, round: st.round, kind: 'resign', side, token: `${RESIGN}${side}`,
      board: st.board, captured: st.captured, to_move: null,
    });
  }

  /**
   * `side` resigns the current round of a match: the seeds in play go to
   * the other side, the round is counted and the match goes on (as the server).
   */
  concede(side) {
    this.#checkNotResigned();
    if (side !== 'south' && side !== 'north') throw new LocalError(422, 'bad_step', `${side} is no side`);
    if (this.play.isOver()) throw new LocalError(409, 'game_over', `the ${this.meta.match ? 'match' : 'game'} is over`);
    if (this.play.state().over) throw new LocalError(409, 'round_over', 'this round is over: start the next round');
    this.play.concede(side);
    this.#step('concede', side, `${CONCEDE}${side}`);
  }

  /**
   * How many steps to keep to undo (as the server): in a game against the
   * computer, back to the human's last move of this round; in hot-seat, one move.
   */
  undoTarget() {
    this.#checkNotResigned();
    if (this.meta.match && this.play.isOver()) throw new LocalError(409, 'game_over', 'the match is over');
    const nothing = () => new LocalError(409, 'nothing_to_undo', 'no move of yours to take back in this round');
    let first = 0;
    this.steps.forEach((s, i) => { if (s.kind === 'round') first = i + 1; });
    let keep = this.steps.length;
    if (this.meta.mode !== 'engine') {
      if (keep > first) return keep - 1;
      throw nothing();
    }
    const human = other(this.meta.engine_side);
    const starter = this.play.rounds()[this.play.rounds().length - 1].starter;
    let removedHuman = false;
    while (keep > first) {
      removedHuman ||= this.steps[keep - 1].side === human;
      keep -= 1;
      const toMove = keep === first ? starter : this.steps[keep - 1].to_move;
      if (removedHuman && toMove === human) return keep;
    }
    throw nothing();
  }

  /** The game view, as the server's GameView. */
  view() {
    const st = this.play.state();
    const finished = this.finished();
    const legal = this.resigned !== null ? [] : this.play.legalMoves();
    let matchResult = null;
    if (this.meta.match) {
      matchResult = this.resigned !== null
        ? { winner: other(this.resigned), rounds: this.play.rounds().length }
        : this.play.matchResult();
    }
    const result = this.resigned !== null ? other(this.resigned) : this.play.result();
    return {
      id: this.meta.id,
      mode: this.meta.mode,
      rules: this.meta.rules,
      match: !!this.meta.match,
      level: this.meta.level,
      engine_side: this.meta.engine_side,
      seats: { south: true, north: true },
      status: result ? 'over' : 'playing',
      end: this.resigned !== null ? 'resign' : (finished ? 'play' : null),
      resigned: this.resigned,
      seq: this.seq,
      epoch: this.epoch,
      round: st.round,
      state: st,
      legal,
      direction_choice: !finished && this.play.directionChoice(),
      opening_pair: legal.some((tk) => tk.includes('+')),
      thinking: this.thinking,
      rounds: this.play.rounds(),
      history: this.steps.map((s) => ({ ...s })),
      match_result: matchResult,
      can_next_round: this.canNextRound(),
      created_ms: this.meta.created_ms,
      local: true,
    };
  }

  /** The list entry of the Games page, as the server's summary. */
  summary(updatedMs) {
    const st = this.play.state();
    const result = this.resigned !== null ? other(this.resigned) : this.play.result();
    return {
      id: this.meta.id, mode: this.meta.mode, rules: this.meta.rules, match: !!this.meta.match,
      status: result ? 'over' : 'playing', result, plies: this.seq,
      score: [st.captured[0] + st.reserve[0], st.captured[1] + st.reserve[1]],
      created_ms: this.meta.created_ms, updated_ms: updatedMs, local: true,
    };
  }

  /** The game's record (the text `hoyito replay` reads). */
  record() { return this.play.record(); }

  /** Frees the WebAssembly memory of the game. */
  free() { this.play.free(); }
}
