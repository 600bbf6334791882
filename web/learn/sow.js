// A small sower for the How-to-play page's demonstrations: the relay
// sowing and the captures of RULES.md §2–3 on a board without closed holes,
// sown counter-clockwise, as a trace of the events the game page animates
// (`['l', hole, seeds]` a lap starts, `['s', hole]` a seed is sown,
// `['c', hole, seeds]` a capture). The demonstrations are short sowings far
// from the end of a game, so the last four and endless sowings do not arise.

/** Sows hole `start` of `board` (2·n counts) under `variant`: the events, the board after, the seeds captured, an extra turn. */
export function sow(board, start, variant) {
  const b = board.slice();
  const len = b.length;
  const events = [];
  let captured = 0;
  let hand = b[start];
  b[start] = 0;
  events.push(['l', start, hand]);
  let i = start;
  for (;;) {
    while (hand > 0) {
      i = (i + 1) % len;
      b[i] += 1;
      hand -= 1;
      events.push(['s', i]);
      // Hoyito I: any seed that makes a casa captures it at once.
      if (variant === 'I' && b[i] === 4) {
        b[i] = 0;
        captured += 4;
        events.push(['c', i, 4]);
        if (hand === 0) return { events, board: b, captured, again: false };
      }
    }
    if (b[i] === 1) return { events, board: b, captured, again: false };
    if (b[i] === 4) {
      // Hoyito II and III: the last seed's casa; II goes on backwards.
      let j = i;
      do {
        b[j] = 0;
        captured += 4;
        events.push(['c', j, 4]);
        j = (j - 1 + len) % len;
      } while (variant === 'II' && b[j] === 4 && j !== i);
      return { events, board: b, captured, again: true };
    }
    hand = b[i];
    b[i] = 0;
    events.push(['l', i, hand]);
  }
}
