//! Proving a relay sowing endless (RULES.md §2): the residue invariant of
//! lifting times, and exact cycle detection in constant memory.

use super::words::byte;

/// Laps sown before endless-sowing detection starts. Detection (see
/// [`CycleCheck`]) is exact from any starting lap; waiting
/// keeps ordinary moves, almost all shorter than this, free of its cost.
pub(super) const CYCLE_CHECK_FROM_LAP: u32 = 32;

/// Whether a relay sowing of Hoyito II or III is sure never to end, read
/// from one lap start: `hand` seeds just lifted from the origin, on a ring
/// of `len` open holes whose seeds after the origin, in sowing order,
/// `ahead` gives; the origin is not skipped.
///
/// Sowing then moves one hole per seed without a break, across laps too,
/// so every hole gets a seed once every `len` seeds, and a hole's seeds
/// count the turns since it was last lifted (an earlier time for its
/// seeds at the start). When hole `x`, last lifted at time `t_x` (counted
/// in seeds sown), is lifted at time `t`, its hand is `h = (t − t_x)/len`,
/// and that lap ends at `t + h ≡ t_x (mod len + 1)`, as `len ≡ −1`.
/// So the residues modulo `len + 1` of the holes' last lifting times and
/// of the end of the current lap are a multiset that each lift only
/// permutes, and a lap's last seed makes `h ≡ t_x − t (mod len + 1)` in
/// its hole. A move ends only on a last seed making 1 or 4 (Hoyito II and
/// III sow nothing away in between), so if no two residues differ by 1 or
/// 4 the sowing goes round forever. Checked once: the residues are the
/// same at every lap. Endless sowings whose residues allow an end that
/// never comes are left to [`CycleCheck`], as are rings of fewer than 4
/// holes (where 4 ≡ 0 or 1).
#[cold]
pub(super) fn relay_never_ends(hand: u8, ahead: impl Iterator<Item = u8>, len: usize) -> bool {
    if len < 4 {
        return false;
    }
    let m = len + 1;
    // One bit per residue present: the origin was lifted at time 0, the
    // lap ends at time `hand`, and the hole `d` after the origin, reached
    // at time `d` with `c` seeds, was last lifted at `d − (c + 1)·len`,
    // that is `d + c + 1`.
    let mut set = 1u32 | 1 << (hand as usize % m);
    for (d, c) in (1..len).zip(ahead) {
        set |= 1 << ((d + c as usize + 1) % m);
    }
    let full = (1u32 << m) - 1;
    let rotate = |k: usize| ((set << k) | (set >> (m - k))) & full;
    set & (rotate(1) | rotate(4)) == 0
}

/// [`relay_never_ends`] of the lap start `hand` seeds lifted from `pos` on
/// the board words `w` of `len` holes, none closed.
pub(super) fn words_never_end<const CCW: bool>(w: &[u64; 3], pos: usize, hand: u8, len: usize) -> bool {
    let after = |d| {
        if CCW {
            (pos + d) % len
        } else {
            (pos + len - d) % len
        }
    };
    relay_never_ends(hand, (1..len).map(|d| byte(w, after(d))), len)
}

/// A lap-start state: the board words, and the lap origin and the seeds in
/// hand packed into one word.
pub(super) type LapState = [u64; 4];

/// Exact endless-sowing detection in constant memory, on the lap-start state
/// (board, lap origin, seeds in hand), with two comparisons per lap:
///
/// - with the *anchor*, the state where detection started. Relay sowing
///   hardly ever merges two lap sequences: a lap of fewer seeds than holes
///   has only one possible predecessor (back to the nearest empty hole). So
///   an endless sowing is in practice a pure cycle through its own laps
///   (every one checked so far was), and this finds it after exactly one
///   turn, the least any method can take;
/// - Brent's algorithm, which finds any cycle, with a tail or not, within
///   three to five turns.
pub(super) struct CycleCheck {
    anchor: LapState,
    brent: Brent,
}

impl CycleCheck {
    /// Starts detection at the lap whose start state this is.
    pub(super) fn new(board: &[u64; 3], pos: usize, hand: u8) -> Self {
        let anchor = lap_state(board, pos, hand);
        CycleCheck {
            anchor,
            brent: Brent {
                saved: anchor,
                power: 1,
                lam: 0,
            },
        }
    }

    /// Records the state at the start of a later lap; `true` if it was seen
    /// before.
    #[inline(always)]
    pub(super) fn repeats(&mut self, board: &[u64; 3], pos: usize, hand: u8) -> bool {
        let state = lap_state(board, pos, hand);
        same_state(&state, &self.anchor) || self.brent.repeats(&state)
    }
}

/// `a == b`, word by word in registers: the array comparison is compiled
/// to 16-byte loads of a state just stored as 8-byte words, which cannot
/// be forwarded from the stores and stalled every lap.
#[inline(always)]
pub(super) fn same_state(a: &LapState, b: &LapState) -> bool {
    (a[0] ^ b[0]) | (a[1] ^ b[1]) | (a[2] ^ b[2]) | (a[3] ^ b[3]) == 0
}

#[inline(always)]
pub(super) fn lap_state(board: &[u64; 3], pos: usize, hand: u8) -> LapState {
    [board[0], board[1], board[2], (pos as u64) << 8 | hand as u64]
}

/// Brent's cycle detection (see [`CycleCheck`]).
pub(super) struct Brent {
    saved: LapState,
    power: u64,
    lam: u64,
}

impl Brent {
    #[inline(always)]
    pub(super) fn repeats(&mut self, state: &LapState) -> bool {
        if same_state(&self.saved, state) {
            return true;
        }
        self.lam += 1;
        if self.lam >= self.power {
            self.saved = *state;
            self.power = self.power.saturating_mul(2);
            self.lam = 0;
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::words::board_words;
    use crate::position::{Position, Setup};
    use crate::rules::MAX_BOARD;
    use crate::rules::{Rules, Variant};

    /// The endless-sowing check on synthetic state sequences: a tail of
    /// `tail` distinct states, then a cycle of `cycle` distinct states. It
    /// must report a repeat exactly at a state seen before, never earlier;
    /// a pure cycle (no tail) after exactly one turn, and any other within
    /// Brent's bound.
    #[test]
    fn cycle_check_is_exact() {
        let state = |i: u64| -> ([u64; 3], usize, u8) {
            // Distinct for distinct i; spread over the words like boards.
            (
                [i.wrapping_mul(0x0101_0101), i >> 7, i % 5],
                (i % 12) as usize,
                (i % 251) as u8,
            )
        };
        for (tail, cycle) in [
            (0, 1),
            (1, 1),
            (0, 2),
            (3, 7),
            (100, 1000),
            (0, 100_000),
            (70_000, 30_000),
        ] {
            let at = |n: u64| if n < tail { n } else { tail + (n - tail) % cycle };
            let (b, p, h) = state(at(0));
            let mut check = CycleCheck::new(&b, p, h);
            let mut n = 1;
            loop {
                let (b, p, h) = state(at(n));
                if check.repeats(&b, p, h) {
                    break;
                }
                n += 1;
                assert!(
                    n < 2 * tail + 6 * cycle + 8,
                    "tail {tail}, cycle {cycle}: no repeat found by step {n}"
                );
            }
            // A repeat is only reported at a state already seen.
            assert!(
                n >= tail + cycle,
                "tail {tail}, cycle {cycle}: repeat reported at step {n}"
            );
            if tail == 0 {
                assert_eq!(n, cycle, "a pure cycle is found after one turn");
            }
        }
        // No repeat in a long run of distinct states.
        let (b, p, h) = state(0);
        let mut check = CycleCheck::new(&b, p, h);
        for i in 1..200_000 {
            let (b, p, h) = state(i);
            assert!(!check.repeats(&b, p, h), "false repeat at {i}");
        }
    }

    /// The holes of a board in notation order (South's row, then North's).
    fn parse_board(text: &str) -> Vec<u8> {
        text.split(['/', ',']).map(|c| c.parse().unwrap()).collect()
    }

    /// `relay_never_ends` of the first lap of a counter-clockwise move.
    fn never_ends(board: &[u8], origin: usize) -> bool {
        let mut b = [0u8; MAX_BOARD];
        b[..board.len()].copy_from_slice(board);
        let hand = std::mem::take(&mut b[origin]);
        let len = board.len();
        relay_never_ends(hand, (1..len).map(|d| b[(origin + d) % len]), len)
    }

    /// Laps of a counter-clockwise Hoyito II relay (standard rules), sown
    /// seed by seed, or `None` if it has not ended after `cap` laps.
    fn relay_laps(board: &[u8], mut origin: usize, cap: u32) -> Option<u32> {
        let mut b: Vec<u32> = board.iter().map(|&c| c.into()).collect();
        for laps in 1..=cap {
            let mut hand = std::mem::take(&mut b[origin]);
            while hand > 0 {
                origin = (origin + 1) % b.len();
                b[origin] += 1;
                hand -= 1;
            }
            if b[origin] == 1 || b[origin] == 4 {
                return Some(laps);
            }
        }
        None
    }

    /// The residue invariant recognises the endless sowings of the examples
    /// at their first lap, and leaves to the cycle check those that could
    /// end by their residues, endless or not.
    #[test]
    fn residues_prove_endless_sowings() {
        // Endless (hoyito-core's tests/examples.rs; North's hole k is n + k − 1).
        for (board, origin) in [
            ("1,0,1,0,2,1/0,2,1,0,1,3", 11),
            ("1,2,1,0,2,14/8,2,1,2,4,3", 11),
            ("1,0,4,6,2,1/13,9,3,7,0,2", 9),
            ("13,2,1,0,1,5/1,0,1,0,2,22", 5),
            // 2×5 with 24 seeds per hole: a cycle of billions of laps.
            ("21,23,24,18,27,19/24,18,12,24,18,12", 5),
        ] {
            assert!(never_ends(&parse_board(board), origin), "{board}");
        }
        // Endless on 2×4, but its residues allow an end: the cycle check's.
        let board = parse_board("1,6,4,6/3,7,3,2");
        assert!(!never_ends(&board, 1));
        assert_eq!(relay_laps(&board, 1, 1_000_000), None);
        // Finite: 3,687 laps (2×5, 24 seeds per hole), 592 laps (2×6).
        let board = parse_board("29,23,24,23,25/15,25,18,25,33");
        assert!(!never_ends(&board, 4));
        assert_eq!(relay_laps(&board, 4, 1_000_000), Some(3687));
        let board = parse_board("1,10,1,2,1,0/4,0,2,9,0,2");
        assert!(!never_ends(&board, 1));
        assert_eq!(relay_laps(&board, 1, 1_000_000), Some(592));
    }

    /// Whatever the board, a relay the residues call endless goes on, and
    /// most others end. Random boards of every size, 2 to 20 seeds per hole,
    /// rarely have endless residues, so boards are also built to have them:
    /// residues drawn from a set without two differing by 1 or 4, each
    /// hole's seeds chosen to give its residue. None of those ends within
    /// 20,000 laps; most random boards end within a few hundred.
    #[test]
    fn residues_never_call_a_finite_sowing_endless() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::SmallRng::seed_from_u64(7);
        let (mut built, mut ended) = (0, 0);
        for sample in 0..40_000 {
            let len = 2 * rng.random_range(4..=12);
            let m = len + 1;
            let mut board = vec![0u8; len];
            let origin = rng.random_range(0..len);
            if sample % 2 == 0 {
                let total = len * rng.random_range(2..=240 / len);
                for _ in 0..total {
                    board[rng.random_range(0..len)] += 1;
                }
                if board[origin] == 0 {
                    continue;
                }
                if !never_ends(&board, origin) {
                    ended += u32::from(relay_laps(&board, origin, 1_000).is_some());
                    continue;
                }
            } else {
                // Residues without a difference of 1 or 4, 0 among them.
                let mut set = vec![0];
                for r in 1..m {
                    let far = |a: usize| {
                        set.iter()
                            .all(|&b| ![1, 4, m - 1, m - 4].contains(&((a + m - b) % m)))
                    };
                    if rng.random_bool(0.5) && far(r) {
                        set.push(r);
                    }
                }
                // Hole x, d holes after the origin, gets residue d + c + 1;
                // the hand, its own residue; extra turns of 2n + 1 seeds.
                for d in 1..len {
                    let r = set[rng.random_range(0..set.len())];
                    board[(origin + d) % len] = ((r + 2 * m - d - 1) % m + m * rng.random_range(0..3)) as u8;
                }
                let hand = set[rng.random_range(0..set.len())];
                board[origin] = (hand + m * rng.random_range(usize::from(hand == 0)..3)) as u8;
                assert!(never_ends(&board, origin), "{board:?} from {origin}");
                built += 1;
            }
            assert_eq!(
                relay_laps(&board, origin, 5_000),
                None,
                "{board:?} from {origin} (sample {sample})"
            );
        }
        assert!(built >= 15_000, "only {built} boards built");
        assert!(ended >= 18_000, "only {ended} of the random sowings ended");
    }

    /// With closed holes the residues are those of the ring of open holes,
    /// in sowing order either way round.
    #[test]
    fn residues_with_closed_holes_are_those_of_the_open_ring() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::SmallRng::seed_from_u64(8);
        let rules = Rules::standard(Variant::II);
        let (mut proved, mut not) = (0, 0);
        for _ in 0..300_000 {
            let mut p = Position::from_setup(rules, &Setup::start(&rules)).unwrap();
            let len = rules.board_len();
            p.closed = 0;
            // Up to 9 closed: small rings often have endless residues.
            for _ in 0..rng.random_range(0..=9) {
                p.closed |= 1 << rng.random_range(0..len);
            }
            let open: Vec<usize> = (0..len).filter(|&i| p.closed >> i & 1 == 0).collect();
            let Some(&pos) = open.get(rng.random_range(0..open.len().max(1))) else {
                continue;
            };
            for i in 0..len {
                p.board[i] = if p.closed >> i & 1 == 0 {
                    rng.random_range(0..12)
                } else {
                    0
                };
            }
            let hand = rng.random_range(1..30);
            p.board[pos] = 0;
            // The open ring, counter-clockwise, the hand in its origin.
            let mut ring: Vec<u8> = open.iter().map(|&i| p.board[i]).collect();
            let k = open.iter().position(|&i| i == pos).unwrap();
            ring[k] = hand;
            let ccw = never_ends(&ring, k);
            ring.reverse();
            let cw = never_ends(&ring, ring.len() - 1 - k);
            assert_eq!(p.relay_never_ends::<true, true>(pos, hand), ccw);
            assert_eq!(p.relay_never_ends::<false, true>(pos, hand), cw);
            if p.closed == 0 {
                assert_eq!(p.relay_never_ends::<true, false>(pos, hand), ccw);
                assert_eq!(p.relay_never_ends::<false, false>(pos, hand), cw);
                let w = board_words(&p.board);
                assert_eq!(words_never_end::<true>(&w, pos, hand, len), ccw);
                assert_eq!(words_never_end::<false>(&w, pos, hand, len), cw);
            }
            if ccw {
                proved += 1;
            } else {
                not += 1;
            }
        }
        assert!(proved >= 400 && not >= 100_000, "{proved} proved, {not} not");
    }
}
