// The WebAssembly module against the native crates: loads the module the
// app serves (web/wasm/, or $HOYITO_WASM_DIR) with initSync and replays the
// golden games of tests/golden.json (every variant and option, games and
// matches; written by the native crates, see tests/golden.rs), comparing
// every ply: notation, legal moves, the move's sowing events, the final
// state, the rounds and the record; and the golden rooms step by step,
// comparing the room's whole view. Then the API's errors and the engine,
// also with endgame tables built by the native `hoyito` ($HOYITO_BIN, else
// target/debug/hoyito).
// Run: node --test crates/hoyito-wasm/tests/

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const dir = process.env.HOYITO_WASM_DIR || join(here, '..', '..', '..', 'web', 'wasm');
const wasm = await import(join(dir, 'hoyito_wasm.js'));
wasm.initSync({ module: readFileSync(join(dir, 'hoyito_wasm_bg.wasm')) });
const { Game, Match, Room, Tables, randomPlayouts, rulesOptions } = wasm;
const golden = JSON.parse(readFileSync(join(here, 'golden.json'), 'utf8'));

/** FNV-1a, as tests/golden.rs. */
function fnv(text) {
  let h = 0x811c9dc5;
  for (const b of Buffer.from(text, 'utf8')) h = Math.imul(h ^ b, 0x01000193) >>> 0;
  return h.toString(16).padStart(8, '0');
}

test('golden games of every variant and option replay ply by ply as natively', () => {
  assert.ok(golden.games.length >= 30);
  const seen = new Set();
  for (const [i, g] of golden.games.entries()) {
    const o = g.options;
    seen.add(`${o.variant} ${o.direction} ${o.two_hole_opening} ${o.skip_origin} ${o.repetition} ${o.capture_side} ${g.match}`);
    const play = g.match ? new Match(o) : new Game(o);
    for (const [k, p] of g.plies.entries()) {
      const [step, notation, legal] = p;
      const where = `game ${i} ply ${k + 1} (${step})`;
      if (step === 'next') {
        play.startNextRound();
      } else {
        const [, , , events, side, captured, extraTurn, passed, laps, truncated, over] = p;
        const ev = play.play(step);
        assert.equal(ev.token, step, where);
        assert.equal(ev.side, side, where);
        assert.equal(ev.captured, captured, where);
        assert.equal(ev.extra_turn, extraTurn, where);
        assert.equal(ev.passed, passed, where);
        assert.equal(ev.trace.laps, laps, where);
        assert.equal(ev.trace.truncated, truncated, where);
        assert.equal(fnv(JSON.stringify(ev.trace.events)), events, where);
        assert.equal(play.state().over, over, where);
      }
      assert.equal(play.notation(), notation, where);
      assert.equal(fnv(play.legalMoves().join(' ')), legal, where);
    }
    assert.deepEqual(play.state(), g.final_state, `game ${i}: final state`);
    assert.equal(play.result(), g.result, `game ${i}: result`);
    assert.deepEqual(play.rounds(), g.rounds, `game ${i}: rounds`);
    assert.equal(play.record(), g.record, `game ${i}: record`);
    play.free();
  }
  // Every variant, both direction rules and every option appear.
  for (const v of ['I', 'II', 'III']) {
    for (const want of ['per_player', 'per_move', 'true', 'own_row', 'opponent']) {
      assert.ok([...seen].some((s) => s.startsWith(`${v} `) && s.includes(want)), `${v} ${want}`);
    }
  }
  assert.ok([...seen].some((s) => s.endsWith('true')), 'a match');
});

test('random playouts give the native totals for the same seed', () => {
  for (const p of golden.playouts) {
    const t = randomPlayouts(p.n, p.options, p.seed);
    assert.deepEqual(t, p.totals);
  }
});

test('play throws an Error with the reason and leaves the game unchanged', () => {
  const g = new Game({ variant: 'II', holes: 6 });
  g.play('3');
  const before = [g.notation(), g.legalMoves()];
  for (const [bad, says] of [['9', /hole/], ['abc', /./], ['3R', /direction/]]) {
    assert.throws(() => g.play(bad), (e) => e instanceof Error && says.test(e.message));
    assert.deepEqual([g.notation(), g.legalMoves()], before);
  }
  assert.equal(g.isOver(), false);
  assert.equal(g.state().to_move, 'north');
});

test('bad options are refused with the core\'s text', () => {
  assert.throws(() => new Game({ variant: 'IV' }), { message: 'invalid options: bad value "IV" for variant: expected I, II or III' });
  assert.throws(() => new Game({ holes: 3 }), { message: 'invalid rules: bad value "3" for holes: expected a whole number from 4 to 12' });
  assert.throws(() => new Game({ colour: 'red' }), {
    message: 'invalid options: unknown rules option "colour": expected one of variant, holes, seeds, skip_origin, direction, two_hole_opening, repetition, capture_side',
  });
  assert.throws(() => new Game({ direction: 'sideways' }), /bad value "sideways" for direction: expected fixed, per_player or per_move/);
  assert.throws(() => randomPlayouts(1.5, {}, 1), /whole number/);
  assert.deepEqual(new Game().state().board, Array(12).fill(4));
  assert.deepEqual(new Game({ direction: 'per_move' }).legalMoves().slice(0, 2), ['1L', '1R']);
});

test('rulesOptions() is the core\'s table, and the standard rules are its defaults', () => {
  const opts = rulesOptions();
  assert.deepEqual(opts.map((o) => o.name),
    ['variant', 'holes', 'seeds', 'skip_origin', 'direction', 'two_hole_opening', 'repetition', 'capture_side']);
  const direction = opts.find((o) => o.name === 'direction');
  assert.deepEqual([direction.type, direction.values, direction.default, direction.section],
    ['choice', ['fixed', 'per_player', 'per_move'], 'fixed', '§6.1']);
  const holes = opts.find((o) => o.name === 'holes');
  assert.deepEqual([holes.min, holes.max, holes.default], [4, 12, 6]);
  const defaults = Object.fromEntries(opts.map((o) => [o.name, o.default]));
  assert.deepEqual(new Game(defaults).state(), new Game().state());
});

test('the engine answers legal moves; analyze scores every move, best first', () => {
  const g = new Game({ variant: 'III' });
  for (const level of [1, 3, 5]) assert.ok(g.legalMoves().includes(g.bestMove(level)), `level ${level}`);
  assert.throws(() => g.bestMove(11), /level 11/);
  const a = g.analyze({ level: 5, timeMs: 300 });
  assert.deepEqual(a.moves.map((m) => m.move).sort(), g.legalMoves().sort());
  assert.equal(a.best, a.moves[0].move);
  assert.equal(a.score, a.moves[0].score);
  for (let i = 1; i < a.moves.length; i += 1) assert.ok(a.moves[i - 1].score >= a.moves[i].score);
  assert.ok(a.moves.every((m) => m.pv[0] === m.move));
  assert.throws(() => g.analyze({ level: 5, timeMs: 0 }), /timeMs/);
  assert.throws(() => g.analyze({ depth: 5 }), /unknown field/);
  // A search with a time limit works in WebAssembly too (it reads a clock
  // that works there) and answers a legal move.
  assert.ok(g.legalMoves().includes(g.bestMove(10, 200)));
});

test('a match starts its next round only when a round is over', () => {
  const m = new Match({ variant: 'I', holes: 4 });
  assert.throws(() => m.startNextRound(), /next round/);
  while (!m.canStartNextRound() && !m.isOver()) m.play(m.legalMoves()[0]);
  if (m.canStartNextRound()) {
    assert.equal(m.matchResult(), null);
    m.startNextRound();
    assert.equal(m.round(), 2);
    assert.equal(m.rounds().length, 2);
  } else {
    // A player was left with too few seeds: the match ended with its first round.
    assert.deepEqual(m.matchResult(), { winner: m.result(), rounds: 1 });
    assert.throws(() => m.startNextRound(), /next round/);
  }
});

test('conceding a round gives the seeds in play to the other side', () => {
  const m = new Match({ variant: 'I' });
  m.play(m.legalMoves()[0]);
  const before = m.state();
  assert.throws(() => m.concede('east'), /no side/);
  m.concede('north');
  const after = m.state();
  const inPlay = before.board.reduce((a, b) => a + b, 0);
  assert.equal(after.over, true);
  assert.equal(after.end_reason, 'conceded');
  assert.deepEqual(after.captured, [before.captured[0] + inPlay, before.captured[1]]);
  assert.equal(m.rounds()[0].reason, 'conceded');
  assert.throws(() => m.concede('south'), /over/);
  assert.match(m.record(), /concede:north/);
});

test('golden rooms play step by step with the native room\'s view, refusals and undos', () => {
  assert.ok(golden.rooms.length >= 4);
  for (const [i, r] of golden.rooms.entries()) {
    let room = new Room(r.setup, [], 0);
    for (const [j, [op, hash]] of r.ops.entries()) {
      const where = `room ${i}, op ${j} (${JSON.stringify(op)})`;
      if (op.undo) {
        const back = room.undone(room.undoTarget());
        room.free();
        room = back;
      } else if (op.refuse) {
        const before = JSON.stringify(room.view());
        assert.throws(() => room.step(op.refuse), (e) => e.code === op.code && [409, 422].includes(e.status), where);
        assert.equal(JSON.stringify(room.view()), before, `${where}: a refused step changes nothing`);
      } else {
        room.step(op.step);
      }
      assert.equal(fnv(JSON.stringify(room.view())), hash, where);
    }
    assert.deepEqual(room.summary(), r.summary);
    assert.deepEqual(room.tokens(), r.tokens);
    // The stored steps replay to the same room.
    const again = new Room(r.setup, r.tokens, room.epoch);
    assert.equal(JSON.stringify(again.view()), JSON.stringify(room.view()));
    again.free();
    room.free();
  }
});

test('a room on this device refuses a game between two devices, a bad setup and a step that does not replay', () => {
  assert.throws(() => new Room({ mode: 'online', rules: {} }), /two devices/);
  assert.throws(() => new Room({ mode: 'engine', rules: {} }), /engine_side/);
  assert.throws(() => new Room({ mode: 'hotseat', rules: {}, colour: 'red' }), /unknown field/);
  assert.throws(() => new Room({ mode: 'hotseat', rules: { holes: 99 } }), /holes/);
  assert.throws(() => new Room({ mode: 'hotseat', rules: {} }, ['1', '99']), (e) => e.code === 'bad_move' && /step 2 \(99\)/.test(e.message));
  const room = new Room({ mode: 'engine', rules: {}, engine_side: 'north' }, [], 0);
  assert.throws(() => room.undoTarget(), (e) => e.code === 'nothing_to_undo' && e.status === 409);
  room.play(room.view().legal[0]);
  assert.equal(room.engineToMove(), true);
  assert.throws(() => room.play(room.view().legal[0]), (e) => e.code === 'not_your_turn');
  assert.equal(room.view().legal.includes(room.bestMove(1)), true);
  room.free();
});

test('a position from notation or a setup with captures is the core\'s; a bad one throws its reason', () => {
  const o = { variant: 'II', holes: 4 };
  const text = '1,0,3,0/0,2,0,2 s 20-4';
  const g = Game.fromNotation(o, text);
  assert.equal(g.notation(), text);
  assert.deepEqual(g.state().captured, [20, 4]);
  const s = Game.fromSetup(o, { board: [1, 0, 3, 0, 0, 2, 0, 2], to_move: 'south', captured: [20, 4] });
  assert.equal(s.notation(), text);
  assert.deepEqual(s.legalMoves(), g.legalMoves());
  assert.throws(() => Game.fromNotation(o, 'not a position'), /^Error: invalid setup: /);
  assert.throws(() => Game.fromNotation(o, '1,0,3/0,2,0,2 s 0-0'), /^Error: invalid setup: /);
  // 8 seeds on the board and 233 captured: 241 seeds in all.
  assert.throws(() => Game.fromSetup(o, { board: [1, 0, 3, 0, 0, 2, 0, 2], captured: [233, 0] }), /^Error: invalid setup: /);
});

test('Tables refuse bytes that are not the layer\'s compact file with the reader\'s reason, and hold nothing until loaded', () => {
  const rules = { variant: 'II', holes: 4 };
  const t = new Tables();
  assert.equal(t.probe(rules, '1,0,0,3/0,0,2,2 s 20-20'), null);
  assert.throws(() => t.load(rules, 4, new Uint8Array(100)), /^Error: tables: seeds-004\.htc: corrupt tablebase file: not a compact Hoyito tablebase file/);
  const header = new Uint8Array(64);
  header.set(Buffer.from('HOYITOTC'));
  assert.throws(() => t.load(rules, 8, header), /corrupt tablebase file: compact format version 0, expected 1/);
  assert.throws(() => t.load(rules, 6, new Uint8Array(0)), /^Error: tables: unsupported for tablebases: a layer of 6 seeds/);
  assert.throws(() => t.load({ variant: 'II', holes: 4, direction: 'per_move' }, 4, new Uint8Array(0)), /unsupported for tablebases: direction/);
  assert.throws(() => t.probe(rules, 'not a position'), /invalid setup/);
  assert.deepEqual([...t.layers(rules)], []);
  t.free();
});

// The engine with endgame tables on the device: a 2×4 Hoyito II set up to
// 12 seeds, built here by the native `hoyito` ($HOYITO_BIN, else
// target/debug/hoyito, which `cargo test` builds) as the compact files the
// server offers, loaded into `Tables` and given to the engine (`useTables`).

/** Compact layer files of 2×4 Hoyito II up to 12 seeds: [{seeds, bytes}]. */
function buildCompactSet() {
  const repo = join(here, '..', '..', '..');
  const bin = process.env.HOYITO_BIN || join(process.env.CARGO_TARGET_DIR || join(repo, 'target'), 'debug', 'hoyito');
  assert.ok(existsSync(bin), `no hoyito binary at ${bin}: build it (cargo build -p hoyito-cli) or set HOYITO_BIN`);
  const out = mkdtempSync(join(tmpdir(), 'hoyito-wasm-tables-'));
  try {
    execFileSync(bin, ['tablebase', 'build', '--variant', 'II', '--holes', '4', '--max-seeds', '12', '--dir', out, '--compact', '--quiet'], { stdio: 'inherit' });
    const files = [];
    for (const f of readdirSync(out, { recursive: true })) {
      const m = /seeds-(\d+)\.htc$/.exec(String(f));
      if (m) files.push({ seeds: Number(m[1]), bytes: new Uint8Array(readFileSync(join(out, String(f)))) });
    }
    return files.sort((a, b) => a.seeds - b.seeds);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** Mulberry32: the test's positions and moves are the same on every run. */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Every position (notation) along random games from random boards of 8 or 12 seeds. */
function tablePositions(o, games) {
  const rand = rng(2026);
  const out = [];
  for (let i = 0; i < games; i++) {
    const board = new Array(8).fill(0);
    const seeds = rand() < 0.5 ? 8 : 12;
    for (let k = 0; k < seeds; k++) board[Math.floor(rand() * 8)] += 1;
    const g = Game.fromSetup(o, { board, to_move: rand() < 0.5 ? 'south' : 'north', captured: [10, 32 - 10 - seeds] });
    while (!g.isOver()) {
      out.push(g.notation());
      const moves = g.legalMoves();
      g.play(moves[Math.floor(rand() * moves.length)]);
    }
    g.free();
  }
  return out;
}

test('with the tables on the device, the level-10 engine plays an exact best move in every won or drawn position they hold; without them a weak level does not', (ctx) => {
  const o = { variant: 'II', holes: 4 };
  const files = buildCompactSet();
  assert.deepEqual(files.map((f) => f.seeds), [4, 8, 12]);
  const t = new Tables();
  for (const f of files) t.load(o, f.seeds, f.bytes);
  const positions = tablePositions(o, 16);
  let held = 0;
  let perfect = 0;
  let missed = 0;
  for (const [i, text] of positions.entries()) {
    // The tables hold the positions of their layers' seed counts.
    const exact = t.probe(o, text);
    if (!exact) continue;
    held += 1;
    const valueOf = (move) => {
      const m = exact.moves.find((x) => x.move === move);
      assert.ok(m, `${text}: ${move} is a legal move`);
      return m.value;
    };
    const g = Game.fromNotation(o, text);
    assert.equal(g.useTables(t), true);
    const best = g.bestMove(10, 500);
    // The final margin for the mover with perfect play: captures so far
    // (`s 10-14`: South's, North's) and the value.
    const [, side, score] = text.split(' ');
    const [south, north] = score.split('-').map(Number);
    const margin = (side === 's' ? south - north : north - south) + exact.value;
    if (margin >= 0) {
      // Won or drawn: a best move (a drawn position's best moves keep the draw).
      assert.equal(valueOf(best), exact.value, `${text}: the engine with the tables played ${best}, worth ${valueOf(best)}, the position ${exact.value}`);
      perfect += 1;
    } else {
      // Lost whatever it plays: level 10 swindles (Engine::set_swindle), as
      // on the server: any move, the one giving the opponent most chances to err.
      assert.ok(exact.moves.some((m) => m.move === best), `${text}: ${best}`);
    }
    if (i % 8 === 0) {
      const a = g.analyze({ level: 10, timeMs: 500 });
      assert.equal(valueOf(a.best), exact.value, `${text}: analyze's best ${a.best}`);
    }
    g.free();
    // The control: the same position, no tables, level 1.
    const weak = Game.fromNotation(o, text);
    if (margin >= 0 && valueOf(weak.bestMove(1, 50)) !== exact.value) missed += 1;
    weak.free();
  }
  ctx.diagnostic(`${held} positions held, ${perfect} won or drawn; level 1 without tables missed the best move in ${missed}`);
  assert.ok(held >= 60 && perfect >= 30, `${held} positions in the tables, ${perfect} won or drawn`);
  assert.ok(missed > 0, `level 1 without the tables played a best move in all ${held} positions: the check above would not tell`);
  // Tables of other rules leave the engine as it was; so do empty ones.
  const other = Game.fromNotation({ variant: 'III', holes: 4 }, positions[0]);
  assert.equal(other.useTables(t), false);
  other.free();
  const none = new Tables();
  const g = Game.fromNotation(o, positions[0]);
  assert.equal(g.useTables(none), false);
  assert.ok(g.legalMoves().includes(g.bestMove(10, 100)));
  g.free();
  none.free();
  // A room on the device takes them too (its engine is the same), and from
  // the start, above the tables, its engine (which tries to prove its moves
  // down into them) plays a whole game of legal moves.
  const room = new Room({ mode: 'engine', rules: o, match: false, engine_side: 'north' }, [], 0);
  assert.equal(room.useTables(t), true);
  const game = new Game(o);
  assert.equal(game.useTables(t), true);
  let plies = 0;
  while (!game.isOver()) {
    const m = game.bestMove(10, 150);
    assert.ok(game.legalMoves().includes(m), `${game.notation()}: ${m}`);
    game.play(m);
    plies += 1;
  }
  assert.ok(plies > 0);
  game.free();
  room.free();
  t.free();
});
