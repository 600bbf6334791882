//! The JSON bodies of the API: requests and the answers that are not a
//! plain game view (documented in `docs/API.md`).

use hoyito_core::{RulesSpec, Side};
use serde::{Deserialize, Serialize};

use crate::room::view::{GameView, MoveEvent};
use crate::store::{ListedGame, Mode};
use hoyito_room::OfferAction;

pub use super::wire_accounts::*;

/// `POST /api/games`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateRequest {
    /// `engine`, `hotseat` (default) or `online`.
    #[serde(default = "default_mode")]
    pub mode: Mode,
    /// The rules, read through the core's table of options: missing ones
    /// take their defaults, an unknown one is refused with the core's text.
    #[serde(default)]
    pub rules: RulesSpec,
    /// Play a match of rounds.
    #[serde(default, rename = "match")]
    pub is_match: bool,
    /// Engine level 1–10 (default 3).
    #[serde(default = "default_level")]
    pub level: u8,
    /// The creator's seat (engine and online games), default south.
    #[serde(default)]
    pub side: Option<Side>,
    /// The creator's nickname (1–24 characters, plain text).
    #[serde(default)]
    pub name: Option<String>,
    /// A clock (online games): `{"initial": 300, "increment": 3}` or `{"days": 2}`.
    #[serde(default)]
    pub clock: Option<crate::clock_spec::ClockSpec>,
    /// List the online game in the lobby, where anyone may take its free seat.
    #[serde(default)]
    pub public: bool,
    /// A rated game (online, a single game on a variant's standard 2×6
    /// rules, the creator signed in; its other seat only for another
    /// signed-in account).
    #[serde(default)]
    pub rated: bool,
    /// A rated game in the lobby: only players whose rating in its pool is
    /// within this many points of the creator's may take its free seat
    /// from the lobby (50 to 1000).
    #[serde(default)]
    pub rating_range: Option<u16>,
}

fn default_mode() -> Mode {
    Mode::Hotseat
}
fn default_level() -> u8 {
    3
}

/// The answer to creating, importing or joining a game.
#[derive(Debug, Serialize)]
pub struct SeatResponse {
    /// The game id.
    pub id: String,
    /// The seat's secret token: send it as `Authorization: Bearer <token>`.
    pub token: String,
    /// `south`, `north` or `both`.
    pub seat: &'static str,
    /// For a new online game: the invite link (path) for the other player.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub invite: Option<String>,
    /// The game.
    pub game: GameView,
}

/// `POST /api/games/{id}/moves`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveRequest {
    /// The move token, e.g. `3`, `3R`, `2+5`.
    #[serde(rename = "move")]
    pub token: String,
    /// If given, the move is refused (409) unless the game has exactly this many steps.
    #[serde(default)]
    pub seq: Option<u64>,
}

/// `POST /api/games/{id}/undo` (the body is optional).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UndoRequest {
    /// If given, the undo is refused (409 `stale`) unless the game has
    /// exactly this many steps: the step count of the view the client undoes from.
    #[serde(default)]
    pub seq: Option<u64>,
    /// If given, the undo is refused (409 `stale`) unless the game has had
    /// exactly this many undos.
    #[serde(default)]
    pub epoch: Option<u64>,
}

/// The answer to a move, with its JSON written once: the same text, with
/// its `type`, is the move's WebSocket message
/// ([`MoveAnswer::ws_message`]).
#[derive(Debug)]
pub struct MoveAnswer {
    /// The JSON of a [`MoveResponse`].
    pub json: String,
}

impl MoveAnswer {
    /// The answer `response`, written.
    pub fn new(response: &MoveResponse) -> MoveAnswer {
        let json = serde_json::to_string(response).expect("serialise");
        MoveAnswer { json }
    }

    /// The move's WebSocket message: `{"type":"move","move":…,"game":…}`,
    /// as `crate::state::slot::WsMessage::Move` writes it.
    pub fn ws_message(&self) -> String {
        let mut msg = String::with_capacity(self.json.len() + 16);
        msg.push_str(r#"{"type":"move","#);
        msg.push_str(&self.json[1..]);
        msg
    }
}

impl axum::response::IntoResponse for MoveAnswer {
    fn into_response(self) -> axum::response::Response {
        (
            [(
                axum::http::header::CONTENT_TYPE,
                axum::http::HeaderValue::from_static("application/json"),
            )],
            self.json,
        )
            .into_response()
    }
}

/// The answer to a move.
#[derive(Debug, Serialize)]
pub struct MoveResponse {
    /// The move as played, with its sowing trace.
    #[serde(rename = "move")]
    pub event: MoveEvent,
    /// The game after it.
    pub game: GameView,
}

/// `POST /api/games/{id}/join`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JoinRequest {
    /// The invite secret from the invite link (not needed for a game in the lobby).
    #[serde(default)]
    pub invite: Option<String>,
    /// The joining player's nickname (1–24 characters, plain text).
    #[serde(default)]
    pub name: Option<String>,
}

/// `POST /api/games/import`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ImportRequest {
    /// The record text.
    pub record: String,
    /// How to go on playing: `hotseat` or `engine`; by default as the
    /// record was played (its `Mode` tag, the engine's seat and level from
    /// its `South`/`North` tag), else `hotseat`.
    #[serde(default)]
    pub mode: Option<Mode>,
    /// Engine level for `engine` (default: the record's, else 3).
    #[serde(default)]
    pub level: Option<u8>,
    /// The importer's seat for `engine` (default: the record's human seat).
    #[serde(default)]
    pub side: Option<Side>,
}

/// `POST /api/games/{id}/resign` (the body is optional).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResignRequest {
    /// What to resign: `game` (the default: the game, or the whole match)
    /// or `round` (a match's current round only).
    #[serde(default)]
    pub scope: ResignScope,
}

/// What a player resigns.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ResignScope {
    /// The game, or the whole match: the other side wins it.
    #[default]
    Game,
    /// A match's current round: the seeds in play go to the other side,
    /// the round is counted, and the match goes on.
    Round,
}

/// `POST /api/games/{id}/draw`, and `POST /api/games/{id}/takeback` (the
/// same actions on a takeback request).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OfferRequest {
    /// `offer`, `accept` or `decline`.
    pub action: OfferAction,
}

/// `POST /api/games/{id}/claim`: what the player who stayed asks for
/// once the other left.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClaimRequest {
    /// `win` or `draw`.
    pub outcome: ClaimOutcome,
}

/// The outcome claimed against a player who left.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ClaimOutcome {
    /// The win.
    Win,
    /// A draw.
    Draw,
}

/// The answer to a draw offer or a takeback request.
#[derive(Debug, Serialize)]
pub struct OfferResponse {
    /// Whether the offer was accepted: the game ended in a draw, or the
    /// move was taken back.
    pub accepted: bool,
    /// The game after it.
    pub game: GameView,
}

/// `POST /api/games/{id}/chat`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChatRequest {
    /// The message: 1–200 characters of plain text.
    pub text: String,
}

/// `GET /api/games/{id}/chat` answer.
#[derive(Debug, Serialize)]
pub struct ChatResponse {
    /// The last messages, oldest first.
    pub messages: Vec<crate::store::ChatMessage>,
}

/// `GET /api/puzzles/next` query: every field optional. The answer of both
/// puzzle routes is a [`hoyito_puzzle::PuzzleRecord`], as the shipped files hold it.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PuzzleQuery {
    /// Only puzzles of this variant: `I`, `II` or `III`.
    pub variant: Option<String>,
    /// Only puzzles of this board: holes per row.
    pub holes: Option<u8>,
    /// The puzzle after this one in the set's order (default: the first).
    pub after: Option<String>,
    /// Only puzzles rated this or more.
    pub min_rating: Option<u32>,
    /// Only puzzles rated this or less.
    pub max_rating: Option<u32>,
}

/// `GET /api/puzzles/streak` query: every field optional.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StreakQuery {
    /// Only puzzles of this variant: `I`, `II` or `III`.
    pub variant: Option<String>,
    /// Only puzzles of this board: holes per row.
    pub holes: Option<u8>,
    /// Only puzzles rated above this (the last puzzle's rating; default: all).
    pub above: Option<u32>,
    /// The streak's seed, which picks the puzzle of each rung (default 0).
    pub seed: Option<u32>,
}

/// `GET /api/puzzles/daily` query: every field optional.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DailyQuery {
    /// Only puzzles of this variant: `I`, `II` or `III`.
    pub variant: Option<String>,
    /// Only puzzles of this board: holes per row.
    pub holes: Option<u8>,
    /// The UTC day, `YYYY-MM-DD` (default: today).
    pub date: Option<String>,
}

/// `GET /api/puzzles/daily` answer: the day's puzzle and the day.
#[derive(Debug, Serialize)]
pub struct DailyPuzzle {
    /// The UTC day, `YYYY-MM-DD`.
    pub date: String,
    /// The puzzle's fields.
    #[serde(flatten)]
    pub puzzle: hoyito_puzzle::PuzzleRecord,
}

/// `GET /api/lobby` query.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LobbyQuery {
    /// Only games of this variant: `I`, `II` or `III`.
    pub variant: Option<String>,
    /// Games per list (default 20, 1 to 50).
    pub limit: Option<u32>,
    /// Games of each list to skip (default 0, at most 10 000).
    pub offset: Option<u32>,
    /// Comma-separated ids (at most 100) for `mine`: the games whose seats this browser holds.
    pub ids: Option<String>,
}

/// `GET /api/lobby` answer.
#[derive(Debug, Serialize)]
pub struct LobbyResponse {
    /// Public online games waiting for a second player.
    pub open: Vec<ListedGame>,
    /// Games being played.
    pub playing: Vec<ListedGame>,
    /// The games asked for by `ids`.
    pub mine: Vec<ListedGame>,
}

/// `GET /api/games` query.
#[derive(Debug, Deserialize)]
pub struct ListQuery {
    /// At most this many games (default 50, at most 500).
    pub limit: Option<u32>,
    /// Only games with this status: `waiting`, `playing` or `over`.
    pub status: Option<String>,
}

/// `GET /api/games/{id}` query.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameQuery {
    /// Only the steps from this index on in `history` (0-based): the
    /// history in pages, or what a client that has the first N lacks.
    pub history_from: Option<u64>,
}

/// `GET /api/games` answer.
#[derive(Debug, Serialize)]
pub struct ListResponse {
    /// The games, most recently changed first.
    pub games: Vec<ListedGame>,
}

/// The answer to a hint.
#[derive(Debug, Serialize)]
pub struct HintResponse {
    /// The suggested move token.
    #[serde(rename = "move")]
    pub token: String,
    /// Expected final margin in seeds for the player to move.
    pub score: i32,
    /// Board indices of the holes the move sows.
    pub holes: Vec<u8>,
    /// Its direction, `L` or `R`.
    pub dir: char,
}

/// The answer of `GET /api/tablebase`.
#[derive(Debug, Serialize)]
pub struct TablebaseAnswer {
    /// The seeds the side to move gains from here on with perfect play
    /// (negative: loses); 0 once the game is over.
    pub value: i32,
    /// Every legal move with its value for the mover (the same scale).
    pub moves: Vec<MoveValue>,
    /// Seeds in play.
    pub seeds: u32,
    /// What proved the values: `tables` (a probe of the endgame tables) or
    /// `search` (the exact search above them, down to the tables).
    pub proved: &'static str,
}

/// The answer of `GET /api/tables`: the default tables for download.
#[derive(Debug, Serialize)]
pub struct TablesManifest {
    /// Every set of the default tables, smallest first.
    pub sets: Vec<TableSetView>,
}

/// One set of the default tables.
#[derive(Debug, Serialize)]
pub struct TableSetView {
    /// `I`, `II` or `III`.
    pub variant: String,
    /// Holes per row.
    pub holes: u32,
    /// The largest number of seeds in play its layers hold (while not
    /// ready: the number it will hold).
    pub max_seeds: u32,
    /// Built: `files` lists its compact layer files.
    pub ready: bool,
    /// This server is building it (or is still to): not ready yet.
    pub building: bool,
    /// Bytes of all its files.
    pub bytes: u64,
    /// Its layers' files, 4 seeds up.
    pub files: Vec<TableFileView>,
}

/// One compact layer file.
#[derive(Debug, Serialize)]
pub struct TableFileView {
    /// Seeds in play of the layer.
    pub seeds: u32,
    /// Bytes of the file.
    pub bytes: u64,
    /// Where to get it (immutable).
    pub url: String,
}

/// A move and its exact value.
#[derive(Debug, Serialize)]
pub struct MoveValue {
    /// The move's token.
    #[serde(rename = "move")]
    pub token: String,
    /// The seeds the mover gains from here on with perfect play after it.
    pub value: i32,
}

/// `POST /api/games/{id}/analysis`: every field optional.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnalysisRequest {
    /// Engine time per position, [`MIN_MOVETIME_MS`] to [`MAX_MOVETIME_MS`]
    /// (default: [`auto_movetime_ms`] of the game's positions).
    ///
    /// [`MIN_MOVETIME_MS`]: crate::jobs::analysis::MIN_MOVETIME_MS
    /// [`MAX_MOVETIME_MS`]: crate::jobs::analysis::MAX_MOVETIME_MS
    /// [`auto_movetime_ms`]: crate::jobs::analysis::auto_movetime_ms
    #[serde(default)]
    pub movetime_ms: Option<u64>,
}

/// `GET /api/games/{id}/analysis` query.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnalysisQuery {
    /// Send the steps from this one on (those before were received already).
    #[serde(default)]
    pub from: Option<usize>,
}

/// A solver's Glicko-2 rating, as the device keeps it.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct SolverRating {
    /// The rating (a new solver: 1500).
    pub rating: f64,
    /// The rating deviation (a new solver: 350).
    pub deviation: f64,
    /// The volatility (a new solver: 0.06).
    pub volatility: f64,
}

/// `POST /api/puzzles/{id}/attempt` body: whether the solver solved the
/// puzzle at the first try, and their rating before.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AttemptRequest {
    /// Solved without a wrong move, a hint or the solution shown.
    pub solved: bool,
    /// The solver's rating before the attempt.
    pub rating: SolverRating,
}

/// `POST /api/puzzles/{id}/attempt` answer: the solver's new rating.
#[derive(Debug, Serialize)]
pub struct AttemptAnswer {
    /// The puzzle.
    pub id: String,
    /// The puzzle's rating, the opponent's in the update.
    pub puzzle_rating: u32,
    /// The solver's rating after the attempt.
    pub rating: SolverRating,
    /// The new rating less the old, rounded to a whole number.
    pub change: i64,
    /// The rating is the signed-in solver's, kept on their account (the
    /// request's rating was used only for their first attempt).
    pub account: bool,
}

/// `GET /api/puzzles/rating` answer: the signed-in solver's puzzle rating.
#[derive(Debug, Serialize)]
pub struct AccountPuzzleRating {
    /// The rating kept on the account (`None` before its first attempt).
    pub rating: Option<SolverRating>,
    /// The rated attempts that made it.
    pub attempts: i64,
}
