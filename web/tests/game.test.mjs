// End-to-end tests of the game page: that it always tells the truth about
// the game (whose turn, who is thinking, who won, which step is shown) and
// that what it draws behaves. Run with tests/run.sh.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  startServer, launchBrowser, openPage, createGame as createGameAt, waitForSteps, callApi, waitUntil, withMenu,
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
const api = (method, path, body, token) => callApi(server.url, method, path, body, token);
const statusText = (page) => page.textContent('#status');

/** Opens game `id` holding `seat` (token and side), as if this browser had created it. */
const openSeated = (id, seat, opts = {}) => open(`/g/${id}`, { ...opts, storage: { [`hoyito.seat.${id}`]: JSON.stringify(seat) } });

/**
 * A finished Hoyito I game on 2×4 that somebody won, played through the API:
 * its record and its winner.
 */
async function finishedRecord() {
  const picks = [(l) => l[0], (l) => l[l.length - 1], (l, k) => l[k % l.length]];
  for (const pick of picks) {
    const created = await api('POST', '/api/games', { mode: 'hotseat', rules: { variant: 'I', holes: 4 } });
    let g = created.game;
    for (let k = 0; !g.state.over; k++) {
      assert.ok(k < 500, 'the game should end');
      g = (await api('POST', `/api/games/${created.id}/moves`, { move: pick(g.legal, k), seq: g.seq }, created.token)).game;
    }
    if (g.state.winner !== 'draw') {
      return { record: await api('GET', `/api/games/${created.id}/record`), winner: g.state.winner, steps: g.seq };
    }
  }
  throw new Error('every game played was a draw');
}

/** Imports `record` to go on against the computer from `side`: the new game's id and seat. */
async function importAgainstEngine(record, side) {
  const r = await api('POST', '/api/games/import', { record, mode: 'engine', side, level: 1 });
  return { id: r.id, seat: { token: r.token, seat: r.seat } };
}

const other = (side) => (side === 'south' ? 'north' : 'south');

test('undo while the computer is thinking gives the move back', async () => {
  const { context, page } = await open('/');
  try {
    const id = await createGame(page, { mode: 'engine', variant: 'I', holes: '6', level: '10' });
    await page.locator('.hole.legal').first().click();
    await waitForSteps(page, 1);
    await page.click('#undo');
    // The server has South to move again and stops thinking.
    const g = await waitUntil(async () => {
      const v = await api('GET', `/api/games/${id}`);
      return v.seq === 0 && !v.thinking && v;
    }, 'the server gives the move back');
    assert.equal(g.state.to_move, 'south');
    // The page follows without a reload: South's holes are playable again.
    await page.waitForSelector('.hole.legal', { timeout: 3000 });
    assert.doesNotMatch(await statusText(page), /thinking/);
    assert.equal(await page.isEnabled('#hint'), true);
    // And a move can be played, which the computer answers.
    await page.locator('.hole.legal').first().click();
    await waitForSteps(page, 2);
  } finally {
    await context.close();
  }
});

test('the status line says the computer is thinking, and not "Your move" while yours is sown', async () => {
  const { context, page } = await open('/', { animate: true });
  try {
    await createGame(page, { mode: 'engine', variant: 'I', holes: '6', level: '10' });
    assert.equal(await statusText(page), 'Your move');
    await withMenu(page, (p) => p.selectOption('#speed', 'slow'));
    // Every status the page shows, with the steps in its list of moves and
    // whether a sowing is being drawn.
    await page.evaluate(() => {
      const status = document.getElementById('status');
      const hud = document.getElementById('hud');
      window.seen = [];
      const note = () => window.seen.push({
        status: status.textContent, steps: document.querySelectorAll('#moves li').length - 1, sowing: hud.textContent !== '',
      });
      const watch = new MutationObserver(note);
      for (const el of [status, hud]) watch.observe(el, { childList: true, characterData: true, subtree: true });
    });
    // The player's sowing is skipped at once; the computer searches for up
    // to 1.5 s. Whenever the page shows the player's move, its sowing over,
    // without the computer's reply, it must say that the computer is
    // thinking. A reply that came in before the sowing was skipped (or an
    // extra turn of the player's) leaves nothing to check: the player
    // moves again, a few times at most.
    let checked = 0;
    for (let turn = 0; turn < 6 && checked === 0; turn++) {
      const before = await page.evaluate(() => { window.seen = []; return document.querySelectorAll('#moves li').length - 1; });
      await page.locator('.hole.legal').first().click();
      await page.waitForFunction(() => /Lap 1/.test(document.getElementById('hud').textContent));
      assert.doesNotMatch(await statusText(page), /Your move/);
      await page.click('#skip');
      await page.waitForFunction(() => document.getElementById('status').textContent === 'Your move'
        && document.getElementById('hud').textContent === '' && document.querySelector('.hole.legal'), null, { timeout: 30000 });
      const seen = await page.evaluate(() => window.seen);
      // "Your move" only once the player is to move again, and from then on
      // (records before the page took the click may still show it).
      const moved = seen.findIndex((r) => r.status !== 'Your move');
      const first = seen.findIndex((r, i) => i > moved && r.status === 'Your move');
      assert.ok(moved >= 0 && first > moved, JSON.stringify(seen));
      assert.ok(seen.slice(first).every((r) => r.status === 'Your move'), JSON.stringify(seen));
      if (seen[first].steps === before + 1) continue; // an extra turn: the computer was never to move
      // The player's move is in the list once its sowing is drawn; the
      // computer's reply is drawn after it (a sowing with that list).
      let reply = seen.findIndex((r) => r.sowing && r.steps === before + 1);
      if (reply < 0) reply = first;
      for (const r of seen.slice(0, reply)) {
        if (r.steps === before + 1 && !r.sowing) {
          assert.match(r.status, /The computer is thinking/, JSON.stringify(seen));
          checked += 1;
        }
      }
    }
    assert.ok(checked > 0, 'the page showed the player\'s move without the reply at least once');
  } finally {
    await context.close();
  }
});

test('a refused hole shakes in place', async () => {
  const { context, page } = await open('/');
  try {
    await createGame(page, { mode: 'hotseat', variant: 'I', holes: '6' });
    // South is to move: North's first hole (index 6) is refused.
    const where = () => page.$eval('.hole[data-hole="6"] .pit', (c) => {
      const r = c.getBoundingClientRect();
      return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
    });
    const home = await where();
    // Every frame of the refusal's shake, until the hole is no longer marked refused.
    const frames = page.evaluate(() => new Promise((resolve) => {
      const g = document.querySelector('.hole[data-hole="6"]');
      const at = [];
      const sample = () => {
        const r = g.querySelector('.pit').getBoundingClientRect();
        if (g.classList.contains('refused')) at.push({ x: r.x + r.width / 2, y: r.y + r.height / 2 });
        if (at.length && !g.classList.contains('refused')) resolve(at); else requestAnimationFrame(sample);
      };
      requestAnimationFrame(sample);
    }));
    await page.locator('.hole[data-hole="6"]').click({ force: true });
    const seen = await frames;
    assert.ok(seen.length > 0, 'the refusal was shown');
    const worst = Math.max(...seen.map((p) => Math.hypot(p.x - home.x, p.y - home.y)));
    assert.ok(worst < 15, `the hole moved ${worst.toFixed(0)} px away from its place`);
  } finally {
    await context.close();
  }
});

test('the result speaks to the player in good grammar, and spectators see side names', async () => {
  const { record, winner } = await finishedRecord();
  const won = await importAgainstEngine(record, winner);
  const lost = await importAgainstEngine(record, other(winner));
  const checks = [
    // [game, seat, locale, expected result, forbidden anywhere on the page]
    [won, won.seat, 'en-US', /Game over: You win\b/, /You wins|Computer.*wins/],
    [won, won.seat, 'es-ES', /Fin de la partida: Ganaste\b/, /Gana Tú|Gana la computadora/],
    [lost, lost.seat, 'en-US', /Game over: Computer \(level 1\) wins/, /You win/],
    [won, null, 'en-US', new RegExp(`Game over: ${winner === 'south' ? 'South' : 'North'} wins`), /\bYou\b(?! are watching)/],
    [won, null, 'es-ES', new RegExp(`Fin de la partida: Gana ${winner === 'south' ? 'Sur' : 'Norte'}`), /\bTú\b/],
  ];
  for (const [game, seat, locale, result, forbidden] of checks) {
    const { context, page } = seat ? await openSeated(game.id, seat, { locale }) : await open(`/g/${game.id}`, { locale });
    try {
      await page.waitForSelector('.summary');
      const summary = await page.textContent('.summary');
      assert.match(summary, result, `${locale}, seat ${seat?.seat ?? 'none'}`);
      const text = await page.textContent('.game-main');
      assert.doesNotMatch(text, forbidden, `${locale}, seat ${seat?.seat ?? 'none'}`);
    } finally {
      await context.close();
    }
  }
});

/**
 * A Hoyito II game on 2×6 played through the API up to a move of South that
 * captures and gives South another turn: the record before that move, and
 * the move.
 */
async function beforeAnExtraTurn() {
  for (let attempt = 0; attempt < 5; attempt++) {
    const created = await api('POST', '/api/games', { mode: 'hotseat', rules: { variant: 'II', holes: 6 } });
    let g = created.game;
    for (let k = 0; !g.state.over && k < 300; k++) {
      const r = await api('POST', `/api/games/${created.id}/moves`, { move: g.legal[(k * 7 + attempt) % g.legal.length], seq: g.seq }, created.token);
      if (r.move.side === 'south' && r.move.extra_turn && !r.move.passed && !r.game.state.over) {
        await api('POST', `/api/games/${created.id}/undo`, undefined, created.token);
        return { record: await api('GET', `/api/games/${created.id}/record`), token: r.move.token };
      }
      g = r.game;
    }
  }
  throw new Error('no extra turn for South in five games');
}

test('an extra turn is told to the player in good grammar', async () => {
  const { record, token } = await beforeAnExtraTurn();
  for (const [locale, told, wrong] of [
    ['en-US', /^You captured and move again\.$/, /moves again/],
    ['es-ES', /^Capturaste y vuelves a jugar\.$/, /Tú/],
  ]) {
    const game = await importAgainstEngine(record, 'south');
    const { context, page } = await openSeated(game.id, game.seat, { locale });
    try {
      await page.waitForSelector('.hole.legal');
      await page.click(`.hole[data-hole="${Number(token) - 1}"]`);
      await page.waitForFunction(() => document.getElementById('toast').classList.contains('show'));
      const text = await page.textContent('#toast');
      assert.match(text, told);
      assert.doesNotMatch(text, wrong);
    } finally {
      await context.close();
    }
  }
});

test('spectators of a game against the computer are not called "You"', async () => {
  const player = await open('/');
  const watcher = await open('/');
  try {
    const id = await createGame(player.page, { mode: 'engine', variant: 'I', holes: '4', level: '1' });
    await watcher.page.goto(`${server.url}/g/${id}`);
    await watcher.page.waitForSelector('.watching');
    const names = await watcher.page.$$eval('.player .name', (els) => els.map((e) => e.textContent));
    assert.deepEqual(names.sort(), ['Computer (level 1)', 'South']);
    assert.equal(await statusText(watcher.page), 'South to move');
    assert.equal(await statusText(player.page), 'Your move');
  } finally {
    await Promise.all([player.context.close(), watcher.context.close()]);
  }
});

test('no focus ring stays on a hole that cannot be played', async () => {
  const { context, page } = await open('/');
  try {
    await createGame(page, { mode: 'hotseat', variant: 'I', holes: '6' });
    const hole = page.locator('.hole.legal').first();
    const index = await hole.getAttribute('data-hole');
    await hole.click();
    await waitForSteps(page, 1);
    // The ring's colour fades in: wait for its transitions to end.
    await page.$eval(`.hole[data-hole="${index}"]`, (g) => Promise.all(g.querySelector('.pit').getAnimations().map((a) => a.finished)));
    // The hole just played is empty and North is to move.
    const ring = await page.$eval(`.hole[data-hole="${index}"]`, (g) => ({
      legal: g.classList.contains('legal'),
      stroke: getComputedStyle(g.querySelector('.pit')).stroke,
    }));
    assert.equal(ring.legal, false);
    assert.notEqual(ring.stroke, 'rgb(100, 181, 246)', 'the focus ring is drawn');
  } finally {
    await context.close();
  }
});

test('a toast goes once the state it describes has changed', async () => {
  const { context, page } = await open('/');
  try {
    await createGame(page, { mode: 'hotseat', variant: 'I', holes: '6' });
    await page.click('#hint');
    await page.waitForFunction(() => /Hint/.test(document.getElementById('toast').textContent)
      && document.getElementById('toast').classList.contains('show'));
    await page.locator('.hole.legal').first().click();
    await waitForSteps(page, 1);
    // The page drops a stale toast as it draws the new state.
    assert.equal(await page.$eval('#toast', (e) => e.classList.contains('show')), false, 'the hint toast is still shown');
  } finally {
    await context.close();
  }
});

test('replaying a finished game shows the step, not the result', async () => {
  const { record, steps } = await finishedRecord();
  assert.ok(steps >= 2);
  const k = Math.floor(steps / 2);
  const r = await api('POST', '/api/games/import', { record });
  const { context, page } = await openSeated(r.id, { token: r.token, seat: r.seat });
  try {
    await page.waitForSelector('.summary');
    assert.match(await statusText(page), /Game over/);
    await page.click(`#moves button[data-frame="${k}"]`);
    await page.waitForSelector('#viewing:not([hidden])');
    const frame = (await api('GET', `/api/games/${r.id}`)).history[k - 1];
    const mover = frame.to_move === 'south' ? 'South' : 'North';
    const status = await statusText(page);
    assert.doesNotMatch(status, /Game over/);
    assert.match(status, new RegExp(`Step ${k} of ${steps}`));
    assert.match(status, new RegExp(`${mover} to move`));
    assert.equal(await page.locator('.summary').count(), 0, 'the result box is shown');
    const marked = await page.$$eval('.player.to-move .name', (els) => els.map((e) => e.textContent));
    assert.deepEqual(marked, [mover]);
    // Back to the live position: the result again.
    await page.click('#live');
    await page.waitForSelector('.summary');
    assert.match(await statusText(page), /Game over/);
    assert.equal(await page.locator('.player.to-move').count(), 0);
  } finally {
    await context.close();
  }
});
