// Accessibility checks with axe-core on every kind of page, at the screen
// size of the run (tests/run.sh runs a desktop's and a phone's), and the
// game played and followed without a mouse. Run with tests/run.sh.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  startServer, launchBrowser, openPage, createGame as createGameAt, waitForSteps, callApi,
  seriousViolations,
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

async function assertAccessible(page, what) {
  const found = await seriousViolations(page);
  assert.deepEqual(found, [], `${what}: ${found.join('; ')}`);
}

/** A finished hot-seat game on 2×4, played through the API. */
async function finishedGame() {
  const created = await api('POST', '/api/games', { mode: 'hotseat', rules: { variant: 'I', holes: 4 } });
  let g = created.game;
  for (let k = 0; !g.state.over; k++) {
    assert.ok(k < 500, 'the game should end');
    g = (await api('POST', `/api/games/${created.id}/moves`, { move: g.legal[k % g.legal.length], seq: g.seq }, created.token)).game;
  }
  return { id: created.id, seat: { token: created.token, seat: 'both' } };
}

test('no serious accessibility violation on the new-game, games, rules and not-found pages, light and dark', async () => {
  // The list of games shows public games only.
  await api('POST', '/api/games', { mode: 'online', public: true, rules: { variant: 'II', holes: 6 } });
  for (const [path, ready] of [['/', '#new-game'], ['/games', 'table.games'], ['/rules', '#rules h2'], ['/nowhere', '#app h1']]) {
    for (const [locale, colorScheme] of [['en-US', 'light'], ['es-ES', 'light'], ['ht', 'light'], ['en-US', 'dark']]) {
      const { context, page } = await open(path, { locale, colorScheme });
      try {
        await page.waitForSelector(ready);
        await assertAccessible(page, `${path} in ${locale}, ${colorScheme}`);
      } finally {
        await context.close();
      }
    }
  }
});

test('no serious accessibility violation in games in progress and finished', async () => {
  const { context, page } = await open('/');
  try {
    await createGame(page, { mode: 'engine', variant: 'II', holes: '6', level: '1' });
    await page.waitForSelector('.hole.legal');
    await assertAccessible(page, 'a new game against the computer');
    await page.locator('.hole.legal').first().click();
    await waitForSteps(page, 2);
    await page.waitForSelector('.hole.legal');
    await assertAccessible(page, 'a game against the computer after a move');
    await createGame(page, { mode: 'hotseat', variant: 'III', holes: '8' });
    await page.locator('.hole.legal').first().click();
    await waitForSteps(page, 1);
    await page.waitForSelector('.hole.legal');
    await assertAccessible(page, 'a hot-seat game in progress');
    await page.click('#first');
    await assertAccessible(page, 'a hot-seat game replayed');
  } finally {
    await context.close();
  }
  const dark = await open('/', { colorScheme: 'dark', locale: 'ht' });
  try {
    await createGame(dark.page, { mode: 'hotseat', variant: 'II', holes: '6' });
    await dark.page.locator('.hole.legal').first().click();
    await waitForSteps(dark.page, 1);
    await dark.page.waitForSelector('.hole.legal');
    await assertAccessible(dark.page, 'a hot-seat game in dark mode, in Kreyòl');
  } finally {
    await dark.context.close();
  }
  const done = await finishedGame();
  const seated = await open(`/g/${done.id}`, { storage: { [`hoyito.seat.${done.id}`]: JSON.stringify(done.seat) } });
  const watcher = await open(`/g/${done.id}`);
  try {
    for (const [who, p] of [['its player', seated.page], ['a spectator', watcher.page]]) {
      await p.waitForSelector('.summary');
      await assertAccessible(p, `a finished game seen by ${who}`);
    }
  } finally {
    await Promise.all([seated.context.close(), watcher.context.close()]);
  }
});
