//! The sowing loop shared by every variant: laps, relays, casas,
//! captures, chains, the last four, and sharing the seeds at the end.

use super::endless::*;
use super::words::*;
use super::*;

/// How a lap ended.
pub(super) enum Lap {
    /// The last seed fell in an occupied hole: its seeds (the second field)
    /// were lifted from it (the first) for a new lap.
    Relay(usize, u8),
    /// The move ended (empty hole, capture, or end of the game).
    End,
}

/// Events of a sowing, for animation, tracing and incremental hashing.
/// Every method has an empty default; the unit type `()` observes nothing
/// and costs nothing.
///
/// An observer with `TRACES = true` gets one [`seed`](Self::seed) event per
/// seed. With `TRACES = false`, laps on a board without closed holes or
/// skipping may be sown arithmetically, and such a lap is reported by one
/// [`lap_sown`](Self::lap_sown) event instead of its seed events (other
/// laps still report their seeds).
pub trait SowObserver {
    /// Whether the observer wants per-seed events. When `false` (the unit
    /// observer), laps may be sown arithmetically.
    const TRACES: bool = true;
    /// Whether the observer wants the events at all when `TRACES` is
    /// `false`; the unit observer does not, so no event costs it anything.
    const EVENTS: bool = true;
    /// A lap starts: `seeds` were lifted from `hole` (the move's first lap included).
    #[inline]
    fn lap(&mut self, _hole: usize, _seeds: u8) {}
    /// One seed was dropped into `hole`.
    #[inline]
    fn seed(&mut self, _hole: usize) {}
    /// A lap of `seeds` seeds lifted from `hole` was sown arithmetically
    /// (only when `TRACES` is `false`) on a board of `len` holes, none closed
    /// and none skipped: every hole got `seeds / len`, and the next
    /// `seeds % len` holes from `hole` in the sowing direction (`ccw`:
    /// increasing indices) one more. Captures made during the lap follow as
    /// [`capture`](Self::capture) events.
    #[inline]
    fn lap_sown(&mut self, _hole: usize, _seeds: u8, _ccw: bool, _len: usize) {}
    /// The mover captured `seeds` from `hole`.
    #[inline]
    fn capture(&mut self, _hole: usize, _seeds: u8) {}
}

impl SowObserver for () {
    const TRACES: bool = false;
    const EVENTS: bool = false;
}

/// What a played move did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Played {
    /// Laps sown (both sowings of a two-hole opening together; at most
    /// `u32::MAX`, where the count stops).
    pub laps: u32,
    /// Seeds the mover captured, the last-four award included.
    pub captured: u8,
    /// The mover moves again (Hoyito II/III capture).
    pub extra_turn: bool,
}

impl Position {
    /// Applies a checked move: one or two sowings, extra turn, cheap passes.
    #[inline]
    pub(super) fn apply<O: SowObserver>(&mut self, m: Move, obs: &mut O) -> Result<Played, PlayError> {
        let mover = self.to_move;
        let before = self.captured[mover];
        let mut laps = self.sow_move(m.hole(), m.direction(), obs)?;
        let mut captured_any = self.captured[mover] != before;
        if let Some(b) = m.second() {
            if !self.is_over() {
                if self.board[b] == 0 {
                    return Err(OpeningError::SecondHoleEmpty.into());
                }
                let before2 = self.captured[mover];
                laps = laps.saturating_add(self.sow_move(b, m.direction(), obs)?);
                captured_any |= self.captured[mover] != before2;
            }
        }
        self.opening = false;
        if self.rules.direction() == DirectionRule::PerPlayer {
            self.chosen[mover] = Some(m.direction());
        }
        let extra_turn = captured_any && self.rules.variant().extra_turn() && !self.is_over();
        if !self.is_over() {
            let next = if extra_turn { mover } else { mover.other() };
            self.to_move = if self.has_seeds(next) { next } else { next.other() };
        }
        Ok(Played {
            laps,
            captured: self.captured[mover] - before,
            extra_turn,
        })
    }

    /// Whether the mover may capture a casa in hole `i` (option `capture_side`).
    #[inline]
    pub(super) fn capturable(&self, i: usize) -> bool {
        match self.rules.capture_side() {
            CaptureSide::Any => true,
            CaptureSide::Opponent => self.owner(i) != self.to_move,
        }
    }

    /// The mover captures hole `i`. Returns `true` if the game ended
    /// (last four or no seed left).
    #[inline]
    pub(super) fn capture_hole<O: SowObserver>(&mut self, i: usize, obs: &mut O) -> bool {
        let s = self.board[i];
        self.board[i] = 0;
        self.captured[self.to_move] += s;
        self.in_play -= s;
        obs.capture(i, s);
        match self.in_play {
            0 => {
                self.finish(EndReason::Exhausted);
                true
            }
            4 => {
                let to = match self.last_four {
                    LastFour::Captor => self.to_move,
                    LastFour::To(side) => side,
                };
                self.captured[to] += 4;
                self.in_play = 0;
                self.board = [0; MAX_BOARD];
                self.finish(EndReason::LastFour);
                true
            }
            _ => false,
        }
    }

    /// The next open hole after `i` (counter-clockwise if `CCW`), skipping
    /// closed holes and `skip` (the lap's origin under `skip_origin`, or
    /// `usize::MAX`) when `GENERAL`; on a board without closed holes or
    /// skipping, the plain neighbour.
    #[inline(always)]
    pub(super) fn step<const CCW: bool, const GENERAL: bool>(&self, mut i: usize, skip: usize) -> usize {
        let len = self.rules.board_len();
        loop {
            i = if CCW {
                if i + 1 == len {
                    0
                } else {
                    i + 1
                }
            } else if i == 0 {
                len - 1
            } else {
                i - 1
            };
            if !GENERAL || (self.closed >> i & 1 == 0 && i != skip) {
                return i;
            }
        }
    }

    /// The one sowing loop of every variant (RULES.md §2–§3): relay laps,
    /// casas, captures, chains, the last four, and exact endless-sowing
    /// detection. Returns the number of laps. On `Err` the position is
    /// garbage: callers sow on a copy.
    #[inline]
    pub(super) fn sow_move<O: SowObserver>(
        &mut self,
        start: usize,
        dir: Direction,
        obs: &mut O,
    ) -> Result<u32, PlayError> {
        // skip_origin only when another open hole exists, so a lap always progresses.
        let skip_origin =
            self.rules.skip_origin() && (self.closed.count_ones() as usize) + 1 < self.rules.board_len();
        let general = skip_origin || self.closed != 0;
        // Hoyito I's en-passant captures are found eight holes at a time when
        // every casa is capturable; otherwise seed by seed.
        let words = !general
            && !O::TRACES
            && (self.rules.variant() != Variant::I || self.rules.capture_side() == CaptureSide::Any);
        match (dir, general) {
            (Direction::Ccw, false) if words => self.sow_words::<O, true>(start, obs),
            (Direction::Cw, false) if words => self.sow_words::<O, false>(start, obs),
            (Direction::Ccw, false) => self.sow::<O, true, false>(start, false, obs),
            (Direction::Cw, false) => self.sow::<O, false, false>(start, false, obs),
            (Direction::Ccw, true) => self.sow::<O, true, true>(start, skip_origin, obs),
            (Direction::Cw, true) => self.sow::<O, false, true>(start, skip_origin, obs),
        }
    }

    /// Sows the seeds of one lap from `pos`, seed by seed, with Hoyito I's
    /// en-passant captures, and returns the hole of the last seed, or
    /// `None` if a capture ended the move.
    #[inline(always)]
    pub(super) fn sow_lap<O: SowObserver, const CCW: bool, const GENERAL: bool>(
        &mut self,
        mut pos: usize,
        mut hand: u8,
        skip: usize,
        obs: &mut O,
    ) -> Option<usize> {
        let variant_i = self.rules.variant() == Variant::I;
        while hand > 0 {
            pos = self.step::<CCW, GENERAL>(pos, skip);
            let b = self.board[pos] + 1;
            self.board[pos] = b;
            hand -= 1;
            obs.seed(pos);
            if variant_i && b == 4 && self.capturable(pos) {
                // Hoyito I: a casa anywhere is captured at once (en passant);
                // a casa made by the last seed ends the move.
                if self.capture_hole(pos, obs) || hand == 0 {
                    return None;
                }
            }
        }
        Some(pos)
    }

    /// The sowing loop on a board without closed holes or skipping, when
    /// nobody observes single seeds: the board is kept in three registers,
    /// and each lap adds its seeds arithmetically (every hole gets
    /// `hand / 2n`, the next `hand % 2n` holes one more) eight holes at a
    /// time. Captures, which end the move, go back to the general code.
    pub(super) fn sow_words<O: SowObserver, const CCW: bool>(
        &mut self,
        start: usize,
        obs: &mut O,
    ) -> Result<u32, PlayError> {
        let shape = (self.rules.board_len(), self.rules.variant() == Variant::I);
        let mut w = board_words(&self.board);
        let mut pos = start;
        let mut hand = byte(&w, pos);
        clear_byte(&mut w, pos);
        obs.lap(pos, hand);
        for laps in 1..CYCLE_CHECK_FROM_LAP {
            match self.lap_words::<O, CCW>(&mut w, pos, hand, shape, obs) {
                Lap::Relay(p, h) => (pos, hand) = (p, h),
                Lap::End => return Ok(laps),
            }
        }
        self.sow_words_long::<O, CCW>(w, pos, hand, obs)
    }

    /// [`Position::sow_words`] from lap [`CYCLE_CHECK_FROM_LAP`] on, with
    /// endless-sowing detection. Rare, so kept apart: the detection's state
    /// does not weigh on ordinary moves.
    #[cold]
    #[inline(never)]
    pub(super) fn sow_words_long<O: SowObserver, const CCW: bool>(
        &mut self,
        mut w: [u64; 3],
        mut pos: usize,
        mut hand: u8,
        obs: &mut O,
    ) -> Result<u32, PlayError> {
        let shape = (self.rules.board_len(), self.rules.variant() == Variant::I);
        if !shape.1 && words_never_end::<CCW>(&w, pos, hand, shape.0) {
            return Err(PlayError::Endless);
        }
        let mut cycle = CycleCheck::new(&w, pos, hand);
        let mut laps = CYCLE_CHECK_FROM_LAP;
        loop {
            if laps > CYCLE_CHECK_FROM_LAP && cycle.repeats(&w, pos, hand) {
                return Err(PlayError::Endless);
            }
            match self.lap_words::<O, CCW>(&mut w, pos, hand, shape, obs) {
                Lap::Relay(p, h) => (pos, hand) = (p, h),
                Lap::End => return Ok(laps),
            }
            laps = laps.saturating_add(1);
        }
    }

    /// Sows one lap of `hand` seeds from `pos` on the board words `w` (see
    /// [`Position::sow_words`]) and, if the move goes on, lifts the hole of
    /// the last seed. When the move ends, the board is written back.
    /// `(len, variant_i)`: the board's length, and whether this is Hoyito I
    /// (read once per move: the compiler cannot keep them across the
    /// board's stores).
    #[inline(always)]
    pub(super) fn lap_words<O: SowObserver, const CCW: bool>(
        &mut self,
        w: &mut [u64; 3],
        mut pos: usize,
        hand: u8,
        (len, variant_i): (usize, bool),
        obs: &mut O,
    ) -> Lap {
        if !variant_i {
            obs.lap_sown(pos, hand, CCW, len);
            pos = add_lap::<CCW>(w, pos, hand as usize, len);
        } else {
            // Hoyito I: each hole at 3 that the lap sows becomes a casa and
            // is captured at once (en passant). A lap of fewer seeds than
            // holes sows each hole once, so its casas are the holes at 3 in
            // its way and are captured arithmetically, unless they may end
            // the game (the last four), which is done seed by seed, as are
            // longer laps.
            let short = (hand as usize) < len;
            let casas = if short {
                lap_casas::<CCW>(w, pos, hand as usize, len)
            } else {
                [0; 3]
            };
            // At most 23 casas: the byte sums cannot overflow.
            let count = casas
                .iter()
                .map(|&c| ((c >> 7).wrapping_mul(LOW_BYTES) >> 56) as u8)
                .sum::<u8>();
            if short && count == 0 {
                obs.lap_sown(pos, hand, CCW, len);
                pos = add_lap::<CCW>(w, pos, hand as usize, len);
            } else if short && self.in_play > 4 * count + 4 {
                obs.lap_sown(pos, hand, CCW, len);
                pos = add_lap::<CCW>(w, pos, hand as usize, len);
                for (x, c) in w.iter_mut().zip(casas) {
                    *x &= !((c >> 7) * 0xFF);
                }
                if O::EVENTS {
                    // The casas' high bits: one capture event per casa.
                    for (k, &c) in casas.iter().enumerate() {
                        let mut bits = c & 0x8080_8080_8080_8080;
                        while bits != 0 {
                            obs.capture(8 * k + bits.trailing_zeros() as usize / 8, 4);
                            bits &= bits - 1;
                        }
                    }
                }
                self.captured[self.to_move] += 4 * count;
                self.in_play -= 4 * count;
                if byte(&casas, pos) != 0 {
                    // The lap's last seed made a casa: the move ends.
                    set_board_words(&mut self.board, w);
                    return Lap::End;
                }
            } else {
                set_board_words(&mut self.board, w);
                match self.sow_lap::<O, CCW, false>(pos, hand, usize::MAX, obs) {
                    Some(p) => pos = p,
                    None => return Lap::End,
                }
                *w = board_words(&self.board);
            }
        }
        let last = byte(w, pos);
        if last == 1 {
            set_board_words(&mut self.board, w);
            return Lap::End;
        }
        if last == 4 && self.capturable(pos) {
            set_board_words(&mut self.board, w);
            self.final_capture::<O, CCW, false>(pos, obs);
            return Lap::End;
        }
        clear_byte(w, pos);
        obs.lap(pos, last);
        Lap::Relay(pos, last)
    }

    /// The final seed made a casa at `pos` (Hoyito II/III): capture it and,
    /// in Hoyito II, the backward chain.
    #[inline]
    pub(super) fn final_capture<O: SowObserver, const CCW: bool, const GENERAL: bool>(
        &mut self,
        pos: usize,
        obs: &mut O,
    ) {
        if self.capture_hole(pos, obs) {
            return;
        }
        if self.rules.variant() == Variant::II {
            // The backward chain, against the sowing direction, skipping closed holes.
            let back = |p: &Self, i: usize| {
                if CCW {
                    p.step::<false, GENERAL>(i, usize::MAX)
                } else {
                    p.step::<true, GENERAL>(i, usize::MAX)
                }
            };
            let mut i = back(self, pos);
            while self.board[i] == 4 && self.capturable(i) {
                if self.capture_hole(i, obs) {
                    return;
                }
                i = back(self, i);
            }
        }
    }

    /// The sowing loop, specialised by direction and by whether closed holes
    /// or `skip_origin` must be checked at each step.
    pub(super) fn sow<O: SowObserver, const CCW: bool, const GENERAL: bool>(
        &mut self,
        start: usize,
        skip_origin: bool,
        obs: &mut O,
    ) -> Result<u32, PlayError> {
        let mut pos = start;
        let mut hand = self.board[pos];
        self.board[pos] = 0;
        obs.lap(pos, hand);
        for laps in 1..CYCLE_CHECK_FROM_LAP {
            match self.relay_lap::<O, CCW, GENERAL>(pos, hand, skip_origin, obs) {
                Lap::Relay(p, h) => (pos, hand) = (p, h),
                Lap::End => return Ok(laps),
            }
        }
        self.sow_long::<O, CCW, GENERAL>(pos, hand, skip_origin, obs)
    }

    /// [`Position::sow`] from lap [`CYCLE_CHECK_FROM_LAP`] on, with
    /// endless-sowing detection (see [`Position::sow_words_long`]).
    #[cold]
    #[inline(never)]
    pub(super) fn sow_long<O: SowObserver, const CCW: bool, const GENERAL: bool>(
        &mut self,
        mut pos: usize,
        mut hand: u8,
        skip_origin: bool,
        obs: &mut O,
    ) -> Result<u32, PlayError> {
        if !skip_origin
            && self.rules.variant() != Variant::I
            && self.relay_never_ends::<CCW, GENERAL>(pos, hand)
        {
            return Err(PlayError::Endless);
        }
        let mut cycle = CycleCheck::new(&board_words(&self.board), pos, hand);
        let mut laps = CYCLE_CHECK_FROM_LAP;
        loop {
            if laps > CYCLE_CHECK_FROM_LAP && cycle.repeats(&board_words(&self.board), pos, hand) {
                return Err(PlayError::Endless);
            }
            match self.relay_lap::<O, CCW, GENERAL>(pos, hand, skip_origin, obs) {
                Lap::Relay(p, h) => (pos, hand) = (p, h),
                Lap::End => return Ok(laps),
            }
            laps = laps.saturating_add(1);
        }
    }

    /// [`relay_never_ends`] of the lap start `hand` seeds lifted from `pos`
    /// on this board, its ring the open holes (the origin not skipped).
    pub(super) fn relay_never_ends<const CCW: bool, const GENERAL: bool>(
        &self,
        pos: usize,
        hand: u8,
    ) -> bool {
        let open = self.rules.board_len() - self.closed.count_ones() as usize;
        let ahead = std::iter::successors(Some(pos), |&x| Some(self.step::<CCW, GENERAL>(x, usize::MAX)))
            .skip(1)
            .map(|x| self.board[x]);
        relay_never_ends(hand, ahead, open)
    }

    /// Sows one lap seed by seed and, if the move goes on (relay), lifts the
    /// hole of the last seed.
    #[inline(always)]
    pub(super) fn relay_lap<O: SowObserver, const CCW: bool, const GENERAL: bool>(
        &mut self,
        pos: usize,
        hand: u8,
        skip_origin: bool,
        obs: &mut O,
    ) -> Lap {
        let skip = if skip_origin { pos } else { usize::MAX };
        let Some(pos) = self.sow_lap::<O, CCW, GENERAL>(pos, hand, skip, obs) else {
            return Lap::End;
        };
        let last = self.board[pos];
        if last == 1 {
            return Lap::End;
        }
        if last == 4 && self.capturable(pos) {
            // Hoyito II/III (Hoyito I captured it already): the final seed's casa.
            self.final_capture::<O, CCW, GENERAL>(pos, obs);
            return Lap::End;
        }
        // Relay: lift the hole and start a new lap from the next hole.
        self.board[pos] = 0;
        obs.lap(pos, last);
        Lap::Relay(pos, last)
    }

    /// Shares the seeds in play and ends the game.
    pub(super) fn share(&mut self, reason: EndReason) {
        match self.rules.repetition() {
            Repetition::Even => {
                let half = self.in_play / 2;
                self.captured.south += half;
                self.captured.north += self.in_play - half;
            }
            Repetition::OwnRow => {
                for side in Side::ALL {
                    self.captured[side] += self.row_seeds(side) as u8;
                }
            }
        }
        self.in_play = 0;
        self.board = [0; MAX_BOARD];
        self.finish(reason);
    }

    pub(super) fn finish(&mut self, reason: EndReason) {
        let s = self.captured.south as u32 + self.reserve.south as u32;
        let n = self.captured.north as u32 + self.reserve.north as u32;
        let winner = match s.cmp(&n) {
            core::cmp::Ordering::Greater => Some(Side::South),
            core::cmp::Ordering::Less => Some(Side::North),
            core::cmp::Ordering::Equal => None,
        };
        self.outcome = Some(Outcome { winner, reason });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::RulesSpec;

    /// Counts seeds so that sowing goes seed by seed (TRACES = true).
    #[derive(Default)]
    struct SeedCounter {
        seeds: u64,
    }
    impl SowObserver for SeedCounter {
        fn seed(&mut self, _hole: usize) {
            self.seeds += 1;
        }
    }

    /// The arithmetic lap (unobserved) and the seed-by-seed lap (observed)
    /// give the same positions, in both directions, on every board size.
    #[test]
    fn fast_lap_matches_seed_by_seed() {
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut rnd = |n: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n as u64) as usize
        };
        for variant in Variant::ALL {
            for holes in 4..=12u8 {
                let rules = Rules::try_from(RulesSpec {
                    variant,
                    holes,
                    direction: DirectionRule::PerMove,
                    ..RulesSpec::default()
                })
                .unwrap();
                for _ in 0..20 {
                    let mut pos = Position::new(rules);
                    while !pos.is_over() {
                        let moves = pos.candidates();
                        if moves.is_empty() {
                            pos.pass();
                            continue;
                        }
                        let m = moves[rnd(moves.len())];
                        let (mut a, mut b) = (pos, pos);
                        let ra = a.play_unchecked(m);
                        let rb = b.play_observed(m, &mut SeedCounter::default());
                        assert_eq!(ra.is_ok(), rb.is_ok(), "{}", pos.to_notation());
                        if let (Ok(x), Ok(y)) = (ra, rb) {
                            assert_eq!(x, y);
                            // `play_observed` settles passes exactly,
                            // `play_unchecked` cheaply: settled exactly, the
                            // cheap result is the same position, every field.
                            let mut settled = a;
                            settled.settle();
                            assert_eq!(settled, b, "{} {m:?}", pos.to_notation());
                            pos = a;
                        } else {
                            break;
                        }
                    }
                }
            }
        }
    }
}
