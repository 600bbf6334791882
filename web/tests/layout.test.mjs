// No page scrolls sideways, at the desktop's size or the phone's: the
// pages of the app, and the page of a finished game with its analysis (the
// longest one: the list of moves with their marks, the graph, the totals).
// Wide content (a table) may scroll inside its own box, never the page.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  startServer, launchBrowser, openPage, callApi, waitUntil,
} from './helpers.mjs';

let srv;
let browser;
before(async () => { srv = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser.close(); srv.proc.kill(); });

/** A hot-seat game of Hoyito II played to its end (first legal move each time), analysed. */
async function analysedGame() {
  const g = await callApi(srv.url, 'POST', '/api/games', { mode: 'hotseat', rules: { variant: 'II' } });
  for (let i = 0; i < 500; i += 1) {
    const v = await callApi(srv.url, 'GET', `/api/games/${g.id}`);
    if (v.legal.length === 0) break;
    await callApi(srv.url, 'POST', `/api/games/${g.id}/moves`, { move: v.legal[0] }, g.token);
  }
  await callApi(srv.url, 'POST', `/api/games/${g.id}/analysis`, {}, g.token);
  await waitUntil(async () => (await callApi(srv.url, 'GET', `/api/games/${g.id}/analysis`)).status === 'done', 'the analysis is done', 60000);
  return g.id;
}

test('no page is wider than the screen', async () => {
  const id = await analysedGame();
  for (const path of ['/', '/games', '/rules', '/how-to-play', `/g/${id}`]) {
    const { context, page } = await openPage(browser, srv.url + path);
    if (path.startsWith('/g/')) await page.waitForSelector('.an-summary table');
    else await page.waitForSelector('main h1, main h2, h1');
    const { scroll, width, wide } = await page.evaluate(() => {
      const w = document.documentElement.clientWidth;
      // The outermost elements that stick out (for the message).
      const out = [...document.querySelectorAll('body *')]
        .filter((e) => e.getBoundingClientRect().right > w + 1 && e.parentElement.getBoundingClientRect().right <= w + 1)
        .slice(0, 5)
        .map((e) => `${e.tagName.toLowerCase()}.${e.className}`);
      return { scroll: document.documentElement.scrollWidth, width: w, wide: out };
    });
    assert.ok(scroll <= width, `${path}: the page is ${scroll} px wide on a ${width} px screen (${wide.join(', ')})`);
    await context.close();
  }
});
