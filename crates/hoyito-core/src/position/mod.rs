//! [`Position`]: the state of one game (one round of a match), the sowing
//! loop shared by every variant, captures, passes and the last-four rule.

use crate::error::{OpeningError, PlayError, PositionError};
use crate::moves::{Move, MoveList, SingleMoves};
use crate::rules::{CaptureSide, Direction, DirectionRule, Repetition, Rules, Variant, MAX_BOARD};
use crate::side::{ByPlayer, Side};

mod endless;
mod outcome;
mod repetition;
mod setup;
mod sow;
mod words;

use words::{board_words, nonempty_mask, ONES};

pub use outcome::{EndReason, GameResult, LastFour, MatchOutcome, Outcome};
pub use repetition::{RepetitionKey, RepetitionTracker};
pub use setup::Setup;
pub use sow::{Played, SowObserver};

/// captures, reserves, direction choices, and the game's result once over.
///
/// `Position` is `Copy` (about 48 bytes); playing a move never allocates.
///
/// # Examples
///
/// ```
/// use hoyito_core::{Position, Rules, Variant};
/// let mut pos = Position::new(Rules::standard(Variant::I));
/// let m = pos.parse_move("3")?;
/// pos.play(m)?;
/// assert_eq!(pos.board().iter().map(|&s| s as u32).sum::<u32>()
///     + pos.captured().south as u32 + pos.captured().north as u32, 48);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    rules: Rules,
    board: [u8; MAX_BOARD],
    closed: u32,
    to_move: Side,
    opening: bool,
    in_play: u8,
    captured: ByPlayer<u8>,
    reserve: ByPlayer<u8>,
    chosen: ByPlayer<Option<Direction>>,
    last_four: LastFour,
    round: u16,
    outcome: Option<Outcome>,
}

impl Position {
    /// The start position of a single game.
    pub fn new(rules: Rules) -> Position {
        Position::from_setup(rules, &Setup::start(&rules)).expect("the start position is valid")
    }

    /// The rules.
    #[inline]
    pub fn rules(&self) -> &Rules {
        &self.rules
    }
    /// Seeds per hole in index order (`2n` entries; closed holes hold 0).
    #[inline]
    pub fn board(&self) -> &[u8] {
        &self.board[..self.rules.board_len()]
    }
    /// Seeds in hole `i`.
    #[inline]
    pub fn seeds(&self, i: usize) -> u8 {
        self.board[i]
    }
    /// Whether hole `i` is closed this round.
    #[inline]
    pub fn is_closed(&self, i: usize) -> bool {
        self.closed >> i & 1 != 0
    }
    /// Bit mask of closed holes (bit `i` for hole `i`).
    #[inline]
    pub fn closed_mask(&self) -> u32 {
        self.closed
    }
    /// Indices of closed holes, ascending.
    pub fn closed_holes(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.rules.board_len()).filter(move |&i| self.is_closed(i))
    }
    /// The player to move (after automatic passes). Meaningless once the game is over.
    #[inline]
    pub fn to_move(&self) -> Side {
        self.to_move
    }
    /// Seeds captured this round by each player (last-four award and final shares included).
    #[inline]
    pub fn captured(&self) -> ByPlayer<u8> {
        self.captured
    }
    /// Seeds each player holds in reserve from earlier rounds.
    #[inline]
    pub fn reserve(&self) -> ByPlayer<u8> {
        self.reserve
    }
    /// Seeds still in play (on the board).
    #[inline]
    pub fn in_play(&self) -> u8 {
        self.in_play
    }
    /// Directions chosen so far under `direction = per_player`.
    #[inline]
    pub fn chosen_directions(&self) -> ByPlayer<Option<Direction>> {
        self.chosen
    }
    /// Whether the next move is the two-hole opening.
    #[inline]
    pub fn opening_pending(&self) -> bool {
        self.opening
    }
    /// Who gets the last four in this game.
    #[inline]
    pub fn last_four(&self) -> LastFour {
        self.last_four
    }
    /// Round number of the match (1 in a single game).
    #[inline]
    pub fn round(&self) -> u32 {
        self.round as u32
    }
    /// The result, once the game is over.
    #[inline]
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }
    /// Whether the game is over.
    #[inline]
    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }
    /// The owner of hole `i`.
    #[inline]
    pub fn owner(&self, i: usize) -> Side {
        if i < self.rules.holes() {
            Side::South
        } else {
            Side::North
        }
    }
    /// Board indices of `side`'s row.
    #[inline]
    pub fn row(&self, side: Side) -> core::ops::Range<usize> {
        let n = self.rules.holes();
        match side {
            Side::South => 0..n,
            Side::North => n..2 * n,
        }
    }
    /// Seeds in `side`'s row.
    #[inline]
    pub fn row_seeds(&self, side: Side) -> u32 {
        self.board[self.row(side)].iter().map(|&s| s as u32).sum()
    }
    /// Captured minus the opponent's captured, from `side`'s view.
    pub fn margin(&self, side: Side) -> i32 {
        (self.captured[side] as i32 + self.reserve[side] as i32)
            - (self.captured[side.other()] as i32 + self.reserve[side.other()] as i32)
    }

    /// An exact key of what the repetition rule compares: board, closed
    /// holes and player to move (RULES.md §4).
    #[inline]
    pub fn repetition_key(&self) -> RepetitionKey {
        let b = &self.board;
        let w = |k: usize| u64::from_le_bytes(b[k..k + 8].try_into().expect("8 bytes"));
        RepetitionKey([
            w(0),
            w(8),
            w(16),
            (self.closed as u64) << 1 | self.to_move.index() as u64,
        ])
    }

    /// A 64-bit hash of board, closed holes, side to move, and the state that
    /// decides legal moves (direction choices, opening).
    #[inline]
    pub fn fingerprint(&self) -> u64 {
        let k = self.repetition_key().0;
        let extra = (self.opening as u64) << 40
            | (Direction::choice_code(self.chosen.south) as u64) << 42
            | (Direction::choice_code(self.chosen.north) as u64) << 44;
        let mut h = 0x9E37_79B9_7F4A_7C15u64;
        for w in [k[0], k[1], k[2], k[3] ^ extra] {
            h = (h ^ w).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            h ^= h >> 31;
        }
        h
    }

    // ----- move generation ------------------------------------------------

    /// Directions the player to move may sow in.
    #[inline]
    pub(crate) fn directions(&self) -> (Direction, Option<Direction>) {
        match self.rules.direction() {
            DirectionRule::Fixed => (Direction::Ccw, None),
            DirectionRule::PerMove => (Direction::Ccw, Some(Direction::Cw)),
            DirectionRule::PerPlayer => match self.chosen[self.to_move] {
                Some(d) => (d, None),
                None => (Direction::Ccw, Some(Direction::Cw)),
            },
        }
    }

    /// Whether `side` has seeds in an open hole of their row (closed holes hold none).
    #[inline]
    pub fn has_seeds(&self, side: Side) -> bool {
        let n = self.rules.holes();
        let (a, b) = (n * side.index(), n * side.index() + n);
        let w = board_words(&self.board);
        // Whether any byte of the row is non-zero, eight holes at a time.
        (0..3).fold(0, |acc, k| {
            acc | w[k] & ONES[b][k].wrapping_sub(ONES[a][k]).wrapping_mul(0xFF)
        }) != 0
    }

    /// The mover's non-empty holes as bits, bit `k` for the row's `k`-th
    /// hole (index `row.start + k`).
    #[inline]
    pub(crate) fn mover_mask(&self) -> (u32, usize) {
        let row = self.row(self.to_move);
        (
            (nonempty_mask(&self.board) >> row.start) & ((1u32 << row.len()) - 1),
            row.start,
        )
    }

    /// Candidate one-hole moves: every non-empty open hole of the mover in
    /// every allowed direction, ignoring the opening and endless sowings.
    /// Cheap; [`Position::play`] rejects the endless ones.
    #[inline]
    pub fn candidates(&self) -> SingleMoves {
        let mut list = SingleMoves::new();
        if self.is_over() {
            return list;
        }
        let (d0, d1) = self.directions();
        // A mask of non-empty holes first: no branch per hole.
        let (mut mask, start) = self.mover_mask();
        while mask != 0 {
            let i = start + mask.trailing_zeros() as usize;
            mask &= mask - 1;
            list.push(Move::on_board(i, d0));
            if let Some(d1) = d1 {
                list.push(Move::on_board(i, d1));
            }
        }
        list
    }

    /// Every legal move: candidates whose sowing ends, or, while the two-hole
    /// opening is pending, every legal pair (falling back to one-hole moves ◆
    /// when no pair is legal). Simulates each candidate; never allocates.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        if self.is_over() {
            return list;
        }
        if self.opening {
            let (d0, d1) = self.directions();
            for d in [Some(d0), d1].into_iter().flatten() {
                for a in self.row(self.to_move) {
                    for b in self.row(self.to_move) {
                        let m = Move::pair(a, b, d);
                        if a != b && self.board[a] != 0 && self.board[b] != 0 && self.try_apply(m) {
                            list.push(m);
                        }
                    }
                }
            }
            if !list.is_empty() {
                return list;
            }
        }
        for m in self.candidates() {
            let mut p = *self;
            if p.sow_move(m.hole(), m.direction(), &mut ()).is_ok() {
                list.push(m);
            }
        }
        list
    }

    /// Whether the player to move has at least one legal move.
    pub fn has_legal_move(&self) -> bool {
        if self.is_over() {
            return false;
        }
        // A legal pair starts with a finite one-hole sowing, and one-hole
        // moves are legal when no pair is: checking one-hole sowings suffices.
        self.candidates().iter().any(|&m| {
            let mut p = *self;
            p.sow_move(m.hole(), m.direction(), &mut ()).is_ok()
        })
    }

    /// Checks and applies `m` on a copy, without settling passes.
    fn try_apply(&self, m: Move) -> bool {
        self.check(m).is_ok() && {
            let mut p = *self;
            p.apply(m, &mut ()).is_ok()
        }
    }

    /// Whether `m` is legal here.
    pub fn is_legal(&self, m: Move) -> bool {
        let mut p = *self;
        p.play(m).is_ok()
    }

    // ----- playing --------------------------------------------------------

    /// Plays a move, checking everything, then settles automatic passes
    /// exactly (a player whose every move is endless passes too).
    ///
    /// # Errors
    /// [`PlayError`] if the move is not legal; the position is then unchanged.
    pub fn play(&mut self, m: Move) -> Result<Played, PlayError> {
        self.play_observed(m, &mut ())
    }

    /// [`Position::play`] reporting every lap, seed and capture to `obs`.
    ///
    /// # Errors
    /// As [`Position::play`]. Events already reported for a move that turns
    /// out endless are not taken back.
    pub fn play_observed<O: SowObserver>(&mut self, m: Move, obs: &mut O) -> Result<Played, PlayError> {
        self.check(m)?;
        if self.opening && !m.is_pair() && self.legal_moves().iter().any(|x| x.is_pair()) {
            return Err(OpeningError::PairRequired.into());
        }
        let mut next = *self;
        let played = next.apply(m, obs)?;
        next.settle();
        *self = next;
        Ok(played)
    }

    /// Plays a move without the legality checks of [`Position::play`] other
    /// than endlessness, and with passes settled only cheaply (a player with
    /// no seeds passes; a player whose every move is endless is left to
    /// move, so callers find no legal move and call [`Position::pass`]).
    /// This is the hot path for search and playouts.
    ///
    /// # Errors
    /// [`PlayError::Endless`] if the sowing never ends; the position is then unchanged.
    #[inline]
    pub fn play_unchecked(&mut self, m: Move) -> Result<Played, PlayError> {
        debug_assert!(self.check(m).is_ok(), "illegal move {m:?}");
        let backup = *self;
        let played = self.apply(m, &mut ());
        if played.is_err() {
            *self = backup;
        }
        played
    }

    /// [`Position::play_unchecked`] reporting the sowing's events to `obs`
    /// (see [`SowObserver`]; with `TRACES = false` it is as fast as the
    /// unobserved path).
    ///
    /// # Errors
    /// As [`Position::play_unchecked`]. Events already reported for a move
    /// that turns out endless are not taken back.
    #[inline]
    pub fn play_unchecked_observed<O: SowObserver>(
        &mut self,
        m: Move,
        obs: &mut O,
    ) -> Result<Played, PlayError> {
        debug_assert!(self.check(m).is_ok(), "illegal move {m:?}");
        let backup = *self;
        let played = self.apply(m, obs);
        if played.is_err() {
            *self = backup;
        }
        played
    }

    /// The player to move, who has no legal move, passes. If the opponent has
    /// none either, the game ends and the seeds are shared (RULES.md §4).
    /// Does nothing if the game is over.
    pub fn pass(&mut self) {
        if self.is_over() {
            return;
        }
        self.opening = false;
        self.to_move = self.to_move.other();
        if !self.has_legal_move() {
            self.share(EndReason::NoMoves);
        }
    }

    /// Resolves automatic passes exactly: while the player to move has no
    /// legal move, they pass.
    pub fn settle(&mut self) {
        if !self.is_over() && !self.has_legal_move() {
            self.pass();
        }
    }

    /// Ends the game by the repetition rule, sharing the seeds in play.
    pub fn end_by_repetition(&mut self) {
        if !self.is_over() {
            self.share(EndReason::Repetition);
        }
    }

    /// Ends the game by `side`'s concession: the seeds still in play go to
    /// the other side, and the game is counted as usual (◆ a convention of
    /// this project: RULES.md is silent on resigning one round of a match).
    ///
    /// # Errors
    /// [`PlayError::GameOver`] if the game is over already.
    pub fn concede(&mut self, side: Side) -> Result<(), PlayError> {
        if self.is_over() {
            return Err(PlayError::GameOver);
        }
        self.captured[side.other()] += self.in_play;
        self.in_play = 0;
        self.board = [0; MAX_BOARD];
        self.finish(EndReason::Conceded);
        Ok(())
    }

    fn check(&self, m: Move) -> Result<(), PlayError> {
        if self.is_over() {
            return Err(PlayError::GameOver);
        }
        let (d0, d1) = self.directions();
        if m.direction() != d0 && Some(m.direction()) != d1 {
            return Err(PlayError::Direction);
        }
        if m.is_pair() && !self.opening {
            return Err(OpeningError::PairNotAllowed.into());
        }
        for h in [Some(m.hole()), m.second()].into_iter().flatten() {
            if !self.row(self.to_move).contains(&h) {
                return Err(PlayError::NotOwnHole { hole: h });
            }
            if self.is_closed(h) {
                return Err(PlayError::Closed { hole: h });
            }
            if self.board[h] == 0 {
                return Err(PlayError::Empty { hole: h });
            }
        }
        if m.second() == Some(m.hole()) {
            return Err(OpeningError::SameHole.into());
        }
        Ok(())
    }
}
