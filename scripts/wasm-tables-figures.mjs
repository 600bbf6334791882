// What the browser's endgame tables cost: loads one set's compact layer
// files (`hoyito tablebase build --compact` or a server's --tablebases
// directory) into the WebAssembly module's Tables, as the web app does
// after a download, and prints the bytes loaded, the module's memory
// before and after, the time to load, and the time of exact-value probes
// of the positions of random games (every position of a 2x4 game is in
// its set; on 2x6, those with few enough seeds).
//
//   node scripts/wasm-tables-figures.mjs DIR/II-2x4 [GAMES]
//
// The module is web/wasm/ (or $HOYITO_WASM_DIR), run under Node.js.

import { readFileSync, readdirSync } from 'node:fs';
import { join, basename, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const [setDir, gamesArg] = process.argv.slice(2);
if (!setDir) {
  console.error('usage: node scripts/wasm-tables-figures.mjs DIR/<variant>-2x<holes> [GAMES]');
  process.exit(2);
}
const m = /^(I|II|III)-2x(\d+)$/.exec(basename(setDir));
if (!m) {
  console.error(`${setDir}: expected a set's directory named like II-2x4`);
  process.exit(2);
}
const rules = { variant: m[1], holes: Number(m[2]) };
const games = Number(gamesArg || 200);

const here = dirname(fileURLToPath(import.meta.url));
const dir = process.env.HOYITO_WASM_DIR || join(here, '..', 'web', 'wasm');
const wasm = await import(join(dir, 'hoyito_wasm.js'));
const exports = wasm.initSync({ module: readFileSync(join(dir, 'hoyito_wasm_bg.wasm')) });
const { Game, Tables } = wasm;
const mib = (n) => (n / 1048576).toFixed(1);

const files = readdirSync(setDir).filter((f) => /^seeds-\d{3}\.htc$/.test(f)).sort();
if (!files.length) {
  console.error(`${setDir}: no compact layer files (seeds-NNN.htc)`);
  process.exit(2);
}
const tables = new Tables();
const memoryBefore = exports.memory.buffer.byteLength;
let bytes = 0;
const loadStart = process.hrtime.bigint();
for (const f of files) {
  const data = readFileSync(join(setDir, f));
  bytes += data.length;
  tables.load(rules, Number(f.slice(6, 9)), data);
}
const loadMs = Number(process.hrtime.bigint() - loadStart) / 1e6;
const memoryLoaded = exports.memory.buffer.byteLength;

// Random games (a fixed linear congruential generator: the same games each run).
let seed = 12345;
const random = (n) => {
  seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
  return seed % n;
};
let probes = 0;
let answered = 0;
let probeNs = 0n;
for (let g = 0; g < games; g += 1) {
  const game = new Game(rules);
  for (let ply = 0; ply < 400 && !game.isOver(); ply += 1) {
    const notation = game.notation();
    const t0 = process.hrtime.bigint();
    const v = tables.probe(rules, notation);
    probeNs += process.hrtime.bigint() - t0;
    probes += 1;
    if (v) answered += 1;
    const legal = game.legalMoves();
    game.play(legal[random(legal.length)]);
  }
  game.free();
}
const memoryAfter = exports.memory.buffer.byteLength;
console.log(`set ${rules.variant} 2x${rules.holes}: ${files.length} layer files, ${bytes.toLocaleString('en')} bytes`);
console.log(`module memory: ${mib(memoryBefore)} MiB before, ${mib(memoryLoaded)} MiB loaded (${loadMs.toFixed(0)} ms), ${mib(memoryAfter)} MiB after the probes`);
console.log(`probes: ${probes.toLocaleString('en')} positions of ${games} random games, ${answered.toLocaleString('en')} answered, ${(Number(probeNs) / probes / 1000).toFixed(1)} µs a probe on average`);
tables.free();
