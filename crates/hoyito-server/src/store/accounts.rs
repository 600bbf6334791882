//! Accounts as stored: [`AccountStorage`] ([`super::Storage::accounts`]),
//! in SQLite (`sqlite_accounts.rs`) and PostgreSQL (`postgres_accounts.rs`).
//!
//! Tables: `accounts` (one row per account: its username, the username's
//! confusable skeleton, unique, and the argon2id hash of its password),
//! `recovery_codes` (the SHA-256 hashes of its unused recovery codes),
//! `sessions` (the SHA-256 hash of each session token, its account and
//! when it expires) and `account_seats` (which seat of which game belongs
//! to which account). No password, recovery code or session token is ever
//! stored in clear.

use serde::Serialize;

use super::{ListedGame, StoreResult};

/// An account as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Account {
    /// Its id (random, URL-safe).
    pub id: String,
    /// The username as given (trimmed).
    pub username: String,
    /// The username's folded confusable skeleton
    /// (`room::lookalike::fold`): two accounts never share one.
    pub skeleton: String,
    /// The password's argon2id hash, in the PHC string format.
    pub password_hash: String,
    /// Creation time, ms since the Unix epoch.
    pub created_ms: i64,
}

/// A game an account holds a seat of.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AccountGame {
    /// The game, as listed.
    #[serde(flatten)]
    pub game: ListedGame,
    /// The account's seat: `south`, `north` or `both`.
    pub seat: String,
}

/// A result from a player's side, to choose the games of a player's page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PlayerResult {
    /// The player won.
    Won,
    /// A draw.
    Drawn,
    /// The player lost.
    Lost,
}

impl PlayerResult {
    /// As the SQL of [`AccountStorage::player_games`] compares it.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            PlayerResult::Won => "won",
            PlayerResult::Drawn => "drawn",
            PlayerResult::Lost => "lost",
        }
    }
}

/// Which games of a player [`AccountStorage::player_games`] lists: the
/// online games over in which the account held one seat, each filter
/// `None` for any.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PlayerGamesFilter {
    /// Only games of this variant (`I`, `II`, `III`).
    pub variant: Option<String>,
    /// Only games the player won, drew or lost.
    pub result: Option<PlayerResult>,
    /// Only rated (`true`) or unrated (`false`) games.
    pub rated: Option<bool>,
    /// Only games against this account (its id): head to head.
    pub opponent: Option<String>,
}

/// A game of a player's page.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlayerGame {
    /// The game, as listed.
    #[serde(flatten)]
    pub game: ListedGame,
    /// The player's seat: `south` or `north`.
    pub seat: String,
    /// The username of the account that held the other seat, if one did
    /// (and still exists).
    pub opponent: Option<String>,
}

/// A page of a player's games and the tally of every game the filter
/// matches but for its `result`.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct PlayerGames {
    /// The games, most recently changed first.
    pub games: Vec<PlayerGame>,
    /// The games the whole filter matches (for paging).
    pub total: u64,
    /// Won, drawn and lost among the games the filter matches whatever
    /// their result (against `opponent`: the head-to-head score).
    pub wins: u64,
    /// See `wins`.
    pub draws: u64,
    /// See `wins`.
    pub losses: u64,
}

impl PlayerGames {
    /// `total` from the tally: the games of `result`, else `all`.
    pub(crate) fn total_for(&mut self, result: Option<PlayerResult>, all: u64) {
        self.total = match result {
            Some(PlayerResult::Won) => self.wins,
            Some(PlayerResult::Drawn) => self.draws,
            Some(PlayerResult::Lost) => self.losses,
            None => all,
        };
    }
}

/// A seat whose name an account's deletion cleared: the game and the seat.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClearedSeat {
    /// The game.
    pub game: String,
    /// `south`, `north` or `both`.
    pub seat: String,
}

/// The stored accounts and sessions. Every call blocks: call from blocking
/// threads (`AppState::db`).
pub trait AccountStorage: Send + Sync {
    /// Stores a new account with the hashes of its recovery codes; `false`
    /// (nothing stored) if an account with the same skeleton exists.
    ///
    /// # Errors
    /// If the database fails.
    fn insert_account(&self, account: &Account, recovery: &[String]) -> StoreResult<bool>;

    /// The account whose username has `skeleton`.
    ///
    /// # Errors
    /// If the database fails.
    fn account_by_skeleton(&self, skeleton: &str) -> StoreResult<Option<Account>>;

    /// The account of the session whose token hashes to `token_hash`, if
    /// that session has not expired at `now_ms`.
    ///
    /// # Errors
    /// If the database fails.
    fn session_account(&self, token_hash: &str, now_ms: i64) -> StoreResult<Option<Account>>;

    /// Stores a new session of `account` (and deletes its sessions expired
    /// at `now_ms`).
    ///
    /// # Errors
    /// If the database fails (e.g. no such account).
    fn insert_session(
        &self,
        token_hash: &str,
        account: &str,
        now_ms: i64,
        expires_ms: i64,
    ) -> StoreResult<()>;

    /// Deletes one session; whether it existed.
    ///
    /// # Errors
    /// If the database fails.
    fn delete_session(&self, token_hash: &str) -> StoreResult<bool>;

    /// Deletes every session of `account`; how many.
    ///
    /// # Errors
    /// If the database fails.
    fn delete_sessions(&self, account: &str) -> StoreResult<u64>;

    /// Unused recovery codes of `account`.
    ///
    /// # Errors
    /// If the database fails.
    fn recovery_codes_left(&self, account: &str) -> StoreResult<u64>;

    /// Uses the recovery code hashing to `code_hash` of `account`: deletes
    /// it, sets the password hash to `password_hash` and deletes every
    /// session of the account, in one transaction. `false` (nothing
    /// changed) if the account has no such unused code.
    ///
    /// # Errors
    /// If the database fails.
    fn recover(&self, account: &str, code_hash: &str, password_hash: &str) -> StoreResult<bool>;

    /// Deletes `account` with its sessions, recovery codes and links to
    /// seats; the names of its seats in games are cleared (the games stay).
    /// Returns the seats whose names were cleared. Announced to the other
    /// nodes (PostgreSQL).
    ///
    /// # Errors
    /// If the database fails.
    fn delete_account(&self, account: &str) -> StoreResult<Vec<ClearedSeat>>;

    /// Links `seat` (`south`, `north`, `both`) of game `game` to `account`.
    ///
    /// # Errors
    /// If the database fails (e.g. no such game or account).
    fn link_seat(&self, game: &str, seat: &str, account: &str) -> StoreResult<()>;

    /// The seat `account` holds in game `game`, if any.
    ///
    /// # Errors
    /// If the database fails.
    fn account_seat(&self, account: &str, game: &str) -> StoreResult<Option<String>>;

    /// The accounts holding the seats of game `game`: each linked seat
    /// (`south`, `north` or `both`) and its account's id.
    ///
    /// # Errors
    /// If the database fails.
    fn seat_accounts(&self, game: &str) -> StoreResult<Vec<(String, String)>>;

    /// The games `account` holds a seat of, most recently changed first,
    /// `limit` of them after skipping `offset`.
    ///
    /// # Errors
    /// If the database fails.
    fn account_games(&self, account: &str, limit: u32, offset: u32) -> StoreResult<Vec<AccountGame>>;

    /// The online games over in which `account` held one seat and that
    /// `filter` matches, most recently changed first, `limit` of them after
    /// skipping `offset`, with the tally of won, drawn and lost.
    ///
    /// # Errors
    /// If the database fails.
    fn player_games(
        &self,
        account: &str,
        filter: &PlayerGamesFilter,
        limit: u32,
        offset: u32,
    ) -> StoreResult<PlayerGames>;

    /// Sets the hash of `seat`'s token (`south`, `north`, `both`) in game
    /// `game` to `token_hash`: the seat's former token holds it no more.
    /// Announced to the other nodes (PostgreSQL).
    ///
    /// # Errors
    /// If the database fails or there is no such game.
    fn set_seat_token(&self, game: &str, seat: &str, token_hash: &str) -> StoreResult<()>;
}

/// The SQL columns of `games` holding the token and the name of `seat`.
pub(crate) fn seat_columns(seat: &str) -> &'static [(&'static str, &'static str)] {
    match seat {
        "south" => &[("south_token", "south_name")],
        "north" => &[("north_token", "north_name")],
        _ => &[("south_token", "south_name"), ("north_token", "north_name")],
    }
}

/// The SQL of [`AccountStorage::player_games`], the same for SQLite and
/// PostgreSQL but for how each reads the variant out of the rules' JSON
/// (`variant`) and spells the `n`-th parameter (`param`): 1 the account,
/// 2 the variant, 3 rated, 4 the opponent, 5 the result, 6 the limit,
/// 7 the offset. The list (`LISTED` columns of `g`, the seat, the
/// opponent's username) and the tally (all, won, drawn, lost).
pub(crate) fn player_games_sql(variant: &str, param: impl Fn(usize) -> String) -> (String, String) {
    const WON: &str = "g.result = s.seat";
    const DRAWN: &str = "g.result = 'draw'";
    const LOST: &str = "g.result IN ('south', 'north') AND g.result <> s.seat";
    let [account, var, rated, opponent, result, limit, offset] = [1, 2, 3, 4, 5, 6, 7].map(&param);
    let from = format!(
        "FROM account_seats s JOIN games g ON g.id = s.game_id
         LEFT JOIN account_seats o ON o.game_id = s.game_id AND o.seat <> s.seat
         LEFT JOIN accounts oa ON oa.id = o.account_id
         WHERE s.account_id = {account} AND s.seat IN ('south', 'north')
           AND g.mode = 'online' AND g.status = 'over'
           AND ({var} IS NULL OR {variant} = {var})
           AND ({rated} IS NULL OR g.rated = {rated})
           AND ({opponent} IS NULL OR o.account_id = {opponent})"
    );
    let columns: Vec<String> = super::LISTED
        .split(',')
        .map(|c| format!("g.{}", c.trim()))
        .collect();
    let list = format!(
        "SELECT {}, s.seat, oa.username {from}
           AND ({result} IS NULL OR ({result} = 'won' AND {WON}) OR ({result} = 'drawn' AND {DRAWN})
                OR ({result} = 'lost' AND {LOST}))
         ORDER BY g.updated_ms DESC, g.id LIMIT {limit} OFFSET {offset}",
        columns.join(", ")
    );
    let tally = format!(
        "SELECT COUNT(*), COUNT(*) FILTER (WHERE {WON}), COUNT(*) FILTER (WHERE {DRAWN}),
                COUNT(*) FILTER (WHERE {LOST}) {from}"
    );
    (list, tally)
}
