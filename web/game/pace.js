// The pace of the sowing animation: pauses per seed sown, per lap and per
// capture at each speed, shortened for long moves so that one move never
// takes longer than its speed's `most` (a relay sowing of many laps would
// otherwise take many seconds at Normal).

/** Pauses (ms) per seed sown, per lap, per capture, and the most a move may take; `instant` does not animate. */
export const SPEEDS = {
  slow: { seed: 420, lap: 650, cap: 800, most: 10000, chain: 2500 },
  normal: { seed: 160, lap: 320, cap: 450, most: 4000, chain: 900 },
  fast: { seed: 45, lap: 110, cap: 160, most: 1500, chain: 350 },
  instant: null,
};

/**
 * The pauses for a move's sowing `events` (`['l'|'s'|'c', hole, count]`) at
 * `speed`, all scaled by one factor so that their sum is at most
 * `speed.most`, or `speed.chain` for a move of a chain (`chained`: the same
 * side moving again after an extra turn, or more moves waiting to be
 * shown), so that a chain of moves is shown in a few seconds, not many.
 */
export function pauses(speed, events, chained = false) {
  const each = { l: speed.lap, s: speed.seed, c: speed.cap };
  const most = chained ? Math.min(speed.most, speed.chain) : speed.most;
  const total = events.reduce((sum, [kind]) => sum + (each[kind] || 0), 0);
  const f = total > most ? most / total : 1;
  return { seed: speed.seed * f, lap: speed.lap * f, cap: speed.cap * f };
}
