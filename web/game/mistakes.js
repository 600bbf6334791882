// The mistakes of a finished game that lost the result, read from its
// post-game analysis (GET /api/games/{id}/analysis, docs/API.md): the
// exercises of "Learn from your mistakes" (pages/mistakes.js), and the
// button that opens them (game/analysis.js).
//
// A move lost the result when the analysis's own rule says so, the rule
// its marks use (`hoyito_engine::review::Scale::result`): a score read as
// a win, a draw or a loss for the mover, a proved one by its sign, an
// estimate within `thresholds.even` seeds of 0 as a draw; the played
// move's result was worse than the best move's. The analysis scores every
// legal move of the position before it (`moves`, each with `exact`), so
// the exercise accepts every move the analysis reads as keeping the best
// move's result, and no other.

/** `even` of analyses stored before it was sent: every variant's (half a casa's swing). */
const EVEN = 4;

/** The result a score `score` for the mover means (0 a loss, 1 a draw, 2 a win) by the analysis's rule. */
export function standing(score, exact, even = EVEN) {
  const e = exact ? 1 : even;
  if (score >= e) return 2;
  if (score <= -e) return 0;
  return 1;
}

/** The result words' keys of a standing (`result.win`, …). */
export const RESULT = ['loss', 'draw', 'win'];

/**
 * The sides whose mistakes are this browser's to learn from in game view
 * `v`, where it holds `seat`: the player's side against the engine, the
 * seat's side online, both on a shared screen; none for a spectator.
 */
export function playerSides(v, seat) {
  if (v.mode === 'engine') return [v.engine_side === 'south' ? 'north' : 'south'];
  if (seat === 'both') return ['south', 'north'];
  if (seat === 'south' || seat === 'north') return [seat];
  return [];
}

/**
 * The exercises of analysis `an` (of the game as it stands, done) for the
 * moves of `sides`: each move that lost the result, as `{frame, side,
 * played, best, good, moves, target, lost}`: the frame of the position
 * before it (its step number), the mover, the played move's and the best
 * move's scores (`{token, score, exact, holes, dir}`), the moves that keep
 * the result (`good`), every legal move (`moves`), the best move's result
 * (`target`) and the played move's (`lost`), as standings.
 */
export function exercises(an, sides) {
  const out = [];
  if (!an || !an.steps) return out;
  const even = an.thresholds && Number.isInteger(an.thresholds.even) ? an.thresholds.even : EVEN;
  for (let k = 1; k < an.steps.length; k++) {
    const m = an.steps[k] && an.steps[k].played;
    const before = an.steps[k - 1];
    if (!m || !sides.includes(m.side) || !before || !before.moves || !before.moves.length) continue;
    const best = before.moves[0];
    const played = before.moves.find((x) => x.token === m.token);
    if (!played) continue;
    const target = standing(best.score, best.exact, even);
    const lost = standing(played.score, played.exact, even);
    if (lost >= target) continue;
    const good = before.moves.filter((x) => standing(x.score, x.exact, even) >= target);
    out.push({
      frame: k - 1, side: m.side, played, best, good, moves: before.moves, target, lost,
    });
  }
  return out;
}
