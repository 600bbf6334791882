// What a player reads is in their language, and the page says what is
// true: a refused nickname (joining by link, or starting a game) shows the
// translated reason of its API error code in Spanish and Kreyòl, not the
// server's English, and the New game options' tooltips are translated;
// the chat of a game not listed in the lobby is the players' own (a
// spectator is told so, and the page does not ask for it), while a
// spectator of a listed game reads it. Run with tests/run.sh.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  startServer, launchBrowser, openPage, callApi,
} from './helpers.mjs';

// i18n.js picks its language when loaded: give it a browser's globals.
globalThis.localStorage ??= { getItem: () => null, setItem: () => {} };
globalThis.navigator ??= { languages: ['en-US'] };
const { CATALOGUES } = await import('../i18n.js');

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

const api = (method, path, body, token) => callApi(server.url, method, path, body, token);
const open = (path, opts) => openPage(browser, server.url + path, opts);
const fill = (s, vars) => s.replace(/\{(\w+)\}/g, (m, k) => (k in vars ? String(vars[k]) : m));

// A name with a zero-width space: the server refuses it (422 invalid_name).
const HIDDEN = 'Ana\u200Bx';

for (const lang of ['es', 'ht']) {
  test(`a refused nickname says why in ${lang}`, async () => {
    const cat = CATALOGUES[lang];
    const reason = cat['err.invalid_name'];
    assert.notEqual(reason, CATALOGUES.en['err.invalid_name']);

    // Joining through the invite link.
    const made = await api('POST', '/api/games', { mode: 'online', rules: { variant: 'II', holes: 6 } });
    const { context, page } = await open(made.invite, { storage: { 'hoyito.lang': lang } });
    await page.waitForSelector('#join-form');
    await page.fill('#join-form input[name="nickname"]', HIDDEN);
    await page.click('#join');
    await page.waitForSelector('#toast.show.error');
    assert.equal(await page.textContent('#toast'), fill(cat['game.join_failed'], { error: reason }));
    // The form stays for another name; the seat is still free.
    assert.equal(await page.locator('#join-form').count(), 1);
    assert.equal((await api('GET', `/api/games/${made.id}`)).status, 'waiting');

    // Starting an online game from the New game form, whose options'
    // tooltips are in the reader's language too.
    await page.goto(`${server.url}/`);
    await page.waitForSelector('select[name="variant"]');
    const title = await page.$eval('select[name="variant"]', (el) => el.closest('label').title);
    assert.equal(title, fill(cat['new.option_title'], { meaning: cat['optinfo.variant'], section: '§3' }));
    await page.check('input[name="mode"][value="online"]');
    await page.fill('input[name="nickname"]', HIDDEN);
    await page.click('#start');
    await page.waitForSelector('#toast.show.error');
    assert.equal(await page.textContent('#toast'), fill(cat.error, { error: reason }));
    assert.equal(new URL(page.url()).pathname, '/');
    await context.close();
  });
}

test('the chat of a game not listed in the lobby is the players\'; a listed game\'s is read by spectators', async () => {
  for (const listed of [false, true]) {
    const made = await api('POST', '/api/games', { mode: 'online', public: listed, rules: { variant: 'II', holes: 6 } });
    const secret = new URL(made.invite, server.url).searchParams.get('invite');
    const joined = await api('POST', `/api/games/${made.id}/join`, { invite: secret });
    await api('POST', `/api/games/${made.id}/chat`, { text: 'hola' }, made.token);

    const { context, page } = await open(`/g/${made.id}`);
    const asked = [];
    page.on('request', (r) => { if (new URL(r.url()).pathname.endsWith('/chat')) asked.push(r.url()); });
    await page.waitForSelector('#chat:not([hidden])');
    // A move after the page is open reaches it through its socket: by then
    // it has done what it does when the socket opens.
    await page.waitForSelector('#moves li');
    const game = await api('GET', `/api/games/${made.id}`);
    await api('POST', `/api/games/${made.id}/moves`, { move: game.legal[0], seq: game.seq }, made.token);
    await page.waitForFunction(() => document.querySelectorAll('#moves li').length >= 2);
    if (listed) {
      await page.waitForFunction(() => /hola/.test(document.querySelector('#chat-list')?.textContent || ''));
      assert.equal(await page.locator('#chat-private').count(), 0);
    } else {
      assert.equal(await page.textContent('#chat-private'), CATALOGUES.en['chat.private']);
      assert.equal(await page.locator('#chat-list').count(), 0, 'no list claiming there are no messages');
      assert.deepEqual(asked, [], 'the page does not ask for a chat it may not read');
      // The players read it.
      const { messages } = await api('GET', `/api/games/${made.id}/chat`, undefined, joined.token);
      assert.deepEqual(messages.map((m) => m.text), ['hola']);
    }
    await context.close();
  }
});
