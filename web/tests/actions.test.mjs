// The game page shows what the room decides: at the moments that matter
// (the start, after one move each, after an offer, between the rounds of a
// match, once over) of games against the computer, of two players on one
// device, online and of matches, each of the page's action buttons is
// enabled exactly when the server takes its request. The page is read
// first; then, for each action, the same moment is made again in a fresh
// game and the request sent for real. Run with tests/run.sh.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  startServer, launchBrowser, openPage, waitUntil, once,
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

/** Calls the API; resolves to {status, body} whatever the status. */
async function call(method, path, body, token) {
  const headers = {};
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(server.url + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: text && (res.headers.get('content-type') || '').includes('json') ? JSON.parse(text) : text };
}

/** Calls the API and fails the test unless it answers 2xx. */
async function ok(method, path, body, token) {
  const r = await call(method, path, body, token);
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

const view = (id) => ok('GET', `/api/games/${id}`);

/** Waits until the computer of game `id` is not thinking, and returns the view. */
const settled = (id) => waitUntil(async () => {
  const g = await view(id);
  const engineMoves = g.mode === 'engine' && !g.state.over && !g.end && g.state.to_move === g.engine_side;
  return !g.thinking && !engineMoves ? g : null;
}, `game ${id} waits for the computer`);

/** Plays the first legal move for the player to move, holding `token`. */
async function move(id, token) {
  const g = await view(id);
  await ok('POST', `/api/games/${id}/moves`, { move: g.legal[0], seq: g.seq }, token);
  return settled(id);
}

/**
 * The moments: each makes a fresh game at that moment and returns its id
 * and the seats to read it from ({seat, token} of each player there).
 */
const engine = async () => {
  const c = await ok('POST', '/api/games', { mode: 'engine', level: 1, side: 'south', rules: { variant: 'II' } });
  return { id: c.id, seats: [{ seat: c.seat, token: c.token }] };
};
const hotseat = async (body = {}) => {
  const c = await ok('POST', '/api/games', { mode: 'hotseat', rules: { variant: 'II' }, ...body });
  return { id: c.id, seats: [{ seat: 'both', token: c.token }] };
};
const online = async (join = true) => {
  const a = await ok('POST', '/api/games', { mode: 'online', name: 'Ana', side: 'south', rules: { variant: 'II' } });
  const seats = [{ seat: 'south', token: a.token }];
  if (join) {
    const invite = new URL(a.invite, server.url).searchParams.get('invite');
    const j = await ok('POST', `/api/games/${a.id}/join`, { invite, name: 'Jean' });
    seats.push({ seat: j.seat, token: j.token });
  }
  return { id: a.id, seats };
};
const token = (g, seat) => g.seats.find((s) => s.seat === seat).token;
/** Plays the first round of hot-seat match `g` to its end with each side's first legal move. */
async function playRound(g) {
  let v = await view(g.id);
  while (!v.state.over) {
    v = (await ok('POST', `/api/games/${g.id}/moves`, { move: v.legal[0], seq: v.seq }, g.seats[0].token)).game;
  }
  assert.ok(v.can_next_round, 'the match goes on after its first round');
  return g;
}

/** One move of each player of online game `g` (South first). */
const eachMoved = async (g) => { await move(g.id, token(g, 'south')); await move(g.id, token(g, 'north')); return g; };

const moments = {
  'against the computer, at the start': engine,
  'against the computer, after one move each': async () => { const g = await engine(); await move(g.id, g.seats[0].token); return g; },
  'against the computer, over': async () => { const g = await engine(); await ok('POST', `/api/games/${g.id}/resign`, undefined, g.seats[0].token); return g; },
  'two players on one device, at the start': () => hotseat(),
  'two players on one device, after one move each': async () => { const g = await hotseat(); await move(g.id, g.seats[0].token); await move(g.id, g.seats[0].token); return g; },
  'two players on one device, over': async () => { const g = await hotseat(); await ok('POST', `/api/games/${g.id}/resign`, undefined, g.seats[0].token); return g; },
  'online, waiting for the second player': () => online(false),
  'online, at the start': () => online(),
  'online, after one move each': async () => eachMoved(await online()),
  'online, after a draw offer': async () => {
    const g = await eachMoved(await online());
    await ok('POST', `/api/games/${g.id}/draw`, { action: 'offer' }, token(g, 'south'));
    return g;
  },
  'online, after a takeback request': async () => {
    const g = await eachMoved(await online());
    await ok('POST', `/api/games/${g.id}/takeback`, { action: 'offer' }, token(g, 'north'));
    return g;
  },
  'online, over': async () => {
    const g = await eachMoved(await online());
    await ok('POST', `/api/games/${g.id}/resign`, undefined, token(g, 'north'));
    return g;
  },
  'a match, after one move each': async () => { const g = await hotseat({ match: true }); await move(g.id, g.seats[0].token); await move(g.id, g.seats[0].token); return g; },
  'a match, between rounds': async () => playRound(await hotseat({ match: true })),
  'a match, in the second round': async () => {
    const g = await playRound(await hotseat({ match: true }));
    await ok('POST', `/api/games/${g.id}/next-round`, undefined, g.seats[0].token);
    return g;
  },
};

/**
 * The page's actions: the element that offers each (enabled: shown and not
 * disabled) and the request it sends.
 */
const actions = {
  move: { el: '.hole.legal', send: async (id, tk) => { const g = await view(id); return call('POST', `/api/games/${id}/moves`, { move: g.legal[0], seq: g.seq }, tk); } },
  hint: { el: '#hint', send: (id, tk) => call('POST', `/api/games/${id}/hint`, undefined, tk) },
  undo: { el: '#undo', send: (id, tk) => call('POST', `/api/games/${id}/undo`, undefined, tk) },
  abort: { el: '#abort', send: (id, tk) => call('POST', `/api/games/${id}/abort`, undefined, tk) },
  resign: { el: '#resign', send: (id, tk) => call('POST', `/api/games/${id}/resign`, undefined, tk) },
  resign_round: { el: '#resign-round', send: (id, tk) => call('POST', `/api/games/${id}/resign`, { scope: 'round' }, tk) },
  next_round: { el: '#next-round', send: (id, tk) => call('POST', `/api/games/${id}/next-round`, undefined, tk) },
  offer_draw: { el: '#offer-draw', send: (id, tk) => call('POST', `/api/games/${id}/draw`, { action: 'offer' }, tk) },
  accept_draw: { el: '#accept-draw', send: (id, tk) => call('POST', `/api/games/${id}/draw`, { action: 'accept' }, tk) },
  decline_draw: { el: '#decline-draw', send: (id, tk) => call('POST', `/api/games/${id}/draw`, { action: 'decline' }, tk) },
  ask_takeback: { el: '#ask-takeback', send: (id, tk) => call('POST', `/api/games/${id}/takeback`, { action: 'offer' }, tk) },
  accept_takeback: { el: '#accept-takeback', send: (id, tk) => call('POST', `/api/games/${id}/takeback`, { action: 'accept' }, tk) },
  decline_takeback: { el: '#decline-takeback', send: (id, tk) => call('POST', `/api/games/${id}/takeback`, { action: 'decline' }, tk) },
};

/** Which actions the page at game `id`, opened holding `seat`, offers once it shows the game as the server has it. */
async function offered(id, seat) {
  const g = await view(id);
  const { context, page } = await openPage(browser, `${server.url}/g/${id}`, {
    storage: { [`hoyito.seat.${id}`]: JSON.stringify(seat) },
  });
  try {
    await page.waitForFunction((n) => document.querySelectorAll('#moves li').length - 1 === n, g.seq);
    // The page takes the game in once it marks the holes it may play, or
    // shows that it is not its move.
    await page.waitForFunction(() => document.querySelector('#status')?.textContent.trim() !== '');
    const out = {};
    for (const [name, a] of Object.entries(actions)) {
      const el = page.locator(a.el).first();
      out[name] = (await el.count()) > 0 && (await el.isVisible()) && (await el.isEnabled());
    }
    return out;
  } finally {
    await context.close();
  }
}

test('every action button is enabled exactly when the server takes its request', once, async () => {
  const wrong = [];
  for (const [moment, make] of Object.entries(moments)) {
    const shown = await make();
    await settled(shown.id);
    for (const seat of shown.seats) {
      const page = await offered(shown.id, seat);
      for (const [name, a] of Object.entries(actions)) {
        // The same moment, made again: the request is sent for real.
        const fresh = await make();
        await settled(fresh.id);
        const r = await a.send(fresh.id, fresh.seats.find((s) => s.seat === seat.seat).token);
        const taken = r.status < 300;
        if (taken !== page[name]) {
          wrong.push(`${moment}, ${seat.seat}: ${name} is ${page[name] ? 'enabled' : 'not enabled'} but the server ${taken ? 'takes it' : `answers ${r.status} ${r.body.code}`}`);
        }
      }
    }
  }
  assert.deepEqual(wrong, []);
});
