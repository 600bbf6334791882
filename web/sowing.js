// A sowing shown on a board, seed by seed, from a move's trace (the rules'
// own record of it: the core's `Trace`, sent by the server and the
// WebAssembly module alike). The game page and the How-to-play page show
// every move through this one loop.

import { t } from './i18n.js';

/**
 * Shows the sowing `events` (`['l', hole, seeds]`: a lap starts, the hole
 * emptied into the hand; `['s', hole]`: a seed sown; `['c', hole, seeds]`:
 * seeds captured by the mover) on `board`, from the position `from`
 * (`{board, captured, closed}`, not changed) where side `mover` (0 South,
 * 1 North) moves. `pace` holds the pauses in ms (`lap`, `seed`, `cap`);
 * `wait(ms)` pauses and `stopped()` says to stop at once; `hud(text)` is
 * told the lap and the seeds in hand; `show` are more options of
 * `board.render`; `sound(kind)`, if given, is told each seed sown (`sow`)
 * and each capture (`capture`). Resolves once shown (or stopped).
 */
export async function showSowing(board, {
  from, mover, events, pace, wait, stopped, hud, show = {}, sound = () => {},
}) {
  const seeds = from.board.slice();
  const cap = from.captured.slice();
  const draw = () => board.render({ ...show, board: seeds, closed: from.closed || [], captured: cap });
  let lap = 0;
  let hand = 0;
  draw();
  for (const [kind, hole, count] of events) {
    if (stopped()) break;
    if (kind === 'l') {
      lap += 1;
      seeds[hole] = 0;
      hand = count;
      hud(t('game.lap_hand', { lap, hand }));
      board.clearMarks('origin');
      board.mark(hole, 'origin', true);
      draw();
      await wait(pace.lap);
    } else if (kind === 's') {
      seeds[hole] += 1;
      hand -= 1;
      hud(t('game.lap_hand', { lap, hand }));
      draw();
      board.flash(hole, 'sown', Math.max(pace.seed, 60));
      sound('sow');
      await wait(pace.seed);
    } else if (kind === 'c') {
      seeds[hole] -= count;
      cap[mover] += count;
      board.flash(hole, 'capture', pace.cap + 200);
      sound('capture');
      draw();
      await wait(pace.cap);
    }
  }
  board.clearMarks('origin');
  hud('');
}
