// End-to-end tests of resigning: a player resigns a match against the
// computer and sees the result; a player resigns one round of a match and
// the match goes on (on the server and on this device); a spectator sees no
// Resign button. Run with tests/run.sh.

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

const open = (path, opts) => openPage(browser, server.url + path, opts);
const api = (method, path, body, token) => callApi(server.url, method, path, body, token);

test('a player resigns a match against the computer and sees who resigned and who won', async () => {
  const { context, page } = await open('/');
  await page.check('input[name="mode"][value="engine"]');
  await page.selectOption('select[name="variant"]', 'I');
  await page.selectOption('select[name="level"]', '1');
  await page.selectOption('select[name="side"]', 'south');
  await page.check('input[name="match"]');
  await page.click('#start');
  await page.waitForURL(/\/g\/[A-Za-z0-9]+$/);
  const id = page.url().split('/g/')[1];
  const resign = page.locator('#resign');
  await resign.waitFor({ state: 'visible' });

  // Dismissing the confirmation changes nothing.
  const sent = [];
  const onRequest = (r) => { if (r.method() === 'POST') sent.push(r.url()); };
  page.on('request', onRequest);
  page.once('dialog', (d) => d.dismiss());
  await resign.click();
  page.off('request', onRequest);
  assert.deepEqual(sent, [], 'a dismissed confirmation sends nothing');
  assert.equal((await api('GET', `/api/games/${id}`)).status, 'playing');
  assert.ok(await resign.isVisible());

  // Accepting it ends the whole match.
  let asked = '';
  page.once('dialog', (d) => { asked = d.message(); d.accept(); });
  await resign.click();
  await page.waitForSelector('#summary .resigned');
  assert.match(asked, /Resign\?/);
  assert.equal(await page.textContent('#summary .resigned'), 'You resigned');
  assert.match(await page.textContent('#summary h2'), /Match over after round 1: Computer.* wins/);
  assert.match(await page.textContent('#status'), /You resigned/);
  assert.ok(await resign.isHidden(), 'no Resign button once the match is over');
  assert.ok(await page.locator('#undo').isDisabled());
  assert.match(await page.textContent('#moves li:last-child'), /You resigned/);

  const g = await api('GET', `/api/games/${id}`);
  assert.equal(g.status, 'over');
  assert.equal(g.end, 'resign');
  assert.equal(g.resigned, 'south');
  assert.equal(g.match_result.winner, 'north');

  // A reloaded page still tells it.
  await page.reload();
  await page.waitForSelector('#summary .resigned');
  assert.equal(await page.textContent('#summary .resigned'), 'You resigned');
  await context.close();
});

test('a spectator sees no Resign button, and the result of a hot-seat resignation', async () => {
  const created = await api('POST', '/api/games', { mode: 'hotseat', rules: { variant: 'II' } });
  const { context, page } = await open(`/g/${created.id}`);
  await page.waitForSelector('#moves li');
  assert.ok(await page.locator('#resign').isHidden(), 'a spectator cannot resign');
  const before = created.game.state.to_move;
  await api('POST', `/api/games/${created.id}/resign`, {}, created.token);
  await page.reload();
  await page.waitForSelector('#summary .resigned');
  const name = before === 'south' ? 'South' : 'North';
  const winner = before === 'south' ? 'North' : 'South';
  assert.equal(await page.textContent('#summary .resigned'), `${name} resigned`);
  assert.match(await page.textContent('#summary h2'), new RegExp(`${winner} wins`));
  assert.ok(await page.locator('#resign').isHidden());
  await context.close();
});

/** Plays first legal moves of hot-seat match `c` through the API until the player to move has captured 4 seeds. */
async function untilMoverHasCaptured(c) {
  for (let i = 0; i < 200; i += 1) {
    const g = await api('GET', `/api/games/${c.id}`);
    const k = g.state.to_move === 'south' ? 0 : 1;
    if (g.state.captured[k] >= 4) return g;
    await api('POST', `/api/games/${c.id}/moves`, { move: g.legal[0], seq: g.seq }, c.token);
  }
  throw new Error('no capture by the player to move in 200 moves');
}

test('a player resigns one round of a match: its seeds go to the other player and the next round starts', async () => {
  const c = await api('POST', '/api/games', { mode: 'hotseat', match: true, rules: { variant: 'I' } });
  const before = await untilMoverHasCaptured(c);
  const mover = before.state.to_move;
  const other = mover === 'south' ? 'north' : 'south';
  const onBoard = before.state.board.reduce((a, b) => a + b, 0);
  const { context, page } = await open(`/g/${c.id}`, { storage: { [`hoyito.seat.${c.id}`]: JSON.stringify({ token: c.token, seat: 'both' }) } });
  const round = page.locator('#resign-round');
  await round.waitFor({ state: 'visible' });
  assert.equal(await page.textContent('#resign'), 'Resign match');

  // Dismissing the confirmation changes nothing.
  const sent = [];
  const onRequest = (r) => { if (r.method() === 'POST') sent.push(r.url()); };
  page.on('request', onRequest);
  page.once('dialog', (d) => d.dismiss());
  await round.click();
  page.off('request', onRequest);
  assert.deepEqual(sent, [], 'a dismissed confirmation sends nothing');
  assert.equal((await api('GET', `/api/games/${c.id}`)).seq, before.seq);

  let asked = '';
  page.once('dialog', (d) => { asked = d.message(); d.accept(); });
  await round.click();
  await page.waitForSelector('#next-round');
  assert.match(asked, /Resign this round\?.*the match goes on/);
  const name = mover === 'south' ? 'South' : 'North';
  assert.match(await page.textContent('#moves li:last-child'), new RegExp(`${name} resigned the round`));
  assert.match(await page.textContent('#summary h2'), /Round 1 is over/);
  assert.match(await page.textContent('#summary table.rounds'), /round resigned/);
  assert.ok(await round.isHidden(), 'no Resign round button between rounds');
  // The match's standing is in view beside the board, not only in the rounds table.
  const standing = await page.textContent('#standing');
  const won = { [mover]: 0, [other]: 1 };
  const after = await api('GET', `/api/games/${c.id}`);
  assert.equal(standing, `Match · rounds won: South ${won.south}, North ${won.north} · seeds: South ${after.rounds[0].score[0]}, North ${after.rounds[0].score[1]}`);
  assert.ok(await page.locator('#resign').isVisible(), 'the match can still be resigned');
  const g = await api('GET', `/api/games/${c.id}`);
  assert.equal(g.status, 'playing');
  assert.equal(g.rounds[0].reason, 'conceded');
  const k = other === 'south' ? 0 : 1;
  assert.equal(g.state.captured[k], before.state.captured[k] + onBoard);

  await page.click('#next-round');
  await page.waitForFunction(() => !document.querySelector('#next-round'));
  await round.waitFor({ state: 'visible' });
  assert.equal((await api('GET', `/api/games/${c.id}`)).round, 2);
  await context.close();
});

test('a round of a match on this device is resigned too', async () => {
  const { context, page } = await open('/');
  await page.check('input[name="mode"][value="hotseat"]');
  await page.selectOption('select[name="variant"]', 'I');
  await page.check('input[name="match"]');
  await page.check('input[name="where"][value="device"]');
  await page.click('#start');
  await page.waitForURL(/\/g\/local[A-Za-z0-9]+$/);
  const round = page.locator('#resign-round');
  await round.waitFor({ state: 'visible' });
  let asked = '';
  page.once('dialog', (d) => { asked = d.message(); d.accept(); });
  await round.click();
  // South resigned round 1 with nothing captured: North takes all 48 seeds
  // and South, left with fewer than 4, loses the match; the question said so.
  await page.waitForSelector('#summary h2');
  assert.match(await page.textContent('#moves li:last-child'), /South resigned the round/);
  assert.match(await page.textContent('#summary h2'), /Match over after round 1: North wins/);
  assert.match(asked, /too few seeds for another round: the match ends and you lose it/);
  assert.ok(await round.isHidden());
  // It is stored on the device: a reload shows it again.
  await page.reload();
  await page.waitForSelector('#summary h2');
  assert.match(await page.textContent('#moves li:last-child'), /South resigned the round/);
  await context.close();
});
