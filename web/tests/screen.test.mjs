// The whole game on one screen: at the suite's screen size (run it at a
// phone's 390x844 and 360x640, turned 844x390, and a desktop's 1366x768),
// in each state of each kind of game, what a player needs is inside the
// window without scrolling: the whole board, both players' bars (with the
// clocks of a timed game), the status line, the actions open now, and
// whatever waits for an answer (a draw offer, a takeback request, the
// claim, "Reconnecting…", the result with Rematch, the next round).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  startServer, launchBrowser, openPage, callApi, waitForSteps, waitUntil, seriousViolations, viewport, withMenu, newPage,
} from './helpers.mjs';

let server;
let browser;
before(async () => {
  // A player counts as gone after 1 s here (60 s by default): the claim comes quickly.
  server = await startServer(undefined, undefined, ['--claim-after', '1']);
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await server?.stop();
  server?.cleanup();
});

const api = (method, path, body, token) => callApi(server.url, method, path, body, token);
const seated = (id, seat, { query = '', storage = {}, ...opts } = {}) => openPage(browser, `${server.url}/g/${id}${query}`, {
  ...opts, storage: { [`hoyito.seat.${id}`]: JSON.stringify(seat), ...storage },
});

/**
 * The selectors among `sels` whose element is missing, not shown, or not
 * wholly inside the window as it is (the page not scrolled), each with
 * its rectangle; every hole of the board is checked too.
 */
async function outside(page, sels, { board = true } = {}) {
  return page.evaluate(([list, withBoard]) => {
    const W = document.documentElement.clientWidth;
    const H = window.innerHeight;
    const bad = [];
    const check = (name, el) => {
      if (!el) { bad.push(`${name}: missing`); return; }
      if (!el.checkVisibility()) { bad.push(`${name}: not shown`); return; }
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0 || r.left < -0.5 || r.top < -0.5 || r.right > W + 0.5 || r.bottom > H + 0.5) {
        bad.push(`${name}: ${Math.round(r.left)},${Math.round(r.top)}–${Math.round(r.right)},${Math.round(r.bottom)} in ${W}×${H}`);
        return;
      }
      // Not hidden by a box that scrolls or clips (the element must be seen without scrolling it either).
      for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
        const o = getComputedStyle(a);
        if (o.overflowX === 'visible' && o.overflowY === 'visible') continue;
        const b = a.getBoundingClientRect();
        if (r.top < b.top - 0.5 || r.bottom > b.bottom + 0.5 || r.left < b.left - 0.5 || r.right > b.right + 0.5) {
          bad.push(`${name}: cut by ${a.id || a.className} (${Math.round(r.top)}–${Math.round(r.bottom)} in ${Math.round(b.top)}–${Math.round(b.bottom)})`);
          return;
        }
      }
    };
    for (const s of list) check(s, document.querySelector(s));
    if (withBoard) {
      // Every action open now, in the action bar (the menu's button among them).
      for (const b of document.querySelectorAll('#controls > button')) if (b.checkVisibility()) check(`#${b.id}`, b);
      const holes = [...document.querySelectorAll('#board-wrap .hole .pit')];
      if (!holes.length) bad.push('the board: no holes');
      holes.forEach((h, k) => check(`hole ${k}`, h));
      document.querySelectorAll('#board-wrap .pile-bg').forEach((p, k) => check(`pile ${k}`, p));
    }
    if (window.scrollY !== 0) bad.push(`the page is scrolled to ${window.scrollY}`);
    return bad;
  }, [sels, board]);
}

/** Asserts that `sels` (and the board) are in the window of `page`, saving a screenshot named `name`. */
async function inView(page, name, sels, opts) {
  const bad = await outside(page, sels, opts);
  await page.screenshot({ path: `/tmp/screen-${name}-${viewport.width}x${viewport.height}.png` });
  assert.deepEqual(bad, [], `${name} at ${viewport.width}×${viewport.height}`);
}

const BARS = ['#p-top .name', '#p-top .cap', '#p-bottom .name', '#p-bottom .cap', '#status'];

/** A game against the computer (level 1), the player South. */
async function engineGame(rules = { variant: 'II' }) {
  const c = await api('POST', '/api/games', { mode: 'engine', level: 1, side: 'south', rules });
  return { id: c.id, seat: { seat: 'south', token: c.token } };
}

/** An online game between Ana (South) and Jean (North), with `clock` if given; its id and both seats. */
async function onlineGame(clock) {
  const c = await api('POST', '/api/games', { mode: 'online', name: 'Ana', side: 'south', rules: { variant: 'II' }, ...(clock ? { clock } : {}) });
  const invite = new URL(c.invite, server.url).searchParams.get('invite');
  const j = await api('POST', `/api/games/${c.id}/join`, { invite, name: 'Jean' });
  return { id: c.id, ana: { seat: 'south', token: c.token }, jean: { seat: 'north', token: j.token } };
}

/** Plays the first legal move of the player to move in game `id`. */
async function play(id, token) {
  const v = await api('GET', `/api/games/${id}`);
  return (await api('POST', `/api/games/${id}/moves`, { move: v.legal[0], seq: v.seq }, token)).game;
}

test('a game against the computer: the board, both bars, the status and the actions; the menu opens in view', async () => {
  const g = await engineGame();
  const { context, page } = await seated(g.id, g.seat);
  try {
    await page.waitForSelector('.hole.legal');
    await inView(page, 'engine', [...BARS, '#hint', '#undo', '#resign', '#offer-draw']);
    if (await page.locator('#more').isVisible()) {
      await page.click('#more');
      await inView(page, 'menu', ['#flip', '#speed', '#download', '#share-link', '#share-image']);
      await page.keyboard.press('Escape');
      assert.equal(await page.getAttribute('#more', 'aria-expanded'), 'false');
    } else {
      await inView(page, 'menu', ['#flip', '#speed', '#download', '#share-link', '#share-image']);
    }
    assert.deepEqual(await seriousViolations(page), []);
  } finally {
    await context.close();
  }
});

test('long rows (8, 10 and 12 holes) fit the window: the board, both bars and the actions, holes of 24 px at least', async () => {
  for (const holes of [8, 10, 12]) {
    const g = await engineGame({ variant: 'II', holes });
    const { context, page } = await seated(g.id, g.seat);
    try {
      await page.waitForSelector('.hole.legal');
      await inView(page, `holes-${holes}`, [...BARS, '#hint', '#resign']);
      const least = await page.$$eval('#board-wrap .hole', (targets) => Math.min(...targets.map((p) => {
        const r = p.getBoundingClientRect();
        return Math.min(r.width, r.height);
      })));
      assert.ok(least >= 24, `2×${holes}: a hole of ${least} px`);
    } finally {
      await context.close();
    }
  }
});

test("a timed online game: the guest sees both clocks, and a draw offer's Accept and Decline, at once", async () => {
  const g = await onlineGame({ initial: 180, increment: 2 });
  await play(g.id, g.ana.token);
  await api('POST', `/api/games/${g.id}/draw`, { action: 'offer' }, g.ana.token);
  const { context, page } = await seated(g.id, g.jean);
  try {
    await page.waitForSelector('#decline-draw');
    await inView(page, 'draw-offer', [...BARS, '.clock-side[data-side="south"]', '.clock-side[data-side="north"]',
      '#accept-draw', '#decline-draw', '#resign']);
    assert.deepEqual(await seriousViolations(page), []);
    await page.click('#decline-draw');
    await page.waitForSelector('#decline-draw', { state: 'detached' });
    await inView(page, 'declined', [...BARS, '.clock-side[data-side="north"]']);
  } finally {
    await context.close();
  }
});

test('the claim against a player who left is in view', async () => {
  // A server of its own, whose sockets no other test has used.
  const own = await startServer(undefined, undefined, ['--claim-after', '1']);
  const c = await callApi(own.url, 'POST', '/api/games', {
    mode: 'online', name: 'Ana', side: 'south', rules: { variant: 'II' }, clock: { initial: 300, increment: 0 },
  });
  const invite = new URL(c.invite, own.url).searchParams.get('invite');
  const j = await callApi(own.url, 'POST', `/api/games/${c.id}/join`, { invite, name: 'Jean' });
  const open = (seat) => openPage(browser, `${own.url}/g/${c.id}`, { storage: { [`hoyito.seat.${c.id}`]: JSON.stringify(seat) } });
  // Jean has the game open first: the view Ana's page opens with says she
  // may not claim (he is there); the claim comes by the presence messages.
  const jean = await open({ seat: 'north', token: j.token });
  await waitUntil(async () => (await callApi(own.url, 'GET', `/api/games/${c.id}`)).presence.connected.north, 'Jean is connected');
  const ana = await open({ seat: 'south', token: c.token });
  try {
    await ana.page.waitForFunction(() => /online/.test(document.querySelector('#p-top .presence')?.textContent || ''));
    await jean.context.close();
    await ana.page.locator('#claim-win').waitFor();
    await inView(ana.page, 'claim', [...BARS, '#claim-win', '#claim-draw', '.clock-side[data-side="north"]']);
  } finally {
    await ana.context.close();
    await own.stop();
    own.cleanup();
  }
});

test('a takeback request and "Reconnecting…" are in view', async () => {
  const g = await onlineGame({ initial: 300, increment: 0 });
  await play(g.id, g.ana.token);
  await play(g.id, g.jean.token);
  await api('POST', `/api/games/${g.id}/takeback`, { action: 'offer' }, g.jean.token);
  const { context, page } = await newPage(browser);
  // The test stands between the page and the WebSocket: it can drop it.
  let live = null;
  let down = false;
  await page.routeWebSocket(/\/api\/games\/.*\/ws$/, (ws) => {
    if (down) { ws.close(); return; }
    live = ws;
    ws.connectToServer();
  });
  await context.addInitScript(([k, v]) => localStorage.setItem(k, v), [`hoyito.seat.${g.id}`, JSON.stringify(g.ana)]);
  try {
    await page.goto(`${server.url}/g/${g.id}`);
    await page.waitForSelector('#decline-takeback');
    await inView(page, 'takeback', [...BARS, '#accept-takeback', '#decline-takeback']);
    await page.click('#decline-takeback');
    await page.waitForSelector('#decline-takeback', { state: 'detached' });
    await page.waitForFunction(() => document.querySelector('.hole.legal'));
    down = true;
    live.close();
    await page.waitForSelector('#conn:not([hidden])');
    await inView(page, 'reconnecting', [...BARS, '#conn']);
  } finally {
    await context.close();
  }
});

test('a direction chosen at the hole: a tap offers both directions by it, in view, and one plays', async () => {
  const c = await api('POST', '/api/games', { mode: 'hotseat', rules: { variant: 'I', holes: 6, direction: 'per_move' } });
  const { context, page } = await seated(c.id, { seat: 'both', token: c.token });
  try {
    await page.waitForSelector('.hole.legal');
    const hole = page.locator('.hole.legal').last();
    await hole.click();
    await page.waitForSelector('#dir:not([hidden])');
    await inView(page, 'direction', [...BARS, '#dir button[data-dir="L"]', '#dir button[data-dir="R"]']);
    assert.equal(await page.evaluate(() => document.activeElement?.dataset.dir), 'L', 'the focus on the first direction');
    // Escape closes it and gives the focus back to the hole; Enter opens it again; R plays clockwise.
    await page.keyboard.press('Escape');
    await page.waitForSelector('#dir', { state: 'hidden' });
    assert.equal(await page.evaluate(() => document.activeElement?.classList.contains('hole')), true);
    await page.keyboard.press('Enter');
    await page.waitForSelector('#dir:not([hidden])');
    await page.keyboard.press('r');
    await waitForSteps(page, 1);
    assert.match(await page.locator('#moves li').last().textContent(), /R, sown clockwise$/);
    await page.locator('.hole.legal').first().click();
    await page.click('#dir button[data-dir="L"]');
    await waitForSteps(page, 2);
    assert.match(await page.locator('#moves li').last().textContent(), /L, sown counter-clockwise/);
  } finally {
    await context.close();
  }
});

test("the two-hole opening's prompt is whole and says what a touch (or a click and Esc) does; a tap on the first hole takes it back", async () => {
  const c = await api('POST', '/api/games', { mode: 'hotseat', rules: { variant: 'II', two_hole_opening: true } });
  // On a touch screen (a phone at the phone sizes) the prompt speaks of taps,
  // not of a key the phone does not have; with a mouse, of a click and Esc.
  for (const touch of [true, false]) {
    const { context, page } = await seated(c.id, { seat: 'both', token: c.token }, touch ? { hasTouch: true, isMobile: viewport.width < 800 } : {});
    try {
      await page.waitForSelector('.hole.legal');
      const first = page.locator('.hole.legal').first();
      const hole = await first.getAttribute('data-hole');
      if (touch) await first.tap(); else await first.click();
      await page.waitForFunction(() => /pick the second hole/.test(document.getElementById('status').textContent));
      const said = await page.textContent('#status');
      if (touch) {
        assert.match(said, /tap the first one again to cancel/);
        assert.doesNotMatch(said, /Esc/, 'no key named to a touch screen');
      } else {
        assert.match(said, /click the first one again, or press Esc, to cancel/);
      }
      await inView(page, touch ? 'opening' : 'opening-mouse', BARS);
      const status = await page.$eval('#status', (e) => ({ sh: e.scrollHeight, ch: e.clientHeight, sw: e.scrollWidth, cw: e.clientWidth }));
      assert.ok(status.sh <= status.ch + 1 && status.sw <= status.cw + 1, `the status is not cut: ${JSON.stringify(status)}`);
      if (touch) await page.tap(`.hole[data-hole="${hole}"]`); else await page.click(`.hole[data-hole="${hole}"]`);
      await page.waitForFunction(() => !/pick the second hole/.test(document.getElementById('status').textContent));
    } finally {
      await context.close();
    }
  }
});

test('a match: the round over with its next round, and the new round from the top with its board', async () => {
  const c = await api('POST', '/api/games', { mode: 'hotseat', match: true, rules: { variant: 'II' } });
  let v = await api('GET', `/api/games/${c.id}`);
  while (!v.state.over) v = (await api('POST', `/api/games/${c.id}/moves`, { move: v.legal[0], seq: v.seq }, c.token)).game;
  const { context, page } = await seated(c.id, { seat: 'both', token: c.token });
  try {
    await page.waitForSelector('#next-round');
    await inView(page, 'round-over', [...BARS, '#standing', '#next-round', '.summary h2']);
    // The status line's score counts the reserve, as the standing does.
    const seeds = await page.evaluate(() => {
      const nums = (s) => (s.match(/\d+–\d+/g) || []).map((x) => x.split('–').map(Number).sort((a, b) => a - b).join('–'));
      return { status: nums(document.getElementById('status').textContent), standing: document.getElementById('standing').textContent };
    });
    for (const pair of seeds.status) {
      const [lo, hi] = pair.split('–');
      assert.ok(seeds.standing.includes(lo) && seeds.standing.includes(hi), `${JSON.stringify(seeds)}`);
    }
    await page.click('#next-round');
    await page.waitForSelector('#next-round', { state: 'detached' });
    await page.waitForSelector('.hole.legal');
    await inView(page, 'next-round', [...BARS, '#standing']);
    // The list's entry of the new round is whole, not cut.
    const cut = await page.$$eval('#moves li', (lis) => lis.filter((li) => li.scrollWidth > li.clientWidth + 1
      || (li.classList.contains('event') && li.querySelector('button').scrollWidth > li.querySelector('button').clientWidth + 1)).map((li) => li.textContent));
    assert.deepEqual(cut, []);
    assert.match(await page.textContent('#moves li:last-child'), /Round 2/);
    assert.notEqual(await page.evaluate(() => document.activeElement === document.body), true, 'the focus is not lost');
    // Round 2 played out (by the first legal move each time, round 1 left
    // a reserve): the status line's score is the round's score the view
    // gives, captured seeds and reserve, as the standing says.
    v = await api('GET', `/api/games/${c.id}`);
    while (!v.state.over) v = (await api('POST', `/api/games/${c.id}/moves`, { move: v.legal[0], seq: v.seq }, c.token)).game;
    assert.ok(v.state.reserve.some((n) => n > 0), 'round 2 was played with a reserve');
    const round = v.rounds.find((r) => r.round === 2);
    const [w, l] = v.state.winner === 'north' ? [round.score[1], round.score[0]] : round.score;
    await page.waitForFunction(() => /Round 2 · Game over/.test(document.getElementById('status').textContent));
    const line = await page.textContent('#status');
    assert.ok(line.endsWith(` ${w}–${l}`), `${line} (the round's score: ${round.score.join('–')})`);
    assert.match(await page.textContent('#standing'), new RegExp(`seeds: South ${round.score[0]}, North ${round.score[1]}`));
    await inView(page, 'round-2-over', [...BARS, '#standing', '#next-round', '.rounds tbody tr:last-child', '.rounds thead th']);
  } finally {
    await context.close();
  }
});

test('a finished game: the result, its score and Rematch in view, the focus on the result', async () => {
  const g = await engineGame();
  const { context, page } = await seated(g.id, g.seat);
  try {
    await page.waitForSelector('.hole.legal');
    page.once('dialog', (d) => d.accept());
    await page.click('#resign');
    await page.waitForSelector('.summary h2');
    await inView(page, 'over', [...BARS, '.summary h2', '.summary p', '#rematch', '#new-game-link']);
    assert.equal(await page.evaluate(() => !!document.activeElement?.closest('#summary')), true, 'the focus on the result');
    assert.deepEqual(await seriousViolations(page), []);
  } finally {
    await context.close();
  }
});

test('a game played out: the result, its score and how it ended in view, with Rematch', async () => {
  const c = await api('POST', '/api/games', { mode: 'hotseat', rules: { variant: 'II' } });
  let v = await api('GET', `/api/games/${c.id}`);
  while (!v.state.over) v = (await api('POST', `/api/games/${c.id}/moves`, { move: v.legal[0], seq: v.seq }, c.token)).game;
  const { context, page } = await seated(c.id, { seat: 'both', token: c.token });
  try {
    await page.waitForSelector('.summary h2');
    await inView(page, 'played-out', [...BARS, '.summary h2', '.summary p', '#rematch', '#new-game-link']);
    const [s, n] = v.state.captured;
    assert.match(await page.textContent('.summary p'), new RegExp(`South ${s} – ${n} North`));
  } finally {
    await context.close();
  }
});

test('while a move is shown seed by seed, Skip is in view and ends it', async () => {
  const c = await api('POST', '/api/games', { mode: 'hotseat', rules: { variant: 'II' } });
  const { context, page } = await seated(c.id, { seat: 'both', token: c.token }, { animate: true, storage: { 'hoyito.speed': 'slow' } });
  try {
    await page.waitForSelector('.hole.legal');
    // A mouse click plays at once (a first tap on a touch screen only previews).
    await page.locator('.hole.legal').first().click();
    await page.waitForSelector('#skip:not([hidden])');
    await inView(page, 'skip', ['#skip', '#status']);
    await page.click('#skip');
    await page.waitForSelector('#skip', { state: 'hidden' });
    await waitForSteps(page, 1);
    // The last move, by the status line.
    await page.waitForFunction(() => /^Last: South \d+/.test(document.getElementById('last-move').textContent));
    await inView(page, 'last-move', [...BARS, '#last-move']);
  } finally {
    await context.close();
  }
});

test('the first tap on a touch screen previews, the second plays, after the New game form as after a reload', async () => {
  const { context, page } = await newPage(browser, { hasTouch: true, isMobile: viewport.width < 800 });
  await context.addInitScript(() => localStorage.setItem('hoyito.speed', 'instant'));
  try {
    await page.goto(`${server.url}/`);
    await page.check('input[name="mode"][value="hotseat"]');
    await page.click('#start');
    await page.waitForSelector('.hole.legal');
    // The focus is on the game, not lost on the page's body.
    assert.equal(await page.evaluate(() => document.activeElement !== document.body), true, 'the focus after Start');
    for (const round of ['after the form', 'after a reload']) {
      if (round === 'after a reload') { await page.reload(); await page.waitForSelector('.hole.legal'); }
      const steps = await page.locator('#moves li').count();
      const hole = page.locator('.hole.legal').first();
      await hole.tap();
      await page.waitForFunction(() => document.getElementById('preview').textContent !== '');
      await inView(page, 'preview', ['#preview', ...BARS]);
      assert.equal(await page.locator('#moves li').count(), steps, `${round}: the first tap does not play`);
      await hole.tap();
      await page.waitForFunction((n) => document.querySelectorAll('#moves li').length > n, steps);
    }
  } finally {
    await context.close();
  }
});

test('the New game page: its Start button in view, and something shown at once on a slow connection', async () => {
  const { context, page } = await newPage(browser, { serviceWorkers: 'block' });
  try {
    await page.goto(`${server.url}/`);
    await page.waitForSelector('#start');
    await inView(page, 'new-game', ['#start'], { board: false });
    // A slow connection (150 ms, 1.6 Mbit/s), and the app's modules held
    // back until the test has seen the page: the loading sign is in the
    // page itself, shown before any module has loaded.
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false, latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8,
    });
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    let release;
    const held = new Promise((r) => { release = r; });
    await page.route('**/app.js', async (route) => { await held; await route.continue(); });
    await page.goto(`${server.url}/`, { waitUntil: 'commit' });
    await page.waitForSelector('.loading', { state: 'visible' });
    await inView(page, 'loading', ['.loading'], { board: false });
    release();
    await page.waitForSelector('#start');
    assert.equal(await page.locator('.loading').count(), 0, 'the sign goes once the page is drawn');
  } finally {
    await context.close();
  }
});

test('a link to a step opens the replay there; the share link and the image of the board', async () => {
  const c = await api('POST', '/api/games', { mode: 'hotseat', rules: { variant: 'II' } });
  for (let k = 0; k < 4; k += 1) await play(c.id, c.token);
  const { context, page } = await seated(c.id, { seat: 'both', token: c.token }, { query: '?step=2' });
  try {
    await page.waitForSelector('#viewing:not([hidden])');
    assert.match(await page.textContent('#viewing'), /step 2 of 4/i);
    assert.equal(await page.$eval('#moves li.current button', (b) => b.dataset.frame), '2');
    const url = await page.evaluate(() => new Promise((resolve) => {
      // No share sheet here: the link is copied.
      Object.defineProperty(navigator, 'share', { value: undefined, configurable: true });
      navigator.clipboard.writeText = (text) => { resolve(text); return Promise.resolve(); };
      document.getElementById('share-link').click();
    }));
    assert.equal(url, `${server.url}/g/${c.id}?step=2`);
    // With a share sheet (a phone's), the link goes to it.
    const shared = await page.evaluate(() => new Promise((resolve) => {
      Object.defineProperty(navigator, 'share', { value: (data) => { resolve(data); return Promise.resolve(); }, configurable: true });
      document.getElementById('share-link').click();
    }));
    assert.equal(shared.url, `${server.url}/g/${c.id}?step=2`);
    assert.ok(shared.title, 'the share sheet gets a title');
    const [download] = await Promise.all([page.waitForEvent('download'), withMenu(page, (p) => p.click('#share-image'))]);
    assert.match(download.suggestedFilename(), new RegExp(`^hoyito-${c.id}-2\\.png$`));
  } finally {
    await context.close();
  }
});

test('a game that does not exist offers a new game; a game the server cannot give offers no action', async () => {
  const { context, page } = await openPage(browser, `${server.url}/g/nosuchgame`);
  try {
    await page.waitForSelector('#new-game-link');
    await inView(page, 'not-found', ['#new-game-link'], { board: false });
    const c = await api('POST', '/api/games', { mode: 'hotseat', rules: { variant: 'II' } });
    await page.route(`**/api/games/${c.id}`, (r) => r.abort('internetdisconnected'));
    await page.goto(`${server.url}/g/${c.id}`);
    await page.waitForFunction(() => document.getElementById('status')?.textContent !== '');
    for (const id of ['#undo', '#hint']) {
      const el = page.locator(id);
      assert.ok((await el.isHidden()) || (await el.isDisabled()), `${id} is offered over no board`);
    }
  } finally {
    await context.close();
  }
});
