// End-to-end tests of the pages around the game: the New game form, the
// Games list, unknown addresses. Run with tests/run.sh.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, openPage, callApi, once } from './helpers.mjs';

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
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1366, height: 768 };

test('the games list fits a phone screen and has a header row', once, async () => {
  await api('POST', '/api/games', { mode: 'engine', match: true, rules: { variant: 'III', holes: 12 } });
  // The list of games shows public games only.
  await api('POST', '/api/games', { mode: 'online', public: true, rules: { variant: 'II', holes: 6 } });
  for (const [viewport, locale] of [[PHONE, 'en-US'], [PHONE, 'es-ES'], [DESKTOP, 'en-US']]) {
    const { context, page } = await open('/games', { viewport, locale });
    try {
      await page.waitForSelector('table.games tbody tr');
      const heads = await page.$$eval('table.games thead th', (els) => els.map((e) => e.textContent.trim()));
      assert.ok(heads.length >= 4 && heads.every((h) => h), `header cells: ${JSON.stringify(heads)}`);
      const widths = await page.evaluate(() => ({
        page: document.documentElement.scrollWidth,
        view: document.documentElement.clientWidth,
        table: document.querySelector('table.games').getBoundingClientRect().right,
      }));
      assert.ok(widths.page <= widths.view, `${viewport.width} px: the page is ${widths.page} px wide`);
      assert.ok(widths.table <= widths.view, `${viewport.width} px: the table ends at ${widths.table} px`);
    } finally {
      await context.close();
    }
  }
});

test('an unknown address shows a not-found page', async () => {
  const { context, page } = await open('/nonexistent');
  try {
    await page.waitForSelector('#app h1');
    assert.match(await page.textContent('#app h1'), /Page not found/);
    assert.equal(await page.locator('#new-game').count(), 0);
    // Its link leads to the New game page.
    await page.click('#app a[href="/"]');
    await page.waitForSelector('#new-game');
    assert.equal(new URL(page.url()).pathname, '/');
  } finally {
    await context.close();
  }
});

test('the new-game form starts with Hoyito I and remembers the last settings', async () => {
  const { context, page } = await open('/');
  try {
    await page.waitForSelector('#new-game');
    assert.equal(await page.inputValue('select[name="variant"]'), 'I');
    await page.check('input[name="mode"][value="hotseat"]');
    await page.selectOption('select[name="variant"]', 'III');
    await page.selectOption('select[name="holes"]', '8');
    await page.click('summary');
    await page.fill('input[name="seeds"]', '3');
    await page.check('input[name="two_hole_opening"]');
    await page.click('#start');
    await page.waitForURL(/\/g\/[A-Za-z0-9]+$/);
    await page.goto(`${server.url}/`);
    await page.waitForSelector('#new-game');
    assert.equal(await page.isChecked('input[name="mode"][value="hotseat"]'), true);
    assert.equal(await page.inputValue('select[name="variant"]'), 'III');
    assert.equal(await page.inputValue('select[name="holes"]'), '8');
    assert.equal(await page.inputValue('input[name="seeds"]'), '3');
    assert.equal(await page.isChecked('input[name="two_hole_opening"]'), true);
    assert.equal(await page.isChecked('input[name="skip_origin"]'), false);
  } finally {
    await context.close();
  }
});

test('the variant names are shown whole', async () => {
  for (const [viewport, locale] of [[DESKTOP, 'en-US'], [DESKTOP, 'es-ES'], [PHONE, 'en-US'], [PHONE, 'es-ES']]) {
    const { context, page } = await open('/', { viewport, locale });
    try {
      await page.waitForSelector('#new-game');
      const fit = await page.$eval('select[name="variant"]', (s) => {
        const cs = getComputedStyle(s);
        const ctx = document.createElement('canvas').getContext('2d');
        ctx.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
        const widest = Math.max(...[...s.options].map((o) => ctx.measureText(o.text).width));
        // Room for the text: the box less its padding, borders and the arrow (about 20 px).
        const room = s.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 20;
        return { widest, room };
      });
      assert.ok(fit.room >= fit.widest, `${locale} at ${viewport.width} px: ${fit.widest.toFixed(0)} px of text in ${fit.room.toFixed(0)} px`);
    } finally {
      await context.close();
    }
  }
});

test('every page links to the About page, which gives the licence and the third-party notices', async () => {
  for (const locale of ['en-US', 'es-ES', 'ht']) {
    const { context, page } = await open('/games', { locale });
    try {
      await page.click('footer.site a[href="/about"]');
      await page.waitForURL(/\/about$/);
      await page.waitForSelector('#notices h2');
      assert.match(await page.textContent('#app h1'), /Hoyito/);
      const notices = await page.textContent('#notices');
      for (const crate of ['axum', 'serde', 'wasm-bindgen']) assert.match(notices, new RegExp(`\\b${crate} \\d`), crate);
    } finally {
      await context.close();
    }
  }
  for (const [path, text] of [['/LICENSE-MIT', /MIT License/], ['/LICENSE-APACHE', /Apache License\s+Version 2\.0/]]) {
    const res = await fetch(server.url + path);
    assert.equal(res.status, 200, path);
    assert.match(res.headers.get('content-type'), /^text\/plain/);
    assert.match(await res.text(), text);
  }
});
