//! [`LiveGame`]: a game held in memory, rebuilt from its stored steps, with
//! the views the API sends.
//!
//! Changing a game is two-phase so that nothing changes unless the step was
//! stored: [`LiveGame::prepare`] checks a move completely on a copy of the
//! position (and records its sowing trace), the caller stores it, then
//! [`LiveGame::commit`] applies it, which cannot fail.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use hoyito_core::{
    concession_token, parse_concession, Contest, Game, GameResult, Move, Played, Position, Side, Trace,
    MAX_TRACE_EVENTS,
};

use crate::auth::Seat;
use crate::ending::Stop;
use crate::error::ApiError;
use crate::store::{DrawOffer, Meta, Mode, StoredGame, Summary};
use crate::view::{MoveEvent, StepView};

/// The step token that starts the next round of a match.
pub const NEXT_ROUND: &str = "next";

/// A move checked on a copy, ready to store and commit.
#[derive(Debug, Clone)]
pub struct Prepared {
    m: Move,
    /// The token to store (canonical spelling).
    pub token: String,
    /// The event to send once committed.
    pub event: MoveEvent,
    /// The legal moves after it, if worked out already (off the game's lock).
    legal_after: Option<Vec<String>>,
}

/// What checking a move needs of a game, copied out of its lock so that
/// the rules work ([`prepare_move`]) runs on a blocking thread.
#[derive(Debug, Clone, Copy)]
pub struct MoveInput {
    pos: Position,
    /// The game's step count when copied.
    pub seq: u64,
    /// The game's undo count when copied.
    pub epoch: u64,
}

/// Checks a move token completely on a copy of the position, records its
/// sowing trace (at most `trace_limit` events) and, with `with_legal`,
/// works out the legal moves after it. The heavy rules work of a move
/// (proving a sowing finite or endless, for every candidate with
/// `with_legal`): call from a blocking thread for live moves.
///
/// # Errors
/// 409 if the game is over; 422 `bad_move` if the token is unreadable,
/// `illegal_move` if the move is illegal.
pub fn prepare_move(
    input: MoveInput,
    token: &str,
    trace_limit: usize,
    with_legal: bool,
) -> Result<Prepared, ApiError> {
    let pos = input.pos;
    if pos.is_over() {
        return Err(ApiError::conflict("game_over", "the game is over"));
    }
    let m = pos
        .parse_move(token)
        .map_err(|e| ApiError::unprocessable("bad_move", e.to_string()))?;
    let mut after = pos;
    let mut trace = Trace::new(trace_limit);
    let played: Played = after
        .play_observed(m, &mut trace)
        .map_err(|e| ApiError::unprocessable("illegal_move", format!("{} is illegal: {e}", token.trim())))?;
    let side = pos.to_move();
    let expected_next = if played.extra_turn { side } else { side.other() };
    let canonical = pos.move_token(m).to_string();
    Ok(Prepared {
        m,
        token: canonical.clone(),
        event: MoveEvent {
            seq: input.seq + 1,
            epoch: input.epoch,
            round: pos.round(),
            side,
            token: canonical,
            board_before: pos.board().to_vec(),
            captured_before: caps(&pos),
            trace,
            captured: played.captured,
            extra_turn: played.extra_turn,
            passed: !after.is_over() && after.to_move() != expected_next,
        },
        legal_after: with_legal.then(|| after.legal_tokens()),
    })
}

/// A game in memory.
#[derive(Debug)]
pub struct LiveGame {
    /// What was fixed at creation.
    pub meta: Meta,
    /// The game or match.
    pub play: Contest,
    /// Stored steps with their views.
    pub steps: Vec<StepView>,
    /// Undos so far.
    pub epoch: u64,
    /// The engine is searching.
    pub thinking: bool,
    /// Stops the current engine search.
    pub stop: Arc<AtomicBool>,
    /// How the game (or the match) was stopped before it was played out.
    pub stop_reason: Option<Stop>,
    /// The draw offer made last (online games), as stored in the database:
    /// it waits for an answer only while the game has the steps it had when
    /// offered ([`LiveGame::pending_draw`]), so any stored step withdraws it.
    pub draw_offer: Option<DrawOffer>,
    /// The database's count of draw offers stored or cleared in this game
    /// ([`StoredGame::draw_rev`]): tells which of two copies is newer.
    pub draw_rev: u64,
    /// The step count at each side's last draw offer: one offer per move.
    /// Kept in memory by the node that took the offer (and learnt from a
    /// stored offer when the game is loaded); a restarted server lets a
    /// player whose offer was declined offer again at the same move.
    pub draw_offered_at: [Option<u64>; 2],
    /// When each stored step was stored (ms since the epoch; `None` for
    /// imported steps), for the clocks.
    pub times: Vec<Option<i64>>,
    /// The timer that ends the game when the running clock runs out.
    pub clock_timer: Option<tokio::task::AbortHandle>,
    /// When each side's last chat messages were sent (the flood limit).
    pub chat_sent: [std::collections::VecDeque<i64>; 2],
    /// The legal moves of the current position, once worked out.
    pub(crate) legal: std::sync::OnceLock<Vec<String>>,
}

/// `side`'s index in per-side arrays: south 0, north 1.
pub(crate) fn side_index(side: Side) -> usize {
    match side {
        Side::South => 0,
        Side::North => 1,
    }
}

pub(crate) fn caps(p: &Position) -> [u8; 2] {
    let c = p.captured();
    [c.south, c.north]
}

impl LiveGame {
    /// A game with no steps.
    ///
    /// # Errors
    /// 422 if the stored start position is not valid notation.
    pub fn new(meta: Meta, epoch: u64) -> Result<LiveGame, ApiError> {
        let play = if meta.is_match {
            Contest::new_match(meta.rules)
        } else {
            let start = match &meta.start {
                Some(text) => Position::from_notation(meta.rules, text)
                    .map_err(|e| ApiError::unprocessable("invalid_position", e.to_string()))?,
                None => Position::new(meta.rules),
            };
            Contest::Game(Game::from_position(start))
        };
        Ok(LiveGame {
            meta,
            play,
            steps: Vec::new(),
            epoch,
            thinking: false,
            stop: Arc::new(AtomicBool::new(false)),
            stop_reason: None,
            draw_offer: None,
            draw_rev: 0,
            draw_offered_at: [None, None],
            times: Vec::new(),
            clock_timer: None,
            chat_sent: Default::default(),
            legal: std::sync::OnceLock::new(),
        })
    }

    /// Rebuilds a game by replaying stored steps.
    ///
    /// # Errors
    /// If a stored step does not replay (a corrupt database or an invalid import).
    pub fn replay(meta: Meta, epoch: u64, steps: &[String]) -> Result<LiveGame, ApiError> {
        let mut g = LiveGame::new(meta, epoch)?;
        for (i, s) in steps.iter().enumerate() {
            let r = if s == NEXT_ROUND {
                g.check_next_round().map(|()| g.commit_next_round())
            } else if let Some(stop) = Stop::parse(s) {
                stop.and_then(|stop| g.check_stop(stop).map(|()| g.commit_stop(stop)))
            } else if let Some(side) = parse_concession(s) {
                g.check_concede().map(|()| g.commit_concede(side))
            } else {
                g.prepare(s, 0).map(|p| {
                    g.commit(p);
                })
            };
            if let Err(e) = r {
                return Err(ApiError::unprocessable(
                    e.code,
                    format!("step {} ({s}): {}", i + 1, e.message),
                ));
            }
        }
        Ok(g)
    }

    /// Rebuilds a game as stored: replays its steps and takes its draw
    /// offer if it still waits.
    ///
    /// # Errors
    /// As [`LiveGame::replay`].
    pub fn restore(stored: StoredGame) -> Result<LiveGame, ApiError> {
        let mut g = LiveGame::replay(stored.meta, stored.undos, &stored.steps)?;
        g.draw_offer = stored.draw_offer;
        g.draw_rev = stored.draw_rev;
        if let Some(side) = g.pending_draw() {
            g.draw_offered_at[side_index(side)] = Some(g.seq());
        }
        Ok(g)
    }

    /// The side whose draw offer waits for an answer: offered at the
    /// current step of a game that goes on.
    pub fn pending_draw(&self) -> Option<Side> {
        self.draw_offer
            .filter(|o| o.seq == self.seq() && self.stop_reason.is_none())
            .map(|o| o.side)
    }

    /// The current round's game.
    pub fn current(&self) -> &Game {
        self.play.current()
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.current().position()
    }

    /// Stored steps.
    pub fn seq(&self) -> u64 {
        self.steps.len() as u64
    }

    /// Whether the game (or the whole match) is over: played to its end,
    /// or resigned.
    pub fn finished(&self) -> bool {
        self.stop_reason.is_some() || self.play.is_over()
    }

    /// The winner's name (`south`, `north`, `draw`) once the game (or the
    /// whole match) is over; a resignation makes the other side the winner.
    pub fn result(&self) -> Option<&'static str> {
        match self.stop_reason {
            Some(stop) => Some(stop.result()),
            None => self.play.result().map(GameResult::name),
        }
    }

    /// Whether the engine is to move.
    pub fn engine_to_move(&self) -> bool {
        self.meta.mode == Mode::Engine
            && self.stop_reason.is_none()
            && !self.position().is_over()
            && self.meta.engine_side == Some(self.position().to_move())
    }

    /// Checks that `seat` may move now: the game goes on, it is that seat's turn.
    ///
    /// # Errors
    /// 409 `game_over` or `not_your_turn`.
    pub fn check_turn(&self, seat: Seat) -> Result<(), ApiError> {
        self.check_not_resigned()?;
        let pos = self.position();
        if pos.is_over() {
            return Err(if self.can_next_round() {
                ApiError::conflict("round_over", "this round is over: start the next round")
            } else {
                ApiError::conflict("game_over", "the game is over")
            });
        }
        if !seat.holds(pos.to_move()) {
            return Err(ApiError::conflict(
                "not_your_turn",
                format!("it is {}'s turn", pos.to_move()),
            ));
        }
        Ok(())
    }

    /// Checks a move token completely on a copy of the position and
    /// records its sowing trace (at most `trace_limit` events). Changes nothing.
    ///
    /// # Errors
    /// 409 if the game is over; 422 `bad_move` if the token is unreadable,
    /// `illegal_move` if the move is illegal.
    pub fn prepare(&self, token: &str, trace_limit: usize) -> Result<Prepared, ApiError> {
        prepare_move(self.move_input()?, token, trace_limit, false)
    }

    /// What [`prepare_move`] needs of this game.
    ///
    /// # Errors
    /// 409 `game_over` once a player resigned.
    pub fn move_input(&self) -> Result<MoveInput, ApiError> {
        self.check_not_resigned()?;
        Ok(MoveInput {
            pos: *self.position(),
            seq: self.seq(),
            epoch: self.epoch,
        })
    }

    /// Takes the stored state of `fresh` (the same game reloaded from the
    /// database after another server node changed it), keeping what only
    /// this node knows: the engine's search, the clock's timer, the chat
    /// flood counts. A copy older than this game (fewer steps at the same
    /// undo count, or fewer undos: read before a change this node made
    /// meanwhile) is left out: returns whether the copy was taken. The
    /// copy's draw offer is taken if the copy is further on, or at the same
    /// step with at least as many draw changes stored.
    pub fn refresh(&mut self, fresh: LiveGame) -> bool {
        let (theirs, ours) = ((fresh.epoch, fresh.seq()), (self.epoch, self.seq()));
        if theirs < ours {
            return false;
        }
        if theirs > ours || fresh.draw_rev >= self.draw_rev {
            self.draw_offer = fresh.draw_offer;
        }
        self.draw_rev = self.draw_rev.max(fresh.draw_rev);
        self.meta = fresh.meta;
        self.play = fresh.play;
        self.steps = fresh.steps;
        self.epoch = fresh.epoch;
        self.stop_reason = fresh.stop_reason;
        self.times = fresh.times;
        self.legal = fresh.legal;
        if let Some(side) = self.pending_draw() {
            self.draw_offered_at[side_index(side)] = Some(self.seq());
        }
        true
    }

    /// Works out the legal moves of the current position if not done yet
    /// (the rules work of a view: call from a blocking thread).
    pub fn warm(&self) {
        self.legal_tokens_ref();
    }

    /// Applies a prepared move (after it was stored).
    pub fn commit(&mut self, p: Prepared) -> MoveEvent {
        self.play.play(p.m).expect("a prepared move is legal");
        self.legal = std::sync::OnceLock::new();
        if let Some(legal) = p.legal_after {
            let _ = self.legal.set(legal);
        }
        let pos = *self.position();
        self.steps.push(StepView {
            seq: self.seq() + 1,
            round: pos.round(),
            kind: "move",
            side: Some(p.event.side),
            token: Some(p.token),
            board: pos.board().to_vec(),
            captured: caps(&pos),
            to_move: (!pos.is_over()).then(|| pos.to_move()),
        });
        p.event
    }

    /// Whether the current round of a match is over and the next can start.
    pub fn can_next_round(&self) -> bool {
        self.stop_reason.is_none() && self.play.can_start_next_round()
    }

    /// 409 `game_over` once the game was stopped (resigned, aborted, drawn, flagged).
    fn check_not_resigned(&self) -> Result<(), ApiError> {
        match self.stop_reason {
            Some(stop) => Err(ApiError::conflict(
                "game_over",
                format!("the game is over: {}", stop.termination()),
            )),
            None => Ok(()),
        }
    }

    /// The side that resigns for `seat`: its own side, or in hot-seat
    /// (where one token holds both) the side to move.
    pub fn resigner(&self, seat: Seat) -> Side {
        match seat {
            Seat::One(side) => side,
            Seat::Both => self.position().to_move(),
        }
    }

    /// Checks that a player may resign: the game (or the match) goes on.
    ///
    /// # Errors
    /// 409 `game_over` if it is over (played to its end or resigned).
    pub fn check_resign(&self) -> Result<(), ApiError> {
        self.check_not_resigned()?;
        if self.play.is_over() {
            let what = if self.play.is_match() { "match" } else { "game" };
            return Err(ApiError::conflict("game_over", format!("the {what} is over")));
        }
        Ok(())
    }

    /// Checks that the game (or the match) may be stopped so: it goes on,
    /// and an abort comes before both players have moved.
    ///
    /// # Errors
    /// 409 `game_over` if it is over; 409 `too_late_to_abort` for an abort
    /// once both players have moved.
    pub fn check_stop(&self, stop: Stop) -> Result<(), ApiError> {
        self.check_resign()?;
        if let Stop::Abort(_) = stop {
            let moved = |side| {
                self.steps
                    .iter()
                    .any(|s| s.kind == "move" && s.side == Some(side))
            };
            if moved(Side::South) && moved(Side::North) {
                return Err(ApiError::conflict(
                    "too_late_to_abort",
                    "both players have moved: resign or offer a draw instead",
                ));
            }
        }
        Ok(())
    }

    /// Ends the game (or the match) with `stop` (after
    /// [`LiveGame::check_stop`] and storing the step).
    pub fn commit_stop(&mut self, stop: Stop) {
        self.stop_reason = Some(stop);
        self.push_end_step(stop.kind(), stop.side(), stop.token());
    }

    /// Records a step that ended the game or round (nobody is to move after
    /// it) on the current position.
    fn push_end_step(&mut self, kind: &'static str, side: Option<Side>, token: String) {
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
        });
    }

    /// Checks that the current game (a match's round) may be conceded: it
    /// goes on. (The API concedes only rounds; a recorded single game may
    /// end conceded too.)
    ///
    /// # Errors
    /// 409 `game_over` once the game or match is over, `round_over` once the round is.
    pub fn check_concede(&self) -> Result<(), ApiError> {
        self.check_resign()?;
        if self.position().is_over() {
            return Err(ApiError::conflict(
                "round_over",
                "this round is over: start the next round",
            ));
        }
        Ok(())
    }

    /// Ends the current game (round) by `side`'s concession (after
    /// [`LiveGame::check_concede`] and storing the step): the seeds in play
    /// go to the other side and the round is counted.
    pub fn commit_concede(&mut self, side: Side) {
        self.play.concede(side).expect("checked before");
        self.legal = std::sync::OnceLock::new();
        self.push_end_step("concede", Some(side), concession_token(side));
    }

    /// Checks that the next round can start.
    ///
    /// # Errors
    /// 409 if this is not a match, the round goes on, or the match is over.
    pub fn check_next_round(&self) -> Result<(), ApiError> {
        if self.can_next_round() {
            Ok(())
        } else {
            Err(ApiError::conflict(
                "no_next_round",
                "the next round can start only when a round of an unfinished match is over",
            ))
        }
    }

    /// Starts the next round (after [`LiveGame::check_next_round`] and storing the step).
    pub fn commit_next_round(&mut self) {
        let started = self.play.start_next_round();
        self.legal = std::sync::OnceLock::new();
        assert!(started, "checked before");
        let pos = *self.position();
        self.steps.push(StepView {
            seq: self.seq() + 1,
            round: pos.round(),
            kind: "round",
            side: None,
            token: None,
            board: pos.board().to_vec(),
            captured: caps(&pos),
            to_move: (!pos.is_over()).then(|| pos.to_move()),
        });
    }

    /// How many steps to keep to undo: in an engine game, back to the
    /// human's last move in this round; in hot-seat, one move.
    ///
    /// # Errors
    /// 409 if undo is not available in this mode or there is nothing to undo.
    pub fn undo_target(&self) -> Result<u64, ApiError> {
        let human = match self.meta.mode {
            Mode::Online => {
                return Err(ApiError::conflict(
                    "undo_unavailable",
                    "undo is not available in online games",
                ))
            }
            Mode::Hotseat => None,
            Mode::Engine => self.meta.engine_side.map(Side::other),
        };
        let nothing = || ApiError::conflict("nothing_to_undo", "no move of yours to take back in this round");
        self.check_not_resigned()?;
        if self.play.is_match() && self.play.is_over() {
            return Err(ApiError::conflict("game_over", "the match is over"));
        }
        // Steps of the current round: after the last round start.
        let first = self
            .steps
            .iter()
            .rposition(|s| s.kind == "round")
            .map_or(0, |i| i + 1);
        let mut keep = self.steps.len();
        let Some(human) = human else {
            return if keep > first {
                Ok(keep as u64 - 1)
            } else {
                Err(nothing())
            };
        };
        // Remove moves until one by the human was removed and the human is to move.
        let mut removed_human = false;
        while keep > first {
            let s = &self.steps[keep - 1];
            removed_human |= s.side == Some(human);
            keep -= 1;
            let to_move = if keep == first {
                Some(self.round_start(self.position().round()).to_move())
            } else {
                self.steps[keep - 1].to_move
            };
            if removed_human && to_move == Some(human) {
                return Ok(keep as u64);
            }
        }
        Err(nothing())
    }

    fn round_start(&self, round: u32) -> Position {
        *self.play.rounds()[round as usize - 1].start()
    }

    /// The list summary.
    pub fn summary(&self) -> Summary {
        let pos = self.position();
        let (c, r) = (pos.captured(), pos.reserve());
        let result = self.result();
        let status = if result.is_some() {
            "over"
        } else if self.meta.mode == Mode::Online
            && (self.meta.tokens.south.is_none() || self.meta.tokens.north.is_none())
        {
            "waiting"
        } else {
            "playing"
        };
        Summary {
            to_move: (!self.finished() && !pos.is_over()).then(|| pos.to_move().name()),
            status,
            plies: self.seq(),
            result,
            score: [c.south as u32 + r.south as u32, c.north as u32 + r.north as u32],
        }
    }

    /// Legal move tokens for the player to move.
    pub fn legal_tokens(&self) -> Vec<String> {
        self.legal_tokens_ref().clone()
    }

    fn legal_tokens_ref(&self) -> &Vec<String> {
        self.legal.get_or_init(|| self.position().legal_tokens())
    }

    /// The stored tokens of the first `keep` steps.
    pub fn step_tokens(&self, keep: u64) -> Vec<String> {
        self.steps[..keep as usize]
            .iter()
            .map(|s| s.token.clone().unwrap_or_else(|| NEXT_ROUND.to_string()))
            .collect()
    }

    /// Goes back to the first `keep` steps (after a failed store).
    pub fn rollback(&mut self, keep: u64) {
        let tokens = self.step_tokens(keep);
        let g = LiveGame::replay(self.meta.clone(), self.epoch, &tokens).expect("stored steps replay");
        self.play = g.play;
        self.steps = g.steps;
        self.stop_reason = g.stop_reason;
        self.times.truncate(keep as usize);
        self.legal = g.legal;
    }

    /// A trace limit for live moves.
    pub const TRACE_LIMIT: usize = MAX_TRACE_EVENTS;
}
