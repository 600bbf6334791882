// Endgame tables on this device. The server offers its default tables'
// compact layer files (GET /api/tables, a file per layer at an immutable
// URL); a set downloaded here is kept in the Cache Storage (cache
// `hoyito-tables`, apart from the service worker's: the tables are optional
// and big, sw.js never precaches them), beside a record of the set (its
// files and sizes) under `/offline-tables/<variant>-2x<holes>.json`.
// Without a server, the analysis board asks `probeStored` for a position's
// exact values: the files are given to the WebAssembly module's `Tables`
// (the tablebase crate's own reader, which checks every file) and probed
// there, as GET /api/tablebase would answer. The engine's worker gives
// `storedTables` to the engine (`useTables`), which then plays perfectly
// where they hold the position.

import { Tables } from '../wasm/hoyito_wasm.js';

const CACHE = 'hoyito-tables';
const recordKey = (variant, holes) => `/offline-tables/${variant}-2x${holes}.json`;

/** The server's sets of tables ({sets: [{variant, holes, max_seeds, ready, bytes, files}]}); throws offline. */
export async function tableManifest() {
  const res = await fetch('/api/tables', { cache: 'no-store' });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  return res.json();
}

/** The sets stored on this device: [{variant, holes, max_seeds, bytes, files}]. */
export async function storedSets() {
  if (!('caches' in self)) return [];
  const cache = await caches.open(CACHE);
  const keys = await cache.keys();
  const out = [];
  for (const k of keys) {
    if (!new URL(k.url).pathname.startsWith('/offline-tables/')) continue;
    const res = await cache.match(k);
    const rec = res && await res.json().catch(() => null);
    if (rec) out.push(rec);
  }
  return out.sort((a, b) => a.holes - b.holes || a.variant.length - b.variant.length);
}

/**
 * Downloads the set `set` (an entry of the manifest) and stores it;
 * `onProgress(done, total)` is called as its bytes arrive. Each file is
 * checked by the WebAssembly reader before the set is recorded; on any
 * failure nothing of the set stays stored and the error is thrown.
 */
export async function downloadSet(set, onProgress = () => {}) {
  const cache = await caches.open(CACHE);
  const total = set.bytes;
  let done = 0;
  const check = new Tables();
  try {
    for (const f of set.files) {
      const res = await fetch(f.url);
      if (!res.ok || !res.body) throw new Error(`HTTP ${res.status}`);
      const bytes = new Uint8Array(f.bytes);
      const reader = res.body.getReader();
      let at = 0;
      for (;;) {
        const { done: end, value } = await reader.read();
        if (end) break;
        if (at + value.length > bytes.length) throw new Error(`${f.url}: more than ${f.bytes} bytes`);
        bytes.set(value, at);
        at += value.length;
        done += value.length;
        onProgress(done, total);
      }
      if (at !== bytes.length) throw new Error(`${f.url}: ${at} of ${f.bytes} bytes`);
      check.load({ variant: set.variant, holes: set.holes }, f.seeds, bytes);
      await cache.put(f.url, new Response(bytes, { headers: { 'content-type': 'application/octet-stream' } }));
    }
    const record = { variant: set.variant, holes: set.holes, max_seeds: set.max_seeds, bytes: set.bytes, files: set.files };
    await cache.put(recordKey(set.variant, set.holes), new Response(JSON.stringify(record), { headers: { 'content-type': 'application/json' } }));
  } catch (e) {
    for (const f of set.files) await cache.delete(f.url);
    throw e;
  } finally {
    check.free();
  }
  forget(set.variant, set.holes);
}

/** Removes the set of `variant` on 2×`holes` from this device. */
export async function removeSet(variant, holes) {
  const cache = await caches.open(CACHE);
  const res = await cache.match(recordKey(variant, holes));
  const rec = res && await res.json().catch(() => null);
  for (const f of (rec && rec.files) || []) await cache.delete(f.url);
  await cache.delete(recordKey(variant, holes));
  forget(variant, holes);
}

// The sets given to the WebAssembly module so far, by `<variant>-<holes>`.
let tables = null;
const loaded = new Map();

function forget(variant, holes) {
  // A set removed or replaced: the module's copy goes too.
  if (loaded.has(`${variant}-${holes}`) && tables) { tables.free(); tables = null; loaded.clear(); }
}

/** Gives the stored set of `options` to the module once; false if none is stored. */
async function loadSet(options) {
  const key = `${options.variant}-${options.holes}`;
  if (loaded.has(key)) return loaded.get(key);
  if (!('caches' in self)) return false;
  const cache = await caches.open(CACHE);
  const res = await cache.match(recordKey(options.variant, options.holes));
  const rec = res && await res.json().catch(() => null);
  if (!rec) return false;
  if (!tables) tables = new Tables();
  for (const f of rec.files) {
    const file = await cache.match(f.url);
    if (!file) return false;
    tables.load({ variant: rec.variant, holes: rec.holes }, f.seeds, new Uint8Array(await file.arrayBuffer()));
  }
  loaded.set(key, true);
  return true;
}

/**
 * The module's `Tables` holding the set of `options` ({variant, holes})
 * stored on this device, given to it once, or null if none is stored (or
 * it cannot be read). No DOM here: the engine's worker (engine-worker.js)
 * imports this module too and keeps its own `Tables`.
 */
export async function storedTables(options) {
  try {
    return (await loadSet(options)) ? tables : null;
  } catch {
    return null;
  }
}

/**
 * The exact values of the position `notation` under the rules `options`
 * from the tables stored on this device ({value, moves: [{move, value}],
 * seeds, proved: 'tables'}, as GET /api/tablebase answers), or null if
 * they do not hold it.
 */
export async function probeStored(options, notation) {
  try {
    const stored = await storedTables(options);
    return stored ? stored.probe(options, notation) : null;
  } catch {
    return null;
  }
}

/** A size in bytes for people: `7.6 MB`. */
export function sizeText(bytes, lang) {
  const fmt = (n, d) => new Intl.NumberFormat(lang, { maximumFractionDigits: d, minimumFractionDigits: d }).format(n);
  if (bytes >= 1e6) return `${fmt(bytes / 1e6, 1)} MB`;
  if (bytes >= 1e3) return `${fmt(bytes / 1e3, 0)} kB`;
  return `${fmt(bytes, 0)} B`;
}
