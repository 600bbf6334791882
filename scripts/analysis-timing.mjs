#!/usr/bin/env node
// Times the post-game analysis of the web server on typical 2×6 games of
// each variant: games of level 6 against level 5 (`hoyito selfplay`, fixed
// seed) are imported into a fresh `hoyito serve`, analysed one after another
// through the API, and the wall time from the request to the stored analysis
// is printed. With several budgets (engine time per position, in ms; `auto`
// is the server's default), each game is imported and analysed once per
// budget, and each budget's marks of the played moves and best moves are
// compared with those of the first budget.
//
//   node scripts/analysis-timing.mjs [path/to/hoyito] [games per variant] [budgets, e.g. 1000,auto]
//
// Needs an optimised build (cargo build --profile e2e -p hoyito-cli, or
// --release). Figures depend on the machine and its load.

import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const bin = process.argv[2] || 'target/e2e/hoyito';
const perVariant = Number(process.argv[3] || 3);
const dir = mkdtempSync(join(tmpdir(), 'hoyito-analysis-timing-'));

function serve() {
  const proc = spawn(bin, ['serve', '--no-default-tables', '--addr', '127.0.0.1:0', '--db', join(dir, 'games.db')], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, HOYITO_LOG: 'warn' } });
  return new Promise((resolve, reject) => {
    let out = '';
    proc.on('exit', (c) => reject(new Error(`hoyito serve exited with ${c}`)));
    proc.stdout.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/[\d.:]+)/.exec(out);
      if (m) { proc.removeAllListeners('exit'); resolve({ url: m[1], proc }); }
    });
  });
}

async function call(url, method, body) {
  const res = await fetch(url, { method, headers: { 'content-type': 'application/json' }, body: body && JSON.stringify(body) });
  const json = await res.json();
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

const budgets = (process.argv[4] || 'auto').split(',');
const server = await serve();
try {
  console.log(`| variant | game | plies | budget (ms) | analysis (s) | per position (ms) | marks as the first budget | best moves as the first budget |`);
  console.log(`| --- | --- | --- | --- | --- | --- | --- | --- |`);
  for (const variant of ['I', 'II', 'III']) {
    const records = join(dir, `records-${variant}`);
    execFileSync(bin, ['selfplay', '--variant', variant, '--holes', '6', '--a', 'level:6', '--b', 'level:5',
      '--games', String(perVariant), '--movetime-ms', '200', '--seed', '26', '--records', records, '--threads', '1'], { stdio: 'ignore' });
    for (const file of readdirSync(records).sort()) {
      const record = readFileSync(join(records, file), 'utf8');
      let first = null;
      for (const budget of budgets) {
        const game = await call(`${server.url}/api/games/import`, 'POST', { record, mode: 'hotseat', level: 3 });
        const started = performance.now();
        let a = await call(`${server.url}/api/games/${game.id}/analysis`, 'POST', budget === 'auto' ? {} : { movetime_ms: Number(budget) });
        while (a.status !== 'done') {
          await new Promise((r) => setTimeout(r, 50));
          a = await call(`${server.url}/api/games/${game.id}/analysis?from=0`, 'GET');
        }
        const s = (performance.now() - started) / 1000;
        const marks = a.steps.map((p) => p.played?.mark ?? null);
        const best = a.steps.map((p) => p.best);
        first ??= { marks, best };
        const same = (xs, ys) => `${xs.filter((x, i) => x === ys[i]).length}/${xs.length}`;
        console.log(`| ${variant} | ${file} | ${game.game.seq} | ${budget === 'auto' ? `auto (${a.movetime_ms})` : budget} | ${s.toFixed(2)} | ${Math.round((s * 1000) / a.total)} | ${same(marks, first.marks)} | ${same(best, first.best)} |`);
      }
    }
  }
} finally {
  server.proc.kill('SIGTERM');
  await new Promise((r) => server.proc.once('exit', r));
  rmSync(dir, { recursive: true, force: true });
}
