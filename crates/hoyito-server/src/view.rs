//! The views the API sends: a game as the browser draws it ([`GameView`])
//! and a move as it was played ([`MoveEvent`]).

use hoyito_core::{RulesSpec, Side, State, Trace};
use serde::Serialize;

use crate::ending::Stop;
use crate::live::LiveGame;
use crate::store::Mode;

/// One stored step, with what the board looked like after it (for replay).
#[derive(Debug, Clone, Serialize)]
pub struct StepView {
    /// Step number, from 1.
    pub seq: u64,
    /// Round the step belongs to (for `round` steps: the round it started).
    pub round: u32,
    /// `move`, `round` (start of the next round), or how the game was
    /// stopped: `resign`, `abort`, `draw` (agreed) or `flag` (time ran out).
    pub kind: &'static str,
    /// The mover, for moves; the side that resigned, aborted or ran out of
    /// time, for those steps.
    pub side: Option<Side>,
    /// The step's token: the move's, or `resign:<side>`, `abort:<side>`,
    /// `draw`, `flag:<side>`.
    pub token: Option<String>,
    /// Board after the step.
    pub board: Vec<u8>,
    /// `[south, north]` captured in the round after the step.
    pub captured: [u8; 2],
    /// Player to move after the step (null once the round is over).
    pub to_move: Option<Side>,
}

/// One round of a match (or the single game): the core's summary.
pub type RoundView = hoyito_core::RoundSummary;

/// Which seats are taken.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct SeatsView {
    /// South's seat is bound to a token (or is the engine's).
    pub south: bool,
    /// North's seat is bound to a token (or is the engine's).
    pub north: bool,
}

/// The match result.
#[derive(Debug, Clone, Serialize)]
pub struct MatchResultView {
    /// `south`, `north`, `draw`, or `aborted`.
    pub winner: &'static str,
    /// Rounds played.
    pub rounds: u32,
}

/// Everything the browser needs to draw a game.
#[derive(Debug, Clone, Serialize)]
pub struct GameView {
    /// The game id.
    pub id: String,
    /// `engine`, `hotseat` or `online`.
    pub mode: Mode,
    /// The rules.
    pub rules: RulesSpec,
    /// A match of rounds?
    #[serde(rename = "match")]
    pub is_match: bool,
    /// Engine level.
    pub level: u8,
    /// The engine's side in an engine game.
    pub engine_side: Option<Side>,
    /// Taken seats.
    pub seats: SeatsView,
    /// `waiting`, `playing` or `over`.
    pub status: &'static str,
    /// How the game (or the match) ended, once `status` is `over`:
    /// `play` if it was played to its end, `resign` if a player resigned,
    /// `abort` if a player aborted it before both had moved (no winner),
    /// `agreed_draw` if the players agreed a draw, `timeout` if a clock ran out.
    pub end: Option<&'static str>,
    /// The side that resigned, if one did.
    pub resigned: Option<Side>,
    /// The side that aborted the game, if one did.
    pub aborted: Option<Side>,
    /// The side whose clock ran out, if one did.
    pub flagged: Option<Side>,
    /// The side whose draw offer waits for the other's answer (stored: it
    /// survives a restart and shows on every server node; any stored step
    /// withdraws it).
    pub draw_offer: Option<Side>,
    /// The players' nicknames, where they gave one.
    pub names: crate::names::NamesView,
    /// The game's clock, if it has one.
    pub clock: Option<crate::clock::ClockView>,
    /// Stored steps so far; the next move is step `seq + 1`.
    pub seq: u64,
    /// Undos so far; a client seeing a larger epoch must redraw from scratch.
    pub epoch: u64,
    /// Current round.
    pub round: u32,
    /// The current position as the JSON state of RULES.md §7.
    pub state: State,
    /// Legal move tokens for the player to move.
    pub legal: Vec<String>,
    /// Whether the mover chooses a direction (tokens carry `L`/`R`).
    pub direction_choice: bool,
    /// Whether the move to play is a two-hole opening (`a+b`).
    pub opening_pair: bool,
    /// The engine is thinking.
    pub thinking: bool,
    /// Every round so far.
    pub rounds: Vec<RoundView>,
    /// Every stored step, or in a delta the steps from [`GameView::history_from`] on.
    pub history: Vec<StepView>,
    /// Set in a delta (a move's answer and WebSocket message, or
    /// `GET /api/games/{id}?history_from=N`): `history` holds the steps
    /// from this index on (0-based: step `history_from + 1` first); the
    /// earlier ones are those the client has.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub history_from: Option<u64>,
    /// The match result once the match is over.
    pub match_result: Option<MatchResultView>,
    /// The current round is over and the next can start.
    pub can_next_round: bool,
    /// Creation time (ms since the epoch).
    pub created_ms: i64,
}

/// One move as it was played, with its sowing trace.
#[derive(Debug, Clone, Serialize)]
pub struct MoveEvent {
    /// Step number of the move.
    pub seq: u64,
    /// Undo epoch it was played in.
    pub epoch: u64,
    /// Round.
    pub round: u32,
    /// The mover.
    pub side: Side,
    /// The move's token.
    pub token: String,
    /// Board before the move.
    pub board_before: Vec<u8>,
    /// `[south, north]` captured before the move.
    pub captured_before: [u8; 2],
    /// The sowing events (cut past a limit).
    pub trace: Trace,
    /// Seeds captured by the move (last-four award included).
    pub captured: u8,
    /// The mover moves again.
    pub extra_turn: bool,
    /// The player who should have moved next had no legal move and passed.
    pub passed: bool,
}

impl LiveGame {
    /// The full view.
    pub fn view(&self) -> GameView {
        self.view_from(None)
    }

    /// A delta: the view with only the steps from index `from` on in its
    /// history (0-based; every step if `from` is 0, none past the last).
    /// What a move's answer and WebSocket message carry, so that their size
    /// does not grow with the game.
    pub fn view_since(&self, from: u64) -> GameView {
        self.view_from(Some(from.min(self.seq())))
    }

    fn view_from(&self, from: Option<u64>) -> GameView {
        let pos = *self.position();
        let rounds = self.play.round_summaries();
        let summary = self.summary();
        let legal = if self.stop_reason.is_some() {
            Vec::new()
        } else {
            self.legal_tokens()
        };
        let engine = self.meta.engine_side;
        GameView {
            id: self.meta.id.clone(),
            mode: self.meta.mode,
            rules: self.meta.rules.spec(),
            is_match: self.meta.is_match,
            level: self.meta.level,
            engine_side: engine,
            seats: SeatsView {
                south: self.meta.tokens.south.is_some() || engine == Some(Side::South),
                north: self.meta.tokens.north.is_some() || engine == Some(Side::North),
            },
            status: summary.status,
            end: match (self.stop_reason, self.finished()) {
                (Some(stop), _) => Some(stop.end()),
                (None, true) => Some("play"),
                (None, false) => None,
            },
            resigned: match self.stop_reason {
                Some(Stop::Resign(s)) => Some(s),
                _ => None,
            },
            aborted: match self.stop_reason {
                Some(Stop::Abort(s)) => Some(s),
                _ => None,
            },
            flagged: match self.stop_reason {
                Some(Stop::Flag(s)) => Some(s),
                _ => None,
            },
            draw_offer: self.pending_draw(),
            names: crate::names::NamesView::of(&self.meta),
            clock: self.clock_view(crate::store::now()),
            seq: self.seq(),
            epoch: self.epoch,
            round: pos.round(),
            state: State::from_position(&pos),
            opening_pair: pos.opening_pending() && legal.iter().any(|t| t.contains('+')),
            direction_choice: !self.finished() && !pos.is_over() && pos.direction_is_choice(),
            legal,
            thinking: self.thinking,
            rounds,
            history: self.steps[from.unwrap_or(0) as usize..].to_vec(),
            history_from: from,
            match_result: match (self.play.as_match(), self.stop_reason) {
                (Some(_), Some(stop)) => Some(MatchResultView {
                    winner: stop.result(),
                    rounds: self.play.rounds().len() as u32,
                }),
                (m, _) => m.and_then(|m| m.outcome()).map(|o| MatchResultView {
                    winner: o.result().name(),
                    rounds: o.rounds,
                }),
            },
            can_next_round: self.can_next_round(),
            created_ms: self.meta.created_ms,
        }
    }
}
