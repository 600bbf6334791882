// End-to-end tests of what players of an online game expect beside the
// board: whether the opponent is connected (and the claim once they left),
// how many watch, turning the board round. Two browser contexts play, a third watches. Run with
// tests/run.sh.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  startServer, launchBrowser, openPage, newPage, callApi, withMenu,
} from './helpers.mjs';

let server;
let browser;

before(async () => {
  // A player counts as gone after 1 s here (60 s by default).
  server = await startServer(undefined, undefined, ['--claim-after', '1']);
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
  server?.cleanup();
});

const api = (method, path, body, token) => callApi(server.url, method, path, body, token);
const seated = (id, seat) => openPage(browser, `${server.url}/g/${id}`, { storage: { [`hoyito.seat.${id}`]: JSON.stringify(seat) } });
const text = (page, sel) => page.evaluate((s) => document.querySelector(s)?.textContent || '', sel);
const waitText = (page, sel, re) => page.waitForFunction(([s, src]) => new RegExp(src).test(document.querySelector(s)?.textContent || ''), [sel, re.source]);

/** A 5+0 online game between Ana (south) and Jean (north): its id and both seats. */
async function timedGame() {
  const c = await api('POST', '/api/games', {
    mode: 'online', name: 'Ana', clock: { initial: 300, increment: 0 }, rules: { variant: 'II' },
  });
  const invite = c.invite.split('invite=')[1];
  const j = await api('POST', `/api/games/${c.id}/join`, { invite, name: 'Jean' });
  return { id: c.id, ana: { token: c.token, seat: 'south' }, jean: { token: j.token, seat: 'north' } };
}

test('a player sees the opponent come and go, everyone sees the spectators, a spectator flips the board, and the player who stayed claims the win', async () => {
  const g = await timedGame();
  const ana = await seated(g.id, g.ana);
  const jean = await seated(g.id, g.jean);
  const watcher = await openPage(browser, `${server.url}/g/${g.id}`);
  try {
    // Ana sees Jean connected, in words beside his name; all see one spectator.
    await waitText(ana.page, '#p-top .presence', /^● online$/);
    await waitText(jean.page, '#p-top .presence', /^● online$/);
    for (const p of [ana.page, jean.page, watcher.page]) await waitText(p, '#spectators', /^Spectators: 1$/);
    assert.equal(await text(ana.page, '#claim'), '', 'no claim while Jean is there');

    // A spectator turns the board round with the keyboard; the page remembers it for this game.
    assert.match(await text(watcher.page, '#p-top .name'), /Jean/);
    await withMenu(watcher.page, async (p) => { await p.focus('#flip'); await p.keyboard.press('Enter'); });
    await waitText(watcher.page, '#p-top .name', /Ana/);
    assert.equal(await watcher.page.getAttribute('#flip', 'aria-pressed'), 'true');
    await watcher.page.reload();
    await waitText(watcher.page, '#p-top .name', /Ana/);
    assert.equal(await watcher.page.getAttribute('#flip', 'aria-pressed'), 'true');
    assert.match(await text(ana.page, '#p-top .name'), /Jean/, 'the other pages are not turned');

    // Jean goes: Ana sees it at once, then may claim once he has been away long enough.
    await jean.context.close();
    await waitText(ana.page, '#p-top .presence', /^○ disconnected$/);
    await waitText(watcher.page, '.presence[data-side="north"]', /disconnected/);
    await ana.page.locator('#claim-win').waitFor();
    assert.match(await text(ana.page, '#claim'), /Jean left the game\. Claim the win, call it a draw, or keep waiting\./);
    assert.equal(await watcher.page.locator('#claim button').count(), 0, 'a spectator claims nothing');

    await ana.page.click('#claim-win');
    await waitText(ana.page, '#summary', /Jean left the game/);
    assert.match(await text(ana.page, '#summary h2'), /You win/);
    assert.match(await text(ana.page, '#moves li:last-child'), /Jean left the game/);
    await waitText(watcher.page, '#summary', /Ana wins/);
    assert.equal(await text(ana.page, '#claim'), '', 'no claim once the game is over');
    const v = await api('GET', `/api/games/${g.id}`);
    assert.deepEqual([v.status, v.end, v.abandoned], ['over', 'left', 'north']);

    // Stored: a reloaded page tells the same.
    await ana.page.reload();
    await waitText(ana.page, '#summary', /Jean left the game/);
  } finally {
    await ana.context.close();
    await watcher.context.close();
  }
});

/** The last hole of the first lap in a move's sowing trace, as the server sowed it. */
function firstLapEnd(events) {
  let laps = 0;
  let end = null;
  for (const e of events) {
    if (e[0] === 'l' && ++laps > 1) break;
    if (e[0] === 's') end = e[1];
  }
  return end;
}

test('a move is previewed before it is played: on hover with a mouse, on a first tap on a touch screen', async () => {
  const c = await api('POST', '/api/games', { mode: 'hotseat', rules: { variant: 'I', seeds: 5 } });
  const seat = { [`hoyito.seat.${c.id}`]: JSON.stringify({ token: c.token, seat: c.seat }) };
  const mouse = await openPage(browser, `${server.url}/g/${c.id}`, { storage: seat });
  const touch = await openPage(browser, `${server.url}/g/${c.id}`, { storage: seat, hasTouch: true, isMobile: true });
  try {
    const { page } = mouse;
    await page.hover('.hole.legal[data-hole="2"]');
    await page.locator('.hole.preview-end').waitFor();
    const end = Number(await page.getAttribute('.hole.preview-end', 'data-hole'));
    assert.equal(await page.getAttribute('.hole.preview-from', 'data-hole'), '2');
    assert.match(await text(page, '#preview'), /^Hole 3 sows ↺ counter-clockwise; its first lap ends in (South|North) hole \d+\.$/);
    // The click plays the move: its first lap ends where the preview said, as the server sowed it.
    const answer = page.waitForResponse((r) => r.url().endsWith('/moves'));
    await page.click('.hole.legal[data-hole="2"]');
    const played = await (await answer).json();
    assert.equal(firstLapEnd(played.move.trace.events), end);
    assert.equal(await page.locator('.hole.preview-end').count(), 0, 'the preview goes once the move is played');

    // North to move on the touch screen: the first tap previews, the second plays.
    const t = touch.page;
    await t.waitForFunction(() => document.querySelectorAll('#moves li').length === 2);
    const hole = '.hole.legal[data-hole="8"]';
    const posts = [];
    t.on('request', (r) => { if (r.method() === 'POST') posts.push(r.url()); });
    await t.tap(hole);
    await t.locator('.hole.preview-end').waitFor();
    assert.match(await text(t, '#preview'), /^Hole 3 sows/);
    assert.deepEqual(posts, [], 'the first tap plays nothing');
    const second = t.waitForResponse((r) => r.url().endsWith('/moves'));
    await t.tap(hole);
    assert.equal((await (await second).json()).game.seq, 2);
  } finally {
    await mouse.context.close();
    await touch.context.close();
  }
});

test('the running clock warns of low time in words and a sign, said once, and is large on a phone', async () => {
  const g = await timedGame();
  const first = await api('GET', `/api/games/${g.id}`);
  await api('POST', `/api/games/${g.id}/moves`, { move: first.legal[0], seq: 0 }, g.ana.token);
  const { context, page } = await newPage(browser);
  try {
    // The page's clock is made to run ahead (the server keeps the real time).
    await page.clock.install();
    await context.addInitScript(([k, v]) => localStorage.setItem(k, v), [`hoyito.seat.${g.id}`, JSON.stringify(g.jean)]);
    await page.goto(`${server.url}/g/${g.id}`);
    const mine = '.clock-side[data-side="north"]';
    await page.waitForSelector(`${mine}.running`);
    assert.equal(await page.locator(`${mine}.low`).count(), 0);
    assert.equal(await text(page, '#clock-alert'), '');
    const size = await page.$eval(`${mine} .clock-time`, (e) => parseFloat(getComputedStyle(e).fontSize));
    if (page.viewportSize().width <= 400) assert.ok(size >= 32, `the time is large on a phone: ${size}px`);
    // The socket's first view sets the clock again from the server's time: jump after it.
    await page.waitForSelector('#conn[data-synced="true"]', { state: 'attached' });
    // The page's clock jumps to 9 seconds before the end of North's time
    // (under 10 seconds the tenths show).
    // A view that comes after the jump sets the clock back from the
    // server's time: then it jumps again, a few times at most.
    const warned = (timeout) => page.waitForFunction((sel) => {
      const el = document.querySelector(sel);
      return !!el && el.classList.contains('low')
        && /^⚠ \d+\.\d$/.test(el.querySelector('.clock-time')?.textContent || '')
        && /low on time$/.test(el.getAttribute('aria-label') || '')
        && document.getElementById('clock-alert')?.textContent === 'Less than 20 seconds left on your clock';
    }, mine, { timeout }).then(() => true, () => false);
    const shown = () => text(page, `${mine} .clock-time`);
    for (let jumps = 0; !(await warned(3000)); jumps += 1) {
      assert.ok(jumps < 4, `the clock shows ${await shown()}, not the low-time warning`);
      const m = /(\d+):(\d\d)$/.exec(await shown());
      const left = m ? Number(m[1]) * 60 + Number(m[2]) : 0;
      if (left > 9) await page.clock.fastForward((left - 9) * 1000);
    }
    assert.equal(await page.locator('.clock-side[data-side="south"].low').count(), 0, 'the clock not running is not low');
  } finally {
    await context.close();
  }
});
