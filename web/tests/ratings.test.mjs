// Rated games in the browser: two players sign up in two browser contexts,
// one creates a rated online game from the New game form (the choice is
// there only signed in, and only for a single game on the standard 2×6
// rules), a signed-out visitor is sent to sign in, the other player joins
// from the invite, both move, one resigns, and both game pages show each
// player's rating change. Then the player's page (/@/name: ratings with "?"
// while provisional, the chart with a point a rated game, the rated games
// a page at a time, all the games over filtered and head to head), the
// leaderboard (provisional ratings are not on it)
// and a name no account has; axe-core clean and inside the window, at the
// suite's screen size (desktop and phone).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  startServer, launchBrowser, openPage, seriousViolations, viewport, once,
} from './helpers.mjs';

let srv;
let browser;
before(async () => { srv = await startServer(undefined, '127.0.0.1:0', ['--sign-in-rate', '0']); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await srv?.stop(); srv?.cleanup(); });

// Strong enough for the server's zxcvbn check.
const PASSWORD = 'tambor-lluvia-semilla-42';

/** Why the page does not fit the window's width (anything of `sel` passes its right edge, a table or chart its card), or null. */
const outside = (page, sel = 'main *') => page.evaluate((s) => {
  const wide = [...document.querySelectorAll(s)].find((el) => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.right > window.innerWidth + 0.5;
  });
  if (wide) return `${wide.tagName.toLowerCase()}#${wide.id}.${wide.className?.baseVal ?? wide.className} passes the right edge`;
  if (document.documentElement.scrollWidth > window.innerWidth) return 'the page scrolls sideways';
  // A table or chart stays inside its card.
  const spill = [...document.querySelectorAll('main .card table, main .card svg')].find((el) => {
    const card = el.closest('.card').getBoundingClientRect();
    return el.getBoundingClientRect().right > card.right + 0.5;
  });
  return spill ? `${spill.tagName.toLowerCase()}.${spill.className?.baseVal ?? spill.className} passes its card` : null;
}, sel);

/** Signs up as `username` on the Account page of `page` (its context then holds the session). */
async function signUp(page, username) {
  await page.goto(`${srv.url}/account`);
  const up = page.locator('#sign-up');
  await up.getByLabel('Username').fill(username);
  await up.getByLabel('Password').fill(PASSWORD);
  await up.getByRole('button', { name: 'Create an account' }).click();
  await page.getByRole('button', { name: 'I have saved them' }).click();
  await page.waitForSelector('#signed-in-as');
}

/** Calls the API from `page` (its session cookie, its origin); JSON out, throws on an error answer. */
const inPage = (page, method, path, body, token) => page.evaluate(async ([m, p, b, tk]) => {
  const headers = {};
  if (b !== null) headers['Content-Type'] = 'application/json';
  if (tk) headers.Authorization = `Bearer ${tk}`;
  const res = await fetch(p, { method: m, headers, body: b === null ? undefined : JSON.stringify(b) });
  const json = await res.json();
  if (!res.ok) throw new Error(`${m} ${p}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}, [method, path, body ?? null, token ?? null]);

/** The seat this page's browser holds in game `id`. */
const seatOf = (page, id) => page.evaluate((g) => JSON.parse(localStorage.getItem(`hoyito.seat.${g}`)), id);

/**
 * Plays the first legal move of the side to move in game `id` (from
 * `page`, with `tokens.south` or `tokens.north`) until each side has
 * moved: a game stopped before then is not rated.
 */
async function playUntilBothMoved(page, id, tokens) {
  for (;;) {
    const g = await inPage(page, 'GET', `/api/games/${id}`);
    if (['south', 'north'].every((side) => g.history.some((s) => s.kind === 'move' && s.side === side))) return;
    await inPage(page, 'POST', `/api/games/${id}/moves`, { move: g.legal[0] }, tokens[g.state.to_move]);
  }
}

const RATED_CHANGE = /1500\? → \d{3,4}\? \([+−]\d+\)/;

test('a rated game from the form to both players\' rating changes, the player page and the leaderboard', once, async () => {
  const w = viewport.width;
  const ana = `Ana${w}`;
  const beto = `Beto${w}`;
  const A = await openPage(browser, `${srv.url}/`);
  const B = await openPage(browser, `${srv.url}/`);
  const C = await openPage(browser, `${srv.url}/`);
  try {
    // Signed out, the form offers no rated game: it says how to get one.
    await A.page.check('input[name="mode"][value="online"]');
    await A.page.locator('#rated-signed-out').waitFor();
    assert.equal(await A.page.locator('#rated-box').isVisible(), false);
    await signUp(A.page, ana);
    await signUp(B.page, beto);

    // Signed in: the choice, with its pool; refused, with the reason, off the standard rules or in a match.
    await A.page.goto(`${srv.url}/`);
    await A.page.check('input[name="mode"][value="online"]');
    await A.page.selectOption('select[name="variant"]', 'II');
    await A.page.selectOption('select[name="clock"]', '300+3');
    const rated = A.page.locator('input[name="rated"]');
    await rated.waitFor();
    assert.equal(await rated.isEnabled(), true);
    assert.match(await A.page.textContent('#rated-note'), /Hoyito II · Blitz/);
    await A.page.selectOption('select[name="holes"]', '7');
    assert.equal(await rated.isEnabled(), false);
    assert.match(await A.page.textContent('#rated-note'), /standard rules/);
    await A.page.selectOption('select[name="holes"]', '6');
    await A.page.check('input[name="match"]');
    assert.equal(await rated.isEnabled(), false);
    assert.match(await A.page.textContent('#rated-note'), /match is not rated/);
    await A.page.uncheck('input[name="match"]');
    assert.equal(await rated.isEnabled(), true);
    assert.equal(await A.page.getAttribute('input[name="rated"]', 'aria-describedby'), 'rated-note');
    assert.deepEqual(await seriousViolations(A.page), []);
    assert.equal(await outside(A.page), null);
    await rated.check();
    // A seek (public) may limit its opponents' ratings; a game by invite may not.
    const range = A.page.locator('select[name="rating_range"]');
    assert.equal(await range.isVisible(), false);
    await A.page.check('input[name="public"]');
    await range.waitFor();
    await range.selectOption('200');
    await A.page.click('#start');
    await A.page.waitForURL(/\/g\/[A-Za-z0-9]+$/);
    const id = A.page.url().split('/g/')[1];
    await A.page.locator('#rated-tag').waitFor();
    assert.equal(await A.page.textContent('#rated-tag'), 'Rated');
    const invite = await A.page.inputValue('#invite-url');

    // Signed out: the lobby marks the game and asks to sign in to join; so does its invite.
    await C.page.goto(`${srv.url}/games`);
    const row = C.page.locator('#lobby li', { has: C.page.locator(`[data-sign-in="${id}"]`) });
    await row.waitFor();
    assert.match(await row.textContent(), /Rated ratings 1300–1700/);
    assert.equal(await C.page.getAttribute(`[data-sign-in="${id}"]`, 'href'), '/account?next=%2Fgames');
    assert.deepEqual(await seriousViolations(C.page), []);
    await C.page.goto(invite);
    await C.page.locator('#rated-sign-in').waitFor();
    assert.match(await C.page.textContent('#rated-sign-in'), /only a signed-in player can join/);
    const signIn = C.page.getByRole('link', { name: 'Sign in or create an account' });
    assert.match(await signIn.getAttribute('href'), new RegExp(`^/account\\?next=%2Fg%2F${id}%3Finvite%3D`));
    assert.equal(await C.page.locator('#join-form').count(), 0);
    assert.deepEqual(await seriousViolations(C.page), []);
    // Signing up there comes back to the invite, whose form then joins.
    await signIn.click();
    await C.page.waitForSelector('#sign-up');
    assert.equal(await outside(C.page), null);
    const up = C.page.locator('#sign-up');
    await up.getByLabel('Username').fill(`Cleo${w}`);
    await up.getByLabel('Password').fill(PASSWORD);
    await up.getByRole('button', { name: 'Create an account' }).click();
    await C.page.getByRole('button', { name: 'I have saved them' }).click();
    await C.page.waitForURL(new RegExp(`/g/${id}`));
    await C.page.locator('#join-form').waitFor();
    await C.context.close();

    // Beto, signed in, joins from the invite.
    await B.page.goto(invite);
    await B.page.locator('#join-form').waitFor();
    await B.page.click('#join');
    await B.page.waitForURL(new RegExp(`/g/${id}$`));
    await B.page.locator('#rated-tag').waitFor();

    // Both move (through the API, with each page's seat), then Beto resigns on his page.
    const seatA = await seatOf(A.page, id);
    const seatB = await seatOf(B.page, id);
    assert.deepEqual([seatA.seat, seatB.seat], ['south', 'north']);
    await playUntilBothMoved(A.page, id, { south: seatA.token, north: seatB.token });
    await B.page.locator('#conn[data-synced]').waitFor({ state: 'attached' });
    B.page.once('dialog', (d) => d.accept());
    await B.page.click('#resign');
    for (const p of [A.page, B.page]) {
      await p.locator('#rating-change').waitFor();
      const text = await p.textContent('#rating-change');
      assert.match(text, new RegExp(`${ana}.*: ${RATED_CHANGE.source}`), text);
      assert.match(text, new RegExp(`${beto}.*: ${RATED_CHANGE.source}`), text);
      assert.deepEqual(await seriousViolations(p), []);
      assert.equal(await outside(p, '.dock *'), null);
    }
    const view = await inPage(A.page, 'GET', `/api/games/${id}`);
    assert.equal(view.rated, true);
    assert.ok(view.rating.south.after > 1500 && view.rating.north.after < 1500, JSON.stringify(view.rating));
    const gain = Math.round(view.rating.south.after) - 1500;
    assert.match(await A.page.textContent('#rating-change'), new RegExp(`1500\\? → ${1500 + gain}\\? \\(\\+${gain}\\)`));

    // More rated games, through the API, won in turn, so that the ratings settle.
    const games = [id];
    for (let k = 1; k < 16; k += 1) {
      const c = await inPage(A.page, 'POST', '/api/games', { mode: 'online', rated: true, rules: { variant: 'II' }, clock: { initial: 300, increment: 3 } });
      const j = await inPage(B.page, 'POST', `/api/games/${c.id}/join`, { invite: c.invite.split('invite=')[1] });
      await playUntilBothMoved(A.page, c.id, { south: c.token, north: j.token });
      // Ana lost this one if k is odd.
      const ended = await inPage(A.page, 'POST', `/api/games/${c.id}/resign`, undefined, k % 2 ? c.token : j.token);
      assert.ok(ended.rating, `game ${k} is rated`);
      games.push(c.id);
    }
    const player = await inPage(A.page, 'GET', `/api/players/${ana}`);
    assert.equal(player.ratings.length, 1);
    const [r] = player.ratings;
    assert.equal(r.games, 16);

    // Ana's page: her rating, the chart with a point a rated game, the rated games a page at a time.
    await A.page.goto(`${srv.url}/@/${ana.toLowerCase()}`);
    await A.page.locator('svg.rating-chart').waitFor();
    assert.equal(A.page.url(), `${srv.url}/@/${ana}?pool=II-blitz`, 'the address spells the name as the account does');
    assert.equal(await A.page.textContent('h1'), ana);
    assert.match(await A.page.textContent('#player-record'), /Rated games: 16 · 8 won, 0 drawn, 8 lost/);
    const shown = `${Math.round(r.rating)}${r.provisional ? '?' : ''}`;
    assert.equal(await A.page.textContent('table.ratings tr[data-pool="II-blitz"] td strong'), shown);
    assert.equal(await A.page.getAttribute('.pool-pick[data-pool="II-blitz"]', 'aria-pressed'), 'true');
    assert.equal(await A.page.locator('svg.rating-chart circle.pt').count(), 16);
    assert.equal(await A.page.locator('svg.rating-chart circle.pt.provisional').count(),
      (await inPage(A.page, 'GET', `/api/players/${ana}/history?pool=II-blitz`)).points.filter((p) => p.deviation > 110).length);
    assert.match(await A.page.getAttribute('svg.rating-chart', 'aria-label'), /Hoyito II · Blitz: 16 rated games, from 1500\? to \d+/);
    const rows = A.page.locator('#rated-games tbody tr');
    assert.equal(await rows.count(), 10);
    assert.equal(await A.page.textContent('#page-of'), 'Page 1 of 2');
    // The newest first: the last game, which Ana lost (k = 15).
    assert.equal(await rows.first().locator('a.result').getAttribute('href'), `/g/${games[15]}`);
    assert.equal(await rows.first().locator('a.result').textContent(), 'Loss');
    assert.match(await rows.first().textContent(), /\(−\d+\)/);
    assert.equal(await rows.first().locator('.who a').getAttribute('href'), `/@/${beto}`);
    assert.deepEqual(await seriousViolations(A.page), []);
    assert.equal(await outside(A.page), null);
    await A.page.click('#older');
    await A.page.waitForFunction(() => document.getElementById('page-of')?.textContent === 'Page 2 of 2');
    assert.equal(await rows.count(), 6);
    // The oldest last: the game played in the browser, won.
    assert.equal(await rows.last().locator('a.result').getAttribute('href'), `/g/${id}`);
    assert.equal(await rows.last().locator('a.result').textContent(), 'Win');
    assert.match(await rows.last().textContent(), new RegExp(`\\(\\+${gain}\\)`));
    assert.equal(await A.page.isDisabled('#older'), true);
    assert.equal(await A.page.evaluate(() => document.activeElement.id), 'newer', 'the focus stays on the pager');
    // All her games over, chosen by result and rated, and head to head.
    const pg = A.page.locator('#player-games');
    await pg.locator('table.pgames').waitFor();
    assert.equal(await pg.locator('#pgames-tally').textContent(), '8 won, 0 drawn, 8 lost');
    assert.equal(await pg.locator('tbody tr').count(), 10);
    assert.equal(await pg.locator('#pgames-page').textContent(), 'Page 1 of 2');
    assert.equal(await pg.locator('tbody tr').first().getAttribute('data-game'), games[15]);
    assert.equal(await pg.locator('tbody tr a.result').first().textContent(), 'Loss');
    await pg.locator('select[name="result"]').selectOption('won');
    await A.page.waitForFunction(() => document.querySelectorAll('#player-games tbody tr').length === 8);
    assert.equal(await pg.locator('.pager').count(), 0, 'eight games: one page');
    assert.deepEqual([...new Set(await pg.locator('tbody a.result').allTextContents())], ['Win']);
    await pg.locator('select[name="rated"]').selectOption('false');
    await pg.locator('#pgames-none').waitFor();
    await pg.locator('select[name="rated"]').selectOption('');
    await pg.locator('select[name="result"]').selectOption('');
    await pg.getByLabel('Head to head with').fill(beto.toUpperCase());
    await pg.getByRole('button', { name: 'Compare' }).click();
    await A.page.waitForFunction((n) => document.getElementById('pgames-tally')?.textContent.startsWith(`Against ${n}:`), beto);
    assert.equal(await pg.locator('#pgames-tally').textContent(), `Against ${beto}: 8 won, 0 drawn, 8 lost`);
    assert.deepEqual([...new Set(await pg.locator('tbody .who a').allTextContents())], [beto]);
    assert.deepEqual(await seriousViolations(A.page), []);
    assert.equal(await outside(A.page), null);
    await pg.getByLabel('Head to head with').fill(`Nadie${w}`);
    await pg.getByRole('button', { name: 'Compare' }).click();
    await pg.locator('#pgames-error').waitFor();
    assert.equal(await pg.locator('#pgames-error').textContent(), 'No player has this name.');
    await pg.getByRole('button', { name: 'Against everyone' }).click();
    await pg.locator('table.pgames').waitFor();
    assert.equal(await pg.locator('#pgames-tally').textContent(), '8 won, 0 drawn, 8 lost');

    // A game of the list opens.
    await rows.last().locator('a.result').click();
    await A.page.waitForURL(new RegExp(`/g/${id}$`));
    await A.page.locator('#rating-change').waitFor();

    // The opponent's page, from the list's link.
    await A.page.goBack();
    await A.page.locator('#rated-games tbody tr .who a').first().click();
    await A.page.waitForURL(new RegExp(`/@/${beto}`));
    await A.page.waitForFunction((n) => document.querySelector('h1')?.textContent === n, beto);
    await A.page.locator('svg.rating-chart').waitFor();
    assert.equal(await A.page.locator('svg.rating-chart circle.pt').count(), 16);

    // The leaderboard of the pool: the ratings that are no longer provisional, each linked to its page.
    await A.page.click('#to-leaderboard');
    await A.page.waitForURL(/\/leaderboard\?pool=II-blitz$/);
    const settled = [];
    for (const name of [ana, beto]) {
      const p = await inPage(A.page, 'GET', `/api/players/${name}`);
      if (!p.ratings[0].provisional) settled.push(name);
    }
    assert.ok(settled.length > 0, 'sixteen games settle a rating');
    await A.page.waitForSelector('table.lb');
    const names = await A.page.$$eval('table.lb tbody .who a', (as) => as.map((a) => [a.textContent, a.getAttribute('href')]));
    assert.deepEqual(names.map(([n]) => n).sort(), settled.sort());
    for (const [n, href] of names) assert.equal(href, `/@/${n}`);
    assert.deepEqual(await seriousViolations(A.page), []);
    assert.equal(await outside(A.page), null);
    // Another pool: nobody in it.
    await A.page.selectOption('select[name="cls"]', 'rapid');
    await A.page.locator('#lb-empty').waitFor();
    assert.match(await A.page.textContent('#lb-empty'), /Hoyito II · Rapid/);
    assert.equal(new URL(A.page.url()).search, '?pool=II-rapid');

    // A name no account has.
    await A.page.goto(`${srv.url}/@/Nadie${w}`);
    await A.page.locator('#no-player').waitFor();
    assert.equal(await A.page.textContent('#no-player h1'), 'No such player');
    assert.deepEqual(await seriousViolations(A.page), []);
  } finally {
    for (const x of [A, B]) await x.context.close();
    await C.context.close().catch(() => {});
  }
});

test('after one rated game both ratings are provisional: on the player page with "?", not on the leaderboard', async () => {
  const w = viewport.width;
  const [ana, beto] = [`Uno${w}`, `Dos${w}`];
  const A = await openPage(browser, `${srv.url}/`);
  const B = await openPage(browser, `${srv.url}/`);
  try {
    await signUp(A.page, ana);
    await signUp(B.page, beto);
    const c = await inPage(A.page, 'POST', '/api/games', { mode: 'online', rated: true, rules: { variant: 'III' } });
    const secret = c.invite.split('invite=')[1];
    // A rated game is between two accounts: Ana may not take its other seat.
    await assert.rejects(inPage(A.page, 'POST', `/api/games/${c.id}/join`, { invite: secret }), /409 .*same_account/);
    const j = await inPage(B.page, 'POST', `/api/games/${c.id}/join`, { invite: secret });
    await playUntilBothMoved(A.page, c.id, { south: c.token, north: j.token });
    const drawn = await inPage(A.page, 'POST', `/api/games/${c.id}/draw`, { action: 'offer' }, c.token);
    assert.equal(drawn.accepted, false);
    const agreed = await inPage(B.page, 'POST', `/api/games/${c.id}/draw`, { action: 'accept' }, j.token);
    assert.ok(agreed.game.rating, 'the drawn game is rated');

    await A.page.goto(`${srv.url}/@/${ana}`);
    await A.page.locator('svg.rating-chart').waitFor();
    assert.match(await A.page.textContent('table.ratings td strong'), /^\d+\?$/);
    assert.match(await A.page.textContent('.player-page'), /provisional rating/);
    assert.equal(await A.page.locator('svg.rating-chart circle.pt').count(), 1);
    assert.equal(await A.page.locator('svg.rating-chart circle.pt.provisional').count(), 1);
    assert.equal(await A.page.textContent('#rated-games tbody tr a.result'), 'Draw');
    assert.equal(await A.page.locator('#newer').count(), 0, 'one page: no pager');
    assert.equal(await outside(A.page), null);
    assert.deepEqual(await seriousViolations(A.page), []);
    const pool = (await inPage(A.page, 'GET', `/api/players/${ana}`)).ratings[0].pool;
    assert.equal(pool, 'III-untimed');
    await A.page.goto(`${srv.url}/leaderboard?pool=${pool}`);
    await A.page.locator('#lb-empty').waitFor();
    assert.equal(await A.page.locator('table.lb').count(), 0);
    assert.deepEqual(await seriousViolations(A.page), []);
    assert.equal(await outside(A.page), null);
    // The Account page links to the player's page and the leaderboard.
    await A.page.goto(`${srv.url}/account`);
    await A.page.getByRole('link', { name: 'My ratings' }).click();
    await A.page.waitForURL(new RegExp(`/@/${ana}`));
  } finally {
    for (const x of [A, B]) await x.context.close();
  }
});
