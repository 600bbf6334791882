//! The views the API sends: a game as the browser draws it ([`GameView`]:
//! its room's view with the seats, names, clock, draw offer and takeback
//! request; made by
//! [`crate::room::show`]) and a clock ([`ClockView`]). A move as it was
//! played and a step are the room's ([`MoveEvent`], [`hoyito_room::StepView`]).

use hoyito_core::Side;
pub use hoyito_room::{MoveEvent, RoomView};
use serde::Serialize;

use crate::clock_spec::ClockSpec;

/// A rematch asked for: `POST /api/games/{id}/rematch`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RematchView {
    /// The rematch's game id.
    pub id: String,
    /// The side (in this game) that asked for it.
    pub by: Side,
    /// Whether the other player took their seat in it too.
    pub accepted: bool,
}

/// Which seats are taken.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct SeatsView {
    /// South's seat is bound to a token (or is the engine's).
    pub south: bool,
    /// North's seat is bound to a token (or is the engine's).
    pub north: bool,
}

/// Everything the browser needs to draw a game.
#[derive(Debug, Clone, Serialize)]
pub struct GameView {
    /// The game id.
    pub id: String,
    /// Engine level.
    pub level: u8,
    /// Taken seats.
    pub seats: SeatsView,
    /// The side whose draw offer waits for the other's answer (stored: it
    /// survives a restart and shows on every server node; any stored step
    /// withdraws it).
    pub draw_offer: Option<Side>,
    /// The side whose request to take back its last move waits for the
    /// other's answer (online games; stored like the draw offer, and
    /// withdrawn by any stored step).
    pub takeback_offer: Option<Side>,
    /// The players' nicknames, where they gave one.
    pub names: crate::room::names::NamesView,
    /// The game's clock, if it has one.
    pub clock: Option<ClockView>,
    /// The engine is thinking.
    pub thinking: bool,
    /// Who has the game open, and the claim against a player who left.
    pub presence: crate::room::presence::PresenceView,
    /// The rematch asked for (online games that are over), as this server
    /// node knows it: its player's request tells the other player.
    pub rematch: Option<RematchView>,
    /// Creation time (ms since the epoch).
    pub created_ms: i64,
    /// Whether the game is listed in the lobby: then anyone may read its
    /// chat; else only its players.
    pub public: bool,
    /// Whether the game is rated: its result changes the two accounts'
    /// ratings in its pool.
    pub rated: bool,
    /// Once the rated game ended and was rated, each player's rating
    /// before and after it (`south`, `north`: `before`, `after`,
    /// `deviation_before`, `deviation_after`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rating: Option<crate::store::GameRatingChanges>,
    /// The room: mode, rules, status (`waiting` while an online game's
    /// second seat is free), how it ended, the position, the legal moves,
    /// the rounds and the steps. In a delta (a move's answer and WebSocket
    /// message, or `GET /api/games/{id}?history_from=N`) its `history`
    /// holds the steps from `history_from` on.
    #[serde(flatten)]
    pub room: RoomView,
}

/// The clock of a game as the view sends it; clients count down from it.
#[derive(Debug, Clone, Serialize)]
pub struct ClockView {
    /// The time control.
    #[serde(flatten)]
    pub spec: ClockSpec,
    /// `[south, north]` milliseconds left at `now_ms`.
    pub remaining_ms: [i64; 2],
    /// The side whose clock runs, if one does.
    pub running: Option<Side>,
    /// When the running clock runs out (ms since the epoch).
    pub deadline_ms: Option<i64>,
    /// The server's time of this view (ms since the epoch).
    pub now_ms: i64,
}
