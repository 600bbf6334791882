// The sowing animation, and the queue that shows received moves one after
// the other.

import { t } from '../i18n.js';
import { SPEEDS, pauses } from './pace.js';
import { say, capturedHoles } from './state.js';
import {
  ensureBoard, drawControls, drawStatus, note, dropStaleNote,
} from './render.js';

// A pause that `S.wake()` or `S.skip` ends early.
const wait = (S, ms) => new Promise((resolve) => {
  if (S.skip || !ms) { resolve(); return; }
  const timer = setTimeout(() => { S.wake = null; resolve(); }, ms);
  S.wake = () => { clearTimeout(timer); S.wake = null; resolve(); };
});

/** Ends the running animation at once. */
export function skip(S) {
  if (S.animating) { S.skip = true; if (S.wake) S.wake(); }
}

/** Whether the system asks for reduced motion: then moves are shown without their sowing. */
export const reducedMotion = () => window.matchMedia('(prefers-reduced-motion: reduce)').matches;

async function animate(G, ev) {
  const { S, $ } = G;
  if (!SPEEDS[S.speed] || S.skip || reducedMotion()) return;
  if (ev.trace.truncated) { note(G, t('game.long_sowing', { laps: ev.trace.laps })); return; }
  const speed = pauses(SPEEDS[S.speed], ev.trace.events);
  ensureBoard(G);
  const board = ev.board_before.slice();
  const cap = ev.captured_before.slice();
  const mover = ev.side === 'south' ? 0 : 1;
  const closed = S.view.state.closed;
  const draw = () => S.board.render({ board, closed, captured: cap, legal: new Set() });
  let lap = 0;
  let hand = 0;
  S.board.clearMarks('hinted');
  S.board.clearMarks('selected');
  draw();
  for (const e of ev.trace.events) {
    if (S.skip) break;
    const [kind, hole, count] = e;
    if (kind === 'l') {
      lap += 1;
      board[hole] = 0;
      hand = count;
      $('hud').textContent = t('game.lap_hand', { lap, hand });
      S.board.clearMarks('origin');
      S.board.mark(hole, 'origin', true);
      draw();
      await wait(S, speed.lap);
    } else if (kind === 's') {
      board[hole] += 1;
      hand -= 1;
      $('hud').textContent = t('game.lap_hand', { lap, hand });
      draw();
      S.board.flash(hole, 'sown', Math.max(speed.seed, 60));
      await wait(S, speed.seed);
    } else if (kind === 'c') {
      board[hole] -= count;
      cap[mover] += count;
      S.board.flash(hole, 'capture', speed.cap + 200);
      draw();
      await wait(S, speed.cap);
    }
  }
  S.board.clearMarks('origin');
  $('hud').textContent = '';
}

// Tells what the move shown did beyond its sowing (an extra turn, a pass)
// in a toast, and the whole move to screen readers, politely.
function announce(G, ev) {
  const { S, $ } = G;
  const v = S.view;
  const other = ev.side === 'south' ? 'north' : 'south';
  const words = [say(S, 'say.move', ev.side, { move: ev.token })];
  if (ev.captured) words.push(t('say.captured', { n: ev.captured }));
  let more = null;
  if (!v.state.over && ev.passed) more = say(S, 'game.passes', ev.extra_turn ? ev.side : other);
  else if (!v.state.over && ev.extra_turn) more = say(S, 'game.extra', ev.side);
  // The toast (a polite live region too) tells the extra turn or the pass.
  if (more) note(G, more);
  $('announce').textContent = words.join(' ');
}

/** Shows the queued moves and views in order, animating each move. */
export async function pump(G) {
  const { S } = G;
  if (S.pumping) return;
  S.pumping = true;
  while (S.queue.length) {
    const item = S.queue.shift();
    if (item.ev) S.captures.set(`${item.ev.epoch}:${item.ev.seq}`, capturedHoles(item.ev));
    if (item.ev && S.view) {
      S.animating = true;
      S.sowing = item.ev.side;
      S.first = null;
      S.hint = null;
      dropStaleNote(G);
      drawControls(G);
      drawStatus(G);
      await animate(G, item.ev);
      S.animating = false;
      S.sowing = null;
    }
    S.view = item.game;
    S.first = null;
    G.render();
    if (item.ev) announce(G, item.ev);
  }
  S.skip = false;
  S.pumping = false;
}
