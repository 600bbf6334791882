// Games on this device: the server's game API (the requests of
// ../api.js for /api/games/local…) answered in the browser by the
// WebAssembly rules, with the engine in a Web Worker and the games kept in
// IndexedDB. The game page cannot tell a local game from a server one:
// it gets the same GameView and MoveEvent, and engine moves arrive through
// `subscribe` as they would through the server's WebSocket.

import init, { engineLimits } from '../wasm/hoyito_wasm.js';
import { LocalGame, LocalError } from './game.js';
import * as store from './store.js';
import { scriptUrl } from '../html.js';

/** Whether game `id` lives on this device (server ids never start with a lower-case l). */
export const isLocalId = (id) => /^local[A-Za-z0-9]+$/.test(id);

/** Whether an API path is about a game on this device. */
export const isLocalPath = (path) => /^\/api\/games\/local[A-Za-z0-9]+(\/|\?|$)/.test(path);

let initialised = null;
// What the engine does, as on the server ({levels, move_ms, hint_level, hint_ms}).
let limits = null;

/** Loads the WebAssembly module (once). */
export function ready() {
  if (!initialised) {
    initialised = init().then(() => { limits = engineLimits(); }).catch((e) => { initialised = null; throw e; });
  }
  return initialised;
}

const live = new Map(); // id -> {game, listeners: Set}

async function entry(id) {
  await ready();
  let e = live.get(id);
  if (e) return e;
  const rec = await store.load(id);
  if (!rec) throw new LocalError(404, 'unknown_game', `no game ${id} on this device`);
  e = live.get(id) || { game: LocalGame.replay(rec.meta, rec.epoch, rec.steps), listeners: new Set() };
  live.set(id, e);
  return e;
}

/** Stores the game; if that fails, goes back to `before` (its tokens before the change) and throws. */
async function persist(e, before) {
  const g = e.game;
  try {
    await store.save({ id: g.meta.id, meta: g.meta, epoch: g.epoch, steps: g.tokens(), updated_ms: Date.now() });
  } catch (err) {
    if (before) {
      const old = LocalGame.replay(g.meta, g.epoch, before);
      g.free();
      e.game = old;
    }
    throw new LocalError(503, 'storage_unavailable', `the game could not be saved on this device: ${err.message || err}`);
  }
}

function broadcast(e, ev = null) {
  const view = e.game.view();
  for (const fn of e.listeners) fn(view, ev);
}

// --- the engine, in a worker -------------------------------------------------

let worker = null;
let jobs = 0;
const waiting = new Map();

function engineMove(game, level, timeMs) {
  if (!worker) {
    worker = new Worker(scriptUrl(new URL('./engine-worker.js', import.meta.url)), { type: 'module' });
    worker.onmessage = (m) => {
      const p = waiting.get(m.data.job);
      waiting.delete(m.data.job);
      if (!p) return;
      if (m.data.error) p.reject(new LocalError(500, 'internal', m.data.error)); else p.resolve(m.data.move);
    };
    worker.onerror = (err) => {
      for (const p of waiting.values()) p.reject(new LocalError(500, 'internal', err.message || 'the engine stopped'));
      waiting.clear();
      worker = null;
    };
  }
  jobs += 1;
  const job = jobs;
  return new Promise((resolve, reject) => {
    waiting.set(job, { resolve, reject });
    worker.postMessage({ job, setup: game.setup(), steps: game.tokens(), level, timeMs });
  });
}

/** Lets the computer move if it is its turn (and again after an extra turn). */
async function kick(e) {
  const g = e.game;
  if (g.thinking || !g.engineToMove()) return;
  g.thinking = true;
  broadcast(e);
  const { epoch, seq } = g;
  let token = null;
  try {
    token = await engineMove(g, g.meta.level);
  } catch (err) {
    console.error('engine:', err);
  }
  g.thinking = false;
  if (e.game !== g || g.epoch !== epoch || g.seq !== seq || token === null) {
    // An undo came in meanwhile: show the game as it is now.
    broadcast(e);
    kick(e);
    return;
  }
  const before = g.tokens();
  const ev = g.step(token);
  try {
    await persist(e, before);
  } catch (err) {
    console.error(err);
    broadcast(e);
    return;
  }
  broadcast(e, ev);
  kick(e);
}

// --- the API ---------------------------------------------------------------------

const letters = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
function newId() {
  const bytes = crypto.getRandomValues(new Uint8Array(10));
  return `local${[...bytes].map((b) => letters[b % letters.length]).join('')}`;
}

/**
 * Creates a game on this device from the New game form's body ({mode,
 * match, level, side, rules}); resolves to {id, token, seat} as the
 * server's POST /api/games.
 */
export async function createLocalGame(body) {
  await ready();
  if (body.mode !== 'engine' && body.mode !== 'hotseat') {
    throw new LocalError(422, 'invalid_mode', 'only games against the computer and two-player games can be played on this device');
  }
  const level = Number(body.level);
  if (body.mode === 'engine' && !(Number.isInteger(level) && level >= 1 && level <= limits.levels)) {
    throw new LocalError(422, 'invalid_level', `level must be 1 to ${limits.levels}`);
  }
  const side = body.side === 'north' ? 'north' : 'south';
  const meta = {
    id: newId(), mode: body.mode, rules: body.rules, match: !!body.match, level: body.mode === 'engine' ? level : 0,
    engine_side: body.mode === 'engine' ? (side === 'south' ? 'north' : 'south') : null, created_ms: Date.now(),
  };
  let game;
  try {
    game = new LocalGame(meta);
  } catch (err) {
    throw new LocalError(422, 'invalid_rules', err.message);
  }
  const e = { game, listeners: new Set() };
  await persist(e, null);
  live.set(meta.id, e);
  return { id: meta.id, token: null, seat: body.mode === 'hotseat' ? 'both' : side };
}

/** Answers a request of the game API about a game on this device (throws LocalError). */
export async function localApi(method, path, body) {
  const m = /^\/api\/games\/(local[A-Za-z0-9]+)(?:\/([a-z-]+))?$/.exec(path.split('?')[0]);
  if (!m) throw new LocalError(404, 'not_found', `no such request: ${path}`);
  const [, id, action = ''] = m;
  const e = await entry(id);
  const g = e.game;
  const route = `${method} ${action}`;
  const before = g.tokens();
  switch (route) {
    case 'GET ':
      return g.view();
    case 'GET record':
      return g.record();
    case 'POST moves': {
      g.checkTurn();
      if (body && body.seq !== undefined && body.seq !== g.seq) throw new LocalError(409, 'stale', 'the game has moved on: reload it');
      const ev = g.play(body && body.move);
      await persist(e, before);
      const view = g.view();
      for (const fn of e.listeners) fn(view, ev);
      kick(e);
      return { game: g.view(), move: ev };
    }
    case 'POST undo': {
      if (body && body.seq !== undefined && body.seq !== g.seq) throw new LocalError(409, 'stale', 'the game has moved on: reload it');
      if (body && body.epoch !== undefined && body.epoch !== g.epoch) throw new LocalError(409, 'stale', 'the game has moved on: reload it');
      const keep = g.undoTarget();
      const back = g.undone(keep);
      e.game = back;
      try {
        await persist(e, null);
      } catch (err) {
        back.free();
        e.game = g;
        throw err;
      }
      g.free();
      broadcast(e);
      return back.view();
    }
    case 'POST hint': {
      g.checkHint();
      const move = await engineMove(g, Math.max(g.meta.level, limits.hint_level), limits.hint_ms);
      // Where it is sown, as the server's hint says it: from the room's legal moves.
      const sown = g.view().legal_moves.find((m) => m.token === move);
      return { move, score: null, holes: sown ? sown.holes : [], dir: sown ? sown.dir : null };
    }
    case 'POST resign': {
      g.step(g.resignation(body && body.scope === 'round'));
      await persist(e, before);
      broadcast(e);
      return g.view();
    }
    case 'POST abort': {
      g.step(g.abortion());
      await persist(e, before);
      broadcast(e);
      return g.view();
    }
    case 'POST next-round': {
      g.step('next');
      await persist(e, before);
      broadcast(e);
      kick(e);
      return g.view();
    }
    default:
      throw new LocalError(409, 'unavailable_locally', 'this is not available for games on this device');
  }
}

/**
 * Follows game `id` as ../game/socket.js follows a server game: `onGame(view,
 * move)` for every change (engine moves included), `onStatus(true)` at once.
 * Returns a function that stops following.
 */
export function subscribe(id, onGame, onStatus) {
  let closed = false;
  let e = null;
  const fn = (view, ev) => { if (!closed) onGame(view, ev); };
  entry(id).then((found) => {
    if (closed) return;
    e = found;
    e.listeners.add(fn);
    onStatus(true);
    kick(e);
  }).catch((err) => console.error(err));
  return () => {
    closed = true;
    if (e) e.listeners.delete(fn);
  };
}

/** The Games page's entries of the games on this device, newest first. */
export async function localSummaries() {
  let recs;
  try {
    await ready();
    recs = await store.loadAll();
  } catch {
    return [];
  }
  const out = [];
  for (const rec of recs) {
    try {
      const cached = live.get(rec.id);
      const g = cached ? cached.game : LocalGame.replay(rec.meta, rec.epoch, rec.steps);
      out.push(g.summary(rec.updated_ms));
      if (!cached) g.free();
    } catch (err) {
      console.error(`game ${rec.id}:`, err);
    }
  }
  return out.sort((a, b) => b.updated_ms - a.updated_ms);
}

/** Makes link `a` download game `id`'s record from this device. */
export function bindLocalDownload(a, id) {
  a.addEventListener('click', async (ev) => {
    ev.preventDefault();
    const text = await localApi('GET', `/api/games/${id}/record`);
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = `hoyito-${id}.txt`;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  });
}
