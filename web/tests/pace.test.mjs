// The sowing animation's pace (web/game/pace.js), without a browser: a
// long relay sowing is shortened to its speed's most, a short move keeps
// the speed's pauses.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SPEEDS, pauses } from '../game/pace.js';

const sum = (p, events) => events.reduce((s, [k]) => s + ({ l: p.lap, s: p.seed, c: p.cap }[k] || 0), 0);

test('a long sowing takes at most its speed\'s most, a short one the speed\'s pauses', () => {
  // A relay of 5 laps sowing 60 seeds and a capture.
  const long = [];
  for (let lap = 0; lap < 5; lap++) {
    long.push(['l', lap, 12]);
    for (let k = 0; k < 12; k++) long.push(['s', k % 12, 1]);
  }
  long.push(['c', 3, 4]);
  const short = [['l', 0, 3], ['s', 1, 1], ['s', 2, 1], ['s', 3, 1]];
  for (const [name, speed] of Object.entries(SPEEDS)) {
    if (!speed) continue;
    assert.ok(sum(speed, long) > speed.most, `${name}: the long sowing needs shortening`);
    const p = pauses(speed, long);
    assert.ok(Math.abs(sum(p, long) - speed.most) < 1e-6, `${name}: ${sum(p, long)} ms`);
    assert.ok(p.seed < speed.seed && Math.abs(p.lap / p.seed - speed.lap / speed.seed) < 1e-9, `${name}: one factor for all`);
    assert.deepEqual(pauses(speed, short), { seed: speed.seed, lap: speed.lap, cap: speed.cap });
  }
  assert.ok(SPEEDS.slow.most > SPEEDS.normal.most && SPEEDS.normal.most > SPEEDS.fast.most);
});

test('a move of a chain (the same side again, or more moves waiting) is shown within its speed\'s chain time', () => {
  const move = [['l', 0, 8]];
  for (let k = 0; k < 8; k++) move.push(['s', k, 1]);
  move.push(['c', 7, 4]);
  for (const [name, speed] of Object.entries(SPEEDS)) {
    if (!speed) continue;
    assert.ok(speed.chain < speed.most, `${name}: a chain's move is shorter`);
    const p = pauses(speed, move, true);
    assert.ok(sum(p, move) <= speed.chain + 1e-6, `${name}: ${sum(p, move)} ms`);
    assert.ok(sum(pauses(speed, move), move) > sum(p, move), `${name}: shorter than a lone move`);
  }
});
