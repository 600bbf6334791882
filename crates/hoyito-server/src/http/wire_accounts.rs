//! The JSON bodies of the API's accounts, sessions, passkeys and players
//! (the player pages, rating histories, a player's games, the
//! leaderboard), documented in `docs/API.md`; re-exported by `wire.rs`.

use serde::{Deserialize, Serialize};

/// `POST /api/account` and `POST /api/session`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Credentials {
    /// The username (the nickname rules; unique up to look-alikes).
    pub username: String,
    /// The password.
    pub password: String,
}

/// `POST /api/account/recover`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecoverRequest {
    /// The username.
    pub username: String,
    /// One of the account's unused recovery codes.
    pub code: String,
    /// The new password.
    pub password: String,
}

/// `DELETE /api/account`: the password asked again, or (an account
/// without one) a passkey's answer to a sign-in ceremony.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DeleteAccountRequest {
    /// The account's password.
    #[serde(default)]
    pub password: Option<String>,
    /// A sign-in ceremony (`POST /api/session/passkey/start`) ...
    #[serde(default)]
    pub ceremony: Option<String>,
    /// ... and the answer of one of the account's passkeys to it.
    #[serde(default)]
    pub credential: Option<Box<webauthn_rs::prelude::PublicKeyCredential>>,
}

/// `POST /api/passkeys/register/start` and `POST /api/session/passkey/start`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PasskeyStart {
    /// Registration: the new account's username (signing up), or none (a
    /// passkey for the account signed in). Sign-in: the account's username,
    /// or none (the passkey names its account).
    #[serde(default)]
    pub username: Option<String>,
}

/// The first answer of a passkey ceremony.
#[derive(Debug, Serialize)]
pub struct PasskeyChallenge {
    /// The ceremony's id, for its second request.
    pub ceremony: String,
    /// The options for `navigator.credentials.create()` or `.get()`:
    /// `{"publicKey": …}`, binary fields in base64url.
    pub options: serde_json::Value,
    /// When the ceremony expires (ms since the epoch).
    pub expires_ms: i64,
}

/// `POST /api/passkeys/register/finish`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PasskeyRegistrationFinish {
    /// The ceremony's id.
    pub ceremony: String,
    /// The new credential (`PublicKeyCredential` as JSON, binary fields in
    /// base64url).
    pub credential: Box<webauthn_rs::prelude::RegisterPublicKeyCredential>,
}

/// `POST /api/session/passkey/finish`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PasskeySignInFinish {
    /// The ceremony's id.
    pub ceremony: String,
    /// The passkey's answer (`PublicKeyCredential` as JSON, binary fields
    /// in base64url).
    pub credential: Box<webauthn_rs::prelude::PublicKeyCredential>,
}

/// A passkey as its owner sees it.
#[derive(Debug, Serialize)]
pub struct PasskeyView {
    /// Its id (`DELETE /api/account/passkeys/{id}`).
    pub id: String,
    /// When it was added (ms since the epoch).
    pub created_ms: i64,
    /// When it last signed in (ms since the epoch), if ever.
    pub last_used_ms: Option<i64>,
}

/// `GET /api/account/passkeys`.
#[derive(Debug, Serialize)]
pub struct PasskeysResponse {
    /// The account's passkeys, oldest first.
    pub passkeys: Vec<PasskeyView>,
}

/// An account as its owner sees it.
#[derive(Debug, Serialize)]
pub struct AccountView {
    /// The username.
    pub username: String,
    /// When the account was made (ms since the epoch).
    pub created_ms: i64,
    /// Recovery codes not used yet.
    pub recovery_codes_left: u64,
    /// Whether the account has a password.
    pub password: bool,
    /// How many passkeys it has.
    pub passkeys: u64,
    /// Its ratings, one per pool it played rated games in.
    pub ratings: Vec<RatingView>,
}

/// A rating in one pool, as the API shows it.
#[derive(Debug, Serialize)]
pub struct RatingView {
    /// The rating and its counts.
    #[serde(flatten)]
    pub stored: crate::store::PoolRating,
    /// Whether it is provisional (deviation above 110).
    pub provisional: bool,
}

impl From<crate::store::PoolRating> for RatingView {
    fn from(stored: crate::store::PoolRating) -> Self {
        RatingView {
            provisional: stored.deviation > crate::ratings::PROVISIONAL_DEVIATION,
            stored,
        }
    }
}

/// `GET /api/players/{name}`.
#[derive(Debug, Serialize)]
pub struct PlayerView {
    /// The username.
    pub username: String,
    /// When the account was made (ms since the epoch).
    pub created_ms: i64,
    /// Its ratings, one per pool it played rated games in.
    pub ratings: Vec<RatingView>,
    /// Rated games won, drawn and lost, in every pool.
    pub wins: i64,
    /// Drawn.
    pub draws: i64,
    /// Lost.
    pub losses: i64,
    /// The most recent rated games, newest first.
    pub recent: Vec<crate::store::HistoryEntry>,
}

/// `GET /api/players/{name}/games` query.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerGamesQuery {
    /// Only games of this variant: `I`, `II` or `III`.
    pub variant: Option<String>,
    /// Only games the player `won`, `drawn` or `lost`.
    pub result: Option<crate::store::PlayerResult>,
    /// Only rated (`true`) or unrated (`false`) games.
    pub rated: Option<bool>,
    /// Only games against the player of this username: head to head.
    pub opponent: Option<String>,
    /// Games a page (default 20, 1 to 100).
    pub limit: Option<u32>,
    /// Games to skip (default 0).
    pub offset: Option<u32>,
}

/// `GET /api/players/{name}/games` answer.
#[derive(Debug, Serialize)]
pub struct PlayerGamesResponse {
    /// The player's username as the account spells it.
    pub username: String,
    /// The opponent's username as that account spells it (head to head).
    pub opponent: Option<String>,
    /// The page of games, and the tally of won, drawn and lost.
    #[serde(flatten)]
    pub games: crate::store::PlayerGames,
}

/// `GET /api/players/{name}/history` and `GET /api/leaderboard` query.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PoolQuery {
    /// The pool, e.g. `II-blitz`.
    pub pool: Option<String>,
}

/// One point of a rating history.
#[derive(Debug, Serialize)]
pub struct HistoryPoint {
    /// The game.
    pub game: String,
    /// When it ended (ms since the epoch).
    pub ended_ms: i64,
    /// The rating after it.
    pub rating: f64,
    /// The deviation after it.
    pub deviation: f64,
    /// The rating before it.
    pub before: f64,
    /// The deviation before it.
    pub deviation_before: f64,
    /// The opponent's username (`None` once that account is deleted).
    pub opponent: Option<String>,
    /// The player's score: 1, 0.5 or 0.
    pub score: f64,
}

/// `GET /api/players/{name}/history`.
#[derive(Debug, Serialize)]
pub struct HistoryResponse {
    /// The pool.
    pub pool: String,
    /// The points, oldest first (the most recent 500 at most).
    pub points: Vec<HistoryPoint>,
}

/// `GET /api/leaderboard`.
#[derive(Debug, Serialize)]
pub struct LeaderboardResponse {
    /// The pool.
    pub pool: String,
    /// The best non-provisional ratings, best first (50 at most).
    pub players: Vec<crate::store::Leader>,
}

/// `GET /api/account`: the account signed in, or `null`.
#[derive(Debug, Serialize)]
pub struct WhoAmI {
    /// The account, if the request is signed in.
    pub account: Option<AccountView>,
}

/// The answer to signing up: the account, and its recovery codes (shown
/// this once).
#[derive(Debug, Serialize)]
pub struct SignUpResponse {
    /// The new account (signed in).
    pub account: AccountView,
    /// Recovery codes: each sets a new password once.
    pub recovery_codes: Vec<String>,
}

/// `GET /api/account/games` query.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AccountGamesQuery {
    /// Games at most (1–200, default 50).
    pub limit: Option<u32>,
    /// Games skipped (default 0).
    pub offset: Option<u32>,
}

/// `GET /api/account/games`.
#[derive(Debug, Serialize)]
pub struct AccountGamesResponse {
    /// The games, most recently changed first, each with the account's seat.
    pub games: Vec<crate::store::AccountGame>,
}
