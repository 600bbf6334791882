//! Uniformly random playouts under the full rules, for benchmarks, MCTS and
//! statistics. The randomness is a caller-supplied function, so this crate
//! stays free of a random-number dependency.

use crate::moves::Move;
use crate::position::{Position, RepetitionTracker};

/// `SELECT[b][k]`: the position of the `k`-th set bit of byte `b` (8 if none).
const SELECT: [[u8; 8]; 256] = {
    let mut t = [[8u8; 8]; 256];
    let mut b = 0;
    while b < 256 {
        let mut k = 0;
        let mut bit = 0;
        while bit < 8 {
            if b >> bit & 1 == 1 {
                t[b][k] = bit as u8;
                k += 1;
            }
            bit += 1;
        }
        b += 1;
    }
    t
};

/// The position of the `k`-th set bit (from 0) of a mask of at most 16
/// bits, without a loop (the draw is unpredictable by design).
#[inline(always)]
fn select_bit(mask: u32, k: usize) -> usize {
    let low = (mask & 0xFF).count_ones() as usize;
    let high = (k >= low) as usize;
    let byte = (mask >> (8 * high)) as usize & 0xFF;
    8 * high + SELECT[byte][k - low * high] as usize
}

/// A uniform integer in `0..k` from a source of uniform 32-bit words
/// (Lemire's multiply-shift with exact rejection, which is almost never
/// taken, so the draw has no unpredictable branch). `k` must be in
/// `1..=u32::MAX`.
///
/// ```
/// use hoyito_core::playout::uniform_below;
/// // The top of the 32-bit range maps to the top value.
/// assert_eq!(uniform_below(6, || u32::MAX), 5);
/// // 2^32 mod 6 = 4: the words 0..4 would bias the draw and are replaced.
/// let mut words = [0u32, 1 << 31 | 1].into_iter();
/// assert_eq!(uniform_below(6, || words.next().unwrap()), 3);
/// ```
#[inline]
pub fn uniform_below(k: usize, mut next_u32: impl FnMut() -> u32) -> usize {
    debug_assert!(k >= 1 && k <= u32::MAX as usize);
    let k = k as u32;
    let mut m = u64::from(next_u32()) * u64::from(k);
    if (m as u32) < k {
        let threshold = k.wrapping_neg() % k;
        while (m as u32) < threshold {
            m = u64::from(next_u32()) * u64::from(k);
        }
    }
    (m >> 32) as usize
}

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
    if pos.is_over() {
        return false;
    }
    if let (dir, None) = pos.directions() {
        // One direction: draw a hole straight from the mask of non-empty
        // holes (the same uniform choice as drawing from `candidates()`).
        let (mut mask, start) = pos.mover_mask();
        while mask != 0 {
            let k = select_bit(mask, below(mask.count_ones() as usize));
            if pos.play_unchecked(Move::on_board(start + k, dir)).is_ok() {
                return true;
            }
            mask &= !(1 << k);
        }
        return false;
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
        // The position counts once its mover is known to have a legal move:
        // it is counted first and taken back if the mover must pass.
        if tracker.push(&pos) >= 3 {
            if pos.has_legal_move() {
                pos.end_by_repetition();
                break;
            }
            tracker.pop(&pos);
            pos.pass();
            continue;
        }
        if !play_random_move(&mut pos, below) {
            // A failed draw leaves the position unchanged.
            tracker.pop(&pos);
            pos.pass();
            continue;
        }
        plies += 1;
    }
    (pos, plies)
}

#[cfg(test)]
mod tests {
    use super::select_bit;

    #[test]
    fn uniform_below_rejects_the_biased_words_and_is_uniform() {
        // 2^32 mod 3 = 1: the word 0 is the one rejected word for k = 3.
        let mut words = [0u32, u32::MAX].into_iter();
        assert_eq!(super::uniform_below(3, || words.next().unwrap()), 2);
        assert!(words.next().is_none(), "the rejected word was replaced");
        // k = 4 divides 2^32: nothing is rejected, the top bits decide.
        assert_eq!(super::uniform_below(4, || 0), 0);
        assert_eq!(super::uniform_below(4, || 0xC000_0000), 3);
        // Counts from a fixed pseudo-random stream stay within 5 sigma.
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 32) as u32
        };
        let n = 1u64 << 18;
        for k in 1..=24usize {
            let mut counts = vec![0u64; k];
            for _ in 0..n {
                counts[super::uniform_below(k, &mut next)] += 1;
            }
            let mean = n as f64 / k as f64;
            let sigma = (mean * (1.0 - 1.0 / k as f64)).sqrt();
            for &c in &counts {
                assert!((c as f64 - mean).abs() <= 5.0 * sigma + 1.0, "k {k}: {counts:?}");
            }
        }
    }

    /// `random_game` (tracker, unsettled positions, passes) ends every game
    /// exactly as `Game` does when fed the same moves: same moves, same end.
    #[test]
    fn random_game_agrees_with_game_on_every_variant_and_option() {
        use crate::{DirectionRule, Game, Repetition, Rules, RulesSpec, Variant};
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 32) as u32
        };
        let mut tracker = super::RepetitionTracker::new();
        for i in 0..600u32 {
            let rules = Rules::try_from(RulesSpec {
                variant: [Variant::I, Variant::II, Variant::III][i as usize % 3],
                holes: 4 + (i / 3 % 3) as u8,
                seeds: [4, 2, 3, 5][i as usize / 9 % 4],
                skip_origin: i % 7 == 0,
                direction: [
                    DirectionRule::Fixed,
                    DirectionRule::PerMove,
                    DirectionRule::PerPlayer,
                ][i as usize / 36 % 3],
                two_hole_opening: i % 5 == 0,
                repetition: if i % 11 == 0 {
                    Repetition::OwnRow
                } else {
                    Repetition::Even
                },
                ..Default::default()
            })
            .unwrap();
            // Record the draws of one playout, then replay them through Game.
            let mut draws = Vec::new();
            let (end, plies) = super::random_game(
                crate::Position::new(rules),
                &mut |k| {
                    let d = super::uniform_below(k, &mut next);
                    draws.push(d);
                    d
                },
                &mut tracker,
            );
            let mut game = Game::new(rules);
            let mut draws = draws.into_iter();
            let mut moves = 0;
            while !game.is_over() {
                // Draw on an unsettled copy as random_game does, then find the move played.
                let before = *game.position();
                let mut after = before;
                assert!(super::play_random_move(&mut after, &mut |_| draws
                    .next()
                    .unwrap()));
                let m = before
                    .legal_moves()
                    .into_iter()
                    .find(|&m| {
                        let mut p = before;
                        p.play_unchecked(m).is_ok() && p == after
                    })
                    .unwrap();
                game.play(m).unwrap();
                moves += 1;
            }
            assert_eq!(draws.next(), None, "game {i}: {rules:?}");
            assert_eq!(moves, plies, "game {i}: {rules:?}");
            assert_eq!(game.position().captured(), end.captured(), "game {i}: {rules:?}");
            assert_eq!(game.position().outcome(), end.outcome(), "game {i}: {rules:?}");
        }
    }

    #[test]
    fn select_bit_finds_every_set_bit_in_order() {
        for mask in 1u32..1 << 16 {
            let bits: Vec<usize> = (0..16).filter(|&b| mask >> b & 1 == 1).collect();
            for (k, &b) in bits.iter().enumerate() {
                assert_eq!(select_bit(mask, k), b, "mask {mask:#b}, k {k}");
            }
        }
    }
}
