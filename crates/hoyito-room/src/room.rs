//! [`Room`]: a game or a match played step by step, with the checks of
//! every step; going back (undo, takeback) is in [`back`].
//!
//! Changing a room is two-phase where the caller stores a step between
//! checking and applying it: [`Room::prepare`] plays a move once on a copy
//! of the position (recording its sowing trace), the caller stores it, then
//! [`Room::commit`] takes the position after it without sowing again, which
//! cannot fail. The other steps are checked (`check_*`) then committed
//! (`commit_*`) in the same way; [`Room::step`] does both for any token.

use std::sync::OnceLock;

use hoyito_core::{
    concession_token, parse_concession, Contest, Game, GameResult, MoveError, Position, Rules, Side,
    TracedMove,
};

use crate::mode::Mode;
use crate::step::StepKind;
use crate::stop::Stop;
use crate::view::{MoveEvent, MoveHoles, StepView, Summary};
use crate::RoomError;

mod back;

/// The step token that starts the next round of a match.
pub const NEXT_ROUND: &str = "next";

/// Who may move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Seat {
    /// One side.
    One(Side),
    /// Both sides (hot-seat).
    Both,
}

impl Seat {
    /// Whether this seat may move for `side`.
    pub fn holds(self, side: Side) -> bool {
        match self {
            Seat::Both => true,
            Seat::One(s) => s == side,
        }
    }

    /// `south`, `north` or `both`.
    pub fn name(self) -> &'static str {
        match self {
            Seat::Both => "both",
            Seat::One(s) => s.name(),
        }
    }
}

/// What is fixed when a room opens.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Setup {
    /// How the game is played.
    pub mode: Mode,
    /// The rules.
    pub rules: Rules,
    /// A match of rounds rather than a single game.
    pub is_match: bool,
    /// The engine's side in a game against the engine.
    pub engine_side: Option<Side>,
    /// A start position in notation, for a single game that does not start
    /// at the standard start (an imported record).
    pub start: Option<String>,
}

/// A move checked on a copy, ready to store and commit.
#[derive(Debug, Clone)]
pub struct Prepared {
    traced: TracedMove,
    /// The token to store (canonical spelling).
    pub token: String,
    /// The event to send once committed.
    pub event: MoveEvent,
    /// The legal moves after it, if worked out already.
    legal_after: Option<Vec<String>>,
}

/// What checking a move needs of a room, copied out so that the rules work
/// ([`prepare_move`]) can run elsewhere (a server's blocking thread).
#[derive(Debug, Clone, Copy)]
pub struct MoveInput {
    pos: Position,
    /// The room's step count when copied.
    pub seq: u64,
    /// The room's undo count when copied.
    pub epoch: u64,
}

/// Checks a move token completely on a copy of the position, records its
/// sowing trace (at most `trace_limit` events) and, with `with_legal`,
/// works out the legal moves after it: the heavy rules work of a move
/// (proving a sowing finite or endless, for every candidate with
/// `with_legal`).
///
/// # Errors
/// [`RoomError::Over`] if the round is over, [`RoomError::BadMove`] if the
/// token is unreadable, [`RoomError::IllegalMove`] if the move is illegal.
pub fn prepare_move(
    input: MoveInput,
    token: &str,
    trace_limit: usize,
    with_legal: bool,
) -> Result<Prepared, RoomError> {
    let pos = input.pos;
    let traced = pos.prepare_token(token, trace_limit).map_err(|e| match e {
        MoveError::Parse(e) => RoomError::BadMove(e.to_string()),
        e @ MoveError::Illegal { .. } => RoomError::IllegalMove(e.to_string()),
        _ => RoomError::Over { what: "game" },
    })?;
    let canonical = traced.token().to_string();
    Ok(Prepared {
        token: canonical.clone(),
        event: MoveEvent {
            seq: input.seq + 1,
            epoch: input.epoch,
            round: traced.round(),
            side: traced.side(),
            token: canonical,
            board_before: pos.board().to_vec(),
            captured_before: caps(&pos),
            trace: traced.trace().clone(),
            captured: traced.captured(),
            extra_turn: traced.extra_turn(),
            passed: traced.passed().is_some(),
        },
        legal_after: with_legal.then(|| traced.after().legal_tokens()),
        traced,
    })
}

pub(crate) fn caps(p: &Position) -> [u8; 2] {
    let c = p.captured();
    [c.south, c.north]
}

/// A game or a match, played step by step.
#[derive(Debug, Clone)]
pub struct Room {
    setup: Setup,
    play: Contest,
    steps: Vec<StepView>,
    epoch: u64,
    stop: Option<Stop>,
    legal: OnceLock<Vec<String>>,
}

impl Room {
    /// A room with no steps, after `epoch` undos.
    ///
    /// # Errors
    /// [`RoomError::InvalidPosition`] if the start position is not valid notation.
    pub fn new(setup: Setup, epoch: u64) -> Result<Room, RoomError> {
        let play = if setup.is_match {
            Contest::new_match(setup.rules)
        } else {
            let start = match &setup.start {
                Some(text) => Position::from_notation(setup.rules, text)
                    .map_err(|e| RoomError::InvalidPosition(e.to_string()))?,
                None => Position::new(setup.rules),
            };
            Contest::Game(Game::from_position(start))
        };
        Ok(Room {
            setup,
            play,
            steps: Vec::new(),
            epoch,
            stop: None,
            legal: OnceLock::new(),
        })
    }

    /// Rebuilds a room by replaying its steps' tokens.
    ///
    /// # Errors
    /// [`RoomError::BadStep`] naming the first step that does not replay.
    pub fn replay(setup: Setup, epoch: u64, tokens: &[String]) -> Result<Room, RoomError> {
        let mut room = Room::new(setup, epoch)?;
        for (i, token) in tokens.iter().enumerate() {
            room.step(token, 0).map_err(|e| RoomError::BadStep {
                step: i + 1,
                token: token.chars().take(40).collect(),
                source: Box::new(e),
            })?;
        }
        Ok(room)
    }

    /// Checks and applies one step of any kind (a move, `next`,
    /// `concede:<side>` or a stop); a move's sowing trace is kept to
    /// `trace_limit` events. Returns the move's event for a move.
    ///
    /// # Errors
    /// As the step's check; then nothing changed.
    pub fn step(&mut self, token: &str, trace_limit: usize) -> Result<Option<MoveEvent>, RoomError> {
        if token == NEXT_ROUND {
            self.check_next_round()?;
            self.commit_next_round();
        } else if let Some(stop) = Stop::parse(token) {
            let stop = stop?;
            self.check_stop(stop)?;
            self.commit_stop(stop);
        } else if let Some(rest) = token.strip_prefix("concede:") {
            let side = parse_concession(token).ok_or_else(|| RoomError::BadSide {
                kind: StepKind::Concede,
                name: rest.chars().take(24).collect(),
            })?;
            self.check_concede()?;
            self.commit_concede(side);
        } else {
            let p = self.prepare(token, trace_limit)?;
            return Ok(Some(self.commit(p)));
        }
        Ok(None)
    }

    /// What the room was opened with.
    pub fn setup(&self) -> &Setup {
        &self.setup
    }

    /// The game or the match.
    pub fn contest(&self) -> &Contest {
        &self.play
    }

    /// The steps so far, with their views.
    pub fn steps(&self) -> &[StepView] {
        &self.steps
    }

    /// Undos so far.
    pub fn epoch(&self) -> u64 {
        self.epoch
    }

    /// How the game (or the match) was stopped before it was played out, if it was.
    pub fn stop(&self) -> Option<Stop> {
        self.stop
    }

    /// The current round's game.
    pub fn current(&self) -> &Game {
        self.play.current()
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.current().position()
    }

    /// Steps so far.
    pub fn seq(&self) -> u64 {
        self.steps.len() as u64
    }

    /// Whether the game (or the whole match) is over: played to its end, or stopped.
    pub fn finished(&self) -> bool {
        self.stop.is_some() || self.play.is_over()
    }

    /// The winner's name (`south`, `north`, `draw`, or `aborted`) once the
    /// game (or the whole match) is over; a resignation or a flag fall
    /// makes the other side the winner.
    pub fn result(&self) -> Option<&'static str> {
        match self.stop {
            Some(stop) => Some(stop.result()),
            None => self.play.result().map(GameResult::name),
        }
    }

    /// Whether the engine is to move.
    pub fn engine_to_move(&self) -> bool {
        self.setup.mode == Mode::Engine
            && self.stop.is_none()
            && !self.position().is_over()
            && self.setup.engine_side == Some(self.position().to_move())
    }

    /// The round's or game's stop as an error, if it was stopped.
    fn check_not_stopped(&self) -> Result<(), RoomError> {
        match self.stop {
            Some(stop) => Err(RoomError::Stopped(stop.termination())),
            None => Ok(()),
        }
    }

    /// Checks that `seat` may move now: the game goes on, it is that seat's turn.
    ///
    /// # Errors
    /// [`RoomError::Stopped`], [`RoomError::Over`], [`RoomError::RoundOver`]
    /// or [`RoomError::NotYourTurn`].
    pub fn check_turn(&self, seat: Seat) -> Result<(), RoomError> {
        self.check_not_stopped()?;
        let pos = self.position();
        if pos.is_over() {
            return Err(if self.can_next_round() {
                RoomError::RoundOver
            } else {
                RoomError::Over { what: "game" }
            });
        }
        if !seat.holds(pos.to_move()) {
            return Err(RoomError::NotYourTurn(pos.to_move()));
        }
        Ok(())
    }

    /// Checks a move token completely on a copy of the position and
    /// records its sowing trace (at most `trace_limit` events). Changes nothing.
    ///
    /// # Errors
    /// As [`prepare_move`]; [`RoomError::Stopped`] once the game was stopped.
    pub fn prepare(&self, token: &str, trace_limit: usize) -> Result<Prepared, RoomError> {
        prepare_move(self.move_input()?, token, trace_limit, false)
    }

    /// What [`prepare_move`] needs of this room.
    ///
    /// # Errors
    /// [`RoomError::Stopped`] once the game was stopped.
    pub fn move_input(&self) -> Result<MoveInput, RoomError> {
        self.check_not_stopped()?;
        Ok(MoveInput {
            pos: *self.position(),
            seq: self.seq(),
            epoch: self.epoch,
        })
    }

    /// Whether `p` was prepared in this room as it is now (same step, same
    /// undo count): then [`Room::commit`] takes it.
    pub fn takes(&self, p: &Prepared) -> bool {
        p.event.seq == self.seq() + 1 && p.event.epoch == self.epoch
    }

    /// Applies a prepared move, without sowing it again.
    ///
    /// # Panics
    /// If `p` was not prepared in this room as it is now ([`Room::takes`]).
    pub fn commit(&mut self, p: Prepared) -> MoveEvent {
        assert!(self.takes(&p), "a move prepared at another step");
        let t = self
            .play
            .commit(p.traced)
            .expect("a move prepared in the current position");
        self.legal = OnceLock::new();
        // Worked out before the repetition rule: kept unless it ended the game.
        if let Some(legal) = p.legal_after.filter(|_| !t.after().is_over()) {
            let _ = self.legal.set(legal);
        }
        let pos = *self.position();
        let sown = MoveHoles::of(t.mv(), String::new());
        self.steps.push(StepView {
            seq: self.seq() + 1,
            round: pos.round(),
            kind: StepKind::Move,
            side: Some(p.event.side),
            token: Some(p.token),
            board: pos.board().to_vec(),
            captured: caps(&pos),
            to_move: (!pos.is_over()).then(|| pos.to_move()),
            holes: sown.holes,
            dir: Some(sown.dir),
            extra_turn: p.event.extra_turn,
        });
        p.event
    }

    /// Whether the current round of a match is over and the next can start.
    pub fn can_next_round(&self) -> bool {
        self.stop.is_none() && self.play.can_start_next_round()
    }

    /// The side that resigns for `seat`: its own side, or in hot-seat
    /// (where one seat holds both) the side to move.
    pub fn resigner(&self, seat: Seat) -> Side {
        match seat {
            Seat::One(side) => side,
            Seat::Both => self.position().to_move(),
        }
    }

    /// The step by which `seat` resigns (in hot-seat the player to move):
    /// with `round`, the current round of a match (`concede:<side>`), else
    /// the game or the whole match (`resign:<side>`). Checks it; changes nothing.
    ///
    /// # Errors
    /// [`RoomError::NotAMatch`] for a round of a single game; as
    /// [`Room::check_concede`] or [`Room::check_stop`].
    pub fn resignation(&self, seat: Seat, round: bool) -> Result<String, RoomError> {
        let side = self.resigner(seat);
        if !round {
            let stop = Stop::Resign(side);
            self.check_stop(stop)?;
            return Ok(stop.token());
        }
        if !self.play.is_match() {
            return Err(RoomError::NotAMatch);
        }
        self.check_concede()?;
        Ok(concession_token(side))
    }

    /// Checks that a player may resign: the game (or the match) goes on.
    ///
    /// # Errors
    /// [`RoomError::Stopped`] or [`RoomError::Over`].
    pub fn check_resign(&self) -> Result<(), RoomError> {
        self.check_not_stopped()?;
        if self.play.is_over() {
            let what = if self.play.is_match() { "match" } else { "game" };
            return Err(RoomError::Over { what });
        }
        Ok(())
    }

    /// Checks that the game (or the match) may be stopped so: it goes on,
    /// and an abort comes before both players have moved.
    ///
    /// # Errors
    /// As [`Room::check_resign`]; [`RoomError::TooLateToAbort`] for an abort
    /// once both players have moved.
    pub fn check_stop(&self, stop: Stop) -> Result<(), RoomError> {
        self.check_resign()?;
        if let Stop::Abort(_) = stop {
            if self.both_moved() {
                return Err(RoomError::TooLateToAbort);
            }
        }
        Ok(())
    }

    /// Whether each side has made a move: a game may be aborted until
    /// then, and a rated game stopped before then is not rated.
    pub fn both_moved(&self) -> bool {
        let moved = |side| {
            self.steps
                .iter()
                .any(|s| s.kind == StepKind::Move && s.side == Some(side))
        };
        moved(Side::South) && moved(Side::North)
    }

    /// Ends the game (or the match) with `stop` (after [`Room::check_stop`]).
    pub fn commit_stop(&mut self, stop: Stop) {
        self.stop = Some(stop);
        self.push_end_step(stop.kind(), stop.side(), stop.token());
    }

    /// Records a step that ended the game or round (nobody is to move after
    /// it) on the current position.
    fn push_end_step(&mut self, kind: StepKind, side: Option<Side>, token: String) {
        let pos = *self.position();
        self.steps.push(StepView {
            seq: self.seq() + 1,
            round: pos.round(),
            kind,
            side,
            token: Some(token),
            board: pos.board().to_vec(),
            captured: caps(&pos),
            to_move: None,
            holes: Vec::new(),
            dir: None,
            extra_turn: false,
        });
    }

    /// Checks that the current round may be conceded: it goes on.
    ///
    /// # Errors
    /// As [`Room::check_resign`]; [`RoomError::RoundOver`] once the round is over.
    pub fn check_concede(&self) -> Result<(), RoomError> {
        self.check_resign()?;
        if self.position().is_over() {
            return Err(RoomError::RoundOver);
        }
        Ok(())
    }

    /// Ends the current round by `side`'s concession (after
    /// [`Room::check_concede`]): the seeds in play go to the other side and
    /// the round is counted.
    pub fn commit_concede(&mut self, side: Side) {
        self.play.concede(side).expect("checked before");
        self.legal = OnceLock::new();
        self.push_end_step(StepKind::Concede, Some(side), concession_token(side));
    }

    /// Checks that the next round can start.
    ///
    /// # Errors
    /// [`RoomError::NoNextRound`] if this is not a match, the round goes
    /// on, or the match is over.
    pub fn check_next_round(&self) -> Result<(), RoomError> {
        if self.can_next_round() {
            Ok(())
        } else {
            Err(RoomError::NoNextRound)
        }
    }

    /// Starts the next round (after [`Room::check_next_round`]).
    pub fn commit_next_round(&mut self) {
        let started = self.play.start_next_round();
        self.legal = OnceLock::new();
        assert!(started, "checked before");
        let pos = *self.position();
        self.steps.push(StepView {
            seq: self.seq() + 1,
            round: pos.round(),
            kind: StepKind::Round,
            side: None,
            token: None,
            board: pos.board().to_vec(),
            captured: caps(&pos),
            to_move: (!pos.is_over()).then(|| pos.to_move()),
            holes: Vec::new(),
            dir: None,
            extra_turn: false,
        });
    }

    /// The list summary.
    pub fn summary(&self) -> Summary {
        let pos = self.position();
        let (c, r) = (pos.captured(), pos.reserve());
        let result = self.result();
        Summary {
            to_move: (!self.finished() && !pos.is_over()).then(|| pos.to_move().name()),
            status: if result.is_some() { "over" } else { "playing" },
            seq: self.seq(),
            result,
            score: [c.south as u32 + r.south as u32, c.north as u32 + r.north as u32],
        }
    }

    /// Works out the legal moves of the current position if not done yet
    /// (the rules work of a view).
    pub fn warm(&self) {
        self.legal_tokens_ref();
    }

    /// Legal move tokens for the player to move (none once stopped).
    pub fn legal_tokens(&self) -> Vec<String> {
        if self.stop.is_some() {
            return Vec::new();
        }
        self.legal_tokens_ref().clone()
    }

    /// The legal moves, if worked out already.
    pub fn legal_cached(&self) -> Option<&Vec<String>> {
        self.legal.get()
    }

    fn legal_tokens_ref(&self) -> &Vec<String> {
        self.legal.get_or_init(|| self.position().legal_tokens())
    }

    /// The tokens of the first `keep` steps, as stored.
    pub fn step_tokens(&self, keep: u64) -> Vec<String> {
        self.steps[..(keep as usize).min(self.steps.len())]
            .iter()
            .map(|s| s.token.clone().unwrap_or_else(|| NEXT_ROUND.to_string()))
            .collect()
    }

    /// The tokens of every step, as stored.
    pub fn tokens(&self) -> Vec<String> {
        self.step_tokens(self.seq())
    }
}
