// End-to-end tests of playing with people: nicknames, the lobby (join in
// one click), chat (spectators read only, text never HTML), draw offers,
// aborting, clocks (a flag fall across a server restart), your-turn
// alerts, and Rematch / New game after a game.
// Run with tests/run.sh.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import {
  startServer, launchBrowser, openPage, callApi,
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
const api = (method, path, body, token) => callApi(server.url, method, path, body, token);

test('two players with nicknames meet in the lobby, chat, and agree a draw; a spectator reads the chat only', async () => {
  // Ana creates a public online game with a clock from the form.
  const a = await open('/');
  await a.page.check('input[name="mode"][value="online"]');
  await a.page.fill('input[name="nickname"]', 'Ana');
  await a.page.selectOption('select[name="clock"]', '300+3');
  await a.page.check('input[name="public"]');
  await a.page.click('#start');
  await a.page.waitForURL(/\/g\/[A-Za-z0-9]+$/);
  const id = a.page.url().split('/g/')[1];

  // Jean finds it in the lobby and joins in one click.
  const b = await open('/games', { storage: { 'hoyito.name': 'Jean' } });
  await b.page.waitForSelector(`[data-join="${id}"]`);
  assert.match(await b.page.textContent('#lobby'), /by Ana/);
  await b.page.click(`[data-join="${id}"]`);
  await b.page.waitForURL(new RegExp(`/g/${id}$`));
  await a.page.waitForFunction(() => /Jean/.test(document.getElementById('p-top').textContent));
  // Jean's page renders the game once its first view arrives: wait for it.
  await b.page.waitForFunction(() => /Jean \(You\)/.test(document.getElementById('p-bottom').textContent));
  assert.match(await b.page.textContent('#p-top'), /Ana/);
  // The clock shows both sides, untouched before the first move.
  // Each clock in its player's bar: Ana's below the board on her page, Jean's above.
  assert.match(await a.page.textContent('#p-bottom'), /Ana \(You\).*5:00/);
  assert.match(await a.page.textContent('#p-top'), /Jean.*5:00/);

  // Chat: plain text, both ways, over the WebSocket.
  await a.page.fill('#chat-text', '<b>hola</b>');
  await a.page.click('#chat-form button');
  await b.page.waitForFunction(() => /<b>hola<\/b>/.test(document.getElementById('chat-list').textContent));
  assert.equal(await b.page.locator('#chat-list b').count(), 0, 'never rendered as HTML');
  const spectator = await open(`/g/${id}`);
  await spectator.page.waitForSelector('#chat-list li');
  assert.match(await spectator.page.textContent('#chat'), /Only the players can write here/);
  assert.equal(await spectator.page.locator('#chat-text').count(), 0);
  assert.ok(await spectator.page.locator('#offer-draw').isHidden());
  assert.ok(await spectator.page.locator('#abort').isHidden());
  await b.page.fill('#chat-text', 'bonjou');
  await b.page.press('#chat-text', 'Enter');
  await spectator.page.waitForFunction(() => /bonjou/.test(document.getElementById('chat-list').textContent));

  // A draw offered and accepted ends the game; both see how.
  await a.page.click('#offer-draw');
  await b.page.waitForSelector('#accept-draw');
  assert.deepEqual(await seriousViolations(b.page), [], 'the game page with its chat, clock and a draw offer');
  assert.deepEqual(await seriousViolations(spectator.page), [], 'the spectator\'s page');
  assert.ok(await b.page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'no sideways scrolling');
  assert.match(await b.page.textContent('#draw-offer'), /Ana offers a draw/);
  await b.page.click('#accept-draw');
  for (const p of [a.page, b.page, spectator.page]) {
    await p.waitForFunction(() => /Draw agreed/.test(document.getElementById('summary').textContent));
  }
  assert.match(await a.page.textContent('#summary'), /How it ended: draw agreed/);
  assert.match(await spectator.page.textContent('#moves li:last-child'), /Draw agreed/);
  assert.ok(await spectator.page.locator('#rematch').count() === 0, 'no rematch for a spectator');

  // Rematch: Ana asks, Jean is told and accepts; both meet in one game
  // with the same settings and the sides swapped.
  await a.page.click('#rematch');
  await a.page.waitForURL((u) => !u.pathname.endsWith(id));
  const newId = a.page.url().split('/g/')[1];
  const again = await api('GET', `/api/games/${newId}`);
  assert.equal(again.mode, 'online');
  assert.deepEqual(again.clock && [again.clock.initial, again.clock.increment], [300, 3]);
  assert.equal(again.names.north, 'Ana');
  assert.equal(again.status, 'waiting');
  await b.page.waitForSelector('#rematch-offer');
  assert.match(await b.page.textContent('#rematch-offer'), /Ana asks for a rematch/);
  await spectator.page.waitForFunction(() => !document.getElementById('rematch'));
  await b.page.click('#rematch');
  await b.page.waitForURL(new RegExp(`/g/${newId}$`));
  await b.page.waitForFunction(() => /Jean \(You\)/.test(document.getElementById('p-bottom').textContent));
  await a.page.waitForFunction(() => /Jean/.test(document.getElementById('p-top').textContent));
  assert.equal((await api('GET', `/api/games/${newId}`)).status, 'playing');
  // Jean plays South now: his move is taken, and Ana sees it.
  await b.page.waitForSelector('.hole.legal');
  await b.page.locator('.hole.legal').first().click();
  await a.page.waitForFunction(() => document.querySelectorAll('#moves li').length > 0);
  for (const c of [a, b, spectator]) await c.context.close();
});

test('a game against the computer: abort before moving, then New game; a resigned game offers a rematch with sides swapped', async () => {
  const { context, page } = await open('/');
  await page.check('input[name="mode"][value="engine"]');
  await page.selectOption('select[name="level"]', '1');
  await page.selectOption('select[name="side"]', 'south');
  await page.click('#start');
  await page.waitForURL(/\/g\/[A-Za-z0-9]+$/);
  await page.locator('#abort').waitFor({ state: 'visible' });
  page.once('dialog', (d) => d.accept());
  await page.click('#abort');
  await page.waitForSelector('#summary .resigned');
  assert.equal(await page.textContent('#summary .resigned'), 'You aborted the game');
  assert.match(await page.textContent('#summary h2'), /Aborted/);
  await page.click('#new-game-link');
  await page.waitForSelector('#new-game');

  // A draw offered to the computer is answered at once.
  const offer = await api('POST', '/api/games', { mode: 'engine', level: 1, side: 'south', rules: { variant: 'I' } });
  await page.evaluate(([gid, seat]) => localStorage.setItem(`hoyito.seat.${gid}`, JSON.stringify(seat)), [offer.id, { token: offer.token, seat: 'south' }]);
  await page.goto(`${server.url}/g/${offer.id}`);
  await page.locator('#offer-draw').waitFor({ state: 'visible' });
  await page.click('#offer-draw');
  await page.waitForFunction(() => /declines the draw/.test(document.getElementById('toast').textContent)
    || /Draw agreed/.test(document.getElementById('summary').textContent));
  const answered = await api('GET', `/api/games/${offer.id}`);
  if (answered.end === 'draw') {
    assert.match(await page.textContent('#summary'), /How it ended: draw agreed/);
  } else {
    assert.equal(answered.status, 'playing');
    assert.ok(await page.locator('#offer-draw').isHidden(), 'asked once per move');
  }

  const created = await api('POST', '/api/games', { mode: 'engine', level: 1, side: 'south', rules: { variant: 'I' } });
  await api('POST', `/api/games/${created.id}/resign`, {}, created.token);
  await page.evaluate(([gid, seat]) => localStorage.setItem(`hoyito.seat.${gid}`, JSON.stringify(seat)), [created.id, { token: created.token, seat: 'south' }]);
  await page.goto(`${server.url}/g/${created.id}`);
  await page.click('#rematch');
  await page.waitForURL((u) => !u.pathname.endsWith(created.id));
  const id = page.url().split('/g/')[1];
  const g = await api('GET', `/api/games/${id}`);
  assert.equal(g.mode, 'engine');
  assert.equal(g.engine_side, 'south', 'sides swapped: the player now plays North');
  assert.equal(g.rules.variant, 'I');
  await context.close();
});

test('your move: a badge on the tab icon, a beep and a notification when hidden, for players who opt in; none for spectators', async () => {
  const created = await api('POST', '/api/games', { mode: 'online', rules: { variant: 'II' } });
  const invite = new URL(created.invite, server.url).searchParams.get('invite');
  const joined = await api('POST', `/api/games/${created.id}/join`, { invite });
  const storage = {
    [`hoyito.seat.${created.id}`]: JSON.stringify({ token: created.token, seat: 'south' }),
    'hoyito.alerts.notify': '1',
    'hoyito.alerts.sound': '1',
    // The game's own sounds (a sowing, a capture) off: only the your-move beep counts.
    'hoyito.sounds': '0',
  };
  const { context, page } = await open(`/g/${created.id}`, { storage });
  await context.grantPermissions(['notifications']);
  await page.evaluate(() => {
    window.shown = [];
    window.beeps = 0;
    window.AudioContext = class {
      constructor() { this.currentTime = 0; this.destination = {}; }
      createOscillator() { return { frequency: {}, connect: (g) => g, start: () => { window.beeps += 1; }, stop() {} }; }
      createGain() { return { gain: { setValueAtTime() {}, exponentialRampToValueAtTime() {} }, connect: (d) => d }; }
    };
    window.Notification = class { constructor(title, o) { window.shown.push([title, o.body]); } static get permission() { return 'granted'; } };
    Object.defineProperty(document, 'hidden', { value: true, configurable: true });
  });
  await page.waitForSelector('#alert-notify');
  const icon = () => page.getAttribute('link[rel="icon"]', 'href');
  await page.waitForFunction(() => document.querySelector('link[rel="icon"]').href.startsWith('data:image/svg+xml'));
  // South moves; North answers; South is told.
  const g = await api('GET', `/api/games/${created.id}`);
  await api('POST', `/api/games/${created.id}/moves`, { move: g.legal[0] }, created.token);
  await page.waitForFunction(() => document.querySelector('link[rel="icon"]').getAttribute('href') === '/favicon.svg');
  const g2 = await api('GET', `/api/games/${created.id}`);
  if (g2.state.to_move === 'north') await api('POST', `/api/games/${created.id}/moves`, { move: g2.legal[0] }, joined.token);
  await page.waitForFunction(() => window.shown.length > 0);
  assert.match((await page.evaluate(() => window.shown))[0][0], /your move/);
  assert.equal(await page.evaluate(() => window.beeps), 1, 'one beep for the move that came');
  assert.match(await icon(), /^data:image\/svg\+xml/);
  await context.close();
  // A spectator has no switches and no badge.
  const watcher = await open(`/g/${created.id}`);
  await watcher.page.waitForSelector('#moves li');
  assert.equal(await watcher.page.locator('#alert-notify').count(), 0);
  assert.equal(await watcher.page.getAttribute('link[rel="icon"]', 'href'), '/favicon.svg');
  await watcher.context.close();
});

test('a timed game: the clocks count down, the page reconnects across a server restart mid-clock, and the flag falls', async () => {
  const own = await startServer();
  const created = await callApi(own.url, 'POST', '/api/games', { mode: 'online', clock: { initial: 60, increment: 0 }, name: 'Ana' });
  const invite = new URL(created.invite, own.url).searchParams.get('invite');
  const joined = await callApi(own.url, 'POST', `/api/games/${created.id}/join`, { invite, name: 'Jean' });
  const g = await callApi(own.url, 'GET', `/api/games/${created.id}`);
  await callApi(own.url, 'POST', `/api/games/${created.id}/moves`, { move: g.legal[0] }, created.token);
  const after = await callApi(own.url, 'GET', `/api/games/${created.id}`);
  const loser = after.state.to_move;
  const token = loser === 'south' ? created.token : joined.token;
  const storage = { [`hoyito.seat.${created.id}`]: JSON.stringify({ token, seat: loser }) };
  const { context, page } = await openPage(browser, `${own.url}/g/${created.id}`, { storage });
  let again = null;
  try {
    // The clock of the player to move runs on the page.
    await page.waitForSelector(`.clock-side.running[data-side="${loser}"]`);
    const first = await page.textContent(`.clock-side[data-side="${loser}"]`);
    await page.waitForFunction(([side, before]) => document.querySelector(`.clock-side[data-side="${side}"]`).textContent !== before, [loser, first]);
    await own.stop();
    await page.waitForSelector('#conn:not([hidden])');
    // While the server is down, the player to move uses 57 of their 60 seconds.
    execFileSync('python3', ['-c', `import sqlite3,sys
c=sqlite3.connect(sys.argv[1]); c.execute("UPDATE moves SET at_ms = at_ms - 57000 WHERE game_id = ?", (sys.argv[2],)); c.commit()`, own.db, created.id]);
    again = await startServer(own.db, new URL(own.url).host);
    // The page reconnects by itself (its backoff may have grown to 10 s
    // while the server was down, longer than the 3 s left): it shows the
    // clock near its end or, if the flag fell first, the flag; then the flag.
    await page.waitForFunction((side) => /\b[0-3]\.\d$/.test(document.querySelector(`.clock-side[data-side="${side}"]`).textContent)
      || /You ran out of time/.test(document.getElementById('summary').textContent), loser, { timeout: 30000 });
    await page.waitForFunction(() => /You ran out of time/.test(document.getElementById('summary').textContent), null, { timeout: 10000 });
    assert.ok(await page.locator('#conn').isHidden());
    assert.match(await page.textContent(`.clock-side[data-side="${loser}"]`), /\b0:00$/, 'a fallen flag shows no time left');
    // The low-time warning goes with the flag: the game is over.
    assert.equal(await page.textContent('#clock-alert'), '', 'no low-time warning under a fallen flag');
    assert.equal(await page.locator('.clock-side.low').count(), 0);
    assert.match(await page.textContent('#summary'), /How it ended: time ran out/);
    assert.match(await page.textContent('#moves li:last-child'), /You ran out of time/);
    assert.equal(await page.locator('.hole.legal').count(), 0);
    const res = await fetch(`${again.url}/api/games/${created.id}/moves`, {
      method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` }, body: JSON.stringify({ move: '1' }),
    });
    assert.equal(res.status, 409);
    assert.equal((await res.json()).code, 'flag_fell');
  } finally {
    await context.close();
    if (again) { await again.stop(); again.cleanup(); }
    own.cleanup();
  }
});
