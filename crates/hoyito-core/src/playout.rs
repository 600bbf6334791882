//! Uniformly random playouts under the full rules, for benchmarks, MCTS and
//! statistics. The randomness is a caller-supplied function, so this crate
//! stays free of a random-number dependency.

use crate::position::{Position, RepetitionTracker};

/// Plays a uniformly random legal move in place (by rejection: a random
/// candidate is tried, and an endless one is removed before the next draw).
/// `below(k)` must return a uniform integer in `0..k`. Returns `false`, and
/// leaves the position unchanged, if the player to move has no legal move.
#[inline]
pub fn play_random_move(pos: &mut Position, below: &mut impl FnMut(usize) -> usize) -> bool {
    if pos.opening_pending() {
        let legal = pos.legal_moves();
        return !legal.is_empty() && pos.play_unchecked(legal[below(legal.len())]).is_ok();
    }
    let mut cands = pos.candidates();
    while !cands.is_empty() {
        let i = below(cands.len());
        if pos.play_unchecked(cands[i]).is_ok() {
            return true;
        }
        cands.swap_remove(i);
    }
    false
}

/// Plays a uniformly random game from `start` to its end under the full
/// rules (passes, endless sowings, the last four, repetition) and returns
/// the final position and the number of moves played. `tracker` is reused
/// between games to avoid allocation.
///
/// # Examples
///
/// ```
/// use hoyito_core::{playout, Position, RepetitionTracker, Rules, Variant};
/// let mut seed = 7u64;
/// let mut below = |k: usize| {
///     seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
///     ((seed >> 33) % k as u64) as usize
/// };
/// let (end, plies) = playout::random_game(Position::new(Rules::standard(Variant::II)),
///     &mut below, &mut RepetitionTracker::new());
/// assert!(end.is_over() && plies > 0);
/// assert_eq!(end.captured().south as u32 + end.captured().north as u32, 48);
/// ```
pub fn random_game(
    start: Position,
    below: &mut impl FnMut(usize) -> usize,
    tracker: &mut RepetitionTracker,
) -> (Position, u64) {
    let mut pos = start;
    let mut plies = 0;
    tracker.clear();
    while !pos.is_over() {
        let before = pos;
        if !play_random_move(&mut pos, below) {
            pos.pass();
            continue;
        }
        // The position before the move counts once its mover is known to have a legal move.
        if tracker.push(&before) >= 3 {
            pos = before;
            pos.end_by_repetition();
            break;
        }
        plies += 1;
    }
    (pos, plies)
}
