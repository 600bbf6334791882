// Size and speed of the WebAssembly module and the offline app, measured
// in one run (docs/PERFORMANCE.md, "WebAssembly and the offline app"):
//   1. the .wasm's gzip size (goal: at most 400 KB);
//   2. random playouts in Node against native `hoyito bench` with the same
//      games and seed (the totals must agree; goal: at least 0.4x native);
//   3. bestMove(5) from the start of every variant (goal: within 2 s);
//   4. the app's time to interactive (the New game form ready) on
//      DevTools' "Slow 3G" profile after a first visit (goal: within 1 s).
// Usage: node scripts/bench-wasm.mjs [path/to/hoyito]  (default
// target/release/hoyito; needs web/node_modules: cd web && npm ci).

import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { execFileSync, spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = process.argv[2] || join(root, 'target', 'release', 'hoyito');
const wasmDir = join(root, 'web', 'wasm');
const results = [];
const report = (name, value, unit, goal, ok) => {
  results.push({ name, value, unit, goal, ok });
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}: ${value} ${unit} (goal ${goal})`);
};

// 1. Size.
const bytes = readFileSync(join(wasmDir, 'hoyito_wasm_bg.wasm'));
const gz = gzipSync(bytes, { level: 9 }).length;
console.log(`wasm: ${bytes.length} bytes, ${gz} gzipped`);
report('wasm gzip size', (gz / 1024).toFixed(1), 'KiB', '<= 400 KB', gz <= 400 * 1000);

// 2. Playouts: native and WebAssembly alternately, best of three each.
const wasm = await import(join(wasmDir, 'hoyito_wasm.js'));
wasm.initSync({ module: bytes });
const GAMES = 20000;
for (const variant of ['I', 'II', 'III']) {
  let native = 0;
  let inWasm = 0;
  for (let round = 0; round < 3; round += 1) {
    const line = execFileSync(bin, ['bench', '--variant', variant, '--games', String(GAMES), '--seed', '7', '--json'], { encoding: 'utf8' });
    const n = JSON.parse(line.trim().split('\n').pop());
    native = Math.max(native, n.games / n.seconds);
    const t0 = performance.now();
    const w = wasm.randomPlayouts(GAMES, { variant }, 7);
    const secs = (performance.now() - t0) / 1000;
    inWasm = Math.max(inWasm, w.games / secs);
    if (w.plies !== n.plies || w.south_wins !== n.south_wins || w.north_wins !== n.north_wins) {
      throw new Error(`Hoyito ${variant}: WebAssembly totals ${JSON.stringify(w)} differ from native ${line}`);
    }
  }
  console.log(`Hoyito ${variant} 2x6 playouts: native ${native.toFixed(0)} games/s, Node ${inWasm.toFixed(0)} games/s (same totals)`);
  report(`playouts Hoyito ${variant}, Node / native`, (inWasm / native).toFixed(2), 'x', '>= 0.4x', inWasm / native >= 0.4);
}

// 3. bestMove(5): the first ten moves of a game, the engine playing both sides.
for (const options of [{ variant: 'I' }, { variant: 'II' }, { variant: 'III' }, { variant: 'II', holes: 12, seeds: 5 }]) {
  const g = new wasm.Game(options);
  const variant = `${options.variant} 2x${options.holes || 6}`;
  let worst = 0;
  for (let k = 0; k < 10 && !g.isOver(); k += 1) {
    const t0 = performance.now();
    const m = g.bestMove(5);
    worst = Math.max(worst, performance.now() - t0);
    g.play(m);
  }
  report(`bestMove(5) Hoyito ${variant}, slowest of 10 moves`, (worst / 1000).toFixed(3), 's', '<= 2 s', worst <= 2000);
}

// 4. Time to interactive on Slow 3G after the first visit.
const { chromium } = createRequire(join(root, 'web', 'package.json'))('playwright-core');
const dbDir = mkdtempSync(join(tmpdir(), 'hoyito-bench-'));
const server = spawn(bin, ['serve', '--no-default-tables', '--addr', '127.0.0.1:0', '--db', join(dbDir, 'bench.db')], { stdio: ['ignore', 'pipe', 'ignore'] });
const url = await new Promise((resolve, reject) => {
  let out = '';
  server.stdout.on('data', (d) => { out += d; const m = /listening on (http:\/\/[\d.:]+)/.exec(out); if (m) resolve(m[1]); });
  server.on('exit', (c) => reject(new Error(`server exited with ${c}`)));
});
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
try {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const first = await context.newPage();
  await first.goto(`${url}/`);
  await first.evaluate(() => navigator.serviceWorker.ready);
  await first.waitForTimeout(500);
  await first.close();
  const times = [];
  for (let k = 0; k < 5; k += 1) {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    // DevTools' "Slow 3G": 2 s latency, 50 kB/s down and up.
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 2000, downloadThroughput: 50000, uploadThroughput: 50000 });
    const t0 = Date.now();
    await page.goto(`${url}/`, { waitUntil: 'commit' });
    await page.waitForSelector('#new-game #start');
    times.push(Date.now() - t0);
    await page.close();
  }
  const median = times.sort((a, b) => a - b)[2];
  // For comparison: a first visit (nothing cached) on the same profile.
  const fresh = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await fresh.newPage();
  const cdp = await fresh.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 2000, downloadThroughput: 50000, uploadThroughput: 50000 });
  const t0 = Date.now();
  await page.goto(`${url}/`, { waitUntil: 'commit' });
  await page.waitForSelector('#new-game #start', { timeout: 120000 });
  console.log(`for comparison, a first visit on Slow 3G: ${Date.now() - t0} ms`);
  await fresh.close();
  console.log(`time to interactive on Slow 3G after the first visit: ${times.join(', ')} ms`);
  report('time to interactive, Slow 3G, after the first visit (median of 5)', (median / 1000).toFixed(3), 's', '<= 1 s', median <= 1000);
} finally {
  await browser.close();
  server.kill('SIGTERM');
  rmSync(dbDir, { recursive: true, force: true });
}
console.log(JSON.stringify(results));
process.exitCode = results.every((r) => r.ok) ? 0 : 1;
