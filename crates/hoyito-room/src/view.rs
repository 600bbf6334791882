//! What a room shows: its steps ([`StepView`]), a move as it was played
//! ([`MoveEvent`]), the whole room ([`RoomView`], made by
//! [`crate::Room::view`]) and its one-line summary for a list of games
//! ([`Summary`]).

use hoyito_core::{Move, Position, RulesSpec, Side, State, Trace};
use serde::{Deserialize, Serialize};

use crate::mode::Mode;
use crate::step::{End, StepKind};

/// Where a move is sown, as the page marks it: the board indices of its
/// holes (two for the two-hole opening, in the order sown) and its
/// direction, `L` (counter-clockwise) or `R` (clockwise). The page reads
/// moves from these, never from their tokens.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveHoles {
    /// The move's token.
    pub token: String,
    /// Board indices of the holes sown.
    pub holes: Vec<u8>,
    /// `L` or `R`.
    pub dir: char,
}

impl MoveHoles {
    /// Move `m`, whose token is `token`.
    pub fn of(m: Move, token: String) -> MoveHoles {
        let mut holes = vec![m.hole() as u8];
        holes.extend(m.second().map(|h| h as u8));
        MoveHoles {
            token,
            holes,
            dir: m.direction().suffix(),
        }
    }

    /// Reads `token` in `pos` with the core's token reader (`None` if it is
    /// no move of the player to move).
    pub fn read(pos: &Position, token: &str) -> Option<MoveHoles> {
        let m = pos.parse_move(token).ok()?;
        Some(MoveHoles::of(m, pos.move_token(m).to_string()))
    }
}

/// One step, with what the board looked like after it (for replay).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StepView {
    /// Step number, from 1.
    pub seq: u64,
    /// Round the step belongs to (for `round` steps: the round it started).
    pub round: u32,
    /// What the step did: `move`, `round` (start of the next round),
    /// `concede` (a round of a match resigned), or how the game was
    /// stopped: `resign`, `abort`, `draw` (agreed), `flag` (time ran out),
    /// `left` or `left-draw` (a player left; the other claimed the win or
    /// called a draw).
    pub kind: StepKind,
    /// The mover, for moves; the side that conceded, resigned, aborted or
    /// ran out of time, for those steps.
    pub side: Option<Side>,
    /// The step's token: the move's, or `concede:<side>`, `resign:<side>`,
    /// `abort:<side>`, `draw`, `flag:<side>`; none for a round's start.
    pub token: Option<String>,
    /// Board after the step.
    pub board: Vec<u8>,
    /// `[south, north]` captured in the round after the step.
    pub captured: [u8; 2],
    /// Player to move after the step (null once the round is over).
    pub to_move: Option<Side>,
    /// For a move: the board indices of the holes it sowed.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub holes: Vec<u8>,
    /// For a move: its direction, `L` or `R`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dir: Option<char>,
    /// For a move: its capture gave the mover another move (Hoyito II and
    /// III; a pass of the other player is not one).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub extra_turn: bool,
}

/// One round of a match (or the single game): the core's summary.
pub type RoundView = hoyito_core::RoundSummary;

/// The match result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MatchResultView {
    /// `south`, `north`, `draw`, or `aborted`.
    pub winner: &'static str,
    /// Rounds played.
    pub rounds: u32,
}

/// A room as a board and its history are drawn from it. The server's view
/// of a game adds its seats, names, clock and draw offer; the browser's
/// view of a game on the device, its id and level.
#[derive(Debug, Clone, Serialize)]
pub struct RoomView {
    /// `engine`, `hotseat` or `online`.
    pub mode: Mode,
    /// The rules.
    pub rules: RulesSpec,
    /// A match of rounds?
    #[serde(rename = "match")]
    pub is_match: bool,
    /// The engine's side in a game against the engine.
    pub engine_side: Option<Side>,
    /// `playing` or `over` (the server says `waiting` while an online
    /// game's second seat is free).
    pub status: &'static str,
    /// How the game (or the match) ended, once `status` is `over`:
    /// `play` if it was played to its end, else the kind of the step that
    /// stopped it: `resign` if a player resigned, `abort` if a player
    /// aborted it before both had moved (no winner), `draw` if the players
    /// agreed a draw, `flag` if a clock ran out, `left` if a player left and
    /// the other claimed the win, `left-draw` if the other called it a draw.
    pub end: Option<End>,
    /// The result once the game (or the match) is over: `south` or `north`
    /// (the winner), `draw`, or `aborted`.
    pub result: Option<&'static str>,
    /// The side that resigned, if one did.
    pub resigned: Option<Side>,
    /// The side that aborted the game, if one did.
    pub aborted: Option<Side>,
    /// The side whose clock ran out, if one did.
    pub flagged: Option<Side>,
    /// The side that left the game (the other claimed the win or called it
    /// a draw), if one did.
    pub abandoned: Option<Side>,
    /// Steps so far; the next is step `seq + 1`.
    pub seq: u64,
    /// Undos so far; a client seeing a larger epoch must redraw from scratch.
    pub epoch: u64,
    /// Current round.
    pub round: u32,
    /// The current position as the JSON state of RULES.md §7.
    pub state: State,
    /// Legal move tokens for the player to move.
    pub legal: Vec<String>,
    /// The legal moves with where each is sown, in the order of `legal`.
    pub legal_moves: Vec<MoveHoles>,
    /// Whether the mover chooses a direction (tokens carry `L`/`R`).
    pub direction_choice: bool,
    /// Whether the move to play is a two-hole opening (`a+b`).
    pub opening_pair: bool,
    /// Every round so far.
    pub rounds: Vec<RoundView>,
    /// Every step, or in a delta the steps from [`RoomView::history_from`] on.
    pub history: Vec<StepView>,
    /// Set in a delta: `history` holds the steps from this index on
    /// (0-based: step `history_from + 1` first); the earlier ones are those
    /// the client has.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub history_from: Option<u64>,
    /// The match result once the match is over.
    pub match_result: Option<MatchResultView>,
    /// The current round is over and the next can start.
    pub can_next_round: bool,
    /// In a match whose round goes on, whether resigning the round would
    /// end the whole match, `[south, north]` for each side resigning: the
    /// seeds in play go to the other side, and a player left with too few
    /// seeds for another round loses the match (RULES.md §5).
    pub conceding_ends_match: Option<[bool; 2]>,
    /// What each seat may do now ([`crate::Room::may`]).
    pub may: MayView,
}

/// One move as it was played, with its sowing trace.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
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

/// A room in one line, for a list of games.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Summary {
    /// `playing` or `over` (the server says `waiting` while an online
    /// game's second seat is free).
    pub status: &'static str,
    /// Steps so far (moves, round starts and the rest): the view's `seq`.
    pub seq: u64,
    /// `south`, `north`, `draw` or `aborted` once over.
    pub result: Option<&'static str>,
    /// Captured seeds plus reserve, `[south, north]`, in the current round.
    pub score: [u32; 2],
    /// The side to move while the game goes on.
    pub to_move: Option<&'static str>,
}

/// What one seat may do now: each field `true` exactly when the room (with
/// its host) would take that request from the seat.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct SeatActions {
    /// Play a move.
    #[serde(rename = "move")]
    pub play: bool,
    /// Ask the engine for a hint (games that are not online, on the
    /// player's move).
    pub hint: bool,
    /// Undo (games against the engine and two players on one device).
    pub undo: bool,
    /// Abort the game (before both players have moved).
    pub abort: bool,
    /// Resign the game, or in a match the whole match.
    pub resign: bool,
    /// Resign the round being played of a match.
    pub resign_round: bool,
    /// Start the next round of a match.
    pub next_round: bool,
    /// Offer a draw (to the engine, which answers at once, or to the other
    /// player; to a player whose draw offer waits, it agrees the draw).
    pub offer_draw: bool,
    /// Accept the other player's draw offer.
    pub accept_draw: bool,
    /// Decline the other player's draw offer.
    pub decline_draw: bool,
    /// Ask to take back one's last move (online games).
    pub ask_takeback: bool,
    /// Accept the other player's takeback request.
    pub accept_takeback: bool,
    /// Decline the other player's takeback request.
    pub decline_takeback: bool,
    /// Claim the win (or call a draw) against a player who left.
    pub claim: bool,
}

/// What each seat may do, in the view: `south` and `north` for seats held
/// alone (the player's own in a game against the engine, each taken seat
/// online), `both` for two players at one device. A spectator holds none.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct MayView {
    /// South's seat.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub south: Option<SeatActions>,
    /// North's seat.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub north: Option<SeatActions>,
    /// The one seat of a two-player game on one device.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub both: Option<SeatActions>,
}
