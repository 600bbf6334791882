// End-to-end tests of the How-to-play page: its demonstrations, sown from a
// position by the WebAssembly module's `Game.fromSetup`, sow as the server does, the page shows each step on an animated board in
// English, Spanish and Kreyòl, with no serious accessibility violation, and
// the full rules are one click away. Run with tests/run.sh.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  startServer, launchBrowser, openPage, callApi, seriousViolations, once,
} from './helpers.mjs';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as wasm from '../wasm/hoyito_wasm.js';

wasm.initSync({ module: readFileSync(fileURLToPath(new URL('../wasm/hoyito_wasm_bg.wasm', import.meta.url))) });

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

test('a game from a position, as the demonstrations start, sows and captures as the server does', once, async () => {
  let checked = 0;
  for (const variant of ['I', 'II', 'III']) {
    for (const holes of [4, 6]) {
      const c = await api('POST', '/api/games', { mode: 'hotseat', rules: { variant, holes } });
      let g = c.game;
      for (let k = 0; k < 40 && !g.state.over; k++) {
        const token = g.legal[(k * 7) % g.legal.length];
        const r = await api('POST', `/api/games/${c.id}/moves`, { move: token, seq: g.seq }, c.token);
        g = r.game;
        const inPlay = g.state.board.reduce((a, b) => a + b, 0);
        // The last four, a pass and the end of the game are left to the server.
        if (g.state.over || r.move.passed || inPlay <= 4) continue;
        const demo = wasm.Game.fromSetup({ variant, holes }, { board: r.move.board_before, closed: g.state.closed, to_move: r.move.side });
        const mine = demo.play(token);
        assert.deepEqual(demo.state().board, g.state.board, `${variant} 2×${holes} move ${token}`);
        assert.deepEqual(mine.trace, r.move.trace, `${variant} 2×${holes} move ${token}`);
        assert.equal(mine.captured, r.move.captured, `${variant} 2×${holes} move ${token}`);
        assert.equal(mine.extra_turn, r.move.extra_turn);
        demo.free();
        checked += 1;
      }
    }
  }
  assert.ok(checked > 100, `${checked} moves compared`);
});

test('the How-to-play page shows every step on a board, in every language, with the rules a click away', async () => {
  for (const [locale, title, rules] of [['en-US', 'How to play', 'Read the full rules'], ['es-ES', 'Cómo se juega', 'Leer las reglas completas'], ['ht', 'Kijan pou jwe', 'Li tout règ yo']]) {
    const { context, page } = await open('/', { locale });
    // The page's time stands still until the first board is read: the demonstration starts on its own.
    if (locale === 'en-US') {
      await page.clock.install();
      await page.clock.pauseAt(Date.now() + 1000);
    }
    await page.click('a[href="/how-to-play"]');
    await page.waitForSelector('.help .board');
    assert.equal(await page.textContent('#app h1'), title);
    assert.equal(await page.locator('.help').count(), 7);
    assert.equal(await page.locator('.help svg.board').count(), 7);
    if (locale === 'en-US') {
      // The sowing demonstration moves seed by seed, then ends as the rules say.
      const counts = () => page.$$eval('[data-demo="relay"] .hole-text .count', (els) => els.map((e) => e.textContent).join(','));
      assert.equal(await counts(), '0,2,0,1,0,0,2,0');
      await page.clock.resume();
      await page.waitForFunction(() => /Lap 2/.test(document.querySelector('[data-demo="relay"] .hud').textContent), null, { timeout: 10000 });
      await page.waitForFunction(() => [...document.querySelectorAll('[data-demo="relay"] .hole-text .count')].map((e) => e.textContent).join(',') === '0,0,1,0,1,1,2,0', null, { timeout: 10000 });
      await page.waitForFunction(() => /moves again/.test(document.querySelector('[data-demo="captureII"] .hud').textContent), null, { timeout: 15000 });
      // South took the casa and the one before it: 8 seeds.
      const piles = await page.$$eval('[data-demo="captureII"] .pile-count', (els) => els.map((e) => e.textContent));
      assert.ok(piles.includes('8'), `piles ${piles}`);
      assert.deepEqual(await seriousViolations(page), []);
      const width = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(width <= 0, `no sideways scrolling (${width} px)`);
    }
    await page.click(`text=${rules}`);
    await page.waitForSelector('#rules h1');
    assert.equal(new URL(page.url()).pathname, '/rules');
    await context.close();
  }
});
