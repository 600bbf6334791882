// The lobby pages its lists: with more open seats than one page holds, a
// "More games" button shows the next page, and goes once all are shown.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, openPage, callApi } from './helpers.mjs';

let srv;
let browser;
before(async () => { srv = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser.close(); srv.proc.kill(); });

test('the lobby shows more open seats page by page', async () => {
  for (let i = 0; i < 25; i += 1) {
    await callApi(srv.url, 'POST', '/api/games', { mode: 'online', public: true, name: `P${i}` });
  }
  const { context, page } = await openPage(browser, `${srv.url}/games`);
  const joins = () => page.locator('#lobby [data-join]').count();
  await page.waitForSelector('#lobby [data-join]');
  assert.equal(await joins(), 20);
  await page.click('#lobby-more');
  await page.waitForFunction(() => document.querySelectorAll('#lobby [data-join]').length === 25);
  assert.equal(await page.locator('#lobby-more').count(), 0, 'no button once every game is shown');
  // Every game once.
  const ids = await page.$$eval('#lobby [data-join]', (bs) => bs.map((b) => b.dataset.join));
  assert.equal(new Set(ids).size, 25);
  await context.close();
});
