// End-to-end test of takeback requests in an online game: Ana asks to take
// back her last move, Jean declines (Ana reads that he did), Ana asks
// again, Jean accepts, and both boards show the position before her last
// move, Ana to move; a spectator reads the request and has no buttons. Two
// browser contexts play, a third watches. Run with tests/run.sh.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  startServer, launchBrowser, openPage, callApi, boardCounts,
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
const seated = (id, seat) => openPage(browser, `${server.url}/g/${id}`, { storage: { [`hoyito.seat.${id}`]: JSON.stringify(seat) } });
const waitText = (page, sel, re) => page.waitForFunction(([s, src]) => new RegExp(src).test(document.querySelector(s)?.textContent || ''), [sel, re.source]);
/** Waits until the page's move list has exactly `n` steps. */
const waitSteps = (page, n) => page.waitForFunction((k) => document.querySelectorAll('#moves li').length - 1 === k, n);
/** Waits until the page's board shows `counts` (as `boardCounts` reads them). */
const waitBoard = (page, counts) => page.waitForFunction((c) => JSON.stringify([...document.querySelectorAll('.hole-text .count')].map((e) => e.textContent)) === c, JSON.stringify(counts));

/** Plays the first legal move of whoever is to move until `side` is to move after at least one move. */
async function playUntil(g, side) {
  let v = await api('GET', `/api/games/${g.id}`);
  do {
    const token = v.state.to_move === 'south' ? g.ana.token : g.jean.token;
    v = (await api('POST', `/api/games/${g.id}/moves`, { move: v.legal[0], seq: v.seq }, token)).game;
  } while (v.state.to_move !== side);
  return v;
}

test('a player asks to take back a move, the other declines, then accepts, and both boards go back', async () => {
  const c = await api('POST', '/api/games', { mode: 'online', name: 'Ana', rules: { variant: 'II' } });
  const j = await api('POST', `/api/games/${c.id}/join`, { invite: c.invite.split('invite=')[1], name: 'Jean' });
  const g = { id: c.id, ana: { token: c.token, seat: 'south' }, jean: { token: j.token, seat: 'north' } };
  await playUntil(g, 'north');
  const before = await playUntil(g, 'south');
  const ana = await seated(g.id, g.ana);
  const jean = await seated(g.id, g.jean);
  const watcher = await openPage(browser, `${server.url}/g/${g.id}`);
  const pages = [ana.page, jean.page, watcher.page];
  try {
    // Ana moves (more than once with extra turns): the boards before her last move are what a takeback brings back.
    let v = before;
    let back;
    do {
      for (const p of pages) await waitSteps(p, v.seq);
      back = { v, boards: await Promise.all([ana.page, jean.page].map((p) => boardCounts(p))) };
      v = (await api('POST', `/api/games/${g.id}/moves`, { move: v.legal[0], seq: v.seq }, g.ana.token)).game;
    } while (v.state.to_move === 'south');
    const after = v;
    for (const p of pages) await waitSteps(p, after.seq);
    assert.ok(await jean.page.locator('#ask-takeback').isVisible(), 'Jean has a move to take back');
    assert.ok(await watcher.page.locator('#ask-takeback').isHidden(), 'a spectator asks nothing');

    // Asked: Ana waits, Jean answers (an alert), the spectator reads it.
    await ana.page.click('#ask-takeback');
    await waitText(ana.page, '#takeback-offer', /You asked to take back your last move\./);
    await jean.page.waitForSelector('#takeback-offer [role="alert"] #accept-takeback');
    await waitText(jean.page, '#takeback-offer', /Ana asks to take back their last move\./);
    await waitText(watcher.page, '#takeback-offer', /Ana asked to take back their last move\./);
    assert.equal(await watcher.page.locator('#accept-takeback, #decline-takeback').count(), 0, 'no buttons for a spectator');
    assert.ok(await ana.page.locator('#ask-takeback').isHidden(), 'asked once');

    // Declined: Ana reads it; the game is as it was.
    await jean.page.click('#decline-takeback');
    await waitText(ana.page, '#takeback-offer', /Jean declined to take back the move\./);
    await watcher.page.waitForFunction(() => document.getElementById('takeback-offer').textContent === '');
    assert.equal((await api('GET', `/api/games/${g.id}`)).seq, after.seq);

    // Asked again and accepted: both boards show the position before Ana's move, Ana to move.
    await ana.page.locator('#ask-takeback').waitFor({ state: 'visible' });
    await ana.page.click('#ask-takeback');
    await jean.page.waitForSelector('#accept-takeback');
    await jean.page.click('#accept-takeback');
    for (const p of pages) await waitSteps(p, back.v.seq);
    await waitBoard(ana.page, back.boards[0]);
    await waitBoard(jean.page, back.boards[1]);
    const now = await api('GET', `/api/games/${g.id}`);
    assert.deepEqual([now.seq, now.epoch, now.state.to_move, now.state.board, now.takeback_offer], [back.v.seq, 1, 'south', back.v.state.board, null]);
    for (const p of [ana.page, jean.page]) await p.waitForFunction(() => document.getElementById('takeback-offer').textContent === '');
  } finally {
    await Promise.all([ana.context.close(), jean.context.close(), watcher.context.close()]);
  }
});
