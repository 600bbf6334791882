// End-to-end tests of the puzzle page (/puzzles), against a server with
// Hoyito II's 2×4 endgame tables up to 8 seeds (built by the test): a wrong
// move is refused with its exact value beside the solution's (as
// /api/tablebase gives them), the hints say the theme then the hole, the
// solution solves it; a longer solution with the opponent's forced reply
// played for the player; the solution shown; Next puzzle with the filters;
// an unknown puzzle's message; the streak: puzzles of rising rating as the
// API's streak gives them, one wrong move ending it, the best streak kept;
// signed in, the account's rating, shown on another device; no serious
// axe-core violation.
// Run with tests/run.sh (desktop and phone sizes).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  startServer, launchBrowser, openPage, callApi, seriousViolations, binary, once,
} from './helpers.mjs';

const TABLES = mkdtempSync(join(tmpdir(), 'hoyito-tables-'));
const SET = readFileSync(new URL('../../data/puzzles/II-4.jsonl', import.meta.url), 'utf8')
  .trim().split('\n').map((l) => JSON.parse(l));
const seeds = (p) => p.position.split(' ')[0].split(/[,/]/).reduce((a, x) => a + Number(x), 0);
// Puzzles with 8 seeds in play, in the tables built below: one move to find
// (with a theme), and three (solver, forced reply, solver).
const ONE = SET.find((p) => seeds(p) === 8 && p.solution.length === 1 && p.themes.length > 0);
const THREE = SET.find((p) => seeds(p) === 8 && p.solution.length === 3);

let server;
let browser;

before(async () => {
  execFileSync(binary, ['tablebase', 'build', '--variant', 'II', '--holes', '4', '--max-seeds', '8', '--dir', TABLES, '--quiet']);
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
const api = (path) => callApi(server.url, 'GET', path);
const solver = (p) => (p.position.split(' ')[1] === 's' ? 'south' : 'north');
/** The board index of the solver's (or the opponent's) hole `token`. */
const hole = (p, token, side = solver(p)) => (side === 'south' ? 0 : p.holes) + Number(token) - 1;
const click = (page, i) => page.locator(`.hole[data-hole="${i}"]`).click();
/** Waits until the page's address is `path` (the app navigates without loading a page). */
const at = (page, path) => page.waitForFunction((x) => location.pathname === x, path, { timeout: 20000 });
const state = (page, s) => page.waitForFunction((x) => document.querySelector('.puzzle')?.dataset.state === x, s, { timeout: 20000 });

test('a wrong move shows its exact value, the hints the theme then the hole, and the solution solves it', once, async () => {
  assert.ok(ONE, 'a one-move puzzle with 8 seeds');
  const { context, page } = await open(`/puzzles/${ONE.id}`);
  await state(page, 'playing');
  assert.match(await page.textContent('#pz-info'), new RegExp(`Puzzle ${ONE.id} · Hoyito II · 2×4 · rating ${ONE.rating}`));
  const side = solver(ONE) === 'south' ? 'South' : 'North';
  assert.match(await page.textContent('#pz-task'), new RegExp(`${side} to move: find the only move that ${ONE.result === 'win' ? 'wins' : 'saves the draw'}`));

  const truth = await api(`/api/tablebase?variant=II&holes=4&position=${encodeURIComponent(ONE.position)}`);
  const wrong = truth.moves.find((m) => m.move !== ONE.solution[0]);
  const best = truth.moves.find((m) => m.move === ONE.solution[0]);
  await click(page, hole(ONE, wrong.move));
  await page.waitForFunction(() => document.querySelector('.puzzle').dataset.wrongValue !== undefined, null, { timeout: 20000 });
  const signed = (v) => (v > 0 ? `+${v}` : String(v));
  assert.equal(await page.textContent('#pz-status'),
    `Not ${wrong.move}: with perfect play it gains ${signed(wrong.value)} seeds from here, the solution ${signed(best.value)}. Try again.`);
  // The wrong move was not played.
  assert.equal(await page.$eval('.puzzle', (e) => e.dataset.state), 'playing');

  await page.click('#pz-hint');
  const themes = { casa: 'a casa captured', relay: 'a relay sowing', last_four: 'the last four seeds', extra_turn: 'an extra turn', chain: 'a chain of casas', long_sowing: 'a long sowing', pass: 'the opponent must pass' };
  assert.equal(await page.textContent('#pz-status'), `Hint: ${ONE.themes.map((x) => themes[x]).join(', ')}.`);
  await page.click('#pz-hint');
  assert.equal(await page.textContent('#pz-status'), `Hint: hole ${ONE.solution[0]}.`);
  const marked = await page.$$eval('.hole.hint', (els) => els.map((e) => Number(e.dataset.hole)));
  assert.deepEqual(marked, [hole(ONE, ONE.solution[0])]);
  assert.deepEqual(await seriousViolations(page), []);

  await click(page, hole(ONE, ONE.solution[0]));
  await state(page, 'solved');
  assert.equal(await page.textContent('#pz-status'), `Solved! The solution: ${ONE.solution[0]}`);
  assert.equal(await page.isDisabled('#pz-hint'), true);
  await context.close();
});

test('a longer solution: the opponent\'s forced reply is played, then the last move solves it', once, async () => {
  assert.ok(THREE, 'a three-move puzzle with 8 seeds');
  const { context, page } = await open(`/puzzles/${THREE.id}`);
  await state(page, 'playing');
  await click(page, hole(THREE, THREE.solution[0]));
  await page.waitForFunction((m) => document.getElementById('pz-status').textContent === `Good move. The opponent replies ${m}: your move again.`, THREE.solution[1], { timeout: 20000 });
  const opponent = solver(THREE) === 'south' ? 'north' : 'south';
  assert.equal(await page.$eval(`.hole[data-hole="${hole(THREE, THREE.solution[1], opponent)}"]`, (e) => e.classList.contains('last-from')), true);
  await click(page, hole(THREE, THREE.solution[2]));
  await state(page, 'solved');
  await context.close();
});

test('the solution shown, Next puzzle with the filters, and an unknown puzzle', once, async () => {
  const { context, page } = await open(`/puzzles/${THREE.id}`);
  await state(page, 'playing');
  await page.click('#pz-show');
  await state(page, 'shown');
  assert.equal(await page.textContent('#pz-status'), `The solution: ${THREE.solution.join(' ')}`);
  // Every move of the solution is played on the board, one after another.
  await page.waitForFunction(() => document.getElementById('pz-show').disabled);
  await page.selectOption('#pz-variant', 'III');
  await page.selectOption('#pz-holes', '6');
  await page.click('#pz-next');
  await at(page, '/puzzles/III-6-0001');
  await state(page, 'playing');
  assert.match(await page.textContent('#pz-info'), /Puzzle III-6-0001 · Hoyito III · 2×6/);
  await page.click('#pz-next');
  await at(page, '/puzzles/III-6-0002');
  // Shown, so kept as the last one seen (the address changes before the puzzle loads).
  await page.waitForFunction(() => /III-6-0002/.test(document.getElementById('pz-info').textContent), null, { timeout: 20000 });
  // The page remembers where the set was left: /puzzles goes on from there.
  await page.goto(`${server.url}/puzzles`);
  await at(page, '/puzzles/III-6-0003');
  await state(page, 'playing');
  assert.deepEqual(await seriousViolations(page), []);

  await page.goto(`${server.url}/puzzles/II-6-9999`);
  await state(page, 'failed');
  assert.equal(await page.textContent('#pz-status'), 'No puzzle has this id, or none matches these filters.');
  await context.close();
});

test('the puzzle of the day: the link opens the UTC day\'s puzzle of the filters, as the API gives it', once, async () => {
  const { context, page } = await open(`/puzzles/${ONE.id}`);
  await state(page, 'playing');
  await page.selectOption('#pz-variant', 'II');
  await page.selectOption('#pz-holes', '4');
  await page.click('#pz-daily');
  await at(page, '/puzzles/daily');
  await page.waitForFunction(() => document.querySelector('.puzzle')?.dataset.daily !== undefined, null, { timeout: 20000 });
  await state(page, 'playing');
  const date = await page.$eval('.puzzle', (e) => e.dataset.daily);
  assert.match(date, /^\d{4}-\d{2}-\d{2}$/);
  const daily = await api(`/api/puzzles/daily?variant=II&holes=4&date=${date}`);
  assert.equal(await page.textContent('#pz-info'),
    `Puzzle of the day, ${date} (UTC) · Puzzle ${daily.id} · Hoyito II · 2×4 · rating ${daily.rating}`);
  // The daily link is visible without scrolling, and nothing scrolls across.
  for (const x of ['#pz-daily']) {
    const box = await page.locator(x).boundingBox();
    assert.ok(box.y + box.height <= page.viewportSize().height, `${x}: ${JSON.stringify(box)}`);
  }
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), true);
  assert.deepEqual(await seriousViolations(page), []);
  await context.close();
});

test('the solver\'s rating: solved at the first try it rises, a wrong move lowers it, as the API computes, kept on the device', once, async () => {
  const { context, page } = await open(`/puzzles/${ONE.id}`);
  await state(page, 'playing');
  assert.equal(await page.textContent('#pz-rating'), 'Your puzzle rating: 1500');
  const fresh = { rating: 1500, deviation: 350, volatility: 0.06 };
  const up = await callApi(server.url, 'POST', `/api/puzzles/${ONE.id}/attempt`, { solved: true, rating: fresh });
  await click(page, hole(ONE, ONE.solution[0]));
  await state(page, 'solved');
  await page.waitForFunction(() => document.querySelector('.puzzle').dataset.change !== undefined, null, { timeout: 20000 });
  assert.ok(up.change > 0, JSON.stringify(up));
  assert.equal(await page.textContent('#pz-rating'), `Your puzzle rating: ${Math.round(up.rating.rating)} (+${up.change})`);
  assert.deepEqual(await page.evaluate(() => JSON.parse(localStorage.getItem('hoyito.puzzle.rating'))), up.rating);

  // The next puzzle: a wrong move first, and the rating falls from the kept one.
  const down = await callApi(server.url, 'POST', `/api/puzzles/${THREE.id}/attempt`, { solved: false, rating: up.rating });
  await page.goto(`${server.url}/puzzles/${THREE.id}`);
  await state(page, 'playing');
  assert.equal(await page.textContent('#pz-rating'), `Your puzzle rating: ${Math.round(up.rating.rating)}`);
  const truth = await api(`/api/tablebase?variant=II&holes=4&position=${encodeURIComponent(THREE.position)}`);
  const wrong = truth.moves.find((m) => m.move !== THREE.solution[0]);
  await click(page, hole(THREE, wrong.move));
  await page.waitForFunction(() => document.querySelector('.puzzle').dataset.change !== undefined, null, { timeout: 20000 });
  assert.ok(down.change < 0, JSON.stringify(down));
  assert.equal(await page.textContent('#pz-rating'), `Your puzzle rating: ${Math.round(down.rating.rating)} (${down.change})`);
  // Solving it after the mistake does not rate it again.
  await click(page, hole(THREE, THREE.solution[0]));
  assert.deepEqual(await page.evaluate(() => JSON.parse(localStorage.getItem('hoyito.puzzle.rating'))), down.rating);
  assert.deepEqual(await seriousViolations(page), []);
  await context.close();
});

test('signed in, the rating is the account\'s: rated on one device, shown on another', once, async () => {
  const PASSWORD = 'tambor-lluvia-semilla-42';
  const A = await open('/account');
  const up = A.page.locator('#sign-up');
  await up.getByLabel('Username').fill('Solver');
  await up.getByLabel('Password').fill(PASSWORD);
  await up.getByRole('button', { name: 'Create an account' }).click();
  await A.page.getByRole('button', { name: 'I have saved them' }).click();
  await A.page.waitForSelector('#signed-in-as');
  // The device's rating is the account's first attempt's start.
  const device = { rating: 1600, deviation: 200, volatility: 0.06 };
  await A.page.evaluate((r) => localStorage.setItem('hoyito.puzzle.rating', JSON.stringify(r)), device);
  await A.page.goto(`${server.url}/puzzles/${ONE.id}`);
  await state(A.page, 'playing');
  const expected = await callApi(server.url, 'POST', `/api/puzzles/${ONE.id}/attempt`, { solved: true, rating: device });
  await click(A.page, hole(ONE, ONE.solution[0]));
  await state(A.page, 'solved');
  await A.page.waitForFunction(() => document.querySelector('.puzzle').dataset.change !== undefined, null, { timeout: 20000 });
  assert.equal(await A.page.textContent('#pz-rating'), `Your puzzle rating: ${Math.round(expected.rating.rating)} (+${expected.change})`);

  // Another device, signed in to the same account: the account's rating, not a new solver's 1500.
  const B = await open('/account');
  const signIn = B.page.locator('#sign-in');
  await signIn.getByLabel('Username').fill('Solver');
  await signIn.getByLabel('Password').fill(PASSWORD);
  await signIn.getByRole('button', { name: 'Sign in' }).click();
  await B.page.waitForSelector('#signed-in-as');
  await B.page.goto(`${server.url}/puzzles/${THREE.id}`);
  await state(B.page, 'playing');
  await B.page.waitForFunction(() => document.querySelector('.puzzle').dataset.accountRating !== undefined, null, { timeout: 20000 });
  assert.equal(await B.page.textContent('#pz-rating'), `Your puzzle rating: ${Math.round(expected.rating.rating)}`);
  assert.deepEqual(await B.page.evaluate(() => JSON.parse(localStorage.getItem('hoyito.puzzle.rating'))), expected.rating);
  await A.context.close();
  await B.context.close();
});

test('the board, the task and the buttons are in the window without scrolling, on a 2×4 and a 2×6 puzzle', async () => {
  const six = (await api('/api/puzzles/next?variant=III&holes=6')).id;
  for (const id of [ONE.id, six]) {
    const { context, page } = await open(`/puzzles/${id}`);
    try {
      await page.waitForSelector('.hole');
      const { w, h } = await page.evaluate(() => ({ w: innerWidth, h: innerHeight }));
      const outside = await page.$$eval('svg.board, #pz-task, #pz-hint, #pz-show, #pz-next', (els, [ww, hh]) => els
        .map((e) => [e.id || e.tagName, e.getBoundingClientRect()])
        .filter(([, r]) => r.width === 0 || r.top < 0 || r.left < 0 || r.bottom > hh + 0.5 || r.right > ww + 0.5)
        .map(([name, r]) => `${name}: ${Math.round(r.left)},${Math.round(r.top)}–${Math.round(r.right)},${Math.round(r.bottom)}`), [w, h]);
      await page.screenshot({ path: `/tmp/puzzle-${id}-${w}x${h}.png` });
      assert.deepEqual(outside, [], `${id} at ${w}×${h}`);
      assert.equal(await page.evaluate(() => scrollY), 0);
    } finally {
      await context.close();
    }
  }
});

/** Plays puzzle `p`'s solution on the page: the solver's moves, waiting for each forced reply. */
async function solve(page, p) {
  for (let i = 0; i < p.solution.length; i += 2) {
    const h = hole(p, p.solution[i]);
    await page.waitForSelector(`.hole.legal[data-hole="${h}"]`, { timeout: 20000 });
    await click(page, h);
  }
}

const dataset = (page) => page.$eval('.puzzle', (e) => ({ ...e.dataset }));

test('a streak: puzzles of rising rating as the API gives them, no hints; a wrong move ends it and the best is kept', once, async () => {
  const { context, page } = await open('/puzzles/streak', { storage: { 'hoyito.puzzle.filter': JSON.stringify({ variant: 'II', holes: 4 }) } });
  await state(page, 'playing');
  assert.equal(await page.textContent('h1'), 'Puzzle streak');
  assert.equal(await page.locator('#pz-hint, #pz-show, #pz-next').count(), 0, 'no hints in a streak');
  assert.equal(await page.textContent('#sk-current'), '0');
  assert.equal(await page.textContent('#sk-best'), '0');
  const { seed } = await page.evaluate(() => JSON.parse(localStorage.getItem('hoyito.puzzle.streak.run')));
  // Two puzzles solved, each rated above the last: the streak's rungs of the API.
  let above = null;
  for (let k = 1; k <= 2; k += 1) {
    const { puzzle: id } = await dataset(page);
    const expected = await api(`/api/puzzles/streak?variant=II&holes=4&seed=${seed}${above === null ? '' : `&above=${above}`}`);
    assert.equal(id, expected.id, `puzzle ${k} of the streak`);
    if (above !== null) assert.ok(expected.rating > above, `${expected.rating} > ${above}`);
    assert.match(await page.textContent('#pz-info'), new RegExp(`Puzzle ${id} · Hoyito II · 2×4 · rating ${expected.rating}`));
    await solve(page, expected);
    await page.waitForFunction((n) => document.querySelector('.puzzle').dataset.streak === String(n), k, { timeout: 20000 });
    assert.equal(await page.textContent('#sk-current'), String(k));
    await page.waitForFunction((old) => {
      const d = document.querySelector('.puzzle').dataset;
      return d.puzzle !== old && d.state === 'playing';
    }, id, { timeout: 20000 });
    above = expected.rating;
  }
  assert.equal(await page.textContent('#sk-best'), '2');
  // The board, the streak and the task are in the window without scrolling.
  {
    const { w, h } = await page.evaluate(() => ({ w: innerWidth, h: innerHeight }));
    const outside = await page.$$eval('svg.board, #pz-task, .sk-score, #sk-restart', (els, [ww, hh]) => els
      .map((e) => [e.id || e.className.baseVal || e.className, e.getBoundingClientRect()])
      .filter(([, r]) => r.width === 0 || r.top < 0 || r.left < 0 || r.bottom > hh + 0.5 || r.right > ww + 0.5)
      .map(([name, r]) => `${name}: ${Math.round(r.left)},${Math.round(r.top)}–${Math.round(r.right)},${Math.round(r.bottom)}`), [w, h]);
    await page.screenshot({ path: `/tmp/streak-${w}x${h}.png` });
    assert.deepEqual(outside, [], `at ${w}×${h}`);
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), true);
  }
  assert.deepEqual(await seriousViolations(page), []);

  // A wrong move ends the streak: the solution is shown, the best kept.
  const { puzzle: third } = await dataset(page);
  const p = await api(`/api/puzzles/${third}`);
  const right = hole(p, p.solution[0]);
  const wrongHole = await page.$$eval('.hole.legal', (els, r) => els.map((e) => Number(e.dataset.hole)).find((i) => i !== r), right);
  assert.ok(wrongHole !== undefined, 'a legal move other than the solution');
  await click(page, wrongHole);
  await state(page, 'over');
  const wrongToken = String((wrongHole % p.holes) + 1);
  assert.equal(await page.textContent('#pz-status'), `Not ${wrongToken}: the streak ends at 2. The solution: ${p.solution.join(' ')}`);
  assert.equal(await page.textContent('#sk-current'), '2');
  assert.equal(await page.textContent('#sk-best'), '2');
  assert.deepEqual(await page.evaluate(() => JSON.parse(localStorage.getItem('hoyito.puzzle.streak.best'))), { 'II-4': 2 });
  assert.equal(await page.evaluate(() => localStorage.getItem('hoyito.puzzle.streak.run')), null, 'the run is over');
  assert.equal(await page.locator('.hole.legal').count(), 0, 'nothing more to play');
  assert.deepEqual(await seriousViolations(page), []);

  // Start again: a new run from the lowest rung; the best stays, after a reload too.
  await page.click('#sk-restart');
  await state(page, 'playing');
  assert.equal(await page.textContent('#sk-current'), '0');
  assert.equal(await page.textContent('#sk-best'), '2');
  const first = await api(`/api/puzzles/${(await dataset(page)).puzzle}`);
  assert.equal(first.rating, (await api('/api/puzzles/streak?variant=II&holes=4')).rating);
  await page.reload();
  await state(page, 'playing');
  assert.equal(await page.textContent('#sk-best'), '2');
  assert.equal((await dataset(page)).puzzle, first.id, 'the run under way goes on after a reload');
  await context.close();
});
