// No page scrolls sideways, at the desktop's size or the phone's: the
// pages of the app, and the page of a finished game with its analysis (the
// longest one: the list of moves with their marks, the graph, the totals).
// Wide content (a table) may scroll inside its own box, never the page.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  startServer, launchBrowser, openPage, callApi, waitUntil, withMenu,
} from './helpers.mjs';

let srv;
let browser;
before(async () => { srv = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser.close(); srv.proc.kill(); });

/** A hot-seat game of Hoyito II played to its end (first legal move each time), analysed; made once for the tests of this file. */
let analysed = null;
const analysedGame = () => { analysed ??= playAndAnalyse(); return analysed; };
async function playAndAnalyse() {
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

test('the list of moves of a long analysed game: no entry overlaps another or is clipped', async () => {
  const id = await analysedGame();
  const { context, page } = await openPage(browser, `${srv.url}/g/${id}`);
  try {
    await page.waitForSelector('.an-summary table');
    const bad = await page.evaluate(() => {
      const list = document.getElementById('moves');
      const items = [...list.querySelectorAll('li')];
      const out = [];
      const boxes = items.map((li) => li.getBoundingClientRect());
      for (let i = 0; i < items.length; i += 1) {
        const li = items[i];
        // Clipped: the entry's content is wider than its box.
        if (li.scrollWidth > li.clientWidth + 1) out.push(`${li.textContent} is clipped (${li.scrollWidth} > ${li.clientWidth})`);
        for (let j = i + 1; j < items.length; j += 1) {
          const [a, b] = [boxes[i], boxes[j]];
          const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
          const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
          if (w > 1 && h > 1) out.push(`${items[i].textContent} overlaps ${items[j].textContent}`);
        }
      }
      return { count: items.length, out: out.slice(0, 5) };
    });
    assert.ok(bad.count > 20, `a long game: ${bad.count} entries`);
    assert.deepEqual(bad.out, []);
  } finally {
    await context.close();
  }
});

test("the game page's buttons, links styled as buttons among them, are of one height with their text centred", async () => {
  const id = await analysedGame();
  const { context, page } = await openPage(browser, `${srv.url}/g/${id}`);
  try {
    await page.waitForSelector('#download', { state: 'attached' });
    // The menu's buttons too (on a phone, behind its button).
    const boxes = await withMenu(page, (p) => p.$$eval('.controls button, .controls .button', (els) => els
      .filter((e) => e.checkVisibility())
      .map((e) => {
        const box = e.getBoundingClientRect();
        const range = document.createRange();
        range.selectNodeContents(e);
        const text = range.getBoundingClientRect();
        // How far the text's middle is from the box's, in pixels.
        const off = (text.top + text.bottom) / 2 - (box.top + box.bottom) / 2;
        return { name: e.id, height: Math.round(box.height), off: Math.round(off * 10) / 10 };
      })));
    const text = JSON.stringify(boxes);
    assert.ok(boxes.some((b) => b.name === 'download'), text);
    assert.equal(new Set(boxes.map((b) => b.height)).size, 1, `heights: ${text}`);
    assert.ok(boxes.every((b) => Math.abs(b.off) <= 1.5), `text off centre: ${text}`);
  } finally {
    await context.close();
  }
});
