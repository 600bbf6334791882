/**
 * A single game.
 */
export class Game {
    static __wrap(ptr) {
        const obj = Object.create(Game.prototype);
        obj.__wbg_ptr = ptr;
        GameFinalization.register(obj, obj.__wbg_ptr, obj);
        return obj;
    }
    __destroy_into_raw() {
        const ptr = this.__wbg_ptr;
        this.__wbg_ptr = 0;
        GameFinalization.unregister(this);
        return ptr;
    }
    free() {
        const ptr = this.__destroy_into_raw();
        wasm.__wbg_game_free(ptr, 0);
    }
    /**
     * Every legal move's score: `{best, score, moves: [{move, score,
     * pv}]}`, best first, scores in seeds from the mover's view.
     * `level` defaults to 10, `timeMs` to the server's 1500.
     * @param {any} options
     * @returns {any}
     */
    analyze(options) {
        const ret = wasm.game_analyze(this.__wbg_ptr, options);
        if (ret[2]) {
            throw takeFromExternrefTable0(ret[1]);
        }
        return takeFromExternrefTable0(ret[0]);
    }
    /**
     * The engine's move (a token) at `level` 1 to 10, null once over.
     * Levels 1–9 stop at their depth; all stop after the server's
     * time limit (1.5 s), or after `timeMs` if given.
     * @param {number} level
     * @param {number | null} [timeMs]
     * @returns {string | undefined}
     */
    bestMove(level, timeMs) {
        const ret = wasm.game_bestMove(this.__wbg_ptr, level, !isLikeNone(timeMs), isLikeNone(timeMs) ? 0 : timeMs);
        if (ret[3]) {
            throw takeFromExternrefTable0(ret[2]);
        }
        let v1;
        if (ret[0] !== 0) {
            v1 = getStringFromWasm0(ret[0], ret[1]);
            wasm.__wbindgen_export3(ret[0], ret[1] * 1, 1);
        }
        return v1;
    }
    /**
     * `side` (`"south"` or `"north"`) concedes the game (in a
     * match: the current round): the seeds in play go to the other
     * side and the game (round) is counted. Throws if it is over.
     * @param {string} side
     */
    concede(side) {
        const ptr0 = passStringToWasm0(side, wasm.__wbindgen_export, wasm.__wbindgen_export2);
        const len0 = WASM_VECTOR_LEN;
        const ret = wasm.game_concede(this.__wbg_ptr, ptr0, len0);
        if (ret[1]) {
            throw takeFromExternrefTable0(ret[0]);
        }
    }
    /**
     * Whether the player to move chooses the sowing direction
     * (legal tokens then end in `L` or `R`).
     * @returns {boolean}
     */
    directionChoice() {
        const ret = wasm.game_directionChoice(this.__wbg_ptr);
        return ret !== 0;
    }
    /**
     * A game from a position in the one-line notation of NOTATION.md
     * (`1,0,3,0/0,2,0,2 s 20-4`) under `options`. Throws an `Error` that
     * says what is wrong with the text or the position.
     * @param {any} options
     * @param {string} text
     * @returns {Game}
     */
    static fromNotation(options, text) {
        const ptr0 = passStringToWasm0(text, wasm.__wbindgen_export, wasm.__wbindgen_export2);
        const len0 = WASM_VECTOR_LEN;
        const ret = wasm.game_fromNotation(options, ptr0, len0);
        if (ret[2]) {
            throw takeFromExternrefTable0(ret[1]);
        }
        return Game.__wrap(ret[0]);
    }
    /**
     * A game from a position under `options`: `setup` is `{board,
     * closed, to_move, captured}` (seeds per hole in index order, South's
     * row first; the closed holes' indices, default none; `"south"` or
     * `"north"`, default South; the seeds South and North captured,
     * default none). Throws an `Error` if the position is not valid (a
     * board of the wrong length, seeds in a closed hole, too many seeds).
     * @param {any} options
     * @param {any} setup
     * @returns {Game}
     */
    static fromSetup(options, setup) {
        const ret = wasm.game_fromSetup(options, setup);
        if (ret[2]) {
            throw takeFromExternrefTable0(ret[1]);
        }
        return Game.__wrap(ret[0]);
    }
    /**
     * Whether the game (a match: the whole match) is over.
     * @returns {boolean}
     */
    isOver() {
        const ret = wasm.game_isOver(this.__wbg_ptr);
        return ret !== 0;
    }
    /**
     * Legal move tokens of the player to move (empty once over).
     * @returns {string[]}
     */
    legalMoves() {
        const ret = wasm.game_legalMoves(this.__wbg_ptr);
        var v1 = getArrayJsValueFromWasm0(ret[0], ret[1]);
        wasm.__wbindgen_export3(ret[0], ret[1] * 4, 4);
        return v1;
    }
    /**
     * A game from the standard start under `options`.
     * @param {any} options
     */
    constructor(options) {
        const ret = wasm.game_new(options);
        if (ret[2]) {
            throw takeFromExternrefTable0(ret[1]);
        }
        this.__wbg_ptr = ret[0];
        GameFinalization.register(this, this.__wbg_ptr, this);
        return this;
    }
    /**
     * The current position's one-line notation.
     * @returns {string}
     */
    notation() {
        let deferred1_0;
        let deferred1_1;
        try {
            const ret = wasm.game_notation(this.__wbg_ptr);
            deferred1_0 = ret[0];
            deferred1_1 = ret[1];
            return getStringFromWasm0(ret[0], ret[1]);
        } finally {
            wasm.__wbindgen_export3(deferred1_0, deferred1_1, 1);
        }
    }
    /**
     * Plays a move token. Returns what the move did (its canonical
     * token, the mover, the board before, the sowing events, seeds
     * captured, extra turn, pass). Throws an `Error` with the
     * reason if the token is unreadable or illegal; then nothing changes.
     * @param {string} token
     * @returns {any}
     */
    play(token) {
        const ptr0 = passStringToWasm0(token, wasm.__wbindgen_export, wasm.__wbindgen_export2);
        const len0 = WASM_VECTOR_LEN;
        const ret = wasm.game_play(this.__wbg_ptr, ptr0, len0);
        if (ret[2]) {
            throw takeFromExternrefTable0(ret[1]);
        }
        return takeFromExternrefTable0(ret[0]);
    }
    /**
     * The record of the game or match (the text `hoyito replay` reads).
     * @returns {string}
     */
    record() {
        let deferred1_0;
        let deferred1_1;
        try {
            const ret = wasm.game_record(this.__wbg_ptr);
            deferred1_0 = ret[0];
            deferred1_1 = ret[1];
            return getStringFromWasm0(ret[0], ret[1]);
        } finally {
            wasm.__wbindgen_export3(deferred1_0, deferred1_1, 1);
        }
    }
    /**
     * `"south"`, `"north"` or `"draw"` once over, else null.
     * @returns {any}
     */
    result() {
        const ret = wasm.game_result(this.__wbg_ptr);
        return ret;
    }
    /**
     * Every round so far: start board, closed holes, starter,
     * reserve, moves, result and score.
     * @returns {any}
     */
    rounds() {
        const ret = wasm.game_rounds(this.__wbg_ptr);
        return ret;
    }
    /**
     * The current position as the JSON state of RULES.md §7.
     * @returns {any}
     */
    state() {
        const ret = wasm.game_state(this.__wbg_ptr);
        return ret;
    }
    /**
     * The current round's move tokens.
     * @returns {string[]}
     */
    tokens() {
        const ret = wasm.game_tokens(this.__wbg_ptr);
        var v1 = getArrayJsValueFromWasm0(ret[0], ret[1]);
        wasm.__wbindgen_export3(ret[0], ret[1] * 4, 4);
        return v1;
    }
    /**
     * Takes back the last move; returns its token (null at the start).
     * @returns {string | undefined}
     */
    undo() {
        const ret = wasm.game_undo(this.__wbg_ptr);
        let v1;
        if (ret[0] !== 0) {
            v1 = getStringFromWasm0(ret[0], ret[1]);
            wasm.__wbindgen_export3(ret[0], ret[1] * 1, 1);
        }
        return v1;
    }
    /**
     * Makes `bestMove` and `analyze` use the endgame tables of
     * `tables` (a `Tables`) for these rules as the engine's oracle,
     * as the server's engine uses its tablebases: where they hold
     * the position, the engine plays perfectly. Shares the loaded
     * tables (no copy), including layers loaded into `tables`
     * before this call only. Returns whether `tables` holds any
     * layer of these rules (if not, the engine searches as before).
     * @param {Tables} tables
     * @returns {boolean}
     */
    useTables(tables) {
        _assertClass(tables, Tables);
        const ret = wasm.game_useTables(this.__wbg_ptr, tables.__wbg_ptr);
        return ret !== 0;
    }
}
if (Symbol.dispose) Game.prototype[Symbol.dispose] = Game.prototype.free;

/**
 * A match of rounds (RULES.md §5).
 */
export class Match {
    __destroy_into_raw() {
        const ptr = this.__wbg_ptr;
        this.__wbg_ptr = 0;
        MatchFinalization.unregister(this);
        return ptr;
    }
    free() {
        const ptr = this.__destroy_into_raw();
        wasm.__wbg_match_free(ptr, 0);
    }
    /**
     * Every legal move's score: `{best, score, moves: [{move, score,
     * pv}]}`, best first, scores in seeds from the mover's view.
     * `level` defaults to 10, `timeMs` to the server's 1500.
     * @param {any} options
     * @returns {any}
     */
    analyze(options) {
        const ret = wasm.match_analyze(this.__wbg_ptr, options);
        if (ret[2]) {
            throw takeFromExternrefTable0(ret[1]);
        }
        return takeFromExternrefTable0(ret[0]);
    }
    /**
     * The engine's move (a token) at `level` 1 to 10, null once over.
     * Levels 1–9 stop at their depth; all stop after the server's
     * time limit (1.5 s), or after `timeMs` if given.
     * @param {number} level
     * @param {number | null} [timeMs]
     * @returns {string | undefined}
     */
    bestMove(level, timeMs) {
        const ret = wasm.match_bestMove(this.__wbg_ptr, level, !isLikeNone(timeMs), isLikeNone(timeMs) ? 0 : timeMs);
        if (ret[3]) {
            throw takeFromExternrefTable0(ret[2]);
        }
        let v1;
        if (ret[0] !== 0) {
            v1 = getStringFromWasm0(ret[0], ret[1]);
            wasm.__wbindgen_export3(ret[0], ret[1] * 1, 1);
        }
        return v1;
    }
    /**
     * Whether the current round is over and the next can start.
     * @returns {boolean}
     */
    canStartNextRound() {
        const ret = wasm.match_canStartNextRound(this.__wbg_ptr);
        return ret !== 0;
    }
    /**
     * `side` (`"south"` or `"north"`) concedes the game (in a
     * match: the current round): the seeds in play go to the other
     * side and the game (round) is counted. Throws if it is over.
     * @param {string} side
     */
    concede(side) {
        const ptr0 = passStringToWasm0(side, wasm.__wbindgen_export, wasm.__wbindgen_export2);
        const len0 = WASM_VECTOR_LEN;
        const ret = wasm.match_concede(this.__wbg_ptr, ptr0, len0);
        if (ret[1]) {
            throw takeFromExternrefTable0(ret[0]);
        }
    }
    /**
     * Whether the player to move chooses the sowing direction
     * (legal tokens then end in `L` or `R`).
     * @returns {boolean}
     */
    directionChoice() {
        const ret = wasm.match_directionChoice(this.__wbg_ptr);
        return ret !== 0;
    }
    /**
     * Whether the game (a match: the whole match) is over.
     * @returns {boolean}
     */
    isOver() {
        const ret = wasm.match_isOver(this.__wbg_ptr);
        return ret !== 0;
    }
    /**
     * Legal move tokens of the player to move (empty once over).
     * @returns {string[]}
     */
    legalMoves() {
        const ret = wasm.match_legalMoves(this.__wbg_ptr);
        var v1 = getArrayJsValueFromWasm0(ret[0], ret[1]);
        wasm.__wbindgen_export3(ret[0], ret[1] * 4, 4);
        return v1;
    }
    /**
     * `{winner, rounds}` once the match is over, else null.
     * @returns {any}
     */
    matchResult() {
        const ret = wasm.match_matchResult(this.__wbg_ptr);
        return ret;
    }
    /**
     * A match under `options`.
     * @param {any} options
     */
    constructor(options) {
        const ret = wasm.match_new(options);
        if (ret[2]) {
            throw takeFromExternrefTable0(ret[1]);
        }
        this.__wbg_ptr = ret[0];
        MatchFinalization.register(this, this.__wbg_ptr, this);
        return this;
    }
    /**
     * The current position's one-line notation.
     * @returns {string}
     */
    notation() {
        let deferred1_0;
        let deferred1_1;
        try {
            const ret = wasm.match_notation(this.__wbg_ptr);
            deferred1_0 = ret[0];
            deferred1_1 = ret[1];
            return getStringFromWasm0(ret[0], ret[1]);
        } finally {
            wasm.__wbindgen_export3(deferred1_0, deferred1_1, 1);
        }
    }
    /**
     * Plays a move token. Returns what the move did (its canonical
     * token, the mover, the board before, the sowing events, seeds
     * captured, extra turn, pass). Throws an `Error` with the
     * reason if the token is unreadable or illegal; then nothing changes.
     * @param {string} token
     * @returns {any}
     */
    play(token) {
        const ptr0 = passStringToWasm0(token, wasm.__wbindgen_export, wasm.__wbindgen_export2);
        const len0 = WASM_VECTOR_LEN;
        const ret = wasm.match_play(this.__wbg_ptr, ptr0, len0);
        if (ret[2]) {
            throw takeFromExternrefTable0(ret[1]);
        }
        return takeFromExternrefTable0(ret[0]);
    }
    /**
     * The record of the game or match (the text `hoyito replay` reads).
     * @returns {string}
     */
    record() {
        let deferred1_0;
        let deferred1_1;
        try {
            const ret = wasm.match_record(this.__wbg_ptr);
            deferred1_0 = ret[0];
            deferred1_1 = ret[1];
            return getStringFromWasm0(ret[0], ret[1]);
        } finally {
            wasm.__wbindgen_export3(deferred1_0, deferred1_1, 1);
        }
    }
    /**
     * `"south"`, `"north"` or `"draw"` once over, else null.
     * @returns {any}
     */
    result() {
        const ret = wasm.match_result(this.__wbg_ptr);
        return ret;
    }
    /**
     * The current round, from 1.
     * @returns {number}
     */
    round() {
        const ret = wasm.match_round(this.__wbg_ptr);
        return ret >>> 0;
    }
    /**
     * Every round so far: start board, closed holes, starter,
     * reserve, moves, result and score.
     * @returns {any}
     */
    rounds() {
        const ret = wasm.match_rounds(this.__wbg_ptr);
        return ret;
    }
    /**
     * Starts the next round (refills, closed holes, reserves, who starts).
     * Throws if the round goes on or the match is over.
     */
    startNextRound() {
        const ret = wasm.match_startNextRound(this.__wbg_ptr);
        if (ret[1]) {
            throw takeFromExternrefTable0(ret[0]);
        }
    }
    /**
     * The current position as the JSON state of RULES.md §7.
     * @returns {any}
     */
    state() {
        const ret = wasm.match_state(this.__wbg_ptr);
        return ret;
    }
    /**
     * The current round's move tokens.
     * @returns {string[]}
     */
    tokens() {
        const ret = wasm.match_tokens(this.__wbg_ptr);
        var v1 = getArrayJsValueFromWasm0(ret[0], ret[1]);
        wasm.__wbindgen_export3(ret[0], ret[1] * 4, 4);
        return v1;
    }
    /**
     * Makes `bestMove` and `analyze` use the endgame tables of
     * `tables` (a `Tables`) for these rules as the engine's oracle,
     * as the server's engine uses its tablebases: where they hold
     * the position, the engine plays perfectly. Shares the loaded
     * tables (no copy), including layers loaded into `tables`
     * before this call only. Returns whether `tables` holds any
     * layer of these rules (if not, the engine searches as before).
     * @param {Tables} tables
     * @returns {boolean}
     */
    useTables(tables) {
        _assertClass(tables, Tables);
        const ret = wasm.match_useTables(this.__wbg_ptr, tables.__wbg_ptr);
        return ret !== 0;
    }
}
if (Symbol.dispose) Match.prototype[Symbol.dispose] = Match.prototype.free;

/**
 * A game or a match on this device, played step by step as the server
 * plays its games.
 */
export class Room {
    static __wrap(ptr) {
        const obj = Object.create(Room.prototype);
        obj.__wbg_ptr = ptr;
        RoomFinalization.register(obj, obj.__wbg_ptr, obj);
        return obj;
    }
    __destroy_into_raw() {
        const ptr = this.__wbg_ptr;
        this.__wbg_ptr = 0;
        RoomFinalization.unregister(this);
        return ptr;
    }
    free() {
        const ptr = this.__destroy_into_raw();
        wasm.__wbg_room_free(ptr, 0);
    }
    /**
     * The step by which this device's player aborts the game (in
     * hot-seat the player to move), before both players have moved.
     * Checked, not applied: apply it with `step`. Throws
     * (`too_late_to_abort`, `game_over`) if it cannot be aborted.
     * @returns {string}
     */
    abortion() {
        let deferred2_0;
        let deferred2_1;
        try {
            const ret = wasm.room_abortion(this.__wbg_ptr);
            var ptr1 = ret[0];
            var len1 = ret[1];
            if (ret[3]) {
                ptr1 = 0; len1 = 0;
                throw takeFromExternrefTable0(ret[2]);
            }
            deferred2_0 = ptr1;
            deferred2_1 = len1;
            return getStringFromWasm0(ptr1, len1);
        } finally {
            wasm.__wbindgen_export3(deferred2_0, deferred2_1, 1);
        }
    }
    /**
     * The engine's move (a token) at `level` 1 to 10 in the current
     * position, null once the round is over; within the server's time
     * limit (1.5 s), or `timeMs`; with the tables of `useTables`.
     * @param {number} level
     * @param {number | null} [timeMs]
     * @returns {string | undefined}
     */
    bestMove(level, timeMs) {
        const ret = wasm.room_bestMove(this.__wbg_ptr, level, !isLikeNone(timeMs), isLikeNone(timeMs) ? 0 : timeMs);
        if (ret[3]) {
            throw takeFromExternrefTable0(ret[2]);
        }
        let v1;
        if (ret[0] !== 0) {
            v1 = getStringFromWasm0(ret[0], ret[1]);
            wasm.__wbindgen_export3(ret[0], ret[1] * 1, 1);
        }
        return v1;
    }
    /**
     * Throws (`hint_unavailable`, `not_your_turn`, `round_over`,
     * `game_over`) unless this device's player may ask for a hint now;
     * `thinking`: the engine is searching.
     * @param {boolean | null} [thinking]
     */
    checkHint(thinking) {
        const ret = wasm.room_checkHint(this.__wbg_ptr, isLikeNone(thinking) ? 0xFFFFFF : thinking ? 1 : 0);
        if (ret[1]) {
            throw takeFromExternrefTable0(ret[0]);
        }
    }
    /**
     * Throws (`not_your_turn`, `round_over`, `game_over`) unless this
     * device's player may move now; `thinking`: the engine is searching.
     * @param {boolean | null} [thinking]
     */
    checkTurn(thinking) {
        const ret = wasm.room_checkTurn(this.__wbg_ptr, isLikeNone(thinking) ? 0xFFFFFF : thinking ? 1 : 0);
        if (ret[1]) {
            throw takeFromExternrefTable0(ret[0]);
        }
    }
    /**
     * Whether the engine is to move.
     * @returns {boolean}
     */
    engineToMove() {
        const ret = wasm.room_engineToMove(this.__wbg_ptr);
        return ret !== 0;
    }
    /**
     * Undos so far.
     * @returns {number}
     */
    get epoch() {
        const ret = wasm.room_epoch(this.__wbg_ptr);
        return ret;
    }
    /**
     * Whether the game (or the match) is over: played out or stopped.
     * @returns {boolean}
     */
    finished() {
        const ret = wasm.room_finished(this.__wbg_ptr);
        return ret !== 0;
    }
    /**
     * A room opened with `setup` (`{mode: "engine" | "hotseat", rules,
     * match, engine_side}`, `rules` as `new Game` takes them), replaying
     * `steps` (its stored step tokens) after `epoch` undos. Throws an
     * `Error` with `code` and `status` if a step does not replay.
     * @param {any} setup
     * @param {string[] | null} [steps]
     * @param {number | null} [epoch]
     */
    constructor(setup, steps, epoch) {
        const val2 = +(isLikeNone(epoch) ? 0 : epoch);
        var ptr0 = isLikeNone(steps) ? 0 : passArrayJsValueToWasm0(steps, wasm.__wbindgen_export);
        var len0 = WASM_VECTOR_LEN;
        const ret = wasm.room_new(setup, ptr0, len0, !isLikeNone(epoch), val2);
        if (ret[2]) {
            throw takeFromExternrefTable0(ret[1]);
        }
        this.__wbg_ptr = ret[0];
        RoomFinalization.register(this, this.__wbg_ptr, this);
        return this;
    }
    /**
     * Plays move `token` for this device's player (a move only; see
     * `checkTurn`). Returns its event; throws (`code`, `status`) and
     * changes nothing if refused.
     * @param {string} token
     * @returns {any}
     */
    play(token) {
        const ptr0 = passStringToWasm0(token, wasm.__wbindgen_export, wasm.__wbindgen_export2);
        const len0 = WASM_VECTOR_LEN;
        const ret = wasm.room_play(this.__wbg_ptr, ptr0, len0);
        if (ret[2]) {
            throw takeFromExternrefTable0(ret[1]);
        }
        return takeFromExternrefTable0(ret[0]);
    }
    /**
     * The record of the game or match (the text `hoyito replay` reads).
     * @returns {string}
     */
    record() {
        let deferred1_0;
        let deferred1_1;
        try {
            const ret = wasm.room_record(this.__wbg_ptr);
            deferred1_0 = ret[0];
            deferred1_1 = ret[1];
            return getStringFromWasm0(ret[0], ret[1]);
        } finally {
            wasm.__wbindgen_export3(deferred1_0, deferred1_1, 1);
        }
    }
    /**
     * The step by which this device's player resigns (in hot-seat the
     * player to move): the round of a match with `round`, else the game
     * or the match. Checked, not applied: apply it with `step`.
     * @param {boolean} round
     * @returns {string}
     */
    resignation(round) {
        let deferred2_0;
        let deferred2_1;
        try {
            const ret = wasm.room_resignation(this.__wbg_ptr, round);
            var ptr1 = ret[0];
            var len1 = ret[1];
            if (ret[3]) {
                ptr1 = 0; len1 = 0;
                throw takeFromExternrefTable0(ret[2]);
            }
            deferred2_0 = ptr1;
            deferred2_1 = len1;
            return getStringFromWasm0(ptr1, len1);
        } finally {
            wasm.__wbindgen_export3(deferred2_0, deferred2_1, 1);
        }
    }
    /**
     * Steps so far.
     * @returns {number}
     */
    get seq() {
        const ret = wasm.room_seq(this.__wbg_ptr);
        return ret;
    }
    /**
     * Checks and applies one step: a move token, `next` (the next round
     * of a match), `concede:<side>` or `resign:<side>`. Returns a move's
     * event (`{seq, epoch, round, side, token, board_before,
     * captured_before, trace, captured, extra_turn, passed}`), null for
     * the others. Throws (`code`, `status`) and changes nothing if refused.
     * @param {string} token
     * @returns {any}
     */
    step(token) {
        const ptr0 = passStringToWasm0(token, wasm.__wbindgen_export, wasm.__wbindgen_export2);
        const len0 = WASM_VECTOR_LEN;
        const ret = wasm.room_step(this.__wbg_ptr, ptr0, len0);
        if (ret[2]) {
            throw takeFromExternrefTable0(ret[1]);
        }
        return takeFromExternrefTable0(ret[0]);
    }
    /**
     * The room in one line: `{status, seq, result, score, to_move}`.
     * @returns {any}
     */
    summary() {
        const ret = wasm.room_summary(this.__wbg_ptr);
        return ret;
    }
    /**
     * Every step's token, as stored.
     * @returns {string[]}
     */
    tokens() {
        const ret = wasm.room_tokens(this.__wbg_ptr);
        var v1 = getArrayJsValueFromWasm0(ret[0], ret[1]);
        wasm.__wbindgen_export3(ret[0], ret[1] * 4, 4);
        return v1;
    }
    /**
     * How many steps an undo keeps: against the engine, back to the
     * player's last move of this round; in hot-seat, one move. Throws
     * (`nothing_to_undo`, `game_over`) if there is nothing to undo.
     * @returns {number}
     */
    undoTarget() {
        const ret = wasm.room_undoTarget(this.__wbg_ptr);
        if (ret[2]) {
            throw takeFromExternrefTable0(ret[1]);
        }
        return ret[0];
    }
    /**
     * The room after an undo back to its first `keep` steps (one undo more).
     * @param {number} keep
     * @returns {Room}
     */
    undone(keep) {
        const ret = wasm.room_undone(this.__wbg_ptr, keep);
        if (ret[2]) {
            throw takeFromExternrefTable0(ret[1]);
        }
        return Room.__wrap(ret[0]);
    }
    /**
     * Makes `bestMove` use the endgame tables of `tables` (a `Tables`) for
     * the room's rules as the engine's oracle, as `Game.useTables`.
     * Returns whether `tables` holds any layer of these rules.
     * @param {Tables} tables
     * @returns {boolean}
     */
    useTables(tables) {
        _assertClass(tables, Tables);
        const ret = wasm.room_useTables(this.__wbg_ptr, tables.__wbg_ptr);
        return ret !== 0;
    }
    /**
     * The room's view, as the server's game view has it (mode, rules,
     * match, status, end, result, position, legal moves, rounds,
     * history…, and `may`: what this device's player may do now);
     * `thinking`: the engine is searching (its move, or until an undo
     * stops it), so nobody may move.
     * @param {boolean | null} [thinking]
     * @returns {any}
     */
    view(thinking) {
        const ret = wasm.room_view(this.__wbg_ptr, isLikeNone(thinking) ? 0xFFFFFF : thinking ? 1 : 0);
        return ret;
    }
}
if (Symbol.dispose) Room.prototype[Symbol.dispose] = Room.prototype.free;

/**
 * Endgame tables on this device (`new Tables()`).
 */
export class Tables {
    __destroy_into_raw() {
        const ptr = this.__wbg_ptr;
        this.__wbg_ptr = 0;
        TablesFinalization.unregister(this);
        return ptr;
    }
    free() {
        const ptr = this.__destroy_into_raw();
        wasm.__wbg_tables_free(ptr, 0);
    }
    /**
     * The layers loaded for the rules `options`: seeds in play, ascending.
     * @param {any} options
     * @returns {Uint32Array}
     */
    layers(options) {
        const ret = wasm.tables_layers(this.__wbg_ptr, options);
        if (ret[3]) {
            throw takeFromExternrefTable0(ret[2]);
        }
        var v1 = getArrayU32FromWasm0(ret[0], ret[1]).slice();
        wasm.__wbindgen_export3(ret[0], ret[1] * 4, 4);
        return v1;
    }
    /**
     * Loads layer `seeds` of the rules `options` (`{variant, holes}`)
     * from the bytes of its compact file (a `Uint8Array`, as `GET
     * /api/tables` lists them). Throws an `Error` if the bytes are not
     * that layer's file (another layer's or rule set's, cut short,
     * corrupt) or the rules are not covered.
     * @param {any} options
     * @param {number} seeds
     * @param {Uint8Array | number[]} bytes
     */
    load(options, seeds, bytes) {
        const val2 = +seeds;
        const ptr0 = passArray8ToWasm0(bytes, wasm.__wbindgen_export);
        const len0 = WASM_VECTOR_LEN;
        const ret = wasm.tables_load(this.__wbg_ptr, options, val2, ptr0, len0);
        if (ret[1]) {
            throw takeFromExternrefTable0(ret[0]);
        }
    }
    /**
     * No tables yet.
     */
    constructor() {
        const ret = wasm.tables_new();
        this.__wbg_ptr = ret;
        TablesFinalization.register(this, this.__wbg_ptr, this);
        return this;
    }
    /**
     * The exact values of `position` (the one-line notation, as
     * `Game.notation()` writes it) under the rules `options`: `{value,
     * moves: [{move, value}], seeds, proved: "tables"}` as `GET
     * /api/tablebase` answers, or `null` if the loaded tables do not hold
     * it. Throws an `Error` for invalid options or notation.
     * @param {any} options
     * @param {string} position
     * @returns {any}
     */
    probe(options, position) {
        const ptr0 = passStringToWasm0(position, wasm.__wbindgen_export, wasm.__wbindgen_export2);
        const len0 = WASM_VECTOR_LEN;
        const ret = wasm.tables_probe(this.__wbg_ptr, options, ptr0, len0);
        if (ret[2]) {
            throw takeFromExternrefTable0(ret[1]);
        }
        return takeFromExternrefTable0(ret[0]);
    }
}
if (Symbol.dispose) Tables.prototype[Symbol.dispose] = Tables.prototype.free;

/**
 * What the engine does in a game, as on the server: `{levels, move_ms,
 * hint_level, hint_ms}` — the levels are 1 to `levels`; the engine thinks
 * at most `move_ms` about a move of a game; a hint is searched at level
 * `hint_level` at least (the game's own, if higher) for at most `hint_ms`.
 * @returns {any}
 */
export function engineLimits() {
    const ret = wasm.engineLimits();
    return ret;
}

/**
 * `n` uniformly random games from the start under `options`, from a
 * generator seeded with `seed` as `hoyito bench --seed` does: `{games,
 * plies, south_wins, north_wins, draws}`.
 * @param {number} n
 * @param {any} options
 * @param {number} seed
 * @returns {any}
 */
export function randomPlayouts(n, options, seed) {
    const ret = wasm.randomPlayouts(n, options, seed);
    if (ret[2]) {
        throw takeFromExternrefTable0(ret[1]);
    }
    return takeFromExternrefTable0(ret[0]);
}

/**
 * `rulesOptions()`: the rules options as the core's table describes them
 * (an array of `{name, tag, flag, type, values | min, max, default,
 * section, meaning}`, in order).
 * @returns {any}
 */
export function rulesOptions() {
    const ret = wasm.rulesOptions();
    return ret;
}
function __wbg_get_imports() {
    const import0 = {
        __proto__: null,
        __wbg_Error_208446807d0d1e30: function(arg0, arg1) {
            const ret = Error(getStringFromWasm0(arg0, arg1));
            return ret;
        },
        __wbg___wbindgen_debug_string_f249a2a76caa9a55: function(arg0, arg1) {
            const ret = debugString(arg1);
            const ptr1 = passStringToWasm0(ret, wasm.__wbindgen_export, wasm.__wbindgen_export2);
            const len1 = WASM_VECTOR_LEN;
            getDataViewMemory0().setInt32((arg0 >>> 0) + 4 * 1, len1, true);
            getDataViewMemory0().setInt32((arg0 >>> 0) + 4 * 0, ptr1, true);
        },
        __wbg___wbindgen_is_null_c22311b1cc228e3a: function(arg0) {
            const ret = arg0 === null;
            return ret;
        },
        __wbg___wbindgen_is_undefined_be5b34249ff1fc15: function(arg0) {
            const ret = arg0 === undefined;
            return ret;
        },
        __wbg___wbindgen_string_get_7ce8eee7fd327545: function(arg0, arg1) {
            const obj = arg1;
            const ret = typeof(obj) === 'string' ? obj : undefined;
            var ptr1 = isLikeNone(ret) ? 0 : passStringToWasm0(ret, wasm.__wbindgen_export, wasm.__wbindgen_export2);
            var len1 = WASM_VECTOR_LEN;
            getDataViewMemory0().setInt32((arg0 >>> 0) + 4 * 1, len1, true);
            getDataViewMemory0().setInt32((arg0 >>> 0) + 4 * 0, ptr1, true);
        },
        __wbg___wbindgen_throw_4c88d8bf264fd984: function(arg0, arg1) {
            throw new Error(getStringFromWasm0(arg0, arg1));
        },
        __wbg_getRandomValues_5d8c030b527203a6: function() { return handleError(function (arg0, arg1) {
            globalThis.crypto.getRandomValues(getArrayU8FromWasm0(arg0, arg1));
        }, arguments); },
        __wbg_new_787b9fb330d55d78: function(arg0, arg1) {
            const ret = new Error(getStringFromWasm0(arg0, arg1));
            return ret;
        },
        __wbg_now_e7c6795a7f81e10f: function(arg0) {
            const ret = arg0.now();
            return ret;
        },
        __wbg_parse_c3f72b5a24f83c01: function() { return handleError(function (arg0, arg1) {
            const ret = JSON.parse(getStringFromWasm0(arg0, arg1));
            return ret;
        }, arguments); },
        __wbg_performance_7e4e4494fdc9d07a: function(arg0) {
            const ret = arg0.performance;
            return ret;
        },
        __wbg_set_2793479888329cb6: function() { return handleError(function (arg0, arg1, arg2) {
            const ret = Reflect.set(arg0, arg1, arg2);
            return ret;
        }, arguments); },
        __wbg_static_accessor_GLOBAL_THIS_003ee833af9699fc: function() {
            const ret = typeof globalThis === 'undefined' ? undefined : globalThis;
            return isLikeNone(ret) ? 0 : addToExternrefTable0(ret);
        },
        __wbg_static_accessor_GLOBAL_e4293fb22cbe77da: function() {
            const ret = typeof global === 'undefined' ? undefined : global;
            return isLikeNone(ret) ? 0 : addToExternrefTable0(ret);
        },
        __wbg_static_accessor_SELF_53bb20457401453d: function() {
            const ret = typeof self === 'undefined' ? undefined : self;
            return isLikeNone(ret) ? 0 : addToExternrefTable0(ret);
        },
        __wbg_static_accessor_WINDOW_b5e0810bfecb7feb: function() {
            const ret = typeof window === 'undefined' ? undefined : window;
            return isLikeNone(ret) ? 0 : addToExternrefTable0(ret);
        },
        __wbg_stringify_0a0fbf2ef722380a: function() { return handleError(function (arg0) {
            const ret = JSON.stringify(arg0);
            return ret;
        }, arguments); },
        __wbindgen_generic_0000000000000001: function(arg0) {
            // Cast intrinsic for `F64 -> Externref`.
            const ret = arg0;
            return ret;
        },
        __wbindgen_generic_0000000000000002: function(arg0, arg1) {
            // Cast intrinsic for `Ref(String) -> Externref`.
            const ret = getStringFromWasm0(arg0, arg1);
            return ret;
        },
        __wbindgen_init_externref_table: function() {
            const table = wasm.__wbindgen_externrefs;
            table.set(0, undefined);
            table.set(1024, undefined);
            table.set(1025, null);
            table.set(1026, true);
            table.set(1027, false);
        },
    };
    return {
        __proto__: null,
        "./hoyito_wasm_bg.js": import0,
    };
}

const GameFinalization = (typeof FinalizationRegistry === 'undefined')
    ? { register: () => {}, unregister: () => {} }
    : new FinalizationRegistry(ptr => wasm.__wbg_game_free(ptr, 1));
const MatchFinalization = (typeof FinalizationRegistry === 'undefined')
    ? { register: () => {}, unregister: () => {} }
    : new FinalizationRegistry(ptr => wasm.__wbg_match_free(ptr, 1));
const RoomFinalization = (typeof FinalizationRegistry === 'undefined')
    ? { register: () => {}, unregister: () => {} }
    : new FinalizationRegistry(ptr => wasm.__wbg_room_free(ptr, 1));
const TablesFinalization = (typeof FinalizationRegistry === 'undefined')
    ? { register: () => {}, unregister: () => {} }
    : new FinalizationRegistry(ptr => wasm.__wbg_tables_free(ptr, 1));

function addToExternrefTable0(obj) {
    const idx = wasm.__wbindgen_export5();
    wasm.__wbindgen_externrefs.set(idx, obj);
    return idx;
}

function _assertClass(instance, klass) {
    if (!(instance instanceof klass)) {
        throw new Error(`expected instance of ${klass.name}`);
    }
}

function debugString(val) {
    switch (typeof val) {
        // primitive types
        case 'number':
        case 'boolean':
        case 'undefined':
        return `${val}`;
        case 'string':
        return JSON.stringify(val);
        case 'bigint':
        return `${val}n`;
        case 'symbol':
        return val.description !== undefined
            ? `Symbol(${val.description})`
            : 'Symbol';
        case 'function':
        return typeof val.name === 'string' && val.name !== ''
            ? `Function(${val.name})`
            : 'Function';
        case 'object': {
            if (val === null) {
                return 'null';
            }
            // objects
            if (Array.isArray(val)) {
                return '[' + Array.from(val, debugString).join(', ') + ']';
            }
            // errors
            if (val instanceof Error) {
                return `${val.name}: ${val.message}\n${val.stack}`;
            }

            const toStringOutput = toString.call(val);
            // Test for built-in
            const className = /\[object ([^\]]+)\]/.exec(toStringOutput)?.[1];

            // Failed to match the standard '[object ClassName]'
            if (className === undefined) {
                return toStringOutput;
            }
            if (className === 'Object') {
                // we're a user defined class or Object
                // JSON.stringify avoids problems with cycles, and is generally much
                // easier than looping through ownProperties of `val`.
                try {
                    return 'Object(' + JSON.stringify(val) + ')';
                } catch (_) {
                    return 'Object';
                }
            }
            // TODO we could test for more things here, like `Set`s and `Map`s.
            return className;
        }
        // Per MDN: 'This list of values is exhaustive.'
        // https://developer.mozilla.org/en-US/docs/Web/JavaScript/Reference/Operators/typeof#description
    }
}

function getArrayJsValueFromWasm0(ptr, len) {
    ptr = ptr >>> 0;
    const mem = getDataViewMemory0();
    const result = [];
    for (let i = ptr; i < ptr + 4 * len; i += 4) {
        result.push(wasm.__wbindgen_externrefs.get(mem.getUint32(i, true)));
    }
    wasm.__wbindgen_export7(ptr, len);
    return result;
}

function getArrayU32FromWasm0(ptr, len) {
    ptr = ptr >>> 0;
    return getUint32ArrayMemory0().subarray(ptr / 4, ptr / 4 + len);
}

function getArrayU8FromWasm0(ptr, len) {
    ptr = ptr >>> 0;
    return getUint8ArrayMemory0().subarray(ptr / 1, ptr / 1 + len);
}

let cachedDataViewMemory0 = null;
function getDataViewMemory0() {
    if (cachedDataViewMemory0 === null || cachedDataViewMemory0.buffer.detached === true || (cachedDataViewMemory0.buffer.detached === undefined && cachedDataViewMemory0.buffer !== wasm.memory.buffer)) {
        cachedDataViewMemory0 = new DataView(wasm.memory.buffer);
    }
    return cachedDataViewMemory0;
}

function getStringFromWasm0(ptr, len) {
    ptr = ptr >>> 0;
    return decodeText(getUint8ArrayMemory0().subarray(ptr, ptr + len));
}

let cachedUint32ArrayMemory0 = null;
function getUint32ArrayMemory0() {
    if (cachedUint32ArrayMemory0 === null || cachedUint32ArrayMemory0.byteLength === 0) {
        cachedUint32ArrayMemory0 = new Uint32Array(wasm.memory.buffer);
    }
    return cachedUint32ArrayMemory0;
}

let cachedUint8ArrayMemory0 = null;
function getUint8ArrayMemory0() {
    if (cachedUint8ArrayMemory0 === null || cachedUint8ArrayMemory0.byteLength === 0) {
        cachedUint8ArrayMemory0 = new Uint8Array(wasm.memory.buffer);
    }
    return cachedUint8ArrayMemory0;
}

function handleError(f, args) {
    try {
        return f.apply(this, args);
    } catch (e) {
        const idx = addToExternrefTable0(e);
        wasm.__wbindgen_export4(idx);
    }
}

function isLikeNone(x) {
    return x === undefined || x === null;
}

function passArray8ToWasm0(arg, malloc) {
    const ptr = malloc(arg.length * 1, 1) >>> 0;
    getUint8ArrayMemory0().set(arg, ptr / 1);
    WASM_VECTOR_LEN = arg.length;
    return ptr;
}

function passArrayJsValueToWasm0(array, malloc) {
    const ptr = malloc(array.length * 4, 4) >>> 0;
    for (let i = 0; i < array.length; i++) {
        const add = addToExternrefTable0(array[i]);
        getDataViewMemory0().setUint32(ptr + 4 * i, add, true);
    }
    WASM_VECTOR_LEN = array.length;
    return ptr;
}

function passStringToWasm0(arg, malloc, realloc) {
    if (realloc === undefined) {
        const buf = cachedTextEncoder.encode(arg);
        const ptr = malloc(buf.length, 1) >>> 0;
        getUint8ArrayMemory0().subarray(ptr, ptr + buf.length).set(buf);
        WASM_VECTOR_LEN = buf.length;
        return ptr;
    }

    let len = arg.length;
    let ptr = malloc(len, 1) >>> 0;

    const mem = getUint8ArrayMemory0();

    let offset = 0;

    for (; offset < len; offset++) {
        const code = arg.charCodeAt(offset);
        if (code > 0x7F) break;
        mem[ptr + offset] = code;
    }
    if (offset !== len) {
        if (offset !== 0) {
            arg = arg.slice(offset);
        }
        ptr = realloc(ptr, len, len = offset + arg.length * 3, 1) >>> 0;
        const view = getUint8ArrayMemory0().subarray(ptr + offset, ptr + len);
        const ret = cachedTextEncoder.encodeInto(arg, view);

        offset += ret.written;
        ptr = realloc(ptr, len, offset, 1) >>> 0;
    }

    WASM_VECTOR_LEN = offset;
    return ptr;
}

function takeFromExternrefTable0(idx) {
    const value = wasm.__wbindgen_externrefs.get(idx);
    wasm.__wbindgen_export6(idx);
    return value;
}

let cachedTextDecoder = new TextDecoder('utf-8', { ignoreBOM: true });
cachedTextDecoder.decode();
const MAX_SAFARI_DECODE_BYTES = 2146435072;
let numBytesDecoded = 0;
function decodeText(bytes) {
    numBytesDecoded += bytes.length;
    if (numBytesDecoded >= MAX_SAFARI_DECODE_BYTES) {
        cachedTextDecoder = new TextDecoder('utf-8', { ignoreBOM: true });
        cachedTextDecoder.decode();
        numBytesDecoded = bytes.length;
    }
    return cachedTextDecoder.decode(bytes);
}

const cachedTextEncoder = new TextEncoder();

if (!('encodeInto' in cachedTextEncoder)) {
    cachedTextEncoder.encodeInto = function (arg, view) {
        const buf = cachedTextEncoder.encode(arg);
        view.set(buf);
        return {
            read: arg.length,
            written: buf.length
        };
    };
}

let WASM_VECTOR_LEN = 0;

let wasmModule, wasmInstance, wasm;
function __wbg_finalize_init(instance, module) {
    wasmInstance = instance;
    wasm = instance.exports;
    wasmModule = module;
    cachedDataViewMemory0 = null;
    cachedUint32ArrayMemory0 = null;
    cachedUint8ArrayMemory0 = null;
    wasm.__wbindgen_start();
    return wasm;
}

async function __wbg_load(module, imports) {
    if (typeof Response === 'function' && module instanceof Response) {
        if (!module.ok) {
            throw new Error(`failed to fetch Wasm: ${module.status} ${module.statusText} fetching '${module.url}'`);
        }

        if (typeof WebAssembly.instantiateStreaming === 'function') {
            try {
                return await WebAssembly.instantiateStreaming(module, imports);
            } catch (e) {
                const validResponse = expectedResponseType(module.type);

                if (validResponse && module.headers.get('Content-Type') !== 'application/wasm') {
                    console.warn("`WebAssembly.instantiateStreaming` failed because your server does not serve Wasm with `application/wasm` MIME type. Falling back to `WebAssembly.instantiate` which is slower. Original error:\n", e);

                } else { throw e; }
            }
        }

        const bytes = await module.arrayBuffer();
        return await WebAssembly.instantiate(bytes, imports);
    } else {
        const instance = await WebAssembly.instantiate(module, imports);

        if (instance instanceof WebAssembly.Instance) {
            return { instance, module };
        } else {
            return instance;
        }
    }

    function expectedResponseType(type) {
        switch (type) {
            case 'basic': case 'cors': case 'default': return true;
        }
        return false;
    }
}

function initSync(module) {
    if (wasm !== undefined) return wasm;


    if (module !== undefined) {
        if (Object.getPrototypeOf(module) === Object.prototype) {
            ({module} = module)
        } else {
            console.warn('using deprecated parameters for `initSync()`; pass a single object instead')
        }
    }

    const imports = __wbg_get_imports();
    if (!(module instanceof WebAssembly.Module)) {
        module = new WebAssembly.Module(module);
    }
    const instance = new WebAssembly.Instance(module, imports);
    return __wbg_finalize_init(instance, module);
}

let __wbg_init_promise;
async function __wbg_init(module_or_path) {
    if (wasm !== undefined) return wasm;
    if (__wbg_init_promise === undefined) {
        __wbg_init_promise = __wbg_init_once(module_or_path);
        __wbg_init_promise.catch(() => { __wbg_init_promise = undefined; });
    }
    return __wbg_init_promise;
}

async function __wbg_init_once(module_or_path) {

    if (module_or_path !== undefined) {
        if (Object.getPrototypeOf(module_or_path) === Object.prototype) {
            ({module_or_path} = module_or_path)
        } else {
            console.warn('using deprecated parameters for the initialization function; pass a single object instead')
        }
    }

    if (module_or_path === undefined) {
        module_or_path = new URL('hoyito_wasm_bg.wasm', import.meta.url);
    }
    const imports = __wbg_get_imports();

    if (typeof module_or_path === 'string' || (typeof Request === 'function' && module_or_path instanceof Request) || (typeof URL === 'function' && module_or_path instanceof URL)) {
        module_or_path = fetch(module_or_path);
    }

    const { instance, module } = await __wbg_load(await module_or_path, imports);

    return __wbg_finalize_init(instance, module);
}

export { initSync, __wbg_init as default };
