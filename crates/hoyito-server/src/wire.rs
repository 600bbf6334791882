//! The JSON bodies of the API: requests and the answers that are not a
//! plain game view (documented in `docs/API.md`).

use hoyito_core::{RulesSpec, Side};
use serde::{Deserialize, Serialize};

use crate::store::{ListedGame, Mode};
use crate::view::{GameView, MoveEvent};

/// `POST /api/games`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateRequest {
    /// `engine`, `hotseat` (default) or `online`.
    #[serde(default = "default_mode")]
    pub mode: Mode,
    /// The rules; missing fields take their defaults, unknown ones are refused.
    #[serde(default, deserialize_with = "strict_rules")]
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
    /// The invite secret from the invite link.
    pub invite: String,
}

/// `POST /api/games/import`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ImportRequest {
    /// The record text.
    pub record: String,
    /// How to go on playing: `hotseat` (default) or `engine`.
    #[serde(default = "default_mode")]
    pub mode: Mode,
    /// Engine level for `engine`.
    #[serde(default = "default_level")]
    pub level: u8,
    /// The importer's seat for `engine`.
    #[serde(default)]
    pub side: Option<Side>,
}

/// `GET /api/games` query.
#[derive(Debug, Deserialize)]
pub struct ListQuery {
    /// At most this many games (default 50, at most 500).
    pub limit: Option<u32>,
    /// Only games with this status: `waiting`, `playing` or `over`.
    pub status: Option<String>,
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
}

/// Reads a [`RulesSpec`] from an object, refusing fields it does not have (the spec itself
/// ignores them): its fields are the keys it serialises.
fn strict_rules<'de, D: serde::Deserializer<'de>>(d: D) -> Result<RulesSpec, D::Error> {
    use serde::de::Error;
    let value = serde_json::Value::deserialize(d)?;
    let known = serde_json::to_value(RulesSpec::default()).map_err(D::Error::custom)?;
    let Some(given) = value.as_object() else {
        return Err(D::Error::custom("rules must be a JSON object"));
    };
    if let Some(known) = known.as_object() {
        if let Some(unknown) = given.keys().find(|k| !known.contains_key(*k)) {
            let mut names: Vec<&str> = known.keys().map(String::as_str).collect();
            names.sort_unstable();
            return Err(D::Error::custom(format!(
                "unknown field `{unknown}` in rules, expected one of {}",
                names.join(", ")
            )));
        }
    }
    RulesSpec::deserialize(value).map_err(D::Error::custom)
}
