//! A move as the front ends show it: [`TracedMove`], played once with
//! [`Position::prepare`] / [`Game::commit`](crate::Game::commit) or in one
//! call with [`Contest::play_traced`](crate::Contest::play_traced), holds the
//! [`Trace`] (the sowing events of the move, cut at a limit, for a
//! lap-by-lap animation), every casa captured and how, the extra turn, the
//! pass that followed, the end of the round and of the match, and the
//! move's canonical token.

use crate::error::MoveError;
use crate::error::PlayError;
use crate::moves::Move;
use crate::position::MatchOutcome;
use crate::position::{Outcome, Played, Position, SowObserver};
use crate::side::Side;

/// Most events kept for one move. A sowing of thousands of laps cannot be
/// watched seed by seed; past this the trace is cut and marked `truncated`,
/// and the browser jumps to the final board.
pub const MAX_TRACE_EVENTS: usize = 4096;

/// One sowing event, serialised as a short array:
/// `["l", hole, seeds]` a lap starts (seeds lifted from `hole`),
/// `["s", hole]` a seed dropped into `hole`,
/// `["c", hole, seeds]` the mover captured `seeds` from `hole`
/// (with the `serde` feature).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    /// A lap starts: `seeds` lifted from `hole`.
    Lap(u8, u8),
    /// A seed dropped into a hole.
    Seed(u8),
    /// The mover captured `seeds` from `hole`.
    Capture(u8, u8),
}

#[cfg(feature = "serde")]
impl serde::Serialize for Event {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match *self {
            Event::Lap(h, n) => ("l", h, n).serialize(s),
            Event::Seed(h) => ("s", h).serialize(s),
            Event::Capture(h, n) => ("c", h, n).serialize(s),
        }
    }
}

/// The events of one move, cut at a limit: pass it to
/// [`Position::play_observed`](crate::Position::play_observed).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Trace {
    /// The events kept, in order.
    pub events: Vec<Event>,
    /// Laps sown (all of them, kept or not).
    pub laps: u32,
    /// Whether events were dropped past the limit.
    pub truncated: bool,
    #[cfg_attr(feature = "serde", serde(skip))]
    limit: usize,
}

impl Trace {
    /// An empty trace keeping at most `limit` events.
    pub fn new(limit: usize) -> Trace {
        Trace {
            limit,
            ..Trace::default()
        }
    }

    fn push(&mut self, e: Event) {
        if self.events.len() < self.limit {
            self.events.push(e);
        } else {
            self.truncated = true;
        }
    }
}

impl SowObserver for Trace {
    fn lap(&mut self, hole: usize, seeds: u8) {
        self.laps = self.laps.saturating_add(1);
        self.push(Event::Lap(hole as u8, seeds));
    }
    fn seed(&mut self, hole: usize) {
        self.push(Event::Seed(hole as u8));
    }
    fn capture(&mut self, hole: usize, seeds: u8) {
        self.push(Event::Capture(hole as u8, seeds));
    }
}

/// How a casa was captured (RULES.md §3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CaptureKind {
    /// In the middle of a lap (Hoyito I): the sowing went on.
    EnPassant,
    /// By the last seed of a lap.
    Casa,
    /// Behind the last seed's casa (Hoyito II's backward chain).
    Chain,
}

impl CaptureKind {
    /// `en passant`, `casa` or `chain`.
    pub const fn name(self) -> &'static str {
        match self {
            CaptureKind::EnPassant => "en passant",
            CaptureKind::Casa => "casa",
            CaptureKind::Chain => "chain",
        }
    }
}

/// One casa the mover captured. The last-four award (RULES.md §4) is not a
/// capture of a casa: it is counted in [`TracedMove::captured`] only.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Capture {
    /// The hole captured.
    pub hole: usize,
    /// Seeds taken (4, or the seeds option's casa count).
    pub seeds: u8,
    /// How.
    pub kind: CaptureKind,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Last {
    None,
    Lap,
    Seed,
    Capture,
}

/// The observer of the traced path: the events cut at a limit, and what
/// the front ends show of a move whatever its length (at most 60 casas in
/// one move: every capture takes 4 of at most 240 seeds).
#[derive(Debug)]
struct Recorder {
    trace: Trace,
    captures: Vec<Capture>,
    last_lap: Option<(usize, u8)>,
    last_seed: Option<usize>,
    last: Last,
}

impl SowObserver for Recorder {
    fn lap(&mut self, hole: usize, seeds: u8) {
        self.trace.lap(hole, seeds);
        self.last_lap = Some((hole, seeds));
        self.last = Last::Lap;
    }
    fn seed(&mut self, hole: usize) {
        self.trace.seed(hole);
        // A seed after a capture: the sowing went on past the casa.
        if self.last == Last::Capture {
            if let Some(c) = self.captures.last_mut() {
                c.kind = CaptureKind::EnPassant;
            }
        }
        self.last_seed = Some(hole);
        self.last = Last::Seed;
    }
    fn capture(&mut self, hole: usize, seeds: u8) {
        self.trace.capture(hole, seeds);
        let kind = if self.last == Last::Capture {
            CaptureKind::Chain
        } else {
            CaptureKind::Casa
        };
        self.captures.push(Capture { hole, seeds, kind });
        self.last = Last::Capture;
    }
}

/// A move played once, with everything a front end shows of it.
///
/// Made by [`Position::prepare`] (or `prepare_token` of [`Position`],
/// [`Game`](crate::Game), [`Match`](crate::Match), [`Contest`](crate::Contest)),
/// which sows the move on a copy and changes nothing; then `commit` of the
/// game, match or contest takes the position after it without sowing again
/// and adds the repetition rule and the end of the match. `play_traced`
/// does both. The fields are private, so a committed value is always one
/// the rules made.
///
/// Serialised (with the `serde` feature) as the web app's move event:
/// `token`, `side`, `round`, `board_before`, `captured_before`, `trace`,
/// `captured`, `extra_turn`, `passed` (a bool).
///
/// # Examples
///
/// ```
/// use hoyito_core::{Contest, Rules, Side, Variant, MAX_TRACE_EVENTS};
/// let mut contest = Contest::new_game(Rules::standard(Variant::II));
/// let t = contest.play_traced(" 3 ", MAX_TRACE_EVENTS)?;
/// assert_eq!((t.token(), t.side(), t.round()), ("3", Side::South, 1));
/// assert_eq!(t.trace().laps, t.laps());
/// assert_eq!(t.after(), contest.position());
/// assert!(t.round_over().is_none() && t.passed().is_none());
/// # Ok::<(), hoyito_core::MoveError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TracedMove {
    m: Move,
    token: String,
    before: Position,
    pub(crate) after: Position,
    played: Played,
    trace: Trace,
    captures: Vec<Capture>,
    last_lap: Option<(usize, u8)>,
    landed_empty: Option<usize>,
    passed: Option<Side>,
    pub(crate) match_over: Option<MatchOutcome>,
}

impl TracedMove {
    /// The move.
    pub fn mv(&self) -> Move {
        self.m
    }
    /// The move's token in its canonical spelling
    /// ([`Position::move_token`] in the position it was played in).
    pub fn token(&self) -> &str {
        &self.token
    }
    /// The mover.
    pub fn side(&self) -> Side {
        self.before.to_move()
    }
    /// The round of the move (1 in a single game).
    pub fn round(&self) -> u32 {
        self.before.round()
    }
    /// The position the move was played in.
    pub fn before(&self) -> &Position {
        &self.before
    }
    /// The position after the move, passes settled; once committed, with the
    /// repetition rule applied too (the game's position then).
    pub fn after(&self) -> &Position {
        &self.after
    }
    /// Laps, seeds captured and extra turn, as [`Position::play`] returns them.
    pub fn played(&self) -> Played {
        self.played
    }
    /// Laps sown (both sowings of a two-hole opening together).
    pub fn laps(&self) -> u32 {
        self.played.laps
    }
    /// Seeds the mover captured, the last-four award included.
    pub fn captured(&self) -> u8 {
        self.played.captured
    }
    /// Whether the mover moves again (a Hoyito II/III capture).
    pub fn extra_turn(&self) -> bool {
        self.played.extra_turn
    }
    /// The sowing events, cut at the limit the move was prepared with.
    pub fn trace(&self) -> &Trace {
        &self.trace
    }
    /// Every casa captured, in order, however long the sowing (never cut).
    pub fn captures(&self) -> &[Capture] {
        &self.captures
    }
    /// The move's last lap: the hole it was lifted from and its seeds
    /// (never cut).
    pub fn last_lap(&self) -> Option<(usize, u8)> {
        self.last_lap
    }
    /// The hole where the last seed fell, if it fell into an empty hole and
    /// so ended the move (`None` if the move ended with a capture).
    pub fn landed_empty(&self) -> Option<usize> {
        self.landed_empty
    }
    /// The side that had no legal move after the sowing and passed, while
    /// the game went on (RULES.md §4: at most one pass follows a move; if
    /// neither side can move the game ends instead).
    pub fn passed(&self) -> Option<Side> {
        self.passed
    }
    /// How the game (the match's round) ended, if the move ended it.
    pub fn round_over(&self) -> Option<Outcome> {
        self.after.outcome()
    }
    /// How the match ended, if committing the move to a match ended it
    /// (always `None` for a single game and before the commit).
    pub fn match_over(&self) -> Option<MatchOutcome> {
        self.match_over
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for TracedMove {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let c = self.before.captured();
        let mut st = s.serialize_struct("TracedMove", 9)?;
        st.serialize_field("token", &self.token)?;
        st.serialize_field("side", &self.side())?;
        st.serialize_field("round", &self.round())?;
        st.serialize_field("board_before", self.before.board())?;
        st.serialize_field("captured_before", &[c.south, c.north])?;
        st.serialize_field("trace", &self.trace)?;
        st.serialize_field("captured", &self.played.captured)?;
        st.serialize_field("extra_turn", &self.played.extra_turn)?;
        st.serialize_field("passed", &self.passed.is_some())?;
        st.end()
    }
}

impl Position {
    /// Plays `m` on a copy of this position, keeping at most `trace_limit`
    /// sowing events (and everything else a front end shows of the move,
    /// uncut): the checked [`Position::play`], observed. Changes nothing;
    /// commit the result to a [`Game`](crate::Game), [`Match`](crate::Match)
    /// or [`Contest`](crate::Contest), or read the position after it from
    /// [`TracedMove::after`]. Plain `play` stays the allocation-free path.
    ///
    /// # Errors
    /// [`PlayError`] if the move is not legal here.
    pub fn prepare(&self, m: Move, trace_limit: usize) -> Result<TracedMove, PlayError> {
        let mut rec = Recorder {
            trace: Trace::new(trace_limit),
            captures: Vec::new(),
            last_lap: None,
            last_seed: None,
            last: Last::None,
        };
        let mut after = *self;
        let played = after.play_observed(m, &mut rec)?;
        let side = self.to_move();
        let expected = if played.extra_turn { side } else { side.other() };
        Ok(TracedMove {
            m,
            token: self.move_token(m).to_string(),
            before: *self,
            after,
            played,
            trace: rec.trace,
            captures: rec.captures,
            last_lap: rec.last_lap,
            landed_empty: rec.last_seed.filter(|_| rec.last == Last::Seed),
            passed: (!after.is_over() && after.to_move() != expected).then_some(expected),
            match_over: None,
        })
    }

    /// Reads `token` and prepares the move ([`Position::prepare`]).
    ///
    /// # Errors
    /// [`MoveError::GameOver`] if the game is over, [`MoveError::Parse`] if
    /// the token is unreadable, [`MoveError::Illegal`] if the move is not legal.
    pub fn prepare_token(&self, token: &str, trace_limit: usize) -> Result<TracedMove, MoveError> {
        if self.is_over() {
            return Err(MoveError::GameOver {
                token: token.trim().to_string(),
            });
        }
        let m = self.parse_move(token)?;
        self.prepare(m, trace_limit).map_err(|error| MoveError::Illegal {
            token: token.trim().to_string(),
            error,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Position, Rules, Variant};

    #[test]
    fn trace_replays_to_the_board() {
        // Replaying the events on the board before the move gives the board after it.
        let mut pos = Position::new(Rules::standard(Variant::I));
        for token in ["3", "4", "1", "2"] {
            let before = pos.board().to_vec();
            let m = pos.parse_move(token).unwrap();
            let mut t = Trace::new(MAX_TRACE_EVENTS);
            let mover = pos.to_move();
            let cap_before = pos.captured()[mover] as u32;
            pos.play_observed(m, &mut t).unwrap();
            assert!(!t.truncated);
            let mut board: Vec<u32> = before.iter().map(|&x| x as u32).collect();
            let mut captured = 0u32;
            for e in &t.events {
                match *e {
                    Event::Lap(h, n) => {
                        assert_eq!(board[h as usize], n as u32);
                        board[h as usize] = 0;
                    }
                    Event::Seed(h) => board[h as usize] += 1,
                    Event::Capture(h, n) => {
                        assert_eq!(board[h as usize], n as u32);
                        board[h as usize] = 0;
                        captured += n as u32;
                    }
                }
            }
            if !pos.is_over() {
                let after: Vec<u32> = pos.board().iter().map(|&x| x as u32).collect();
                assert_eq!(board, after, "move {token}");
                assert_eq!(cap_before + captured, pos.captured()[mover] as u32);
            }
        }
    }

    #[test]
    fn trace_is_cut_at_the_limit() {
        let mut pos = Position::new(Rules::standard(Variant::I));
        let m = pos.parse_move("3").unwrap();
        let mut t = Trace::new(3);
        pos.play_observed(m, &mut t).unwrap();
        assert_eq!(t.events.len(), 3);
        assert!(t.truncated);
        #[cfg(feature = "serde")]
        assert_eq!(
            serde_json::to_string(&t.events[..2]).unwrap(),
            r#"[["l",2,4],["s",3]]"#
        );
    }
}
