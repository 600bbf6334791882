//! [`Store`]: every game and every move, in SQLite (the embedded default)
//! or in PostgreSQL (for several server nodes sharing one database).
//!
//! Tables: `games` (one row per game: mode, rules, seats, a summary for
//! listing), `moves` (one row per stored step: a move token, `next` for the
//! start of the next round of a match, or a step that stopped the game),
//! `chat`, `analyses` and `health`; the accounts' tables ([`accounts`]); the
//! passkeys' tables ([`passkeys`]); the ratings' tables ([`ratings`]).
//! A game is rebuilt by replaying its
//! rows, so the moves are the only truth.
//!
//! Both databases implement [`Storage`]; the server holds a [`Store`], which
//! is one of them. With PostgreSQL, every change to a game is announced to
//! the other nodes (`NOTIFY`), and a step is stored only if it follows the
//! last stored one: two nodes can never store two different moves at the
//! same place ([`StoreError::Conflict`]).

use std::path::{Path, PathBuf};

use hoyito_core::{ByPlayer, Rules, RulesSpec, Side};
use serde::{Deserialize, Serialize};

pub mod accounts;
pub mod deadline;
pub mod disk;
mod expiry;
pub mod passkeys;
mod postgres;
mod postgres_accounts;
mod postgres_conn;
mod postgres_listen;
mod postgres_passkeys;
mod postgres_ratings;
mod postgres_schema;
mod postgres_tls;
pub mod ratings;
mod sqlite;
mod sqlite_accounts;
mod sqlite_lists;
mod sqlite_passkeys;
mod sqlite_ratings;
mod sqlite_schema;

pub use self::accounts::{
    Account, AccountGame, AccountStorage, ClearedSeat, PlayerGame, PlayerGames, PlayerGamesFilter,
    PlayerResult,
};
pub use self::passkeys::{Ceremony, NewAccount, PasskeyStorage, Removal, StoredPasskey};
pub use self::postgres::Postgres;
pub use self::postgres_conn::{DbOptions, SetupError, SslMode};
pub use self::postgres_schema::{PG_OLDEST_SHARING, PG_SCHEMA_VERSION};
pub use self::postgres_tls::TlsError;
pub use self::ratings::{
    GameRatingChanges, HistoryEntry, Leader, PoolRating, PuzzleRating, RatedResult, RatingChange,
    RatingStorage,
};
pub use self::sqlite::{lock_path, Sqlite, HEALTH_BUSY_TIMEOUT, READERS};
pub use self::sqlite_schema::SCHEMA_VERSION;

pub use hoyito_room::{Mode, Summary};

/// What is fixed when a game is created (plus the seat tokens, bound later
/// for online games).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Meta {
    /// The game id (URL-safe).
    pub id: String,
    /// Creation time, milliseconds since the Unix epoch.
    pub created_ms: i64,
    /// How the game is played.
    pub mode: Mode,
    /// The rules.
    pub rules: Rules,
    /// Whether this is a match of rounds rather than a single game.
    pub is_match: bool,
    /// Engine level 1–10 (engine games; also used for hints).
    pub level: u8,
    /// The engine's seat in an engine game.
    pub engine_side: Option<Side>,
    /// A start position in notation, for imported single games that did not start at the standard start.
    pub start: Option<String>,
    /// The hash ([`crate::auth::hash_secret`]) of each seat's secret token
    /// (the same token for both in hot-seat).
    pub tokens: ByPlayer<Option<String>>,
    /// The hash of the secret of an online game's invite link (cleared once
    /// the seat is taken).
    pub invite: Option<String>,
    /// The players' nicknames, where given.
    pub names: ByPlayer<Option<String>>,
    /// The game's clock, if it has one (online games).
    pub clock: Option<crate::clock_spec::ClockSpec>,
    /// An online game listed in the lobby, whose free seat anyone may take.
    pub public: bool,
    /// A rated online game: both seats are taken by signed-in accounts, and
    /// its result changes their ratings ([`crate::ratings`]).
    pub rated: bool,
    /// A rated game in the lobby: the ratings (in its pool) of the players
    /// who may take its free seat from the lobby, `[lowest, highest]`.
    pub rating_range: Option<[i32; 2]>,
}

/// An offer as stored, in columns of its own of `games` for each kind
/// (`draw_offer`, `draw_offer_seq`; `takeback_offer`, `takeback_offer_seq`).
/// The room's types ([`hoyito_room::Offers`]).
pub use hoyito_room::{Offer, OfferKind};

/// The SQL that stores an offer of `kind`: `$2`/`?2` the side (or NULL),
/// `$3`/`?3` the step count, `$1`/`?1` the game; it counts one more offer
/// change and returns the new count.
pub(crate) fn offer_update_sql(kind: OfferKind, placeholder: char) -> String {
    let (side, seq) = match kind {
        OfferKind::Draw => ("draw_offer", "draw_offer_seq"),
        OfferKind::Takeback => ("takeback_offer", "takeback_offer_seq"),
    };
    let p = placeholder;
    format!(
        "UPDATE games SET {side} = {p}2, {seq} = {p}3, draw_rev = draw_rev + 1 \
         WHERE id = {p}1 RETURNING draw_rev"
    )
}

/// What an undo (or an accepted takeback) sets in `games` besides the
/// step count: one undo more, no offer waiting.
pub(crate) const UNDO_SET: &str = "undos = undos + 1, draw_offer = NULL, draw_offer_seq = NULL, \
     takeback_offer = NULL, takeback_offer_seq = NULL";

/// A game as stored: what [`Storage::load`] reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredGame {
    /// What was fixed at creation, with the seats.
    pub meta: Meta,
    /// Undos so far.
    pub undos: u64,
    /// The stored steps, in order.
    pub steps: Vec<String>,
    /// The draw offer stored last ([`Storage::set_draw_offer`]), if any:
    /// void unless its `seq` is the number of `steps`.
    pub draw_offer: Option<Offer>,
    /// The takeback request stored last ([`Storage::set_takeback_offer`]),
    /// if any: void unless its `seq` is the number of `steps`.
    pub takeback_offer: Option<Offer>,
    /// How many times a draw offer or a takeback request was stored or
    /// cleared: of two copies of a game at the same step, the one with the
    /// larger count is newer.
    pub draw_rev: u64,
}

/// A game in the list.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ListedGame {
    /// The game id.
    pub id: String,
    /// `engine`, `hotseat`, `online`.
    pub mode: String,
    /// The rules.
    pub rules: RulesSpec,
    /// A match of rounds?
    #[serde(rename = "match")]
    pub is_match: bool,
    /// Engine level.
    pub level: u8,
    /// Creation time (ms since the epoch).
    pub created_ms: i64,
    /// Last change (ms since the epoch).
    pub updated_ms: i64,
    /// `waiting`, `playing`, `over`.
    pub status: String,
    /// Stored steps (the game view's `seq`; the column `steps`).
    pub seq: u64,
    /// Result once over.
    pub result: Option<String>,
    /// `[south, north]` score.
    pub score: [u32; 2],
    /// The side to move while the game goes on.
    pub to_move: Option<String>,
    /// `[south, north]` nicknames.
    pub names: [Option<String>; 2],
    /// The game's clock, if it has one.
    pub clock: Option<crate::clock_spec::ClockSpec>,
    /// Listed in the lobby: its free seat may be taken without an invite.
    pub public: bool,
    /// A rated game.
    pub rated: bool,
    /// The ratings of who may take its free seat from the lobby.
    pub rating_range: Option<[i32; 2]>,
}

/// A chat message of an online game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ChatMessage {
    /// Its number in the game's chat, from 1.
    pub seq: u64,
    /// Who wrote it.
    pub side: Side,
    /// The text (plain text: never to be read as HTML).
    pub text: String,
    /// When it was sent (ms since the epoch).
    pub at_ms: i64,
}

/// What the lobby lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LobbyKind {
    /// Public online games waiting for a second player.
    Open,
    /// Public games being played.
    Playing,
}

/// Why [`Store::open`] failed.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    /// Another store (another `hoyito serve`) holds the database's lock file.
    #[error("database {} is in use by another hoyito serve (its lock file {} is held)", .db.display(), .lock.display())]
    InUse {
        /// The database file.
        db: PathBuf,
        /// The lock file next to it.
        lock: PathBuf,
    },
    /// The lock file could not be created or locked.
    #[error("cannot lock database {}: {source} (lock file {})", .db.display(), .lock.display())]
    Lock {
        /// The database file.
        db: PathBuf,
        /// The lock file next to it.
        lock: PathBuf,
        /// The failure.
        source: std::io::Error,
    },
    /// SQLite failed to open the database or set up its schema.
    #[error(transparent)]
    Sqlite(#[from] rusqlite::Error),
    /// The disk holding the SQLite database is full.
    #[error(
        "cannot open database {}: the disk holding it is full ({}): free some space and start again ({cause})",
        .db.display(),
        .free.map_or("its free space unknown".to_string(), |f| format!("{f} bytes free"))
    )]
    DiskFull {
        /// The database file.
        db: PathBuf,
        /// The free space left, if known.
        free: Option<u64>,
        /// What SQLite (or the file system) said.
        cause: String,
    },
    /// The PostgreSQL URL, its TLS settings or the password cannot be used.
    #[error("PostgreSQL at {url}")]
    PostgresSetup {
        /// The URL, without its password.
        url: String,
        /// What is wrong.
        source: SetupError,
    },
    /// PostgreSQL could not be reached, or its schema could not be set up.
    #[error("PostgreSQL at {url}")]
    Postgres {
        /// The URL, without its password.
        url: String,
        /// The failure.
        source: StoreError,
    },
}

/// The columns a [`ListedGame`] is read from.
pub(crate) const LISTED: &str =
    "id, mode, rules, is_match, level, created_ms, updated_ms, status, steps, result,
    score_south, score_north, to_move, south_name, north_name, clock, public, rated, rating_min, rating_max";

/// How many columns [`LISTED`] names: a query that selects more after them
/// reads those from this index on.
pub(crate) const LISTED_COUNT: usize = 20;

/// A storage failure.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// SQLite failed.
    #[error(transparent)]
    Sqlite(#[from] rusqlite::Error),
    /// PostgreSQL failed.
    #[error(transparent)]
    Postgres(#[from] ::postgres::Error),
    /// No connection to PostgreSQL could be had.
    #[error("no PostgreSQL connection: {0}")]
    Pool(String),
    /// A stored row cannot be read back.
    #[error("corrupt row: {0}")]
    Corrupt(String),
    /// The database did not answer within the storage call's time
    /// ([`Storage::call_limit`]); a write was not committed.
    #[error("the database did not answer within {0:?}")]
    TimedOut(std::time::Duration),
    /// The disk holding the database is (nearly) full.
    #[error("the disk holding {} has {free} bytes free (at least {} needed)", .path.display(), disk::MIN_FREE)]
    DiskFull {
        /// The database file.
        path: PathBuf,
        /// The free space left.
        free: u64,
    },
    /// The game changed meanwhile (on another server node): the step to
    /// store does not follow the last stored one.
    #[error("game {id} changed meanwhile: it has {stored} steps stored, not {expected}")]
    Conflict {
        /// The game.
        id: String,
        /// Steps the change expected to find stored.
        expected: u64,
        /// Steps stored.
        stored: u64,
    },
}

/// The result of a storage call.
pub type StoreResult<T> = Result<T, StoreError>;

/// What one node tells the others about a game it changed (PostgreSQL only).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Change {
    /// The node that made the change ([`Storage::node`]).
    pub node: String,
    /// The game.
    pub game: String,
    /// The chat message stored, for a chat change.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chat: Option<u64>,
}

/// A database of games and moves. Every call blocks: call from blocking
/// threads (`spawn_blocking`), not from async code directly.
pub trait Storage: Send + Sync + std::fmt::Debug {
    /// Stores a new game with no moves.
    ///
    /// # Errors
    /// If the database fails (e.g. the id exists).
    fn insert_game(&self, meta: &Meta, summary: &Summary) -> StoreResult<()>;

    /// Stores a game with its steps in one transaction (record import):
    /// both or neither.
    ///
    /// # Errors
    /// If the database fails.
    fn insert_game_with_steps(&self, meta: &Meta, steps: &[String], summary: &Summary) -> StoreResult<()>;

    /// Appends step number `seq` (from 1), played at `at_ms` (ms since the
    /// epoch; the clocks are computed from it), and updates the summary, in
    /// one transaction.
    ///
    /// # Errors
    /// [`StoreError::Conflict`] if step `seq - 1` is not the last stored
    /// (PostgreSQL: another node stored a step meanwhile); if the database fails.
    fn append_at(&self, id: &str, seq: u64, token: &str, at_ms: i64, summary: &Summary) -> StoreResult<()>;

    /// [`Storage::append_at`] at the current time.
    ///
    /// # Errors
    /// As [`Storage::append_at`].
    fn append(&self, id: &str, seq: u64, token: &str, summary: &Summary) -> StoreResult<()> {
        self.append_at(id, seq, token, now(), summary)
    }

    /// Deletes every step after `keep`, counts one more undo and clears
    /// the draw offer and the takeback request.
    ///
    /// # Errors
    /// If the database fails.
    fn truncate(&self, id: &str, keep: u64, summary: &Summary) -> StoreResult<()>;

    /// Binds `side`'s seat to `token` (with the player's nickname) and
    /// clears the invite.
    ///
    /// # Errors
    /// If the database fails.
    fn bind_seat(
        &self,
        id: &str,
        side: Side,
        token: &str,
        name: Option<&str>,
        summary: &Summary,
    ) -> StoreResult<()>;

    /// Loads a game: its meta, undo count, stored steps in order and its
    /// draw offer and takeback request.
    ///
    /// # Errors
    /// If the database fails or a stored row is corrupt.
    fn load(&self, id: &str) -> StoreResult<Option<StoredGame>>;

    /// Stores `side`'s offer of `kind` (a draw, a takeback) in game `id` at
    /// step count `seq`, or with `None` clears it; returns the game's new
    /// [`StoredGame::draw_rev`]. Announced to the other nodes (PostgreSQL).
    ///
    /// # Errors
    /// [`StoreError::Conflict`] if the game does not have `seq` steps stored
    /// (another node stored a step meanwhile); if the database fails or
    /// there is no such game.
    fn set_offer(&self, id: &str, kind: OfferKind, seq: u64, side: Option<Side>) -> StoreResult<u64>;

    /// [`Storage::set_offer`] of a draw offer.
    ///
    /// # Errors
    /// As [`Storage::set_offer`].
    fn set_draw_offer(&self, id: &str, seq: u64, side: Option<Side>) -> StoreResult<u64> {
        self.set_offer(id, OfferKind::Draw, seq, side)
    }

    /// [`Storage::set_offer`] of a takeback request (online games).
    ///
    /// # Errors
    /// As [`Storage::set_offer`].
    fn set_takeback_offer(&self, id: &str, seq: u64, side: Option<Side>) -> StoreResult<u64> {
        self.set_offer(id, OfferKind::Takeback, seq, side)
    }

    /// The most recently changed public games (of `status`, if given),
    /// newest first: games that are not public are never listed.
    ///
    /// # Errors
    /// If the database fails.
    fn list(&self, limit: u32, status: Option<&str>) -> StoreResult<Vec<ListedGame>>;

    /// The ids of the games that are over, public or not, in the order
    /// they were created (then by id), `limit` of them after the first
    /// `offset`: for programs that read a whole database
    /// ([`crate::stored_games`]).
    ///
    /// # Errors
    /// If the database fails.
    fn over_game_ids(&self, limit: u32, offset: u64) -> StoreResult<Vec<String>>;

    /// Checks that the database can be written (a test write).
    ///
    /// # Errors
    /// If the write fails.
    fn check_writable(&self) -> StoreResult<()>;

    /// Stores the analysis of game `id` at undo count `epoch` and `seq`
    /// steps (`data`: its JSON), replacing an older one of the same game.
    ///
    /// # Errors
    /// If the database fails (e.g. no such game).
    fn save_analysis(&self, id: &str, epoch: u64, seq: u64, data: &str) -> StoreResult<()>;

    /// The stored analysis of game `id`: its epoch, steps and JSON.
    ///
    /// # Errors
    /// If the database fails.
    fn load_analysis(&self, id: &str) -> StoreResult<Option<(u64, u64, String)>>;

    /// Number of stored games.
    ///
    /// # Errors
    /// If the database fails.
    fn count(&self) -> StoreResult<u64>;

    /// When each stored step of game `id` was stored, in order (`None` for
    /// steps stored without a time: imported or older ones).
    ///
    /// # Errors
    /// If the database fails.
    fn step_times(&self, id: &str) -> StoreResult<Vec<Option<i64>>>;

    /// The ids of the games with a clock that go on.
    ///
    /// # Errors
    /// If the database fails.
    fn timed_games(&self) -> StoreResult<Vec<String>>;

    /// A page of the lobby: `kind`'s games of `variant` (any if `None`),
    /// most recently changed first, `limit` of them after skipping `offset`.
    ///
    /// # Errors
    /// If the database fails.
    fn lobby(
        &self,
        kind: LobbyKind,
        variant: Option<&str>,
        limit: u32,
        offset: u32,
    ) -> StoreResult<Vec<ListedGame>>;

    /// The listed games among `ids` (unknown ids are left out), most
    /// recently changed first.
    ///
    /// # Errors
    /// If the database fails.
    fn games_by_id(&self, ids: &[String]) -> StoreResult<Vec<ListedGame>>;

    /// Stores a chat message as the next of game `id`'s; returns it.
    ///
    /// # Errors
    /// If the database fails.
    fn add_chat(&self, id: &str, side: Side, text: &str, at_ms: i64) -> StoreResult<ChatMessage>;

    /// Game `id`'s last `limit` chat messages, oldest first.
    ///
    /// # Errors
    /// If the database fails or a stored side is corrupt.
    fn chat(&self, id: &str, limit: u32) -> StoreResult<Vec<ChatMessage>>;

    /// Deletes up to `limit` abandoned games, with their moves, chat and
    /// analyses: online games still waiting for their second player that
    /// have not changed since `before_ms` (ms since the epoch). Returns
    /// their ids. Announced to the other nodes (PostgreSQL).
    ///
    /// # Errors
    /// If the database fails.
    fn delete_abandoned(&self, before_ms: i64, limit: u32) -> StoreResult<Vec<String>>;

    /// How long a storage call made for a request may take before the
    /// request is answered 503 (PostgreSQL: a database that stopped
    /// answering, frozen or cut off, would hold the request for ever);
    /// `None` for no limit (SQLite: its own waits are bounded).
    fn call_limit(&self) -> Option<std::time::Duration> {
        None
    }

    /// [`Storage::append_at`] for a caller that must not block: the step is
    /// queued and its answer comes through the receiver (SQLite: its writer
    /// thread commits the steps queued together in one transaction).
    /// `None` if this store has no queue: call [`Storage::append_at`] on a
    /// blocking thread.
    fn append_queued(
        &self,
        id: &str,
        seq: u64,
        token: &str,
        at_ms: i64,
        summary: &Summary,
    ) -> Option<tokio::sync::oneshot::Receiver<StoreResult<()>>> {
        let _ = (id, seq, token, at_ms, summary);
        None
    }

    /// This node's name in [`Change`]s (PostgreSQL); `None` for a database
    /// only this server uses.
    fn node(&self) -> Option<&str> {
        None
    }

    /// The accounts, sessions and seats of accounts ([`accounts`]).
    fn accounts(&self) -> &dyn AccountStorage;

    /// The passkeys and passkey ceremonies ([`passkeys`]).
    fn passkeys(&self) -> &dyn PasskeyStorage;

    /// The ratings ([`ratings`]).
    fn ratings(&self) -> &dyn RatingStorage;

    /// Starts following the changes other nodes make ([`Change`]s, sent
    /// on `to` as they are committed). Does nothing for a database only
    /// this server uses.
    ///
    /// # Errors
    /// If the database cannot be listened to.
    fn follow(&self, to: tokio::sync::mpsc::UnboundedSender<Change>) -> StoreResult<()> {
        let _ = to;
        Ok(())
    }
}

/// The server's database: SQLite or PostgreSQL.
#[derive(Debug)]
pub struct Store(Box<dyn Storage>);

impl std::ops::Deref for Store {
    type Target = dyn Storage;
    fn deref(&self) -> &(dyn Storage + 'static) {
        &*self.0
    }
}

impl Store {
    /// Opens the database `db`: a PostgreSQL URL (`postgres://…` or
    /// `postgresql://…`), or else the path of an SQLite file (created if
    /// needed and locked until the store is dropped: [`Sqlite::open`]).
    ///
    /// # Errors
    /// If the database cannot be opened, reached or set up, or another
    /// server holds the SQLite file.
    pub fn open(db: &Path) -> Result<Store, OpenError> {
        Store::open_with(db, &DbOptions::default())
    }

    /// [`Store::open`], with `options` for PostgreSQL (a password file).
    ///
    /// # Errors
    /// As [`Store::open`].
    pub fn open_with(db: &Path, options: &DbOptions) -> Result<Store, OpenError> {
        match db.to_str() {
            Some(url) if is_postgres_url(url) => Ok(Store(Box::new(Postgres::connect_with(url, options)?))),
            _ => Ok(Store(Box::new(
                Sqlite::open(db).map_err(|e| disk::on_open_error(db, e))?,
            ))),
        }
    }

    /// A private in-memory SQLite database (for tests and the load test).
    ///
    /// # Errors
    /// If SQLite fails.
    pub fn in_memory() -> StoreResult<Store> {
        Ok(Store(Box::new(Sqlite::in_memory()?)))
    }

    /// A store over any [`Storage`].
    pub fn new(storage: impl Storage + 'static) -> Store {
        Store(Box::new(storage))
    }
}

/// Whether `db` names a PostgreSQL database rather than a file.
pub fn is_postgres_url(db: &str) -> bool {
    db.starts_with("postgres://") || db.starts_with("postgresql://")
}

/// The current time in milliseconds since the Unix epoch.
pub fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    #[test]
    fn listed_count_counts_the_listed_columns() {
        assert_eq!(super::LISTED.split(',').count(), super::LISTED_COUNT);
    }
}
