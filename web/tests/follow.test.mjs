// End-to-end tests of following a game: the last move stays marked, the
// list of moves tells captures and extra turns, directions are named
// clockwise / counter-clockwise, moves are announced to screen readers, a
// move can be played with the keyboard alone, and the tab's title tells a
// seated player it is their move. Run with tests/run.sh.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  startServer, launchBrowser, openPage, createGame as createGameAt, waitForSteps, callApi, withMenu,
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
const createGame = (page, opts) => createGameAt(page, server.url, opts);
const api = (method, path, body, token) => callApi(server.url, method, path, body, token);
const openSeated = (id, seat, opts = {}) => open(`/g/${id}`, { ...opts, storage: { [`hoyito.seat.${id}`]: JSON.stringify(seat) } });

/**
 * A hot-seat Hoyito II game on 2×6, played through the API up to a move
 * that captures and gives its mover another turn (that move undone): the
 * game, its seat, and the move as the server played it.
 */
async function beforeACapture() {
  for (let attempt = 0; attempt < 5; attempt++) {
    const created = await api('POST', '/api/games', { mode: 'hotseat', rules: { variant: 'II', holes: 6 } });
    let g = created.game;
    for (let k = 0; !g.state.over && k < 300; k++) {
      const r = await api('POST', `/api/games/${created.id}/moves`, { move: g.legal[(k * 5 + attempt) % g.legal.length], seq: g.seq }, created.token);
      if (r.move.captured > 0 && r.move.extra_turn && !r.move.passed && !r.game.state.over) {
        await api('POST', `/api/games/${created.id}/undo`, undefined, created.token);
        return { id: created.id, seat: { token: created.token, seat: 'both' }, move: r.move, seq: r.game.seq };
      }
      g = r.game;
    }
  }
  throw new Error('no capture with an extra turn in five games');
}

/**
 * Starts recording every text the page's title (`title`) or an element
 * (`#id`) shows; `seen(page, what)` gives them.
 */
const record = (page, what) => page.evaluate((sel) => {
  const el = document.querySelector(sel);
  window.__seen = window.__seen || {};
  const seen = [el.textContent];
  window.__seen[sel] = seen;
  new MutationObserver(() => seen.push(el.textContent)).observe(el, { childList: true, characterData: true, subtree: true });
}, what);
const seen = (page, what) => page.evaluate((sel) => window.__seen[sel], what);

const marked = (page, cls) => page.$$eval(`.hole.${cls}`, (els) => els.map((e) => Number(e.dataset.hole)).sort((a, b) => a - b));

test('after the sowing, the last move\'s start and captures stay marked, by shape too', async () => {
  const { id, seat, move, seq } = await beforeACapture();
  const start = (move.side === 'south' ? 0 : 6) + Number(move.token) - 1;
  const took = [...new Set(move.trace.events.filter((e) => e[0] === 'c').map((e) => e[1]))].sort((a, b) => a - b);
  assert.ok(took.length > 0);
  const { context, page } = await openSeated(id, seat, { animate: true });
  try {
    await page.waitForSelector('.hole.legal');
    await withMenu(page, (p) => p.selectOption('#speed', 'fast'));
    await page.click(`.hole[data-hole="${start}"]`);
    // Once the seeds are sown, the move's marks stay.
    await waitForSteps(page, seq);
    await page.waitForFunction(() => document.getElementById('hud').textContent === '' && document.querySelector('.hole.legal'));
    assert.deepEqual(await marked(page, 'last-from'), [start]);
    assert.deepEqual(await marked(page, 'last-capture'), took);
    const looks = await page.evaluate(([s, c]) => ({
      dash: getComputedStyle(document.querySelector(`.hole[data-hole="${s}"] .ring`)).strokeDasharray,
      cross: getComputedStyle(document.querySelector(`.hole[data-hole="${c}"] .cross`)).display,
      name: document.querySelector(`.hole[data-hole="${c}"]`).getAttribute('aria-label'),
    }), [start, took[0]]);
    assert.notEqual(looks.dash, 'none', 'the start is marked by a dashed ring');
    assert.notEqual(looks.cross, 'none', 'a captured hole is marked by a cross');
    assert.match(looks.name, /captured by the last move/);
    // Stepping back to the start of the game shows no mark; back to the move, its marks.
    await page.click('#first');
    assert.deepEqual(await marked(page, 'last-from'), []);
    await page.click('#live');
    assert.deepEqual(await marked(page, 'last-capture'), took);
    // A reloaded page knows the move's start from its token.
    await page.reload();
    await waitForSteps(page, seq);
    assert.deepEqual(await marked(page, 'last-from'), [start]);
  } finally {
    await context.close();
  }
});

test('the list of moves marks captures and extra turns', async () => {
  const { id, seat, move, seq } = await beforeACapture();
  const start = (move.side === 'south' ? 0 : 6) + Number(move.token) - 1;
  const { context, page } = await openSeated(id, seat);
  try {
    await page.waitForSelector('.hole.legal');
    await page.click(`.hole[data-hole="${start}"]`);
    await waitForSteps(page, seq);
    const last = page.locator('#moves li').last();
    const side = move.side === 'south' ? 'S' : 'N';
    assert.equal((await last.locator('[aria-hidden="true"]').allTextContents()).join('|'), `${side}|×${move.captured}|+`);
    const spoken = (await last.locator('.sr-only').allTextContents()).join('');
    assert.equal(spoken, `${move.side === 'south' ? 'South' : 'North'}, captured ${move.captured}, moves again`);
    // A move that captured nothing has neither mark.
    const first = page.locator('#moves li').nth(1);
    const game = await api('GET', `/api/games/${id}`);
    if (game.history[0].captured.every((c) => c === 0)) {
      assert.equal(await first.locator('.took, .again').count(), 0);
    }
  } finally {
    await context.close();
  }
});

test('directions are called counter-clockwise and clockwise', async () => {
  const created = await api('POST', '/api/games', { mode: 'hotseat', rules: { variant: 'I', holes: 6, direction: 'per_move' } });
  const { context, page } = await openSeated(created.id, { token: created.token, seat: 'both' });
  try {
    // The direction is chosen at the hole: a tap on it offers both.
    await page.locator('.hole.legal').first().click();
    await page.waitForSelector('#dir:not([hidden])');
    assert.deepEqual(await page.$$eval('#dir button', (bs) => bs.map((b) => b.textContent)), ['↺ Counter-clockwise (L)', '↻ Clockwise (R)']);
    await page.click('#dir button[data-dir="R"]');
    await waitForSteps(page, 1);
    assert.match(await page.locator('#moves li').last().textContent(), /R, sown clockwise$/);
  } finally {
    await context.close();
  }
  const es = await openSeated(created.id, { token: created.token, seat: 'both' }, { locale: 'es-ES' });
  try {
    await es.page.locator('.hole.legal').first().click();
    await es.page.waitForSelector('#dir:not([hidden])');
    assert.deepEqual(await es.page.$$eval('#dir button', (bs) => bs.map((b) => b.textContent)), ['↺ Antihorario (L)', '↻ Horario (R)']);
  } finally {
    await es.context.close();
  }
});

test('the two-hole opening is played by two clicks, and both holes stay marked', async () => {
  const created = await api('POST', '/api/games', { mode: 'hotseat', rules: { variant: 'I', holes: 6, two_hole_opening: true } });
  const { context, page } = await openSeated(created.id, { token: created.token, seat: 'both' });
  try {
    await page.waitForSelector('.hole.legal');
    // Every South hole may be the first; after it, every other South hole.
    assert.deepEqual(await page.$$eval('.hole.legal', (hs) => hs.map((h) => Number(h.dataset.hole)).sort((a, b) => a - b)), [0, 1, 2, 3, 4, 5]);
    await page.click('.hole[data-hole="1"]');
    // The first hole is marked picked (pressing it again would take it back).
    await page.waitForSelector('.hole[data-hole="1"].selected');
    await page.click('.hole[data-hole="4"]');
    await waitForSteps(page, 1);
    const game = await api('GET', `/api/games/${created.id}`);
    assert.equal(game.history[0].token, '2+5');
    assert.deepEqual(game.history[0].holes, [1, 4]);
    await page.waitForFunction(() => document.querySelectorAll('.hole.last-from').length === 2);
    assert.deepEqual(await page.$$eval('.hole.last-from', (hs) => hs.map((h) => Number(h.dataset.hole)).sort((a, b) => a - b)), [1, 4]);
  } finally {
    await context.close();
  }
});

test('the first hole of a two-hole opening stays picked while a view of the same step arrives', async () => {
  const created = await api('POST', '/api/games', { mode: 'online', name: 'Ana', side: 'south', rules: { variant: 'I', holes: 6, two_hole_opening: true } });
  const invite = new URL(created.invite, 'http://x').searchParams.get('invite');
  const north = await api('POST', `/api/games/${created.id}/join`, { invite, name: 'Jean' });
  const { context, page } = await openSeated(created.id, { token: created.token, seat: created.seat });
  try {
    await page.waitForSelector('.hole.legal');
    await page.click('.hole[data-hole="1"]');
    await page.waitForSelector('.hole[data-hole="1"].selected');
    // North offers a draw: the game's view changes at the same step.
    await api('POST', `/api/games/${created.id}/draw`, { action: 'offer' }, north.token);
    await page.waitForSelector('.draw-offer');
    assert.ok(await page.locator('.hole[data-hole="1"].selected').isVisible(), 'the first hole is still picked');
    await page.click('.hole[data-hole="4"]');
    await waitForSteps(page, 1);
    const game = await api('GET', `/api/games/${created.id}`);
    assert.equal(game.history[0].token, '2+5');
  } finally {
    await context.close();
  }
});

test('a move played with the keyboard alone, and every move announced politely in the page\'s language', async () => {
  for (const [locale, mine, theirs] of [
    ['en-US', /^You played \d+\./, /^Computer \(level 1\) played \d+\./],
    ['es-ES', /^Jugaste \d+\./, /^Computadora \(nivel 1\) jugó \d+\./],
  ]) {
    const { context, page } = await open('/', { locale });
    try {
      await createGame(page, { mode: 'engine', variant: 'I', holes: '6', level: '1' });
      assert.equal(await page.getAttribute('#announce', 'aria-live'), 'polite');
      await page.waitForSelector('.hole.legal');
      // Tab through the page from its top until a playable hole has the focus.
      await page.evaluate(() => document.activeElement?.blur());
      let onHole = false;
      for (let k = 0; k < 40 && !onHole; k++) {
        await page.keyboard.press('Tab');
        onHole = await page.evaluate(() => document.activeElement?.classList.contains('legal') ?? false);
      }
      assert.ok(onHole, 'Tab reaches a playable hole');
      const played = await page.evaluate(() => Number(document.activeElement.dataset.hole) + 1);
      await record(page, '#announce');
      await page.keyboard.press('Enter');
      await waitForSteps(page, 2);
      // The move, then the computer's answer.
      await page.waitForFunction(() => window.__seen['#announce'].filter((s) => s).length >= 2);
      const [said, answer] = (await seen(page, '#announce')).filter((s) => s);
      assert.match(said, mine);
      assert.ok(said.includes(String(played)), said);
      assert.match(answer, theirs);
    } finally {
      await context.close();
    }
  }
});

test('the tab title tells a seated player it is their move, and nobody else', async () => {
  const { context, page } = await open('/', { locale: 'en-US' });
  const title = () => page.title();
  try {
    const id = await createGame(page, { mode: 'engine', variant: 'I', holes: '6', level: '1' });
    await page.waitForSelector('.hole.legal');
    assert.equal(await title(), '● Your move — Hoyito');
    await record(page, 'title');
    await page.locator('.hole.legal').first().click();
    await waitForSteps(page, 2);
    await page.waitForSelector('.hole.legal');
    // While the computer is to move, the title says nothing of a move.
    const during = await seen(page, 'title');
    assert.ok(during.includes(`Hoyito — ${id}`), `titles: ${during.join(' | ')}`);
    assert.equal(await title(), '● Your move — Hoyito');
    // A spectator's title never tells a move, nor a hot-seat game's (it is always theirs).
    const watcher = await open(`/g/${id}`);
    try {
      await watcher.page.waitForSelector('#moves li');
      assert.equal(await watcher.page.title(), `Hoyito — ${id}`);
    } finally {
      await watcher.context.close();
    }
    const hot = await createGame(page, { mode: 'hotseat', variant: 'I', holes: '6' });
    await page.waitForSelector('.hole.legal');
    assert.equal(await title(), `Hoyito — ${hot}`);
  } finally {
    await context.close();
  }
  const kreyol = await open('/', { locale: 'ht' });
  try {
    await createGame(kreyol.page, { mode: 'engine', variant: 'I', holes: '6', level: '1' });
    await kreyol.page.waitForSelector('.hole.legal');
    assert.equal(await kreyol.page.title(), '● Se tou pa w — Hoyito');
  } finally {
    await kreyol.context.close();
  }
});
