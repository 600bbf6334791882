// End-to-end tests of post-game analysis: a game against level 1 on 2×4
// boards played to its end, analysed with a progress bar, its evaluation
// graph, marks and totals; a jump through the graph (click and keys), the
// best move on the board and its line, play from a position; the stored
// analysis shown at once after a reload; no serious axe-core violation.
// Run with tests/run.sh (desktop and phone sizes).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  startServer, launchBrowser, openPage, createGame as createGameAt, stepCount, callApi,
  seriousViolations, waitUntil,
} from './helpers.mjs';

let server;
let browser;

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
  server?.cleanup();
});

const open = (path, opts) => openPage(browser, server.url + path, opts);
const api = (method, path, body, token) => callApi(server.url, method, path, body, token);

/** Plays the first legal hole whenever it is the player's move, until the game is over. */
async function playToTheEnd(page) {
  for (let i = 0; i < 400; i++) {
    // The player's move, or the end.
    await page.waitForSelector('.hole.legal, #summary .summary', { timeout: 15000 });
    if (await page.locator('#summary .summary').count()) return;
    const n = await page.locator('#moves li').count();
    await page.locator('.hole.legal').first().click();
    await page.waitForFunction((m) => document.querySelectorAll('#moves li').length > m
      || document.querySelector('#summary .summary'), n, { timeout: 15000 });
  }
  assert.fail('the game did not end');
}

/** The frame shown in the list of moves. */
const currentFrame = (page) => page.$eval('#moves li.current button', (b) => Number(b.dataset.frame));

test('a finished game against level 1 is analysed, explored, played on, and its analysis is stored', async () => {
  const { context, page } = await open('/');
  const id = await createGameAt(page, server.url, { mode: 'engine', variant: 'II', holes: '4', level: '1' });
  await playToTheEnd(page);
  const game = await api('GET', `/api/games/${id}`);
  assert.equal(game.status, 'over');
  const total = game.seq + 1;

  // The result offers the analysis; it runs with a progress bar: a quick
  // pass, whose marks show at once, then a deeper one that replaces them.
  await page.click('#an-start');
  await page.waitForFunction(() => document.querySelector('progress#an-progress')
    && /^Analysing… \d+ of \d+ positions$/.test(document.querySelector('.an-progress label').textContent.trim()));
  const searched = () => page.textContent('#an-search').then((s) => s.trim());
  const depthOf = (ms) => `${ms} ms a position, depth \\d+(–\\d+)?`;
  await page.waitForFunction(() => /^Looking deeper… \d+ of \d+ positions$/.test(document.querySelector('.an-progress label')?.textContent.trim()),
    null, { timeout: 120000 });
  const refining = await api('GET', `/api/games/${id}/analysis`);
  assert.equal(refining.passes, 2, 'a second pass');
  // While it refines, the page says how long and how deep each pass searched.
  const whileRefining = await searched();
  assert.match(whileRefining, new RegExp(`^Engine search: (${depthOf('\\d+')}; )?${depthOf('\\d+')}$`));
  assert.ok(await page.locator('#moves .an-mark').count() > 0, 'the first pass marks the moves');
  await page.waitForSelector('.an-summary table', { timeout: 120000 });
  await page.waitForFunction(() => !document.querySelector('#an-progress'), null, { timeout: 120000 });

  // The graph has a point per step; the list of moves a mark (with its word) per move.
  assert.equal(await page.locator('svg.eval-graph .pt').count(), total);
  const moves = game.history.filter((s) => s.kind === 'move').length;
  assert.equal(await page.locator('#moves .an-mark').count(), moves);
  const words = await page.$$eval('#moves .an-mark .sr-only', (els) => els.map((e) => e.textContent));
  assert.ok(words.every((w) => /^, (best|inaccuracy|mistake|blunder)$/.test(w)), words.join('|'));
  // The totals: both sides, an average loss and a count per mark.
  const rows = await page.$$eval('.an-summary tbody tr', (trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent.trim())));
  assert.deepEqual(rows.map((r) => r[0]), ['South', 'North']);
  const counted = rows.reduce((n, r) => n + r.slice(2).reduce((a, c) => a + Number(c), 0), 0);
  assert.equal(counted, moves);
  const stored = await api('GET', `/api/games/${id}/analysis`);
  assert.equal(stored.status, 'done');
  assert.equal(stored.steps.length, total);
  // Done: every step is the deeper pass's, and the page says so.
  assert.equal(stored.pass, 2);
  assert.ok(stored.steps.every((p) => p.movetime_ms === stored.movetime_ms));
  const first = Math.min(...[...whileRefining.matchAll(/(\d+) ms a position/g)].map((m) => Number(m[1])));
  assert.ok(first < stored.movetime_ms, `the quick pass's ${first} ms, then ${stored.movetime_ms} ms (${whileRefining})`);
  assert.match(await searched(), new RegExp(`^Engine search: ${depthOf(stored.movetime_ms)}$`));
  const marks = stored.steps.filter((p) => p.played).map((p) => p.played.mark);
  assert.deepEqual(await page.$$eval('#moves .an-mark', (els) => els.map((e) => e.className.match(/m-(\w+)/)[1])), marks);
  // The position shown says how deep it was searched.
  assert.match(await page.textContent('.an-eval'), new RegExp(`depth \\d+ in ${stored.movetime_ms} ms|exact\\)`));

  // On a phone of 360 px the totals show every column, the blunders' too.
  {
    // Resized, the page draws itself again: each check waits for that.
    const resize = async (to) => {
      await page.evaluate(() => { window.resized = new Promise((r) => { window.addEventListener('resize', r, { once: true }); }); });
      await page.setViewportSize(to);
      await page.evaluate(() => window.resized);
    };
    const size = page.viewportSize();
    await resize({ width: 360, height: size.height });
    const fit = await page.$eval('.an-summary', (el) => {
      const last = el.querySelector('thead th:last-child').getBoundingClientRect();
      return { scroll: el.scrollWidth, width: el.clientWidth, right: last.right, view: window.innerWidth };
    });
    assert.ok(fit.scroll <= fit.width + 1 && fit.right <= fit.view, JSON.stringify(fit));
    await resize(size);
  }

  // A click on the graph jumps to that step; the keys move along it.
  await page.locator('svg.eval-graph').scrollIntoViewIfNeeded();
  const box = await page.locator('svg.eval-graph').boundingBox();
  const pad = (8 / 600) * box.width;
  const target = 2;
  await page.mouse.click(box.x + pad + (target * (box.width - 2 * pad)) / (total - 1), box.y + box.height / 2);
  assert.equal(await currentFrame(page), target, `total ${total} box ${JSON.stringify(box)} now ${JSON.stringify(await page.locator('svg.eval-graph').boundingBox())}`);
  await page.focus('svg.eval-graph');
  await page.keyboard.press('ArrowRight');
  assert.equal(await currentFrame(page), target + 1);
  assert.equal(await page.getAttribute('svg.eval-graph', 'aria-valuenow'), String(target + 1));
  await page.keyboard.press('ArrowLeft');
  assert.equal(await currentFrame(page), target);

  // The best move of the position shown is marked on the board and named.
  const at = stored.steps[target];
  assert.ok(at.best, 'the position has a best move');
  assert.ok(await page.locator('.hole.best-move').count() >= 1);
  assert.match(await page.textContent('.an-best'), new RegExp(`Best move: (South|North) ${at.best}`));
  assert.match(await page.getAttribute('.hole.best-move', 'aria-label'), /best move/);

  // Its line, step by step.
  await page.click('#an-line');
  assert.match(await page.textContent('#an-line-text'), new RegExp(`Line, move 1 of ${at.line.length}: (South|North) ${at.line[0].token}`));
  const counts = await page.$$eval('.hole-text .count', (els) => els.map((e) => Number(e.textContent)));
  assert.deepEqual(counts, at.line[0].board);
  if (at.line.length > 1) {
    await page.click('#an-line-next');
    assert.match(await page.textContent('#an-line-text'), new RegExp(`Line, move 2 of ${at.line.length}`));
  }
  await page.click('#an-line-close');
  assert.equal(await page.locator('#an-line-text').count(), 0);

  // No serious accessibility violation with the analysis shown.
  const found = await seriousViolations(page);
  assert.deepEqual(found, [], found.join('; '));

  // The downloaded record carries the marks as comments.
  const record = await api('GET', `/api/games/${id}/record`);
  // The game's budget shared among its positions, as the analysis says.
  assert.ok(stored.movetime_ms >= 30 && stored.movetime_ms <= 250, `${stored.movetime_ms} ms per position`);
  assert.match(record, new RegExp(`\\[Annotator "hoyito analysis, ${stored.movetime_ms} ms per position"\\]`));
  assert.match(record, /\n1\. \S+ \{[=+\-0-9]+ (best|inaccuracy|mistake|blunder)/);

  // A reload shows the stored analysis at once, with no button to start it.
  await page.reload();
  await page.waitForSelector('.an-summary table', { timeout: 3000 });
  assert.equal(await page.locator('#an-start').count(), 0);
  assert.equal(await page.locator('svg.eval-graph .pt').count(), total);

  // In Spanish and dark colours too: translated, and no serious violation.
  {
    const dark = await open(`/g/${id}`, { locale: 'es-ES', colorScheme: 'dark' });
    await dark.page.waitForSelector('.an-summary table', { timeout: 3000 });
    await dark.page.locator('svg.eval-graph').click({ position: { x: box.width / 2, y: box.height / 2 } });
    assert.match(await dark.page.textContent('#an-title'), /Análisis/);
    const inDark = await seriousViolations(dark.page);
    assert.deepEqual(inDark, [], inDark.join('; '));
    await dark.context.close();
  }

  // Play from a position, hot-seat: a new game with the steps up to it.
  await page.locator('svg.eval-graph').click({ position: { x: pad + (target * (box.width - 2 * pad)) / (total - 1), y: box.height / 2 } });
  assert.equal(await currentFrame(page), target);
  await page.click('#an-play-hotseat');
  await page.waitForURL((u) => /\/g\/[A-Za-z0-9]+$/.test(u.pathname) && !u.pathname.endsWith(id));
  await page.waitForSelector('.hole.legal');
  assert.equal(await stepCount(page), target);
  const newId = page.url().split('/g/')[1];
  const played = await api('GET', `/api/games/${newId}`);
  assert.equal(played.mode, 'hotseat');
  assert.deepEqual(played.history.map((s) => s.token), game.history.slice(0, target).map((s) => s.token));
  await context.close();
});

test('play from a position against the computer takes the side to move', async () => {
  // A finished hot-seat game through the API, analysed quickly.
  const created = await api('POST', '/api/games', { mode: 'hotseat', rules: { variant: 'I', holes: 4 } });
  let g = created.game;
  for (let k = 0; !g.state.over; k++) {
    assert.ok(k < 500, 'the game should end');
    g = (await api('POST', `/api/games/${created.id}/moves`, { move: g.legal[k % g.legal.length], seq: g.seq }, created.token)).game;
  }
  await api('POST', `/api/games/${created.id}/analysis`, { movetime_ms: 20 });
  await waitUntil(async () => (await api('GET', `/api/games/${created.id}/analysis`)).status === 'done', 'the analysis is done');
  const { context, page } = await open(`/g/${created.id}`);
  await page.waitForSelector('.an-summary table', { timeout: 5000 });
  await page.click('#first');
  await page.click('#next');
  assert.equal(await currentFrame(page), 1);
  const toMove = g.history[0].to_move;
  await page.click('#an-play-engine');
  await page.waitForURL((u) => !u.pathname.endsWith(created.id));
  await page.waitForSelector('#moves li');
  const newId = page.url().split('/g/')[1];
  const made = await api('GET', `/api/games/${newId}`);
  assert.equal(made.mode, 'engine');
  assert.equal(made.engine_side, toMove === 'south' ? 'north' : 'south');
  assert.equal(made.history[0].token, g.history[0].token);
  await context.close();
});

test('a game in progress offers its analysis in the replay only, and an online one not at all', async () => {
  const created = await api('POST', '/api/games', { mode: 'hotseat', rules: { variant: 'II', holes: 4 } });
  let g = created.game;
  for (let k = 0; k < 3; k++) g = (await api('POST', `/api/games/${created.id}/moves`, { move: g.legal[0], seq: g.seq }, created.token)).game;
  const { context, page } = await open(`/g/${created.id}`, { storage: { [`hoyito.seat.${created.id}`]: JSON.stringify({ token: created.token, seat: 'both' }) } });
  await page.waitForSelector('.hole.legal');
  assert.equal(await page.locator('#an-start').count(), 0, 'not while playing the live position');
  await page.click('#prev');
  await page.waitForSelector('#an-start');
  await page.click('#live');
  assert.equal(await page.locator('#an-start').count(), 0);
  await context.close();

  const online = await api('POST', '/api/games', { mode: 'online', rules: { variant: 'II', holes: 4 } });
  await api('POST', `/api/games/${online.id}/moves`, { move: online.game.legal[0] }, online.token);
  const watcher = await open(`/g/${online.id}`);
  await watcher.page.waitForSelector('#moves li');
  await watcher.page.click('#prev');
  await watcher.page.waitForSelector('#viewing:not([hidden])');
  assert.equal(await watcher.page.locator('#an-start').count(), 0);
  await watcher.context.close();
});
