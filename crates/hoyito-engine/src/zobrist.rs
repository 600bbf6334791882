//! Incremental transposition-table keys.
//!
//! The board part of a key is additive: `Σ seeds[i] · R[i]` (wrapping, 64
//! bits) over the holes, with a random odd 64-bit `R[i]` per hole index. A
//! sowing changes it event by event, as [`Position::play_observed`] reports
//! them to a [`SowObserver`]: a lap lifting `s` seeds from hole `i` subtracts
//! `s · R[i]`, each seed dropped into hole `j` adds `R[j]`, and a capture of
//! `s` seeds from hole `i` subtracts `s · R[i]`. So a child's board hash is
//! its parent's plus the move's events, in O(1) per event and without looking
//! at the board. Two different boards collide only if `Σ d[i] · R[i] ≡ 0
//! (mod 2⁶⁴)` for their (small) differences `d`, which random `R` make as
//! unlikely as for a Zobrist key.
//!
//! The rest of the state is a handful of fields that change in O(1) and are
//! read from the position: side to move, closed holes (constant within a
//! game), opening pending, direction choices. [`key`] mixes them with the
//! board hash into the table key. Ended positions are never keyed (the
//! search scores them exactly), so the board hash of a position whose game
//! just ended — the last four clears the board without events — is not
//! maintained.

use hoyito_core::{Direction, Move, PlayError, Played, Position, SowObserver};

/// Holes of the largest board (2×12).
const HOLES: usize = 24;

/// The per-hole multipliers, from a fixed SplitMix64 stream (odd numbers).
const R: [u64; HOLES] = {
    let mut r = [0u64; HOLES];
    let mut x: u64 = 0x6A09_E667_F3BC_C909;
    let mut i = 0;
    while i < HOLES {
        x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = x;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        r[i] = z | 1;
        i += 1;
    }
    r
};

/// `PREFIX[len][k]`: `Σ R[j mod len]` over `j < k`, for `k ≤ 2·len` (the
/// board of `len` holes laid out twice), so that the hash of any run of
/// holes round the board is one difference.
const PREFIX: [[u64; 2 * HOLES + 1]; HOLES + 1] = {
    let mut t = [[0u64; 2 * HOLES + 1]; HOLES + 1];
    let mut len = 1;
    while len <= HOLES {
        let mut k = 1;
        while k <= 2 * len {
            t[len][k] = t[len][k - 1].wrapping_add(R[(k - 1) % len]);
            k += 1;
        }
        len += 1;
    }
    t
};

/// The board hash of `pos` computed from scratch: `Σ seeds[i] · R[i]`.
#[inline]
pub fn board_hash(pos: &Position) -> u64 {
    pos.board()
        .iter()
        .zip(R.iter())
        .fold(0u64, |h, (&s, &r)| h.wrapping_add(r.wrapping_mul(s as u64)))
}

/// Accumulates a board hash from the events of a sowing.
struct HashObserver {
    h: u64,
}

impl SowObserver for HashObserver {
    // Laps sown arithmetically come as one `lap_sown` event.
    const TRACES: bool = false;
    #[inline(always)]
    fn lap_sown(&mut self, hole: usize, seeds: u8, ccw: bool, len: usize) {
        let p = &PREFIX[len];
        let (full, r) = (seeds as usize / len, seeds as usize % len);
        // The `r` holes after `hole` in the sowing direction.
        let part = if ccw {
            p[hole + r + 1].wrapping_sub(p[hole + 1])
        } else {
            p[hole + len].wrapping_sub(p[hole + len - r])
        };
        self.h = self
            .h
            .wrapping_add(p[len].wrapping_mul(full as u64))
            .wrapping_add(part);
    }
    #[inline(always)]
    fn lap(&mut self, hole: usize, seeds: u8) {
        self.h = self.h.wrapping_sub(R[hole].wrapping_mul(seeds as u64));
    }
    #[inline(always)]
    fn seed(&mut self, hole: usize) {
        self.h = self.h.wrapping_add(R[hole]);
    }
    #[inline(always)]
    fn capture(&mut self, hole: usize, seeds: u8) {
        self.h = self.h.wrapping_sub(R[hole].wrapping_mul(seeds as u64));
    }
}

/// Plays `m` on `pos` (as [`Position::play`]: checked, passes settled) and
/// returns what it did and the new board hash, updated from the sowing's
/// events starting from `h`, the board hash of `pos` before the move.
///
/// # Errors
/// As [`Position::play`] (an endless sowing among them); `pos` is then unchanged.
#[inline]
pub fn play_hashed(pos: &mut Position, h: u64, m: Move) -> Result<(Played, u64), PlayError> {
    let mut obs = HashObserver { h };
    let played = pos.play_observed(m, &mut obs)?;
    Ok((played, obs.h))
}

/// [`play_hashed`] on the search's path, [`Position::play_unchecked`]:
/// no legality check beyond endlessness and passes settled only cheaply.
///
/// # Errors
/// [`PlayError::Endless`]; `pos` is then unchanged.
#[inline]
pub fn play_hashed_unchecked(pos: &mut Position, h: u64, m: Move) -> Result<(Played, u64), PlayError> {
    let mut obs = HashObserver { h };
    let played = pos.play_unchecked_observed(m, &mut obs)?;
    Ok((played, obs.h))
}

/// The table key of `pos`, whose board hash is `h` (as [`board_hash`]).
#[inline]
pub fn key(pos: &Position, h: u64) -> u64 {
    let dir = |d: Option<Direction>| u64::from(Direction::choice_code(d));
    let chosen = pos.chosen_directions();
    let state = pos.closed_mask() as u64
        | (pos.to_move().index() as u64) << 24
        | (pos.opening_pending() as u64) << 25
        | dir(chosen.south) << 26
        | dir(chosen.north) << 28;
    let mut x = h ^ state.wrapping_mul(0xD6E8_FEB8_6659_FD93);
    x ^= x >> 32;
    x = x.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    x ^ (x >> 29)
}

#[cfg(test)]
mod tests {
    use hoyito_core::{Position, Rules, RulesSpec, Variant};
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    /// The incremental board hash, updated from each sowing's events, equals the
    /// hash computed from scratch after every move of random games under every
    /// variant and option, with closed holes, and so does the table key; the
    /// games cover passes, extra turns, two-hole openings and clockwise moves.
    #[test]
    fn incremental_hash_equals_scratch_hash() {
        use hoyito_core::{CaptureSide, DirectionRule, Setup};

        use super::{board_hash, key, play_hashed, play_hashed_unchecked};

        let mut rng = SmallRng::seed_from_u64(0x4A5C);
        let mut unchecked = 0;
        let (mut moves, mut passes, mut extra, mut pairs, mut cw, mut closed_games, mut endless) =
            (0, 0, 0, 0, 0, 0, 0);
        for variant in Variant::ALL {
            for holes in [4u8, 6, 9, 12] {
                for direction in [
                    DirectionRule::Fixed,
                    DirectionRule::PerPlayer,
                    DirectionRule::PerMove,
                ] {
                    for (two_hole_opening, skip_origin, capture_side) in [
                        (false, false, CaptureSide::Any),
                        (true, true, CaptureSide::Any),
                        (true, false, CaptureSide::Opponent),
                        (false, true, CaptureSide::Opponent),
                    ] {
                        let r = Rules::try_from(RulesSpec {
                            variant,
                            holes,
                            seeds: rng.random_range(2..=5),
                            skip_origin,
                            direction,
                            two_hole_opening,
                            capture_side,
                            ..RulesSpec::default()
                        })
                        .unwrap();
                        for g in 0..3 {
                            let mut setup = Setup::start(&r);
                            if g == 2 {
                                // Close some holes of each row, as in later rounds of a match.
                                let n = holes as usize;
                                for row in [0, n] {
                                    for i in 0..rng.random_range(1..n) {
                                        setup.board[row + n - 1 - i] = 0;
                                        setup.closed.push(row + n - 1 - i);
                                    }
                                }
                                closed_games += 1;
                            }
                            let mut pos = Position::from_setup(r, &setup).unwrap();
                            let mut h = board_hash(&pos);
                            for _ in 0..400 {
                                if pos.is_over() {
                                    break;
                                }
                                // Candidates include endless sowings, which must leave everything unchanged.
                                let cands = pos.candidates();
                                let legal = pos.legal_moves();
                                let m = if rng.random_bool(0.2) && !pos.opening_pending() {
                                    cands[rng.random_range(0..cands.len())]
                                } else {
                                    legal[rng.random_range(0..legal.len())]
                                };
                                // The search's path (word-wise laps reported
                                // as one event each) gives the same hash.
                                let mut q = pos;
                                if let Ok((_, hq)) = play_hashed_unchecked(&mut q, h, m) {
                                    if !q.is_over() {
                                        assert_eq!(hq, board_hash(&q), "unchecked, {r:?} after {m:?}");
                                        unchecked += 1;
                                    }
                                }
                                let before = pos;
                                match play_hashed(&mut pos, h, m) {
                                    Ok((played, h2)) => {
                                        h = h2;
                                        moves += 1;
                                        extra += played.extra_turn as u32;
                                        pairs += m.is_pair() as u32;
                                        cw += (m.direction() == hoyito_core::Direction::Cw) as u32;
                                        let next = if played.extra_turn {
                                            before.to_move()
                                        } else {
                                            before.to_move().other()
                                        };
                                        passes += (!pos.is_over() && pos.to_move() != next) as u32;
                                    }
                                    Err(_) => {
                                        assert_eq!(pos, before, "a failed move leaves the position");
                                        endless += 1;
                                    }
                                }
                                if !pos.is_over() {
                                    assert_eq!(
                                        h,
                                        board_hash(&pos),
                                        "{r:?} after {m:?}: {}",
                                        pos.to_notation()
                                    );
                                    assert_eq!(key(&pos, h), key(&pos, board_hash(&pos)));
                                }
                            }
                        }
                    }
                }
            }
        }
        assert!(moves > 10_000, "{moves} moves");
        assert!(unchecked > 10_000, "{unchecked} unchecked moves");
        for (what, n) in [
            ("passes", passes),
            ("extra turns", extra),
            ("two-hole openings", pairs),
            ("clockwise moves", cw),
            ("games with closed holes", closed_games),
            ("endless sowings", endless),
        ] {
            assert!(n > 10, "only {n} {what}");
        }
    }

    /// Different positions get different keys: the side to move, the opening
    /// flag and direction choices are part of the key, not only the board.
    #[test]
    fn keys_separate_state_beyond_the_board() {
        use super::{board_hash, key};
        let r = Rules::try_from(RulesSpec {
            variant: Variant::II,
            holes: 6,
            direction: hoyito_core::DirectionRule::PerPlayer,
            two_hole_opening: true,
            ..RulesSpec::default()
        })
        .unwrap();
        let p = Position::new(r);
        let mut q = p;
        q.pass();
        assert_eq!(board_hash(&p), board_hash(&q));
        assert_ne!(p.to_move(), q.to_move());
        assert_ne!(key(&p, board_hash(&p)), key(&q, board_hash(&q)));
        let a =
            Position::from_notation(Rules::standard(Variant::II), "4,4,4,4,4,4/4,4,4,4,4,4 s 0-0").unwrap();
        let b =
            Position::from_notation(Rules::standard(Variant::II), "5,3,4,4,4,4/4,4,4,4,4,4 s 0-0").unwrap();
        assert_ne!(board_hash(&a), board_hash(&b));
    }
}
