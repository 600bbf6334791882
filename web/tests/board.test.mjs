// End-to-end tests of the analysis board (/analysis), against a server with
// Hoyito II's 2×6 endgame tables up to 8 seeds (built by the test): a 2×6
// position typed in shows the tables' exact values (as /api/tablebase
// gives them), the best move marked; a position set up by taps; an
// impossible position's error; a move played and stepped back; the address
// reopening the position; a position above the tables proved by the exact
// search; engine estimates when the server cannot answer;
// Analyse from here on a game page; no serious axe-core violation.
// Run with tests/run.sh (desktop and phone sizes).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  startServer, launchBrowser, openPage, createGame, callApi, seriousViolations, binary, once,
} from './helpers.mjs';

const TABLES = mkdtempSync(join(tmpdir(), 'hoyito-tables-'));
// 8 seeds in play on 2×6: in the tables of Hoyito II built below.
const POS = '0,0,1,0,2,0/0,3,0,1,0,1 s 20-20';

let server;
let browser;

before(async () => {
  execFileSync(binary, ['tablebase', 'build', '--variant', 'II', '--holes', '6', '--max-seeds', '8', '--dir', TABLES, '--quiet']);
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
const probe = (pos, variant = 'II', holes = 6) => api(`/api/tablebase?variant=${variant}&holes=${holes}&position=${encodeURIComponent(pos)}`);
const boardUrl = (pos, variant = 'II', holes = 6) => `/analysis?variant=${variant}&holes=${holes}&position=${encodeURIComponent(pos)}`;

/** Waits until the board shows `pos` (its notation) analysed from `source` ('exact' or 'estimate'). */
async function analysed(page, pos, source) {
  await page.waitForFunction(([p, s]) => document.getElementById('ab-notation')?.value === p
    && document.getElementById('ab-analysis')?.dataset.state === s, [pos, source], { timeout: 20000 }).catch(async (e) => {
    const seen = await page.evaluate(() => [document.getElementById('ab-notation')?.value, document.getElementById('ab-analysis')?.dataset.state, document.getElementById('ab-error')?.textContent, location.href]);
    throw new Error(`${e.message}: waiting for ${pos} (${source}), seen ${JSON.stringify(seen)}`);
  });
}

/** The moves and values the page shows, and the position's value. */
async function shown(page) {
  return page.evaluate(() => ({
    value: Number(document.querySelector('.ab-value').dataset.value),
    moves: [...document.querySelectorAll('.ab-moves tbody tr')].map((r) => ({ move: r.dataset.move, value: Number(r.dataset.value), best: r.classList.contains('best') })),
  }));
}

const inView = (page, sel) => page.$eval(sel, (e) => {
  const r = e.getBoundingClientRect();
  return r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth && r.height > 0;
});

/** Types `pos` in the notation field and opens it. */
async function typePosition(page, pos) {
  await page.fill('#ab-notation', pos);
  await page.click('#ab-notation-form button[type=submit]');
}

test('a typed 2×6 position in the tables shows their exact values, best marked, side to move said', async () => {
  const { context, page } = await open('/analysis');
  await page.waitForSelector('#ab-analysis[aria-busy=false]', { timeout: 20000 });
  await typePosition(page, POS);
  await analysed(page, POS, 'exact');
  const truth = await probe(POS);
  const got = await shown(page);
  assert.equal(got.value, truth.value);
  const byMove = Object.fromEntries(truth.moves.map((m) => [m.move, m.value]));
  assert.deepEqual(Object.fromEntries(got.moves.map((m) => [m.move, m.value])), byMove);
  for (const m of got.moves) assert.equal(m.best, m.value === truth.value, `move ${m.move}`);
  const text = await page.textContent('#ab-analysis');
  assert.match(text, /exact/);
  assert.match(text, /South, to move, ends 8 seeds behind North/);
  assert.ok(await inView(page, '#ab-board svg'), 'the board is in view');
  assert.ok(new URL(page.url()).searchParams.get('position') === POS, page.url());
  assert.deepEqual(await seriousViolations(page), []);
  await context.close();
});

test('a position set up by taps, and an impossible one refused with the reason', once, async () => {
  const { context, page } = await open(boardUrl(POS));
  await analysed(page, POS, 'exact');
  await page.click('#ab-edit');
  await page.click('#ab-clear');
  const hole = (i) => page.locator(`.hole[data-hole="${i}"]`);
  for (let k = 0; k < 3; k++) await hole(0).click();
  for (let k = 0; k < 2; k++) await hole(7).click();
  await page.click('#ab-remove');
  await hole(0).click();
  await page.selectOption('#ab-side', 'north');
  const pos = '2,0,0,0,0,0/0,2,0,0,0,0 n 20-20';
  await analysed(page, pos, 'exact');
  assert.equal((await shown(page)).value, (await probe(pos)).value);
  assert.match(await page.textContent('#ab-turn'), /North to move/);
  assert.deepEqual(await seriousViolations(page), []);
  await page.click('#ab-edit');

  await typePosition(page, '200,50,0,0,0,0/0,0,0,0,0,0 s 0-0');
  await page.waitForFunction(() => /Impossible position: .*240/.test(document.getElementById('ab-error').textContent));
  assert.equal(await page.$eval('#ab-analysis', (e) => e.dataset.state), 'invalid');
  await typePosition(page, 'four seeds each');
  await page.waitForFunction(() => /Not a position/.test(document.getElementById('ab-error').textContent));
  await context.close();
});

test('a move played updates the values, steps back, and the address reopens the position', once, async () => {
  const { context, page } = await open(boardUrl(POS));
  await analysed(page, POS, 'exact');
  const before = await shown(page);
  const best = before.moves.find((m) => m.best).move;
  await page.click(`button.ab-play[data-move="${best}"]`);
  await page.waitForFunction((p) => document.getElementById('ab-notation').value !== p
    && document.getElementById('ab-analysis').dataset.state !== 'busy', POS, { timeout: 20000 });
  const after1 = await page.inputValue('#ab-notation');
  assert.match(await page.textContent('#ab-played'), new RegExp(`: ${best}$`));
  await analysed(page, after1, 'exact');
  const truth = await probe(after1);
  assert.equal((await shown(page)).value, truth.value);
  // Perfect play keeps the value: the side now to move gains what the mover lost (or keeps it, after an extra turn).
  assert.equal(new URL(page.url()).searchParams.get('position'), after1);
  const link = page.url();

  await page.click('#ab-back');
  await analysed(page, POS, 'exact');
  assert.deepEqual(await shown(page), before);
  assert.equal(await page.isDisabled('#ab-back'), true);

  const again = await openPage(browser, link);
  await analysed(again.page, after1, 'exact');
  assert.equal((await shown(again.page)).value, truth.value);
  await again.context.close();
  await context.close();
});

test('a position above the tables is proved by the exact search, and says so', once, async () => {
  // 12 seeds in play: above the tables (to 8), proved by the search down to them.
  const above = '0,2,1,0,2,0/0,3,0,1,0,3 s 18-18';
  const want = await probe(above);
  assert.equal(want.proved, 'search');
  const { context, page } = await open(boardUrl(above));
  await analysed(page, above, 'exact');
  assert.equal(await page.$eval('#ab-analysis', (e) => e.dataset.proved), 'search');
  assert.match(await page.textContent('#ab-analysis'), /Proved by an exact search down to the endgame tables/);
  const got = await shown(page);
  assert.equal(got.value, want.value);
  assert.deepEqual(got.moves.map((m) => [m.move, m.value]).sort(), want.moves.map((m) => [m.move, m.value]).sort());
  await context.close();
});

test('without the server the engine estimates, and says so', once, async () => {
  const { context, page } = await open('/analysis', { storage: {} });
  await context.route('**/api/tablebase**', (r) => r.abort('internetdisconnected'));
  await page.goto(server.url + boardUrl(POS));
  await analysed(page, POS, 'estimate');
  const text = await page.textContent('#ab-analysis');
  assert.match(text, /No connection to the server: engine estimates only/);
  assert.match(text, /estimate/);
  const got = await shown(page);
  assert.deepEqual(got.moves.map((m) => m.move).sort(), (await probe(POS)).moves.map((m) => m.move).sort());
  assert.ok(got.moves.some((m) => m.best));
  await context.close();
});

test('Analyse from here opens the board at the game position shown', once, async () => {
  const { context, page } = await open('/');
  const id = await createGame(page, server.url, { mode: 'hotseat', variant: 'III', holes: '4' });
  await page.locator('.hole.legal').first().click();
  await page.waitForFunction(() => document.querySelectorAll('#moves li').length > 1, null, { timeout: 15000 });
  const game = await api(`/api/games/${id}`);
  const want = game.state.notation;
  if (await page.isVisible('#more')) await page.click('#more');
  await page.click('#analyse-here');
  await page.waitForURL(/\/analysis\?/);
  const url = new URL(page.url());
  assert.equal(url.searchParams.get('variant'), 'III');
  assert.equal(url.searchParams.get('holes'), '4');
  await analysed(page, want, (await probe(want, 'III', 4).then(() => 'exact', () => 'estimate')));
  await context.close();
});
