// Puzzles with the network off: the installed app keeps the offline pack
// (/puzzle-pack.json, cached by the service worker when it installs), and
// with no connection the puzzle page and the streak play from it and say
// so: a puzzle of the pack solved (not rated), Next puzzle through the
// pack, a puzzle not in it and the puzzle of the day refused with a
// reason, a streak climbing the pack's ratings to a wrong move. Run with
// tests/run.sh.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { startServer, viewport, seriousViolations } from './helpers.mjs';

let server;
let profile;
let pack;

before(async () => {
  server = await startServer();
  profile = mkdtempSync(join(tmpdir(), 'hoyito-pack-'));
  pack = (await (await fetch(`${server.url}/puzzle-pack.json`)).json()).puzzles;
});

after(async () => {
  await server?.stop();
  server?.cleanup();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

/** Chromium with a profile of its own, where the service worker and its cache live. */
async function launch() {
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    viewport,
    locale: 'en-US',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-quic', '--no-first-run',
      '--disable-component-update', '--disable-sync'],
  });
  await context.addInitScript(() => {
    localStorage.setItem('hoyito.speed', 'instant');
    localStorage.setItem('hoyito.puzzle.filter', JSON.stringify({ variant: 'III', holes: 4 }));
  });
  const page = context.pages()[0] || await context.newPage();
  page.on('pageerror', (e) => { console.error('page error:', e.message); });
  return { context, page };
}

const solver = (p) => (p.position.split(' ')[1] === 's' ? 'south' : 'north');
const hole = (p, token, side = solver(p)) => (side === 'south' ? 0 : p.holes) + Number(token) - 1;
const state = (page, s) => page.waitForFunction((x) => document.querySelector('.puzzle')?.dataset.state === x, s, { timeout: 20000 });
const dataset = (page) => page.$eval('.puzzle', (e) => ({ ...e.dataset }));
const byId = (id) => pack.find((p) => p.id === id);

/** Plays puzzle `p`'s solution on the page, waiting for each forced reply. */
async function solve(page, p) {
  for (let i = 0; i < p.solution.length; i += 2) {
    const h = hole(p, p.solution[i]);
    await page.waitForSelector(`.hole.legal[data-hole="${h}"]`, { timeout: 20000 });
    await page.locator(`.hole[data-hole="${h}"]`).click();
  }
}

test('the pack is small, of every variant and board, and the service worker caches it on install', async () => {
  const res = await fetch(`${server.url}/puzzle-pack.json`);
  assert.ok((await res.arrayBuffer()).byteLength < 200_000);
  assert.deepEqual([...new Set(pack.map((p) => `${p.variant}-${p.holes}`))].sort(), ['I-4', 'I-6', 'II-4', 'II-6', 'III-4', 'III-6']);
  const { files } = await (await fetch(`${server.url}/precache.json`)).json();
  assert.ok(files.includes('/puzzle-pack.json'));
});

test('offline, puzzles and the streak play from the pack, and the page says so', async () => {
  const { context, page } = await launch();
  try {
    await page.goto(`${server.url}/`);
    await page.evaluate(() => navigator.serviceWorker.ready);
    await page.waitForFunction(async () => !!(await (await caches.open('hoyito-app')).match('/puzzle-pack.json')), null, { timeout: 20000 });
    await context.setOffline(true);

    // A puzzle of the pack, solved: from the pack, not rated.
    const mine = pack.filter((p) => p.variant === 'III' && p.holes === 4);
    const one = mine.find((p) => p.solution.length === 1);
    await page.goto(`${server.url}/puzzles/${one.id}`);
    await state(page, 'playing');
    assert.equal(await page.textContent('#pz-pack'), `No connection to the server: playing from the offline pack of ${pack.length} puzzles kept on this device.`);
    assert.equal(await page.isVisible('#pz-pack'), true);
    await solve(page, one);
    await state(page, 'solved');
    assert.equal(await page.textContent('#pz-rating'), 'Offline: this attempt is not rated.');
    assert.deepEqual(await seriousViolations(page), []);

    // Next puzzle: the next of the pack with the filters (III, 2×4).
    await page.click('#pz-next');
    const after = mine[mine.indexOf(one) + 1];
    await page.waitForFunction((x) => location.pathname === x, `/puzzles/${after.id}`, { timeout: 20000 });
    await page.waitForFunction((x) => document.getElementById('pz-info').textContent.includes(x), after.id, { timeout: 20000 });

    // Not in the pack, and the puzzle of the day: each says why.
    const missing = ['III-4-0001', 'III-4-0002', 'III-4-0003', 'III-4-0004', 'III-4-0005'].find((x) => !byId(x));
    await page.goto(`${server.url}/puzzles/${missing}`);
    await state(page, 'failed');
    assert.equal(await page.textContent('#pz-status'), 'No connection to the server, and this puzzle is not in the offline pack: try Next puzzle.');
    await page.goto(`${server.url}/puzzles/daily`);
    await state(page, 'failed');
    assert.match(await page.textContent('#pz-status'), /^The puzzle of the day needs a connection/);

    // The streak: the pack's lowest rating first, each next one rated higher, to a wrong move.
    await page.goto(`${server.url}/puzzles/streak`);
    await state(page, 'playing');
    assert.equal((await dataset(page)).pack, String(pack.length));
    const ratings = [...new Set(mine.map((p) => p.rating))].sort((a, b) => a - b);
    let last = null;
    for (let k = 0; k < 2; k += 1) {
      const { puzzle: id } = await dataset(page);
      const p = byId(id);
      assert.ok(p && p.variant === 'III' && p.holes === 4, id);
      assert.equal(p.rating, ratings[k], 'the rungs of the pack, in order');
      await solve(page, p);
      await page.waitForFunction((n) => document.querySelector('.puzzle').dataset.streak === String(n), k + 1, { timeout: 20000 });
      await page.waitForFunction((old) => {
        const d = document.querySelector('.puzzle').dataset;
        return d.puzzle !== old && d.state === 'playing';
      }, id, { timeout: 20000 });
      last = p;
    }
    const p = byId((await dataset(page)).puzzle);
    assert.ok(p.rating > last.rating);
    const right = hole(p, p.solution[0]);
    const wrong = await page.$$eval('.hole.legal', (els, r) => els.map((e) => Number(e.dataset.hole)).find((i) => i !== r), right);
    await page.locator(`.hole[data-hole="${wrong}"]`).click();
    await state(page, 'over');
    assert.equal(await page.textContent('#sk-best'), '2');
    assert.equal(await page.isVisible('#pz-pack'), true);
    assert.deepEqual(await seriousViolations(page), []);
  } finally {
    await context.close();
  }
});
