// End-to-end tests of what a player meets on the game page and the Games
// page, at a desktop's and a phone's size: the page stays on the board as
// moves come (the list of moves scrolls only itself), draw offers as a
// spectator and a declined offer, a timed game waiting for its second
// player, a flagged clock, Undo against the computer, no request for an
// analysis a game in play cannot have, no key badges on a phone, no stale
// hint after an undo, the rounds of a resigned match, the result in the
// status line and in view when the game ends, the focus kept through
// redraws, the Games page offline, and the clocks paused while the server
// cannot be reached. Run with tests/run.sh.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import {
  startServer, launchBrowser, openPage, newPage, callApi, waitForSteps, viewport, once,
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
const phone = viewport.width <= 760;

/** Opens game `id` holding `seat` (token and side), as if this browser had created it. */
const openSeated = (id, seat, opts = {}) => open(`/g/${id}`, { ...opts, storage: { ...opts.storage, [`hoyito.seat.${id}`]: JSON.stringify(seat) } });

/** An online game of Ana's, with Jean joined: the creation's and the join's answers. */
async function onlineGame(body = {}) {
  const a = await api('POST', '/api/games', { mode: 'online', name: 'Ana', ...body });
  const invite = new URL(a.invite, server.url).searchParams.get('invite');
  const j = await api('POST', `/api/games/${a.id}/join`, { invite, name: 'Jean' });
  return { a, j };
}

/** Plays the first legal move of hot-seat game `c` through the API `n` times. */
async function playApi(c, n) {
  let g = await api('GET', `/api/games/${c.id}`);
  for (let i = 0; i < n && !g.state.over; i += 1) {
    g = (await api('POST', `/api/games/${c.id}/moves`, { move: g.legal[0], seq: g.seq }, c.token)).game;
  }
  return g;
}

test('the page stays on the board as moves are played: it opens at its top and only the list of moves scrolls', async () => {
  const c = await api('POST', '/api/games', { mode: 'hotseat', rules: { variant: 'I', holes: 6 } });
  const { context, page } = await openSeated(c.id, { token: c.token, seat: 'both' });
  try {
    await page.waitForSelector('.hole.legal');
    assert.equal(await page.evaluate(() => window.scrollY), 0, 'the game page opens at its top');
    for (let k = 1; k <= 12; k += 1) {
      const g = await api('GET', `/api/games/${c.id}`);
      if (g.state.over) break;
      // Played with the keys, so that nothing but the page itself scrolls,
      // once the page takes a move again (its legal holes are marked).
      await page.waitForSelector('.hole.legal');
      await page.keyboard.press(g.legal[0]);
      await waitForSteps(page, k);
      assert.equal(await page.evaluate(() => window.scrollY), 0, `the page scrolled after move ${k}`);
    }
    // The current step is shown inside the list.
    const inside = await page.$eval('#moves', (ol) => {
      const b = ol.getBoundingClientRect();
      const r = ol.querySelector('.current').getBoundingClientRect();
      return r.top >= b.top - 1 && r.bottom <= b.bottom + 1 && r.left >= b.left - 1 && r.right <= b.right + 1;
    });
    assert.ok(inside, 'the current step is scrolled into the list');
  } finally {
    await context.close();
  }
});

test('a spectator reads who offered a draw, and the player who offered it reads that it was declined', once, async () => {
  const { a, j } = await onlineGame();
  const spectator = await open(`/g/${a.id}`);
  const ana = await openSeated(a.id, { token: a.token, seat: a.seat });
  try {
    await spectator.page.waitForSelector('#moves li');
    await spectator.page.waitForSelector('.watching');
    assert.equal(await spectator.page.textContent('#draw-offer'), '', 'no offer, nothing said');
    await ana.page.click('#offer-draw');
    await ana.page.waitForFunction(() => /You offered a draw\./.test(document.getElementById('draw-offer').textContent));
    await spectator.page.waitForFunction(() => /Ana offered a draw\./.test(document.getElementById('draw-offer').textContent));
    assert.doesNotMatch(await spectator.page.textContent('.game-main'), /You offered/);
    await api('POST', `/api/games/${a.id}/draw`, { action: 'decline' }, j.token);
    await ana.page.waitForFunction(() => /Jean declined the draw\./.test(document.getElementById('draw-offer').textContent));
    await spectator.page.waitForFunction(() => document.getElementById('draw-offer').textContent === '');
    // The next move ends the news.
    const g = await api('GET', `/api/games/${a.id}`);
    const mover = g.state.to_move === a.seat ? a.token : j.token;
    await api('POST', `/api/games/${a.id}/moves`, { move: g.legal[0], seq: g.seq }, mover);
    await ana.page.waitForFunction(() => !/declined/.test(document.getElementById('draw-offer').textContent));
  } finally {
    await Promise.all([spectator.context.close(), ana.context.close()]);
  }
});

test('a timed game waiting for its second player says so, with Abort and no Resign or Draw', once, async () => {
  const a = await api('POST', '/api/games', { mode: 'online', name: 'Ana', clock: { initial: 180, increment: 2 } });
  const { context, page } = await openSeated(a.id, { token: a.token, seat: a.seat, invite: a.invite });
  try {
    await page.waitForSelector('#invite-url');
    await page.waitForFunction(() => /Waiting for the second player/.test(document.getElementById('status').textContent));
    assert.doesNotMatch(await page.textContent('#status'), /Your move/);
    assert.ok(await page.locator('#resign').isHidden(), 'no Resign while waiting');
    assert.ok(await page.locator('#offer-draw').isHidden(), 'no Offer a draw while waiting');
    assert.ok(await page.locator('#abort').isVisible(), 'Abort stays');
    assert.doesNotMatch(await page.title(), /Your move/);
  } finally {
    await context.close();
  }
});

test('the clock of a player who ran out of time shows 0:00', once, async () => {
  const own = await startServer();
  let again = null;
  let ctx = null;
  try {
    const a = await callApi(own.url, 'POST', '/api/games', { mode: 'online', clock: { initial: 180, increment: 0 }, name: 'Ana' });
    const invite = new URL(a.invite, own.url).searchParams.get('invite');
    const j = await callApi(own.url, 'POST', `/api/games/${a.id}/join`, { invite, name: 'Jean' });
    const g = await callApi(own.url, 'GET', `/api/games/${a.id}`);
    const first = g.state.to_move === a.seat ? a.token : j.token;
    // The first move is not timed; then the other player's clock runs.
    await callApi(own.url, 'POST', `/api/games/${a.id}/moves`, { move: g.legal[0] }, first);
    const loser = (await callApi(own.url, 'GET', `/api/games/${a.id}`)).state.to_move;
    const token = loser === a.seat ? a.token : j.token;
    await own.stop();
    // The loser thought for 200 of their 180 seconds while the server was down.
    execFileSync('python3', ['-c', `import sqlite3,sys
c=sqlite3.connect(sys.argv[1]); c.execute("UPDATE moves SET at_ms = at_ms - 200000 WHERE game_id = ?", (sys.argv[2],)); c.commit()`, own.db, a.id]);
    again = await startServer(own.db);
    const { context, page } = await openPage(browser, `${again.url}/g/${a.id}`, { storage: { [`hoyito.seat.${a.id}`]: JSON.stringify({ token, seat: loser }) } });
    ctx = context;
    await page.waitForFunction(() => /You ran out of time/.test(document.getElementById('summary').textContent));
    const shown = await page.textContent(`.clock-side[data-side="${loser}"]`);
    assert.match(shown, / 0:00$/, `the flagged clock shows ${shown}`);
  } finally {
    await ctx?.close();
    if (again) await again.stop();
    own.cleanup();
  }
});

test('playing North against the computer, Undo waits for a move of the player', once, async () => {
  const c = await api('POST', '/api/games', { mode: 'engine', level: 1, side: 'north', rules: { variant: 'II' } });
  const { context, page } = await openSeated(c.id, { token: c.token, seat: c.seat });
  try {
    // The computer (South) moves first.
    await waitForSteps(page, 1);
    await page.waitForSelector('.hole.legal');
    assert.ok(await page.locator('#undo').isDisabled(), 'Undo is enabled with no move of the player to take back');
    const n = (await page.locator('#moves li').count()) - 1;
    await page.locator('.hole.legal').first().click();
    await waitForSteps(page, n + 1);
    await page.waitForSelector('#undo:enabled');
    await page.click('#undo');
    await page.waitForFunction((k) => document.querySelectorAll('#moves li').length - 1 === k, n);
    await page.waitForSelector('.hole.legal');
    assert.ok(await page.locator('#undo').isDisabled());
  } finally {
    await context.close();
  }
});

test('a game being played asks for no analysis, and logs no error', once, async () => {
  const errors = [];
  const asked = [];
  const c = await api('POST', '/api/games', { mode: 'engine', level: 1, rules: { variant: 'II' } });
  const { context, page } = await open('/games');
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('request', (r) => { if (/\/api\/games\/[^/]+\/analysis/.test(r.url())) asked.push(r.url()); });
  try {
    await context.addInitScript(([id, seat]) => localStorage.setItem(`hoyito.seat.${id}`, seat), [c.id, JSON.stringify({ token: c.token, seat: c.seat })]);
    await page.goto(`${server.url}/g/${c.id}`);
    await page.waitForSelector('.hole.legal');
    await page.locator('.hole.legal').first().click();
    await waitForSteps(page, 2);
    await page.waitForSelector('.hole.legal');
    assert.deepEqual(asked, []);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('a finished game never analysed asks once, is told there is none (204), logs no error and offers the analysis', once, async () => {
  const errors = [];
  const c = await api('POST', '/api/games', { mode: 'hotseat', rules: { variant: 'II' } });
  await api('POST', `/api/games/${c.id}/resign`, {}, c.token);
  const { context, page } = await open('/games', { storage: { [`hoyito.seat.${c.id}`]: JSON.stringify({ token: c.token, seat: 'both' }) } });
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  try {
    const asked = page.waitForResponse((r) => /\/api\/games\/[^/]+\/analysis$/.test(r.url()));
    await page.goto(`${server.url}/g/${c.id}`);
    const answer = await asked;
    assert.equal(answer.status(), 204);
    await page.waitForSelector('#an-start');
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('no key badges on a phone\'s holes', async () => {
  const c = await api('POST', '/api/games', { mode: 'hotseat', rules: { variant: 'II', holes: 12 } });
  const { context, page } = await openSeated(c.id, { token: c.token, seat: 'both' });
  try {
    await page.waitForSelector('.hole.legal');
    const shown = await page.$$eval('.hole-text.legal .badge', (els) => els.filter((e) => getComputedStyle(e).display !== 'none').map((e) => e.textContent.trim()));
    if (phone) assert.deepEqual(shown, [], 'badges on a phone');
    else assert.ok(shown.includes('0') && shown.includes('='), `the desktop names the keys: ${shown}`);
  } finally {
    await context.close();
  }
});

test('an undo drops the hint given before it, and a hint answered after it', once, async () => {
  const c = await api('POST', '/api/games', { mode: 'hotseat', rules: { variant: 'I', holes: 6 } });
  await playApi(c, 2);
  const { context, page } = await openSeated(c.id, { token: c.token, seat: 'both' });
  const toastShown = () => page.$eval('#toast', (e) => e.classList.contains('show') && /Hint/.test(e.textContent));
  try {
    await page.waitForSelector('.hole.legal');
    await page.click('#hint');
    await page.waitForSelector('.hole.hinted');
    await page.click('#undo');
    await page.waitForFunction(() => document.querySelectorAll('#moves li').length === 2);
    assert.equal(await page.locator('.hole.hinted').count(), 0, 'the hinted hole is still marked');
    assert.equal(await toastShown(), false, 'the hint toast is still shown');

    // A hint answered once an undo has changed the position is dropped.
    let release;
    const held = new Promise((r) => { release = r; });
    await page.route('**/hint', async (route) => { await held; await route.continue(); });
    const answered = page.waitForResponse((r) => /\/hint$/.test(r.url()));
    await page.click('#hint');
    await page.click('#undo');
    await page.waitForFunction(() => document.querySelectorAll('#moves li').length === 1);
    release();
    await (await answered).finished();
    // Two frames for the page to take the answer.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    assert.equal(await page.locator('.hole.hinted').count(), 0, 'a stale hint is marked');
    assert.equal(await toastShown(), false, 'a stale hint is told');
  } finally {
    await context.close();
  }
});

test('a resigned match shows the result of its last round, and the status says who won', once, async () => {
  const c = await api('POST', '/api/games', { mode: 'hotseat', match: true, rules: { variant: 'I' } });
  await playApi(c, 3);
  await api('POST', `/api/games/${c.id}/resign`, {}, c.token);
  const g = await api('GET', `/api/games/${c.id}`);
  const winner = g.resigned === 'south' ? 'North' : 'South';
  const { context, page } = await openSeated(c.id, { token: c.token, seat: 'both' });
  try {
    await page.waitForSelector('#summary table.rounds');
    const cells = await page.$$eval('#summary table.rounds tbody tr td:last-child', (els) => els.map((e) => e.textContent));
    assert.ok(!cells.includes('…'), `a round shows … : ${cells}`);
    assert.match(cells[cells.length - 1], new RegExp(`${winner} wins \\(resignation\\)`));
    assert.match(await page.textContent('#status'), new RegExp(`Game over · .* resigned · ${winner} wins`));
  } finally {
    await context.close();
  }
});

test('a game played out: the status says who won and by how much; the result comes into view when the game ends', async () => {
  const c = await api('POST', '/api/games', { mode: 'hotseat', rules: { variant: 'I', holes: 4 } });
  const g = await playApi(c, 500);
  assert.ok(g.state.over);
  const [s, n] = g.state.captured;
  const expected = g.state.winner === 'draw' ? `Draw ${s}–${n}`
    : g.state.winner === 'south' ? `South wins ${s}–${n}` : `North wins ${n}–${s}`;
  const done = await open(`/g/${c.id}`);
  try {
    await done.page.waitForSelector('.summary');
    assert.equal(await done.page.textContent('#status'), `Game over · ${expected}`);
    assert.equal(await done.page.evaluate(() => window.scrollY), 0, 'a finished game opens at its top');
  } finally {
    await done.context.close();
  }

  // A game ending while the page watches: its result is scrolled into view.
  const d = await api('POST', '/api/games', { mode: 'hotseat', rules: { variant: 'II', holes: 6 } });
  const { context, page } = await openSeated(d.id, { token: d.token, seat: 'both' });
  try {
    await page.waitForSelector('.hole.legal');
    await api('POST', `/api/games/${d.id}/resign`, {}, d.token);
    await page.waitForSelector('.summary');
    const inView = await page.$eval('.summary', (e) => {
      const r = e.getBoundingClientRect();
      return r.top >= 0 && r.top < window.innerHeight;
    });
    assert.ok(inView, 'the result is out of view');
  } finally {
    await context.close();
  }
});

test('the focus stays where it was as the list of moves and the analysis are drawn again; the page has a heading', async () => {
  const c = await api('POST', '/api/games', { mode: 'hotseat', rules: { variant: 'I', holes: 6 } });
  await playApi(c, 3);
  const { context, page } = await open(`/g/${c.id}`);
  const focused = () => page.evaluate(() => {
    const e = document.activeElement;
    return e === document.body ? 'body' : e.id || `frame ${e.dataset.frame}`;
  });
  try {
    await waitForSteps(page, 3);
    assert.equal(await page.locator('h1').count(), 1);
    assert.match(await page.textContent('h1'), /Hoyito I 2×6/);
    await page.click('#moves button[data-frame="1"]');
    await page.waitForSelector('#viewing:not([hidden])');
    assert.equal(await focused(), 'frame 1');
    // A move comes while the list has the focus: the list is drawn again.
    await playApi(c, 1);
    await page.waitForFunction(() => document.querySelectorAll('#moves li').length === 5);
    assert.equal(await focused(), 'frame 1');
    await page.keyboard.press('Enter');
    // The step is shown; the focus stays on the button (Enter on it, not a hole).
    assert.equal(await focused(), 'frame 1');

    // Analysing: the focus goes from the button to the analysis.
    const over = await playApi(c, 500);
    assert.ok(over.state.over);
    await page.click('#live');
    await page.waitForSelector('#an-start');
    await page.focus('#an-start');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#an-graph');
    assert.equal(await focused(), 'an-title');
  } finally {
    await context.close();
  }
});

test('offline, the Games page lists the games on this device and says the server cannot be reached', once, async () => {
  const { context, page } = await open('/');
  try {
    await page.check('input[name="mode"][value="hotseat"]');
    await page.check('input[name="where"][value="device"]');
    await page.click('#start');
    await page.waitForURL(/\/g\/local[A-Za-z0-9]+$/);
    const local = new URL(page.url()).pathname;
    await page.waitForSelector('#moves li');
    // The server stops answering.
    await page.route('**/api/**', (route) => route.abort('internetdisconnected'));
    await page.click('a[href="/games"]');
    await page.waitForSelector('#games-offline');
    assert.match(await page.textContent('#games-offline'), /server can't be reached/);
    await page.waitForSelector(`#list a[href="${local}"]`);
    assert.doesNotMatch(await page.textContent('main'), /…/);
    const toast = await page.$eval('#toast', (e) => (e.classList.contains('show') ? e.textContent : ''));
    assert.equal(toast, '', 'an error toast');
  } finally {
    await context.close();
  }
});

test('while the server cannot be reached the clocks stop and say so; they run again with the server\'s times', once, async () => {
  const { a, j } = await onlineGame({ clock: { initial: 300, increment: 0 } });
  const g = await api('GET', `/api/games/${a.id}`);
  const first = g.state.to_move === a.seat ? a : j;
  // The first move is not timed; then the other player's clock runs.
  await api('POST', `/api/games/${a.id}/moves`, { move: g.legal[0] }, first.token);
  const running = first.seat === 'south' ? 'north' : 'south';
  const { context, page } = await newPage(browser);
  await context.addInitScript((kv) => {
    for (const [k, v] of Object.entries(kv)) localStorage.setItem(k, v);
  }, { 'hoyito.speed': 'instant', [`hoyito.seat.${a.id}`]: JSON.stringify({ token: a.token, seat: a.seat }) });
  // The test stands between the page and the server's WebSocket: while
  // `down`, every connection is closed at once, as by a lost network.
  let down = false;
  let attempts = 0;
  let live = null;
  let attempted = null;
  await page.routeWebSocket(/\/api\/games\/.*\/ws$/, (ws) => {
    attempts += 1;
    attempted?.();
    if (down) { ws.close(); return; }
    live = ws;
    ws.connectToServer();
  });
  try {
    await page.goto(`${server.url}/g/${a.id}`);
    const clock = page.locator(`.clock-side[data-side="${running}"]`);
    await page.waitForSelector(`.clock-side.running[data-side="${running}"]`);
    assert.equal(await page.getAttribute(`.clock-side[data-side="${running}"]`, 'data-paused'), 'false');
    down = true;
    const before = attempts;
    live.close();
    await page.waitForSelector('#conn:not([hidden])');
    await page.waitForSelector('.clock-side.paused');
    const frozen = await clock.textContent();
    // Three attempts to reconnect, refused, take at least two seconds (the
    // page backs off 400, 800, 1600 ms, less a quarter): a running clock
    // would show another time.
    while (attempts < before + 3) await new Promise((resolve) => { attempted = resolve; });
    assert.equal(await clock.textContent(), frozen, 'the clock stood still');
    assert.equal(await page.getAttribute(`.clock-side[data-side="${running}"]`, 'data-paused'), 'true');
    down = false;
    await page.waitForSelector('#conn', { state: 'hidden' });
    await page.waitForSelector('.clock-side.paused', { state: 'detached' });
    assert.equal(await page.getAttribute(`.clock-side[data-side="${running}"]`, 'data-paused'), 'false');
    await page.waitForFunction(([side, shown]) => document.querySelector(`.clock-side[data-side="${side}"]`).textContent !== shown, [running, frozen]);
  } finally {
    await context.close();
  }
});
