// End-to-end tests in a real browser: Debian's chromium driven by
// playwright-core, against the real `hoyito serve` binary on a free
// loopback port with a temporary database. Run with tests/run.sh.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  startServer, launchBrowser, openPage, createGame as createGameAt, stepCount, boardCounts, waitForSteps, withMenu,
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
const createGame = (page, opts) => createGameAt(page, server.url, opts);

test('plays a whole game against the engine', async () => {
  const { context, page } = await open('/');
  try {
    await createGame(page, { mode: 'engine', holes: '4', variant: 'I', level: '1' });
    let clicks = 0;
    for (;;) {
      const state = await Promise.race([
        page.waitForSelector('.summary', { timeout: 20000 }).then(() => 'over'),
        page.waitForSelector('.hole.legal', { timeout: 20000 }).then(() => 'move'),
      ]);
      if (state === 'over') break;
      const before = await stepCount(page);
      await page.locator('.hole.legal').first().click();
      await waitForSteps(page, before + 1);
      clicks += 1;
      assert.ok(clicks < 400, 'the game should end');
    }
    const summary = await page.textContent('.summary');
    assert.match(summary, /Game over/);
    assert.match(summary, /Score/);
    assert.ok(clicks > 0);
    // No legal hole is offered once the game is over.
    assert.equal(await page.locator('.hole.legal').count(), 0);
    // The record downloads and names the game.
    const [download] = await Promise.all([page.waitForEvent('download'), withMenu(page, (p) => p.click('#download'))]);
    const path = await download.path();
    const { readFileSync } = await import('node:fs');
    const text = readFileSync(path, 'utf8');
    assert.match(text, /\[Variant "I"\]/);
    assert.match(text, /\[Result "(south|north|draw)"\]/);
  } finally {
    await context.close();
  }
});

test('online game between two browsers joined through the invite link', async () => {
  const a = await open('/');
  const b = await open('/', { locale: 'es-ES' });
  const watcher = await open('/');
  try {
    const id = await createGame(a.page, { mode: 'online', variant: 'III' });
    const invite = await a.page.inputValue('#invite-url');
    assert.match(invite, new RegExp(`/g/${id}\\?invite=`));
    await b.page.goto(invite);
    // The invited player chooses a nickname first: the New game form's
    // field and limits, and the refusal in the reader's language (here
    // Spanish, not the server's English); a refused one keeps the form.
    const nick = b.page.locator('#join-form input[name="nickname"]');
    assert.equal(await nick.getAttribute('maxlength'), '24');
    await nick.fill('Je\u2060an');
    await b.page.click('#join');
    await b.page.waitForFunction(() => /^No se pudo entrar: .*caracteres invisibles/.test(document.getElementById('toast').textContent));
    assert.equal(await b.page.locator('#join-form').count(), 1, 'the form stays');
    await nick.fill('  Jean ');
    await b.page.click('#join');
    await b.page.waitForSelector('#join-form', { state: 'detached' });
    await b.page.waitForFunction(() => /Jean \(Tú\)/.test(document.getElementById('p-bottom').textContent));
    await a.page.waitForFunction(() => /Jean/.test(document.getElementById('p-top').textContent));
    assert.equal(await b.page.evaluate(() => localStorage.getItem('hoyito.name')), 'Jean', 'remembered as the form does');
    assert.ok(!b.page.url().includes('invite='), 'the secret leaves the address bar');
    await b.page.waitForSelector('#moves li');
    // The invite box disappears for the creator once the second player joined.
    await a.page.waitForSelector('#invite-url', { state: 'detached' });
    // Anyone with the plain game link can watch, but not move.
    await watcher.page.goto(`${server.url}/g/${id}`);
    await watcher.page.waitForSelector('.watching');
    assert.equal(await watcher.page.locator('.hole.legal').count(), 0);

    const pages = { south: a.page, north: b.page };
    for (let ply = 0; ply < 6; ply++) {
      // Whoever has legal holes moves; the other side must not.
      await Promise.race([
        a.page.waitForSelector('.hole.legal', { timeout: 10000 }),
        b.page.waitForSelector('.hole.legal', { timeout: 10000 }),
      ]);
      const aCan = await a.page.locator('.hole.legal').count();
      const bCan = await b.page.locator('.hole.legal').count();
      assert.ok((aCan > 0) !== (bCan > 0), 'exactly one player may move');
      const mover = aCan > 0 ? pages.south : pages.north;
      const before = await stepCount(mover);
      await mover.locator('.hole.legal').first().click();
      for (const p of [a.page, b.page, watcher.page]) await waitForSteps(p, before + 1);
      if (await a.page.locator('.summary').count()) break;
    }
    // All three see the same board.
    const boards = await Promise.all([a.page, b.page, watcher.page].map(boardCounts));
    assert.deepEqual(boards[0], boards[1]);
    assert.deepEqual(boards[0], boards[2]);
    // The joined player sees Spanish, picked from the browser language.
    assert.equal(await b.page.textContent('nav a[href="/"]'), 'Nueva partida');
  } finally {
    await Promise.all([a.context.close(), b.context.close(), watcher.context.close()]);
  }
});

test('reload mid-game, restart the server, and continue with the keyboard', async () => {
  const { context, page } = await open('/');
  try {
    const id = await createGame(page, { mode: 'hotseat', variant: 'II' });
    for (let k = 0; k < 3; k++) {
      await page.locator('.hole.legal').first().click();
      await waitForSteps(page, k + 1);
    }
    const steps = await stepCount(page);
    const board = await boardCounts(page);
    await page.reload();
    await waitForSteps(page, steps);
    assert.equal(await stepCount(page), steps);
    assert.deepEqual(await boardCounts(page), board);

    // Restart the server on the same port: the page reconnects by itself.
    const port = new URL(server.url).port;
    await server.stop();
    await page.waitForSelector('#conn:not([hidden])', { timeout: 10000 });
    server = await startServerOn(port, server);
    await page.waitForSelector('#conn[hidden]', { state: 'attached', timeout: 20000 });

    // Keyboard only: focus the first legal hole with an arrow key, play it with Enter.
    await page.waitForSelector('.hole.legal');
    await page.locator('body').focus();
    await page.keyboard.press('ArrowRight');
    const focused = await page.evaluate(() => document.activeElement?.classList.contains('legal'));
    assert.ok(focused, 'an arrow key focuses a legal hole');
    await page.keyboard.press('Enter');
    await waitForSteps(page, steps + 1);
    // A number key plays that hole of the player to move, if legal. The
    // legal holes are marked once the last move's sowing has been shown
    // (their key badges are hidden on a phone, but there all the same).
    await page.waitForSelector('.hole-text.legal .badge text', { state: 'attached' });
    const legalNumbers = await page.$$eval('.hole-text.legal .badge text', (els) => els.map((e) => e.textContent));
    await page.keyboard.press(legalNumbers[0]);
    await waitForSteps(page, steps + 2);
    // The server agrees after the restart.
    const res = await page.evaluate(async (gid) => (await fetch(`/api/games/${gid}`)).json(), id);
    assert.equal(res.seq, steps + 2);
  } finally {
    await context.close();
  }
});

test('an illegal click is refused and changes nothing', async () => {
  const { context, page } = await open('/');
  try {
    const id = await createGame(page, { mode: 'hotseat', variant: 'I' });
    await page.locator('.hole.legal').first().click();
    await waitForSteps(page, 1);
    const board = await boardCounts(page);
    // South played; North is to move: a South hole is not playable.
    const southHole = page.locator('.hole[data-hole="0"]');
    assert.equal(await southHole.getAttribute('aria-disabled'), 'true');
    const sent = [];
    page.on('request', (r) => { if (r.method() === 'POST') sent.push(r.url()); });
    await southHole.click({ force: true });
    await page.waitForSelector('#toast.error');
    assert.match(await page.textContent('#toast'), /cannot be played/);
    // The page refused it itself: it sent nothing and shows the same step.
    assert.deepEqual(sent, []);
    assert.equal(await stepCount(page), 1);
    assert.deepEqual(await boardCounts(page), board);
    // The server refuses it too, with a JSON error, and stores nothing.
    const token = await page.evaluate((gid) => JSON.parse(localStorage.getItem(`hoyito.seat.${gid}`)).token, id);
    const res = await page.evaluate(async ([gid, tok]) => {
      const r = await fetch(`/api/games/${gid}/moves`, {
        method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${tok}` },
        body: JSON.stringify({ move: '9' }),
      });
      return { status: r.status, body: await r.json() };
    }, [id, token]);
    assert.equal(res.status, 422);
    assert.ok(res.body.error);
    const state = await page.evaluate(async (gid) => (await fetch(`/api/games/${gid}`)).json(), id);
    assert.equal(state.seq, 1);
  } finally {
    await context.close();
  }
});

test('sowing is animated lap by lap and can be skipped', async () => {
  const { context, page } = await open('/', { animate: true });
  try {
    await createGame(page, { mode: 'hotseat', variant: 'II' });
    await withMenu(page, (p) => p.selectOption('#speed', 'slow'));
    await page.locator('.hole.legal').first().click();
    // During the animation the lap counter shows and Skip is enabled.
    await page.waitForFunction(() => /Lap 1 · \d+ in hand/.test(document.getElementById('hud').textContent));
    assert.equal(await page.isEnabled('#skip'), true);
    await page.click('#skip');
    await page.waitForFunction(() => document.getElementById('hud').textContent === '');
    await waitForSteps(page, 1);
    const state = await page.evaluate(async () => {
      const id = location.pathname.split('/g/')[1];
      return (await fetch(`/api/games/${id}`)).json();
    });
    assert.deepEqual(await boardCounts(page), state.state.board.map(String));
  } finally {
    await context.close();
  }
});

test('rules page and language switch', async () => {
  const { context, page } = await open('/rules');
  try {
    await page.waitForSelector('#rules h1');
    assert.match(await page.textContent('#rules h1'), /Hoyito/);
    assert.ok(await page.locator('#rules h2').count() >= 5);
    await page.click('[data-lang="es"]');
    assert.equal(await page.textContent('nav a[href="/rules"]'), 'Reglas');
    await page.click('[data-lang="en"]');
    assert.equal(await page.textContent('nav a[href="/rules"]'), 'Rules');
  } finally {
    await context.close();
  }
});

/** Restarts the server on the same port and database. */
async function startServerOn(port, old) {
  const { startServer: start } = await import('./helpers.mjs');
  const next = await start(old.db, `127.0.0.1:${port}`);
  next.cleanup = old.cleanup;
  return next;
}
