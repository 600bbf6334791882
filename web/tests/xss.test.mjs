// User text reaches the page only as text. Players' names, chat messages
// and the names of an imported record carry script-bearing HTML; every
// place that shows them (the status line, the players, the clock, the
// draw offer, the result and the rounds, the list of moves, the chat, the
// lobby's lists, the list of games) is opened by each player and a
// spectator, in English, Spanish and Kreyòl, and must show the text as
// typed, make no element of it, run none of it, and cause no violation of
// the page's Content-Security-Policy. Run with tests/run.sh.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  startServer, launchBrowser, newPage, callApi, once,
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

const api = (method, path, body, token) => callApi(server.url, method, path, body, token);

// Each would run script if it reached innerHTML (names have at most 24 characters).
const SOUTH = '<svg onload=__pwned=1>';
const NORTH = '"><img src=x onerror=1>';
const CHAT = '<img src=x onerror="__pwned=3"><script>__pwned=4</script></li>&amp;';
const IMPORTED = ['<style onload=__pwned=5>', "'><b onmouseover=1>x"];
const LANGS = ['en', 'es', 'ht'];

/** A browser context in `lang` that records policy violations and holds `seats`. */
async function viewer(lang, seats = {}, serviceWorkers = 'block') {
  const { context, page } = await newPage(browser, { serviceWorkers });
  const storage = { 'hoyito.lang': lang, 'hoyito.speed': 'instant' };
  for (const [id, seat] of Object.entries(seats)) storage[`hoyito.seat.${id}`] = JSON.stringify(seat);
  await context.addInitScript((kv) => {
    for (const [k, v] of Object.entries(kv)) localStorage.setItem(k, v);
    window.__violations = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(`${e.violatedDirective}: ${e.sample}`));
  }, storage);
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  return { context, page, errors };
}

/** Asserts that the page shows each of `texts` as text and that nothing of them became markup or ran. */
async function assertInert(v, texts, where) {
  const found = await v.page.evaluate((wanted) => {
    const withHandlers = [...document.querySelectorAll('*')]
      .filter((el) => [...el.attributes].some((a) => a.name.startsWith('on')))
      .map((el) => el.outerHTML.slice(0, 80));
    const strays = [...document.querySelectorAll('main script, main style, main img, main svg b, #app b, #app i')]
      .map((el) => el.outerHTML.slice(0, 80));
    const text = document.body.textContent;
    return {
      pwned: window.__pwned ?? null,
      withHandlers,
      strays,
      violations: window.__violations,
      missing: wanted.filter((w) => !text.includes(w)),
    };
  }, texts);
  assert.equal(found.pwned, null, `${where}: script ran`);
  assert.deepEqual(found.withHandlers, [], `${where}: elements with event handlers`);
  assert.deepEqual(found.strays, [], `${where}: elements made of user text`);
  assert.deepEqual(found.violations, [], `${where}: Content-Security-Policy violations`);
  assert.deepEqual(found.missing, [], `${where}: text not shown as typed`);
  assert.deepEqual(v.errors, [], `${where}: page errors`);
}

/** Opens `path` and waits until `selector` shows `text` (a string or RegExp), then checks the page. */
async function look(v, path, selector, text, shown, where) {
  await v.page.goto(server.url + path);
  await v.page.waitForFunction(([sel, t, re]) => {
    const els = [...document.querySelectorAll(sel)];
    return els.some((el) => (re ? new RegExp(t).test(el.textContent) : el.textContent.includes(t)));
  }, [selector, text instanceof RegExp ? text.source : text, text instanceof RegExp], { timeout: 15000 });
  // Parts of the page load on their own (the chat after the game): wait for every text, then check.
  await v.page.waitForFunction((wanted) => wanted.every((w) => document.body.textContent.includes(w)), shown, { timeout: 15000 })
    .catch(() => {});
  await assertInert(v, shown, where);
}

test('names, chat and record tags are shown as text everywhere, in every language', once, async () => {
  // An online match, public so the lobby and spectators see it.
  const created = await api('POST', '/api/games', {
    mode: 'online', match: true, public: true, name: SOUTH, side: 'south', rules: { variant: 'I', holes: 4 },
  });
  const { id } = created;
  const south = { token: created.token, seat: created.seat };
  const views = {};
  for (const lang of LANGS) {
    views[lang] = { south: await viewer(lang, { [id]: south }), watcher: await viewer(lang) };
  }

  // Waiting for the second player: the lobby's open seats, the creator's page.
  for (const lang of LANGS) {
    const { south: s, watcher: w } = views[lang];
    await look(w, '/games', '#lobby li', SOUTH, [SOUTH], `${lang} lobby, open seat`);
    await look(s, `/g/${id}`, '#p-bottom .name', SOUTH, [SOUTH], `${lang} creator, waiting`);
  }

  const invite = new URL(created.invite, server.url).searchParams.get('invite');
  const joined = await api('POST', `/api/games/${id}/join`, { invite, name: NORTH });
  const north = { token: joined.token, seat: joined.seat };
  for (const lang of LANGS) views[lang].north = await viewer(lang, { [id]: north });

  // Playing, a chat message and a draw offer pending.
  await api('POST', `/api/games/${id}/chat`, { text: CHAT }, south.token);
  await api('POST', `/api/games/${id}/draw`, { action: 'offer' }, south.token);
  for (const lang of LANGS) {
    const { south: s, north: n, watcher: w } = views[lang];
    await look(n, `/g/${id}`, '.draw-offer', SOUTH, [SOUTH, NORTH, CHAT], `${lang} north, draw offered`);
    await look(s, `/g/${id}`, '#chat-list li', CHAT, [SOUTH, NORTH, CHAT], `${lang} south, playing`);
    await look(w, `/g/${id}`, '#chat-list li', CHAT, [SOUTH, NORTH, CHAT], `${lang} spectator, playing`);
    await look(w, '/games', '#lobby li', NORTH, [`${SOUTH} – ${NORTH}`], `${lang} lobby, playing`);
    await look(s, '/games', '#lobby li', NORTH, [`${SOUTH} – ${NORTH}`], `${lang} lobby, my games`);
  }

  // North declines and resigns the match: the result names the winner.
  await api('POST', `/api/games/${id}/draw`, { action: 'decline' }, north.token);
  await api('POST', `/api/games/${id}/resign`, {}, north.token);
  const over = await api('GET', `/api/games/${id}`);
  assert.equal(over.match_result.winner, 'south');
  for (const lang of LANGS) {
    const { south: s, north: n, watcher: w } = views[lang];
    await look(n, `/g/${id}`, '#summary h2', SOUTH, [SOUTH, NORTH], `${lang} north, match over`);
    await look(w, `/g/${id}`, '#summary h2', SOUTH, [SOUTH, NORTH], `${lang} spectator, match over`);
    await look(w, `/g/${id}`, '#moves li', NORTH, [NORTH], `${lang} spectator, list of moves`);
    await look(s, `/g/${id}`, '#summary .resigned', NORTH, [NORTH], `${lang} south, match over`);
    await look(w, '/games', '#list td', /./, [], `${lang} list of games`);
  }

  // A record whose name tags carry markup, imported and watched.
  const record = `[Variant "I"]\n[Holes "4"]\n[SouthName "${IMPORTED[0]}"]\n[NorthName "${IMPORTED[1].replace(/"/g, '\\"')}"]\n\n1\n`;
  const imported = await api('POST', '/api/games/import', { record });
  for (const lang of LANGS) {
    const { watcher: w } = views[lang];
    await look(w, `/g/${imported.id}`, '#p-top .name, #p-bottom .name', IMPORTED[0], IMPORTED, `${lang} imported record`);
  }

  // A timed single game, aborted: the clocks and the abort name the players.
  const timed = await api('POST', '/api/games', {
    mode: 'online', public: true, name: SOUTH, side: 'south', clock: { initial: 180, increment: 2 }, rules: { variant: 'II', holes: 5 },
  });
  const timedInvite = new URL(timed.invite, server.url).searchParams.get('invite');
  await api('POST', `/api/games/${timed.id}/join`, { invite: timedInvite, name: NORTH });
  for (const lang of LANGS) {
    const { watcher: w } = views[lang];
    await look(w, `/g/${timed.id}`, '.clock-side', NORTH, [SOUTH, NORTH], `${lang} spectator, clocks`);
  }
  await api('POST', `/api/games/${timed.id}/abort`, undefined, timed.token);
  for (const lang of LANGS) {
    const { watcher: w } = views[lang];
    await look(w, `/g/${timed.id}`, '#summary .resigned', SOUTH, [SOUTH, NORTH], `${lang} spectator, aborted`);
  }

  for (const lang of LANGS) for (const v of Object.values(views[lang])) await v.context.close();
});

test('every page is served with the policy, and the policy lets the app work', once, async () => {
  for (const path of ['/', '/games', '/rules', '/how-to-play', '/g/nosuchgame', '/no/such/page']) {
    const res = await fetch(server.url + path);
    const csp = res.headers.get('content-security-policy') || '';
    assert.match(csp, /script-src 'self' 'wasm-unsafe-eval'/, path);
    assert.match(csp, /frame-ancestors 'none'/, path);
    assert.match(csp, /require-trusted-types-for 'script'/, path);
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff', path);
    assert.equal(res.headers.get('referrer-policy'), 'no-referrer', path);
  }
  // A game on this device: the WebAssembly rules, the engine's worker and
  // the service worker all run under the policy.
  const v = await viewer('en', {}, 'allow');
  await v.page.goto(`${server.url}/`);
  await v.page.check('input[name="mode"][value="engine"]');
  await v.page.check('input[name="where"][value="device"]');
  await v.page.selectOption('select[name="level"]', '1');
  await v.page.selectOption('select[name="side"]', 'north');
  await v.page.click('#start');
  await v.page.waitForURL(/\/g\/local[A-Za-z0-9]+$/);
  // The computer (South) moves first, in its worker.
  await v.page.waitForFunction(() => document.querySelectorAll('#moves li').length >= 2, null, { timeout: 20000 });
  await v.page.evaluate(() => navigator.serviceWorker.ready);
  await v.page.goto(`${server.url}/rules`);
  await v.page.waitForSelector('#rules h1');
  await assertInert(v, [], 'local game and rules page');
  await v.context.close();
});
