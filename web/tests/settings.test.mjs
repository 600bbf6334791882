// Settings a player chooses: the New game form's time controls (the
// presets, any clock the server accepts, days per move), and the game's
// sounds (WebAudio: a sowing, a capture, the last seconds of your clock),
// played unless switched off.
// Run with tests/run.sh.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  startServer, launchBrowser, openPage, callApi,
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
const open = (path, opts) => openPage(browser, server.url + path, opts);

/** Starts an online game from the form with the clock chosen by `choose`; its clock as the server keeps it. */
async function startWith(page, choose) {
  await page.goto(`${server.url}/`);
  await page.check('input[name="mode"][value="online"]');
  await choose();
  await page.click('#start');
  await page.waitForURL(/\/g\/[A-Za-z0-9]+$/);
  const id = page.url().split('/g/')[1];
  const { clock } = await api('GET', `/api/games/${id}`);
  return clock && { initial: clock.initial, increment: clock.increment, days: clock.days };
}

test('the New game form offers the presets, any clock the server takes, and days per move', async () => {
  const { context, page } = await open('/');
  await page.check('input[name="mode"][value="online"]');
  const values = await page.$$eval('select[name="clock"] option', (os) => os.map((o) => o.value));
  for (const v of ['', '180+2', '300+3', '600+5', 'custom', 'd1', 'd3', 'days']) assert.ok(values.includes(v), `${v} in ${values}`);
  // The custom fields show only with their choice.
  assert.equal(await page.locator('input[name="clock_min"]').isVisible(), false);

  assert.deepEqual(await startWith(page, () => page.selectOption('select[name="clock"]', '300+3')), { initial: 300, increment: 3, days: 0 });
  assert.deepEqual(await startWith(page, async () => {
    await page.selectOption('select[name="clock"]', 'custom');
    await page.fill('input[name="clock_min"]', '1');
    await page.fill('input[name="clock_sec"]', '30');
    await page.fill('input[name="clock_inc"]', '7');
  }), { initial: 90, increment: 7, days: 0 });
  // The limits: 180 minutes and 60 s a move.
  assert.deepEqual(await startWith(page, async () => {
    await page.selectOption('select[name="clock"]', 'custom');
    await page.fill('input[name="clock_min"]', '180');
    await page.fill('input[name="clock_sec"]', '0');
    await page.fill('input[name="clock_inc"]', '60');
  }), { initial: 10800, increment: 60, days: 0 });
  assert.deepEqual(await startWith(page, async () => {
    await page.selectOption('select[name="clock"]', 'days');
    await page.fill('input[name="clock_days"]', '10');
  }), { initial: 0, increment: 0, days: 10 });

  // Below a minute the form says so and starts nothing.
  await page.goto(`${server.url}/`);
  await page.check('input[name="mode"][value="online"]');
  await page.selectOption('select[name="clock"]', 'custom');
  await page.fill('input[name="clock_min"]', '0');
  await page.fill('input[name="clock_sec"]', '45');
  await page.click('#start');
  assert.equal(await page.$eval('input[name="clock_min"]', (i) => i.validationMessage), 'A clock starts with 1 minute to 3 hours (60 to 10,800 seconds).');
  assert.equal(new URL(page.url()).pathname, '/');
  await context.close();
});

// Counts the tones the page starts: an AudioContext whose oscillators
// record their frequency when started (no sound is made).
function fakeAudio() {
  window.__tones = [];
  class Param {
    constructor() { this.value = 0; }
    setValueAtTime(v) { this.value = v; return this; }
    exponentialRampToValueAtTime() { return this; }
  }
  class FakeAudioContext {
    constructor() { this.state = 'running'; this.currentTime = 0; this.destination = {}; }
    resume() { return Promise.resolve(); }
    createGain() { return { gain: new Param(), connect: (n) => n }; }
    createOscillator() {
      const osc = { type: 'sine', frequency: new Param(), connect: (n) => n, stop() {} };
      osc.start = () => window.__tones.push(osc.frequency.value);
      return osc;
    }
  }
  window.AudioContext = FakeAudioContext;
  window.webkitAudioContext = FakeAudioContext;
}

/** The sowing and capture sounds started so far. */
const heard = (page) => page.evaluate(() => ({
  sow: window.__tones.filter((f) => f >= 250 && f < 400).length,
  capture: window.__tones.filter((f) => f === 660).length,
}));

test('a move sounds its sowing and its capture, and nothing once sounds are off', async () => {
  const made = await api('POST', '/api/games', { mode: 'hotseat', rules: { variant: 'I', holes: 4 } });
  const { context, page } = await open(`/g/${made.id}`, { storage: { [`hoyito.seat.${made.id}`]: JSON.stringify({ token: made.token, seat: 'both' }) } });
  await context.addInitScript(fakeAudio);
  await page.reload();
  await page.waitForSelector('.hole.legal');
  assert.equal(await page.isChecked('#game-sounds'), true, 'on unless switched off');

  /** Plays the first legal hole; the step it made. */
  const play = async () => {
    const n = await page.locator('#moves li').count();
    await page.locator('.hole.legal').first().click();
    await page.waitForFunction((m) => document.querySelectorAll('#moves li').length > m, n);
    const g = await api('GET', `/api/games/${made.id}`);
    const [before, after] = [g.history.at(-2)?.captured ?? [0, 0], g.history.at(-1).captured];
    return { over: g.status === 'over', captured: after[0] + after[1] > before[0] + before[1] };
  };
  // A move without a capture sounds its sowing; one that captures, the chime too.
  let moves = 0;
  let captures = 0;
  for (let i = 0; i < 60 && captures === 0; i++) {
    const step = await play();
    moves += 1;
    captures += step.captured ? 1 : 0;
    await page.waitForFunction((n) => window.__tones.filter((f) => f >= 250 && f < 400).length >= n, moves);
    assert.deepEqual(await heard(page), { sow: moves, capture: captures }, `after move ${moves}`);
    if (step.over) break;
  }
  assert.ok(captures > 0, 'a capture was heard');

  // Switched off: no sound, and it stays off on the next visit.
  await page.uncheck('#game-sounds');
  const was = await heard(page);
  if ((await api('GET', `/api/games/${made.id}`)).status !== 'over') {
    await play();
    await page.waitForSelector('#moves li.current');
    assert.deepEqual(await heard(page), was);
  }
  await page.reload();
  await page.waitForSelector('#game-sounds');
  assert.equal(await page.isChecked('#game-sounds'), false);
  await context.close();
});

test('the last ten seconds of your own clock tick, once a second', async () => {
  const made = await api('POST', '/api/games', { mode: 'online', clock: { initial: 60, increment: 0 }, rules: { variant: 'II', holes: 6 } });
  const secret = new URL(made.invite, server.url).searchParams.get('invite');
  const joined = await api('POST', `/api/games/${made.id}/join`, { invite: secret });
  const g = await api('GET', `/api/games/${made.id}`);
  await api('POST', `/api/games/${made.id}/moves`, { move: g.legal[0], seq: g.seq }, made.token);
  const now = await api('GET', `/api/games/${made.id}`);
  const mover = now.state.to_move;
  assert.equal(now.clock.running, mover);
  const token = mover === 'south' ? made.token : joined.token;
  // The page's time is the test's: it runs the clock forward without waiting.
  const { context, page } = await open('/', { storage: { [`hoyito.seat.${made.id}`]: JSON.stringify({ token, seat: mover }) } });
  await context.addInitScript(fakeAudio);
  await page.clock.install();
  await page.goto(`${server.url}/g/${made.id}`);
  await page.waitForSelector(`.player .clock-side.running[data-side="${mover}"]`);
  // The socket's first view sets the clock again from the server's time: run it after that.
  await page.waitForSelector('#conn[data-synced="true"]', { state: 'attached' });
  const ticks = () => page.evaluate(() => window.__tones.filter((f) => f === 1200).length);
  assert.equal(await ticks(), 0, 'no tick with most of a minute left');
  // A second at a time to the first tick, under ten seconds left; then one a second.
  for (let s = 0; s < 60 && await ticks() === 0; s++) await page.clock.runFor(1000);
  assert.equal(await ticks(), 1);
  assert.match(await page.textContent(`.player .clock-side[data-side="${mover}"] .clock-time`), /^⚠ (9\.\d|10\.0)$/);
  await page.clock.runFor(3000);
  assert.equal(await ticks(), 4);
  await context.close();
});
