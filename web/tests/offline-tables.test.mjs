// Endgame tables on the device: the analysis board offers the server's
// default tables (GET /api/tables; here Hoyito III's 2×4 tables up to 12
// seeds, built compact by the test) with their download size, downloads a
// set with a progress bar and keeps it (Cache Storage); with the network
// off, a 2×4 position set up on the board shows the exact values the
// server answered for it online, marked as from the tables on this device;
// a position outside them gets the engine's estimate; the set can be
// removed. At a phone's size (390×844), axe-clean, inside the viewport.
// Offline, a wrong move of a puzzle of the offline pack shows its exact
// value from those tables, as the server gives it online; and the engine of
// the device (its worker) uses the stored tables: above them, its best move
// on the board is one the server proves best, each move scored as proved.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { startServer, binary, seriousViolations } from './helpers.mjs';

const TABLES = mkdtempSync(join(tmpdir(), 'hoyito-offline-tables-'));
// 12 seeds in play on 2×4, North to move: in the tables built below.
const POSITION = '2,0,1,3/0,2,0,4 n 10-10';
// 16 seeds in play: above them.
const ABOVE = '2,2,1,3/2,2,0,4 s 8-8';
// Above them too (16 seeds, none captured yet, so a move's final margin is
// its value), a position where the device's level-10 engine, in 1.2 s,
// scored move 3 at 5 without the tables and every move exactly with them
// (measured with the module in Node when this test was written).
const ENGINE_POSITION = '4,2,2,0/3,1,0,4 s 8-8';
const PHONE = { width: 390, height: 844 };

let server;
let profile;

before(async () => {
  execFileSync(binary, ['tablebase', 'build', '--variant', 'III', '--holes', '4', '--max-seeds', '12', '--compact', '--dir', TABLES, '--quiet']);
  server = await startServer(null, '127.0.0.1:0', ['--tablebases', TABLES]);
  profile = mkdtempSync(join(tmpdir(), 'hoyito-tables-profile-'));
});

after(async () => {
  await server?.stop();
  server?.cleanup();
  rmSync(TABLES, { recursive: true, force: true });
  if (profile) rmSync(profile, { recursive: true, force: true });
});

const api = async (path) => (await fetch(`${server.url}${path}`)).json();
const size = (bytes) => (bytes >= 1e6
  ? `${new Intl.NumberFormat('en', { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(bytes / 1e6)} MB`
  : `${new Intl.NumberFormat('en', { maximumFractionDigits: 0 }).format(bytes / 1e3)} kB`);

/** The moves of the analysis shown, sorted by move: [[move, value]]. */
const shownMoves = (page) => page.$$eval('#ab-analysis tr[data-move]', (rows) => rows
  .map((r) => [r.dataset.move, Number(r.dataset.value)]).sort((a, b) => (a[0] < b[0] ? -1 : 1)));

/** Chromium at a phone's size with a profile of its own, where the service worker and the caches live. */
function launch() {
  return chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    viewport: PHONE,
    locale: 'en-US',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-quic', '--no-first-run',
      '--disable-component-update', '--disable-sync'],
  });
}

/**
 * The analysis board of Hoyito III on 2×4 in `context`, once the installed
 * app (the service worker's cache) holds `file`, so that the page works
 * offline; with the page's errors, gathered from the start.
 */
async function installedBoard(context, file) {
  const page = context.pages()[0] || await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${server.url}/analysis?variant=III&holes=4`);
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.waitForFunction(async (f) => !!(await (await caches.open('hoyito-app')).match(f)), file, { timeout: 20000 });
  return { page, errors };
}

/** Opens `notation` through the board's notation form. */
async function openPosition(page, notation) {
  await page.fill('#ab-notation', notation);
  await page.click('#ab-notation-form button[type=submit]');
}

test('a set downloaded with progress answers exact values offline, as the server did, and can be removed', async () => {
  const manifest = await api('/api/tables');
  const set = manifest.sets.find((s) => s.variant === 'III' && s.holes === 4);
  assert.equal(set.ready, true);
  assert.deepEqual(set.files.map((f) => f.seeds), [4, 8, 12]);
  assert.equal(set.bytes, set.files.reduce((a, f) => a + f.bytes, 0));
  // What the server answers for the position, online.
  const online = await api(`/api/tablebase?variant=III&holes=4&position=${encodeURIComponent(POSITION)}`);
  assert.equal(online.proved, 'tables');

  const context = await launch();
  try {
    // The installed app: its files in the service worker's cache, so that the page and its engine work offline.
    const { page, errors } = await installedBoard(context, '/local/engine-worker.js');
    const row = page.locator('.ot-set[data-set="III-2x4"]');
    await row.locator('button.ot-download').waitFor({ timeout: 20000 });
    // The size is said before the download.
    assert.equal(await row.locator('.ot-status').getAttribute('data-bytes'), String(set.bytes));
    assert.match(await row.textContent(), new RegExp(`${size(set.bytes)} to download`));
    assert.match(await row.textContent(), /Hoyito III.*, 2×4, up to 12 seeds/);
    // Sets the server has not got: no download offered, and it says so.
    assert.equal(await page.locator('.ot-set[data-set="II-2x6"] button').count(), 0);
    assert.match(await page.textContent('.ot-set[data-set="II-2x6"]'), /Not on this server/);

    // The progress shown while downloading, recorded as it changes.
    await page.evaluate(() => {
      window.progressSeen = [];
      new MutationObserver(() => {
        const s = document.querySelector('.ot-status[data-total]');
        if (s && document.querySelector('#ot-progress')) window.progressSeen.push([Number(s.dataset.done), Number(s.dataset.total)]);
      }).observe(document.getElementById('ab-tables'), { subtree: true, childList: true, attributes: true });
    });
    await row.locator('button.ot-download').click();
    await row.locator('.ot-status[data-stored]').waitFor({ timeout: 20000 });
    const seen = await page.evaluate(() => window.progressSeen);
    assert.ok(seen.length >= 2, JSON.stringify(seen));
    assert.ok(seen.every(([, total]) => total === set.bytes), JSON.stringify(seen));
    assert.ok(seen.every(([done], i) => i === 0 || done >= seen[i - 1][0]), JSON.stringify(seen));
    assert.equal(seen.at(-1)[0], set.bytes);
    assert.equal(await row.locator('.ot-status').getAttribute('data-stored'), String(set.bytes));
    assert.match(await row.textContent(), new RegExp(`On this device: ${size(set.bytes)}`));
    assert.equal(await page.getAttribute('.ot-total', 'data-bytes'), String(set.bytes));
    const cached = await page.evaluate(async () => (await (await caches.open('hoyito-tables')).keys()).length);
    assert.equal(cached, 4, 'three files and the record of the set');

    // No network: the position's exact values come from the device.
    await context.setOffline(true);
    await openPosition(page, POSITION);
    await page.waitForSelector('#ab-analysis[data-state="exact"][data-proved="device"]', { timeout: 20000 });
    assert.equal(Number(await page.getAttribute('#ab-analysis .ab-value', 'data-value')), online.value);
    const want = online.moves.map((m) => [m.move, m.value]).sort((a, b) => (a[0] < b[0] ? -1 : 1));
    assert.deepEqual(await shownMoves(page), want);
    assert.ok(want.length > 0);
    assert.match(await page.textContent('#ab-analysis'), /From the endgame tables on this device/);
    assert.match(await page.textContent('#ab-analysis .badge'), /exact/);

    assert.deepEqual(await seriousViolations(page), []);
    const overflow = await page.evaluate(() => {
      const out = [];
      for (const sel of ['#ab-tables', '#ab-analysis', '.ot-set', '.ab-moves']) {
        for (const el of document.querySelectorAll(sel)) {
          const r = el.getBoundingClientRect();
          if (r.left < 0 || r.right > window.innerWidth + 0.5) out.push(`${sel}: ${r.left}..${r.right}`);
        }
      }
      if (document.documentElement.scrollWidth > window.innerWidth) out.push(`page ${document.documentElement.scrollWidth} wide`);
      return out;
    });
    assert.deepEqual(overflow, []);

    // Above the stored tables: the engine's estimate, not exact.
    await openPosition(page, ABOVE);
    await page.waitForSelector('#ab-analysis[data-state="estimate"]', { timeout: 30000 });
    assert.match(await page.textContent('#ab-analysis'), /No connection to the server/);

    // Removed, offline too: nothing stays stored.
    await row.locator('button.ot-remove').click();
    await page.waitForSelector('.ot-total[data-bytes="0"]', { timeout: 20000 });
    const left = await page.evaluate(async () => (await (await caches.open('hoyito-tables')).keys()).length);
    assert.equal(left, 0);
    await openPosition(page, POSITION);
    await page.waitForSelector('#ab-analysis[data-state="estimate"]', { timeout: 30000 });
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('offline, a wrong move of a puzzle in the stored tables shows its exact value, as the server gives it', async () => {
  // A puzzle of the offline pack inside the tables: Hoyito III on 2×4, at most 12 seeds in play.
  const { puzzles } = await api('/puzzle-pack.json');
  const seeds = (p) => p.position.split(' ')[0].split(/[,/]/).reduce((a, x) => a + Number(x), 0);
  const puzzle = puzzles.find((p) => p.variant === 'III' && p.holes === 4 && seeds(p) <= 12);
  assert.ok(puzzle, 'a puzzle of the pack inside the tables');
  const truth = await api(`/api/tablebase?variant=III&holes=4&position=${encodeURIComponent(puzzle.position)}`);
  const wrong = truth.moves.find((m) => m.move !== puzzle.solution[0]);
  assert.ok(wrong, 'a move other than the solution');

  const context = await launch();
  try {
    const { page, errors } = await installedBoard(context, '/puzzle-pack.json');
    const row = page.locator('.ot-set[data-set="III-2x4"]');
    await row.locator('button.ot-download').click();
    await row.locator('.ot-status[data-stored]').waitFor({ timeout: 20000 });

    await context.setOffline(true);
    await page.goto(`${server.url}/puzzles/${puzzle.id}`);
    const side = puzzle.position.split(' ')[1] === 's' ? 0 : puzzle.holes;
    const h = side + Number(wrong.move) - 1;
    await page.waitForSelector(`.hole.legal[data-hole="${h}"]`, { timeout: 20000 });
    await page.locator(`.hole[data-hole="${h}"]`).click();
    await page.waitForFunction(() => document.querySelector('.puzzle')?.dataset.wrongValue !== undefined, null, { timeout: 20000 });
    assert.equal(await page.$eval('.puzzle', (e) => e.dataset.wrongValue), String(wrong.value));
    assert.match(await page.textContent('.puzzle'), new RegExp(`Not ${wrong.move}: with perfect play it gains`));
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('offline, the engine of the device uses the stored tables: above them, its best move is one the server proves best, and its scores the proved values', async () => {
  // What the server proves online for ENGINE_POSITION: its tables and an exact search down to them.
  const truth = await api(`/api/tablebase?variant=III&holes=4&position=${encodeURIComponent(ENGINE_POSITION)}`);
  assert.equal(truth.proved, 'search');
  const bests = truth.moves.filter((m) => m.value === truth.value).map((m) => m.move);
  assert.ok(bests.length > 0 && bests.length < truth.moves.length, JSON.stringify(truth));

  const context = await launch();
  try {
    const { page, errors } = await installedBoard(context, '/local/tables.js');
    // The set, downloaded here unless an earlier test left it stored.
    const row = page.locator('.ot-set[data-set="III-2x4"]');
    await row.locator('button.ot-download, .ot-status[data-stored]').first().waitFor({ timeout: 20000 });
    if (await row.locator('.ot-status[data-stored]').count() === 0) await row.locator('button.ot-download').click();
    await row.locator('.ot-status[data-stored]').waitFor({ timeout: 20000 });

    await context.setOffline(true);
    await openPosition(page, ENGINE_POSITION);
    await page.waitForSelector('#ab-analysis[data-state="estimate"]', { timeout: 30000 });
    // The engine's best move heads the estimate (a tie keeps the engine's order).
    const engineBest = await page.getAttribute('#ab-analysis tr[data-move]', 'data-move');
    assert.ok(bests.includes(engineBest), `the engine chose ${engineBest}; the server proves best ${bests.join(', ')}`);
    // And, its search ending in the tables, it scores every move as the server proves it.
    const want = truth.moves.map((m) => [m.move, m.value]).sort((a, b) => (a[0] < b[0] ? -1 : 1));
    assert.deepEqual(await shownMoves(page), want);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});
