// End-to-end tests of resigning: a player resigns a match against the
// computer and sees the result; a spectator sees no Resign button. Run
// with tests/run.sh.

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
  page.once('dialog', (d) => d.dismiss());
  await resign.click();
  await page.waitForTimeout(200);
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
