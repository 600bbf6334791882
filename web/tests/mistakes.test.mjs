// "Learn from your mistakes", end to end, against a server with Hoyito
// II's 2×4 endgame tables up to 24 seeds (built by the test), so that
// every position of a 2×4 game of 2 or 3 seeds a hole is in the tables and
// the analysis is exact, the same on every run. The test plays the tables'
// best moves except where it makes a player lose the result by one step (a
// win drawn, a draw lost): the first position, from a given step on, where
// a move does. Against the engine at level 8 (which plays the tables'
// moves), from 3 seeds a hole (a won start): South draws the win. Once the
// game is analysed from its page, "Learn from your mistakes" shows that
// position: the blunder played again is named, a move that keeps the win
// but is not the best accepted with its exact value and the best named. An
// online game from 2 seeds a hole: South loses the draw, North gives it
// back, South loses it again; South's two exercises (a good move shown on
// the second), North's one, none for a spectator. No serious axe-core
// violation. Run with tests/run.sh (desktop and phone sizes).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  startServer, launchBrowser, openPage, callApi, seriousViolations, binary, waitUntil,
} from './helpers.mjs';

const TABLES = mkdtempSync(join(tmpdir(), 'hoyito-tables-'));
// A won start for South (+16 with perfect play), and a drawn one.
const WON = { variant: 'II', holes: 4, seeds: 3 };
const DRAWN = { variant: 'II', holes: 4, seeds: 2 };

let server;
let browser;

before(async () => {
  execFileSync(binary, ['tablebase', 'build', '--variant', 'II', '--holes', '4', '--max-seeds', '24', '--dir', TABLES, '--quiet']);
  server = await startServer(null, '127.0.0.1:0', ['--tablebases', TABLES]);
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
  server?.cleanup();
  rmSync(TABLES, { recursive: true, force: true });
});

const open = (path, opts) => openPage(browser, server.url + path, opts);
const api = (method, path, body, token) => callApi(server.url, method, path, body, token);
const signed = (v) => (v > 0 ? `+${v}` : String(v));
const standing = (margin) => Math.sign(margin) + 1; // 0 loss, 1 draw, 2 win: exact values by their sign
const state = (page, s) => page.waitForFunction((x) => document.querySelector('.puzzle')?.dataset.state === x, s, { timeout: 20000 });

/** Every legal move of game view `g`'s position with its exact final margin for the mover, from the tables. */
async function margins(g) {
  const tb = await api('GET', `/api/tablebase?variant=II&holes=4&position=${encodeURIComponent(g.state.notation)}`);
  const me = g.state.to_move === 'south' ? 0 : 1;
  const diff = g.state.captured[me] - g.state.captured[1 - me];
  return tb.moves.map((m) => ({ move: m.move, margin: diff + m.value }));
}

/**
 * The move of the side to move in `g`: the best by the tables, unless
 * `blunder(g)` says that this side is to blunder now and some move loses
 * the result by one step (a win drawn, a draw lost): then that move, kept
 * in `blunders` with the position's step number, the moves' margins and
 * the best move.
 */
async function choose(g, blunders, blunder) {
  const ms = await margins(g);
  const best = ms.reduce((a, b) => (b.margin > a.margin ? b : a));
  const drop = ms.find((m) => standing(m.margin) === standing(best.margin) - 1);
  if (drop && blunder(g)) {
    blunders.push({
      seq: g.seq, side: g.state.to_move, move: drop.move, margins: ms, best,
    });
    return drop.move;
  }
  return best.move;
}

/** The exercises of `side` in analysis `an` by the analysis's rule (every value here exact): the steps before each move that lost the result. */
function expectedExercises(an, side) {
  const out = [];
  for (let k = 1; k < an.steps.length; k++) {
    const m = an.steps[k].played;
    if (!m || m.side !== side) continue;
    const before = an.steps[k - 1].moves;
    const own = before.find((x) => x.token === m.token);
    assert.ok(own.exact && before[0].exact, 'every value of the analysis is exact');
    if (standing(own.score) < standing(before[0].score)) out.push(k - 1);
  }
  return out;
}

/** The board shown at replay frame `k` of game view `v`. */
const frameBoard = (v, k) => (k === 0 ? v.rounds[0].start_board : v.history[k - 1].board);

test('a blunder against the engine becomes an exercise: the blunder refused, a move that keeps the result accepted', async () => {
  const created = await api('POST', '/api/games', { mode: 'engine', level: 8, side: 'south', rules: WON });
  const { id, token } = created;
  const blunders = [];
  let g = created.game;
  for (let k = 0; !g.state.over; k++) {
    assert.ok(k < 300, 'the game ends');
    if (g.state.to_move !== 'south' || g.thinking) {
      g = await waitUntil(async () => {
        const v = await api('GET', `/api/games/${id}`);
        return v.state.over || (v.state.to_move === 'south' && !v.thinking) ? v : null;
      }, 'the engine to move');
      continue;
    }
    const move = await choose(g, blunders, (v) => v.seq >= 4 && !blunders.length);
    g = (await api('POST', `/api/games/${id}/moves`, { move, seq: g.seq }, token)).game;
  }
  assert.equal(blunders.length, 1, 'South drew the won game');
  const [blunder] = blunders;
  assert.equal(standing(blunder.best.margin), 2, 'a win');
  g = await api('GET', `/api/games/${id}`);

  // Analysed from the game's page, which then offers the exercise.
  const { context, page } = await open(`/g/${id}`, { storage: { [`hoyito.seat.${id}`]: JSON.stringify({ token, seat: 'south' }) } });
  await page.click('#an-start');
  await page.waitForSelector('#an-learn', { timeout: 120000 });
  const an = await api('GET', `/api/games/${id}/analysis`);
  assert.equal(an.status, 'done');
  // The exercise is the blunder, and only it: South's other moves were best.
  assert.deepEqual(expectedExercises(an, 'south'), [blunder.seq]);
  assert.equal(await page.textContent('#an-learn'), 'Learn from your mistakes (1)');
  // The analysis's values are the tables'.
  for (const m of blunder.margins) assert.equal(an.steps[blunder.seq].moves.find((x) => x.token === m.move).score, m.margin, m.move);
  assert.deepEqual(await seriousViolations(page), []);

  await page.click('#an-learn');
  await page.waitForURL((u) => u.pathname === `/g/${id}/learn`);
  await state(page, 'playing');
  const hole = (token) => Number(token) - 1;
  const value = (m) => `final margin ${signed(m.margin)}, exact`;
  assert.equal(await page.textContent('#lm-progress'), `Exercise 1 of 1 · before step ${blunder.seq + 1}`);
  assert.equal(await page.textContent('#pz-task'),
    `You played ${blunder.move} here, and the win became a draw. South to move: find a move that keeps the win.`);
  // The position before the blunder, South's row nearest; every legal move may be picked.
  const counts = await page.$$eval('.hole-text .count', (els) => els.map((e) => Number(e.textContent)));
  assert.deepEqual(counts, frameBoard(g, blunder.seq));
  assert.deepEqual((await page.$$eval('.hole.legal', (els) => els.map((e) => Number(e.dataset.hole)))).sort(),
    blunder.margins.map((m) => hole(m.move)).sort());

  // The blunder again: named, refused.
  const bad = blunder.margins.find((m) => m.move === blunder.move);
  await page.locator(`.hole[data-hole="${hole(bad.move)}"]`).click();
  await page.waitForFunction(() => document.getElementById('pz-status').textContent !== '');
  assert.equal(await page.textContent('#pz-status'), `That is the move you played (${value(bad)}). Try another.`);
  assert.equal(await page.$eval('.puzzle', (e) => e.dataset.state), 'playing');
  // Another move that does not keep the win, if there is one: refused with its value.
  const other = blunder.margins.find((m) => m.move !== bad.move && standing(m.margin) < 2);
  if (other) {
    await page.locator(`.hole[data-hole="${hole(other.move)}"]`).click();
    await page.waitForFunction((x) => document.getElementById('pz-status').textContent.startsWith(`Not ${x}`), other.move);
    assert.equal(await page.textContent('#pz-status'), `Not ${other.move}: it does not keep the win (${value(other)}). Try again.`);
  }
  // The board, the task and the buttons are in the window without scrolling.
  {
    const { w, h } = await page.evaluate(() => ({ w: innerWidth, h: innerHeight }));
    const outside = await page.$$eval('svg.board, #pz-task, #lm-show, #lm-next', (els, [ww, hh]) => els
      .map((e) => [e.id || 'board', e.getBoundingClientRect()])
      .filter(([, r]) => r.width === 0 || r.top < 0 || r.left < 0 || r.bottom > hh + 0.5 || r.right > ww + 0.5)
      .map(([name, r]) => `${name}: ${Math.round(r.left)},${Math.round(r.top)}–${Math.round(r.right)},${Math.round(r.bottom)}`), [w, h]);
    await page.screenshot({ path: `/tmp/learn-${w}x${h}.png` });
    assert.deepEqual(outside, [], `at ${w}×${h}`);
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), true);
  }
  assert.deepEqual(await seriousViolations(page), []);

  // A move that keeps the win, the least good of them (so not the best when
  // wins differ): accepted, with its value, and the analysis's best named.
  const good = blunder.margins.filter((m) => standing(m.margin) === 2).reduce((a, b) => (b.margin < a.margin ? b : a));
  await page.locator(`.hole[data-hole="${hole(good.move)}"]`).click();
  await state(page, 'solved');
  const best = an.steps[blunder.seq].moves[0];
  const bestNote = good.move === best.token ? '' : ` The best move: ${best.token} (final margin ${signed(best.score)}, exact).`;
  assert.equal(await page.textContent('#pz-status'), `Good: ${good.move} keeps the win (${value(good)}).${bestNote}`);
  assert.equal(await page.textContent('#lm-next'), 'Finish');
  await page.click('#lm-next');
  await state(page, 'done');
  assert.equal(await page.textContent('#pz-status'), 'Done: you found 1 of 1.');
  assert.deepEqual(await seriousViolations(page), []);
  await page.click('#lm-back');
  await page.waitForURL((u) => u.pathname === `/g/${id}`);
  await context.close();
});

test('an online game: each player is offered their own mistakes, a spectator none', async () => {
  const created = await api('POST', '/api/games', { mode: 'online', side: 'south', rules: DRAWN });
  const { id } = created;
  const invite = new URL(created.invite, server.url).searchParams.get('invite');
  const joined = await api('POST', `/api/games/${id}/join`, { invite });
  const tokens = { south: created.token, north: joined.token };
  // South loses the draw, North gives it back, South loses it again.
  const blunders = [];
  const count = (side) => blunders.filter((b) => b.side === side).length;
  const blunder = (v) => (v.state.to_move === 'south' ? v.seq >= 2 && count('south') < 2 : count('north') < Math.min(1, count('south')));
  let g = joined.game;
  for (let k = 0; !g.state.over; k++) {
    assert.ok(k < 300, 'the game ends');
    const side = g.state.to_move;
    const move = await choose(g, blunders, blunder);
    g = (await api('POST', `/api/games/${id}/moves`, { move, seq: g.seq }, tokens[side])).game;
  }
  const of = (side) => blunders.filter((b) => b.side === side);
  assert.deepEqual(blunders.map((b) => b.side), ['south', 'north', 'south']);
  await api('POST', `/api/games/${id}/analysis`, { movetime_ms: 20 });
  await waitUntil(async () => (await api('GET', `/api/games/${id}/analysis`)).status === 'done', 'the analysis is done');
  const an = await api('GET', `/api/games/${id}/analysis`);
  assert.deepEqual(expectedExercises(an, 'south'), of('south').map((b) => b.seq));
  assert.deepEqual(expectedExercises(an, 'north'), of('north').map((b) => b.seq));

  const seat = (side) => ({ storage: { [`hoyito.seat.${id}`]: JSON.stringify({ token: tokens[side], seat: side }) } });
  const south = await open(`/g/${id}`, seat('south'));
  const { page } = south;
  await page.waitForSelector('#an-learn', { timeout: 20000 });
  assert.equal(await page.textContent('#an-learn'), 'Learn from your mistakes (2)');
  await page.click('#an-learn');
  await page.waitForURL((u) => u.pathname === `/g/${id}/learn`);
  await state(page, 'playing');
  const [first, second] = of('south');
  assert.equal(await page.$eval('.puzzle', (e) => e.dataset.frame), String(first.seq));
  assert.equal(await page.textContent('#lm-progress'), `Exercise 1 of 2 · before step ${first.seq + 1}`);
  // A move that does not keep the draw, other than the one played, if there is one: refused with its value.
  const other = first.margins.find((m) => m.move !== first.move && standing(m.margin) < 1);
  if (other) {
    await page.locator(`.hole[data-hole="${Number(other.move) - 1}"]`).click();
    await page.waitForFunction((x) => document.getElementById('pz-status').textContent.startsWith(`Not ${x}`), other.move);
    assert.equal(await page.textContent('#pz-status'), `Not ${other.move}: it does not keep the draw (final margin ${signed(other.margin)}, exact). Try again.`);
  }
  // The first solved with the best move; the second: a good move shown, then played (not counted as found).
  await page.locator(`.hole[data-hole="${Number(first.best.move) - 1}"]`).click();
  await state(page, 'solved');
  assert.match(await page.textContent('#pz-status'), new RegExp(`^Good: ${first.best.move} keeps the draw \\(`));
  await page.click('#lm-next');
  await page.waitForFunction(() => document.querySelector('.puzzle').dataset.exercise === '2');
  assert.equal(await page.$eval('.puzzle', (e) => e.dataset.frame), String(second.seq));
  assert.equal(await page.textContent('#pz-task'),
    `You played ${second.move} here, and the draw became a loss. South to move: find a move that keeps the draw.`);
  await page.click('#lm-show');
  await state(page, 'shown');
  const at = an.steps[second.seq];
  assert.equal(await page.textContent('#pz-status'), `A good move: ${at.best} (final margin ${signed(at.moves[0].score)}, exact), the analysis's best.`);
  assert.deepEqual(await page.$$eval('.hole.hint', (els) => els.map((e) => Number(e.dataset.hole))), at.moves[0].holes);
  assert.deepEqual(await seriousViolations(page), []);
  await page.locator(`.hole[data-hole="${at.moves[0].holes[0]}"]`).click();
  await state(page, 'solved');
  await page.click('#lm-next');
  await state(page, 'done');
  assert.equal(await page.textContent('#pz-status'), 'Done: you found 1 of 2.');
  await south.context.close();

  // North: its own mistake; a spectator: no button, and nothing to learn at the address.
  const north = await open(`/g/${id}`, seat('north'));
  await north.page.waitForSelector('#an-learn', { timeout: 20000 });
  assert.equal(await north.page.textContent('#an-learn'), 'Learn from your mistakes (1)');
  await north.page.click('#an-learn');
  await state(north.page, 'playing');
  assert.equal(await north.page.$eval('.puzzle', (e) => e.dataset.frame), String(of('north')[0].seq));
  assert.match(await north.page.textContent('#pz-task'), /North to move: find a move that keeps the win\.$/);
  await north.context.close();
  const watcher = await open(`/g/${id}`);
  await watcher.page.waitForSelector('.an-summary table', { timeout: 20000 });
  assert.equal(await watcher.page.locator('#an-learn').count(), 0);
  await watcher.page.goto(`${server.url}/g/${id}/learn`);
  await state(watcher.page, 'none');
  assert.equal(await watcher.page.textContent('#pz-status'), 'None of your moves lost the result in this game: nothing to learn here.');
  assert.deepEqual(await seriousViolations(watcher.page), []);
  await watcher.context.close();
});
