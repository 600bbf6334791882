// Puzzles with or without the server. Each question of the puzzle pages
// (a puzzle by id, the next of the set, the puzzle of the day, the next of
// a streak) goes to the server's GET /api/puzzles/…; when no server
// answers (offline, or a copy of the app on a static host), it is answered
// from the offline pack instead: /puzzle-pack.json, a few hundred of the
// shipped puzzles (for each variant and board, one of every rating), which
// the service worker caches when the app installs (sw.js, /precache.json).
// Each answer says where it came from: {puzzle, pack}, `pack` being the
// pack's size when the pack answered (`puzzle` then null if the pack has
// none such), else 0.
// A streak's pick among the puzzles of a rung is the server's
// (crates/hoyito-server/src/puzzles.rs, `streak_pick`), on the pack's
// puzzles: the same rungs as on the server, fewer puzzles on each.

import { api } from '../api.js';

export const PACK_PATH = '/puzzle-pack.json';

let packing = null;

/** The offline pack's puzzles, in the set's order (fetched once; from the service worker's cache offline). */
export function loadPack() {
  if (!packing) {
    packing = fetch(PACK_PATH).then((r) => {
      if (!r.ok) throw new Error(`HTTP ${r.status}`);
      return r.json();
    }).then((j) => j.puzzles).catch((e) => { packing = null; throw e; });
  }
  return packing;
}

const matches = (f, p) => (!f.variant || p.variant === f.variant) && (!f.holes || p.holes === Number(f.holes));

const M64 = (1n << 64n) - 1n;
/** SplitMix64's output function (as the server's `splitmix64`), on BigInts. */
export function splitmix64(x) {
  let z = (x + 0x9e3779b97f4a7c15n) & M64;
  z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & M64;
  z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & M64;
  return z ^ (z >> 31n);
}

/** The streak's pick among `puzzles` above `above` (null: from the start) with `seed`: the server's rule. */
export function streakPick(puzzles, above, seed) {
  const higher = puzzles.filter((p) => above === null || above === undefined || p.rating > above);
  if (!higher.length) return null;
  const rating = Math.min(...higher.map((p) => p.rating));
  const rung = higher.filter((p) => p.rating === rating);
  const k = splitmix64(splitmix64(BigInt(seed >>> 0)) ^ BigInt(rating)) % BigInt(rung.length);
  return rung[Number(k)];
}

/** Whether error `e` of a request means that no puzzle server answered (offline, or a static host without the API). */
const noServer = (e) => e.code === 'offline' || e.code === undefined;

/**
 * Asks the server (`path`); if none answers, the pack: `fromPack(puzzles)`
 * (null: none there). Throws the server's refusal, or the failure to reach
 * it when there is no pack either.
 */
async function ask(path, fromPack) {
  try {
    return { puzzle: await api('GET', path), pack: 0 };
  } catch (e) {
    if (!noServer(e)) throw e;
    let puzzles;
    try { puzzles = await loadPack(); } catch { throw e; }
    return { puzzle: fromPack(puzzles) || null, pack: puzzles.length };
  }
}

const query = (f, extra = {}) => {
  const q = new URLSearchParams();
  if (f.variant) q.set('variant', f.variant);
  if (f.holes) q.set('holes', String(f.holes));
  for (const [k, v] of Object.entries(extra)) if (v !== null && v !== undefined && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
};

/** The puzzle `id`. */
export const puzzleById = (id) => ask(`/api/puzzles/${encodeURIComponent(id)}`, (ps) => ps.find((p) => p.id === id));

/** The next puzzle of the set matching `filter` after `after` (the pack's order, wrapping round, offline). */
export const nextPuzzle = (filter, after) => ask(`/api/puzzles/next${query(filter, { after })}`, (ps) => {
  const i = after ? ps.findIndex((p) => p.id === after) : -1;
  const order = [...ps.slice(i + 1), ...ps.slice(0, i + 1)];
  return order.find((p) => matches(filter, p));
});

/** The puzzle of the day: only the server knows it (null from the pack). */
export const dailyPuzzle = (filter) => ask(`/api/puzzles/daily${query(filter)}`, () => null);

/** The next puzzle of a streak with `seed`, rated above `above` (null: the first); `puzzle` null once none is. */
export async function streakPuzzle(filter, above, seed) {
  try {
    return await ask(`/api/puzzles/streak${query(filter, { above, seed })}`, (ps) => streakPick(ps.filter((p) => matches(filter, p)), above, seed));
  } catch (e) {
    if (e.code === 'puzzle_not_found') return { puzzle: null, pack: 0 };
    throw e;
  }
}
