// The sowing animation, and the queue that shows received moves one after
// the other.

import { t } from '../i18n.js';
import { SPEEDS, pauses } from './pace.js';
import { say, capturedHoles } from './state.js';
import { showSowing } from '../sowing.js';
import { playSound } from './sounds.js';
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

/** Shows the sowing of move `ev` (quickly when `chained`); whether it did (its sounds then played with it). */
async function animate(G, ev, chained) {
  const { S, $ } = G;
  if (!SPEEDS[S.speed] || S.skip || reducedMotion()) return false;
  if (ev.trace.truncated) { note(G, t('game.long_sowing', { laps: ev.trace.laps })); return false; }
  ensureBoard(G);
  S.board.clearMarks('hinted');
  S.board.clearMarks('selected');
  await showSowing(S.board, {
    from: { board: ev.board_before, captured: ev.captured_before, closed: S.view.state.closed },
    mover: ev.side === 'south' ? 0 : 1,
    events: ev.trace.events,
    pace: pauses(SPEEDS[S.speed], ev.trace.events, chained),
    wait: (ms) => wait(S, ms),
    stopped: () => S.skip,
    hud: (text) => { $('hud').textContent = text; },
    show: { legal: new Set() },
    sound: playSound,
  });
  return true;
}

/** The sounds of a move shown without its sowing: one knock, and the chime if it captured. */
function moveSounds(ev) {
  playSound('sow');
  if (ev.captured) playSound('capture');
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
  let lastSide = null; // the side of the move shown last in this run of the queue
  while (S.queue.length) {
    const item = S.queue.shift();
    if (item.ev) S.captures.set(`${item.ev.epoch}:${item.ev.seq}`, capturedHoles(item.ev));
    if (item.ev && S.view) {
      S.animating = true;
      S.sowing = item.ev.side;
      S.first = null;
      S.pick = null;
      S.hint = null;
      dropStaleNote(G);
      drawControls(G);
      drawStatus(G);
      // A chain (an extra turn's next move, or moves queued behind this one) is shown quickly.
      const chained = lastSide === item.ev.side || S.queue.some((q) => q.ev);
      if (!await animate(G, item.ev, chained)) moveSounds(item.ev);
      lastSide = item.ev.side;
      S.animating = false;
      S.sowing = null;
    }
    // A view of the same step (presence, an offer, the socket's first
    // snapshot) keeps the player's half-made choice: the first hole of a
    // two-hole opening, a hole waiting for its direction.
    const moved = !S.view || item.game.seq !== S.view.seq || item.game.epoch !== S.view.epoch;
    S.view = item.game;
    if (moved || item.game.result) {
      S.first = null;
      S.pick = null;
    }
    G.render();
    if (item.ev) announce(G, item.ev);
  }
  S.skip = false;
  S.pumping = false;
}
