//! [`Sqlite`]: the embedded database, one file beside the server.
//!
//! The database runs in WAL mode with `synchronous = NORMAL`: a committed
//! move survives the server process being killed; a power failure may lose
//! the last moves committed before it. Moves are committed in groups by a
//! thread of the store's (`sqlite/appends.rs`), and the log is copied back
//! into the database by another (`sqlite/checkpoint.rs`), so that neither
//! a move's commit nor a checkpoint's sync waits on the other.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use fs4::fs_std::FileExt;

use hoyito_core::Side;
use rusqlite::{params, Connection, OptionalExtension};

use super::sqlite_schema::migrate;
use super::{
    now as now_ms, ChatMessage, ListedGame, LobbyKind, Meta, OfferKind, OpenError, Storage, StoreError,
    StoreResult, StoredGame, Summary, UNDO_SET,
};

/// A result of SQLite.
type SqlResult<T> = rusqlite::Result<T>;

/// The SQLite database of games and moves (the embedded default). Cheap calls; use from blocking
/// threads (`spawn_blocking`), not from async code directly.
///
/// A store opened from a file holds an exclusive lock on `<file>.lock` for
/// its whole life, so two servers never share one database.
///
/// Connections: one writer (every write goes through it, in turn), a few
/// read-only connections for reads (in WAL mode they never wait for a
/// writer, nor for a lock another process holds), and one for the health
/// check's test write, which gives up quickly. A store in memory has the
/// writer only.
#[derive(Debug)]
pub struct Sqlite {
    /// The thread that writes moves (first: it stops before the rest goes).
    appender: appends::Appender,
    conn: Arc<Mutex<Connection>>,
    /// Read-only connections (none in memory).
    readers: Vec<Mutex<Connection>>,
    /// Where the next read starts looking for a free reader.
    next_reader: std::sync::atomic::AtomicUsize,
    /// The health check's connection (none in memory).
    health: Option<Mutex<Connection>>,
    /// The thread that checkpoints the log (none in memory).
    _checkpointer: Option<checkpoint::Checkpointer>,
    /// The locked `<db>.lock` file (`None` in memory); the lock goes with it.
    _lock: Option<File>,
}

/// Read-only connections of a store opened from a file.
pub const READERS: usize = 4;

/// How long the health check's test write waits for a lock.
pub const HEALTH_BUSY_TIMEOUT: std::time::Duration = std::time::Duration::from_millis(500);

/// The lock file of the database at `db`: `<db>.lock`.
pub fn lock_path(db: &Path) -> PathBuf {
    let mut name = db.as_os_str().to_owned();
    name.push(".lock");
    PathBuf::from(name)
}

/// Takes the exclusive lock of the database at `db`, without waiting.
fn lock_db(db: &Path) -> Result<File, OpenError> {
    let lock = lock_path(db);
    let failed = |source| OpenError::Lock {
        db: db.to_path_buf(),
        lock: lock.clone(),
        source,
    };
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&lock)
        .map_err(failed)?;
    if !file.try_lock_exclusive().map_err(failed)? {
        return Err(OpenError::InUse {
            db: db.to_path_buf(),
            lock,
        });
    }
    Ok(file)
}

impl Sqlite {
    /// Opens (creating if needed) the database at `path`, and locks it
    /// (through `<path>.lock`) until the store is dropped.
    ///
    /// # Errors
    /// [`OpenError::InUse`] if another store holds the database; otherwise if
    /// the lock file or the database cannot be opened or the schema cannot
    /// be created.
    pub fn open(path: &Path) -> Result<Sqlite, OpenError> {
        let lock = lock_db(path)?;
        let mut store = Sqlite::setup(Connection::open(path)?)?;
        for _ in 0..READERS {
            let reader = Connection::open_with_flags(
                path,
                rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX,
            )?;
            reader.busy_timeout(std::time::Duration::from_secs(5))?;
            store.readers.push(Mutex::new(reader));
        }
        let health = Connection::open(path)?;
        health.busy_timeout(HEALTH_BUSY_TIMEOUT)?;
        store.health = Some(Mutex::new(health));
        // The writer leaves checkpoints to their own thread.
        store.conn().pragma_update(None, "wal_autocheckpoint", 0)?;
        store._checkpointer = Some(checkpoint::Checkpointer::start(path)?);
        store._lock = Some(lock);
        Ok(store)
    }

    /// A private in-memory database (for tests and the load test).
    ///
    /// # Errors
    /// If SQLite fails.
    pub fn in_memory() -> SqlResult<Sqlite> {
        Sqlite::setup(Connection::open_in_memory()?)
    }

    fn setup(mut conn: Connection) -> SqlResult<Sqlite> {
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        migrate(&mut conn)?;
        let conn = Arc::new(Mutex::new(conn));
        let appender = appends::Appender::start(conn.clone()).map_err(|e| {
            rusqlite::Error::SqliteFailure(
                rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_ERROR),
                Some(format!("cannot start the writer thread: {e}")),
            )
        })?;
        Ok(Sqlite {
            appender,
            conn,
            readers: Vec::new(),
            next_reader: std::sync::atomic::AtomicUsize::new(0),
            health: None,
            _checkpointer: None,
            _lock: None,
        })
    }

    /// The writer.
    pub(super) fn conn(&self) -> std::sync::MutexGuard<'_, Connection> {
        // A panic while holding the lock leaves SQLite consistent (transactions roll back).
        self.conn.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A reader: a free one if any, else the next in turn (the writer in memory).
    pub(super) fn reader(&self) -> std::sync::MutexGuard<'_, Connection> {
        if self.readers.is_empty() {
            return self.conn();
        }
        let start = self
            .next_reader
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        for i in 0..self.readers.len() {
            let r = &self.readers[(start + i) % self.readers.len()];
            match r.try_lock() {
                Ok(guard) => return guard,
                Err(std::sync::TryLockError::Poisoned(e)) => return e.into_inner(),
                Err(std::sync::TryLockError::WouldBlock) => {}
            }
        }
        self.readers[start % self.readers.len()]
            .lock()
            .unwrap_or_else(|e| e.into_inner())
    }

    /// Stores a new game with no moves.
    ///
    /// # Errors
    /// If SQLite fails (e.g. the id exists).
    pub fn insert_game(&self, meta: &Meta, summary: &Summary) -> SqlResult<()> {
        insert_game_row(&self.conn(), meta, summary)
    }

    /// Stores a game with its steps in one transaction (record import):
    /// both or neither.
    ///
    /// # Errors
    /// If SQLite fails.
    pub fn insert_game_with_steps(&self, meta: &Meta, steps: &[String], summary: &Summary) -> SqlResult<()> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        insert_game_row(&tx, meta, summary)?;
        {
            let mut st = tx.prepare("INSERT INTO moves (game_id, seq, token) VALUES (?1, ?2, ?3)")?;
            for (i, t) in steps.iter().enumerate() {
                st.execute(params![meta.id, i as i64 + 1, t])?;
            }
        }
        tx.commit()
    }

    /// Appends step number `seq` (from 1) and updates the summary, in one transaction.
    ///
    /// # Errors
    /// If SQLite fails (e.g. the step exists).
    pub fn append(&self, id: &str, seq: u64, token: &str, summary: &Summary) -> StoreResult<()> {
        self.append_at(id, seq, token, now_ms(), summary)
    }

    /// [`Sqlite::append`], with the time the step was played (ms since the
    /// epoch), which the clocks are computed from.
    ///
    /// # Errors
    /// If SQLite fails (e.g. the step exists).
    /// Steps appended at the same time by several callers are committed
    /// together, each in a savepoint of its own (`sqlite/appends.rs`).
    pub fn append_at(
        &self,
        id: &str,
        seq: u64,
        token: &str,
        at_ms: i64,
        summary: &Summary,
    ) -> StoreResult<()> {
        self.appender
            .append(id, seq, token, at_ms, summary)
            .blocking_recv()
            .unwrap_or_else(|_| Err(appends::writer_gone().into()))
    }

    /// Deletes every step after `keep`, counts one more undo and clears
    /// the draw offer.
    ///
    /// # Errors
    /// If SQLite fails.
    pub fn truncate(&self, id: &str, keep: u64, summary: &Summary) -> SqlResult<()> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        tx.execute(
            "DELETE FROM moves WHERE game_id = ?1 AND seq > ?2",
            params![id, keep],
        )?;
        tx.execute(&format!("UPDATE games SET {UNDO_SET} WHERE id = ?1"), params![id])?;
        update_summary(&tx, id, summary)?;
        tx.commit()
    }

    /// Binds `side`'s seat to `token` (with the player's nickname) and
    /// clears the invite.
    ///
    /// # Errors
    /// If SQLite fails.
    pub fn bind_seat(
        &self,
        id: &str,
        side: Side,
        token: &str,
        name: Option<&str>,
        summary: &Summary,
    ) -> SqlResult<()> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        let sql = match side {
            Side::South => "UPDATE games SET south_token = ?2, south_name = ?3, invite = NULL WHERE id = ?1",
            Side::North => "UPDATE games SET north_token = ?2, north_name = ?3, invite = NULL WHERE id = ?1",
        };
        tx.execute(sql, params![id, token, name])?;
        update_summary(&tx, id, summary)?;
        tx.commit()
    }

    /// Stores `side`'s offer of `kind` (a draw, a takeback) in game `id` at
    /// step count `seq`, or with `None` clears it; returns the game's new
    /// draw revision.
    ///
    /// # Errors
    /// [`StoreError::Conflict`] if the game does not have `seq` steps
    /// stored; [`StoreError::Corrupt`] if there is no such game; if SQLite fails.
    pub fn set_offer(&self, id: &str, kind: OfferKind, seq: u64, side: Option<Side>) -> StoreResult<u64> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        let stored: Option<u64> = tx
            .query_row("SELECT steps FROM games WHERE id = ?1", params![id], |r| r.get(0))
            .optional()?;
        let Some(stored) = stored else {
            return Err(StoreError::Corrupt(format!("no game {id}")));
        };
        if stored != seq {
            return Err(StoreError::Conflict {
                id: id.to_string(),
                expected: seq,
                stored,
            });
        }
        let rev: u64 = tx.query_row(
            &super::offer_update_sql(kind, '?'),
            params![id, side.map(Side::name), side.map(|_| seq)],
            |r| r.get(0),
        )?;
        tx.commit()?;
        Ok(rev)
    }

    /// Checks that the database can be written: stores the time in the
    /// one-row `health` table.
    ///
    /// # Errors
    /// If SQLite fails to write (a full disk, a read-only file, a lock held
    /// for more than [`HEALTH_BUSY_TIMEOUT`]).
    pub fn check_writable(&self) -> SqlResult<()> {
        let conn = match &self.health {
            Some(h) => h.lock().unwrap_or_else(|e| e.into_inner()),
            None => self.conn(),
        };
        conn.execute(
            "INSERT OR REPLACE INTO health (id, checked_ms) VALUES (1, ?1)",
            params![now_ms()],
        )?;
        Ok(())
    }

    /// Stores the analysis of game `id` at undo count `epoch` and `seq`
    /// steps (`data`: its JSON), replacing an older one of the same game.
    ///
    /// # Errors
    /// If SQLite fails (e.g. no such game).
    pub fn save_analysis(&self, id: &str, epoch: u64, seq: u64, data: &str) -> SqlResult<()> {
        self.conn().execute(
            "INSERT OR REPLACE INTO analyses (game_id, epoch, seq, created_ms, data)
             VALUES (?1, ?2, ?3, ?4, ?5)",
            params![id, epoch, seq, now_ms(), data],
        )?;
        Ok(())
    }

    /// The stored analysis of game `id`: its epoch, steps and JSON.
    ///
    /// # Errors
    /// If SQLite fails.
    pub fn load_analysis(&self, id: &str) -> SqlResult<Option<(u64, u64, String)>> {
        self.conn()
            .query_row(
                "SELECT epoch, seq, data FROM analyses WHERE game_id = ?1",
                params![id],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .optional()
    }

    /// Number of stored games.
    ///
    /// # Errors
    /// If SQLite fails.
    pub fn count(&self) -> SqlResult<u64> {
        self.reader()
            .query_row("SELECT COUNT(*) FROM games", [], |r| r.get(0))
    }
}

/// Inserts a game's row.
fn insert_game_row(conn: &Connection, meta: &Meta, summary: &Summary) -> SqlResult<()> {
    let rules = serde_json::to_string(&meta.rules.spec()).expect("rules serialise");
    conn.execute(
        "INSERT INTO games (id, created_ms, updated_ms, mode, rules, is_match, level, engine_side,
            start, south_token, north_token, invite, status, steps, result, score_south, score_north,
            south_name, north_name, clock, public, to_move, rated, rating_min, rating_max)
         VALUES (?1, ?2, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16,
            ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24)",
        params![
            meta.id,
            meta.created_ms,
            meta.mode.name(),
            rules,
            meta.is_match,
            meta.level,
            meta.engine_side.map(Side::name),
            meta.start,
            meta.tokens.south,
            meta.tokens.north,
            meta.invite,
            summary.status,
            summary.seq,
            summary.result,
            summary.score[0],
            summary.score[1],
            meta.names.south,
            meta.names.north,
            meta.clock
                .map(|c| serde_json::to_string(&c).expect("a clock serialises")),
            meta.public,
            summary.to_move,
            meta.rated,
            meta.rating_range.map(|r| r[0]),
            meta.rating_range.map(|r| r[1]),
        ],
    )?;
    Ok(())
}

fn update_summary(tx: &rusqlite::Transaction<'_>, id: &str, s: &Summary) -> SqlResult<()> {
    tx.prepare_cached(
        "UPDATE games SET updated_ms = ?2, status = ?3, steps = ?4, result = ?5, score_south = ?6,
            score_north = ?7, to_move = ?8 WHERE id = ?1",
    )?
    .execute(params![
        id,
        now_ms(),
        s.status,
        s.seq,
        s.result,
        s.score[0],
        s.score[1],
        s.to_move
    ])?;
    Ok(())
}

impl Storage for Sqlite {
    fn insert_game(&self, meta: &Meta, summary: &Summary) -> StoreResult<()> {
        Ok(Sqlite::insert_game(self, meta, summary)?)
    }
    fn insert_game_with_steps(&self, meta: &Meta, steps: &[String], summary: &Summary) -> StoreResult<()> {
        Ok(Sqlite::insert_game_with_steps(self, meta, steps, summary)?)
    }
    fn append_at(&self, id: &str, seq: u64, token: &str, at_ms: i64, summary: &Summary) -> StoreResult<()> {
        Sqlite::append_at(self, id, seq, token, at_ms, summary)
    }
    fn append_queued(
        &self,
        id: &str,
        seq: u64,
        token: &str,
        at_ms: i64,
        summary: &Summary,
    ) -> Option<tokio::sync::oneshot::Receiver<StoreResult<()>>> {
        Some(self.appender.append(id, seq, token, at_ms, summary))
    }
    fn truncate(&self, id: &str, keep: u64, summary: &Summary) -> StoreResult<()> {
        Ok(Sqlite::truncate(self, id, keep, summary)?)
    }
    fn bind_seat(
        &self,
        id: &str,
        side: Side,
        token: &str,
        name: Option<&str>,
        summary: &Summary,
    ) -> StoreResult<()> {
        Ok(Sqlite::bind_seat(self, id, side, token, name, summary)?)
    }
    fn load(&self, id: &str) -> StoreResult<Option<StoredGame>> {
        Ok(Sqlite::load(self, id)?)
    }
    fn set_offer(&self, id: &str, kind: OfferKind, seq: u64, side: Option<Side>) -> StoreResult<u64> {
        Sqlite::set_offer(self, id, kind, seq, side)
    }
    fn list(&self, limit: u32, status: Option<&str>) -> StoreResult<Vec<ListedGame>> {
        Ok(Sqlite::list(self, limit, status)?)
    }
    fn over_game_ids(&self, limit: u32, offset: u64) -> StoreResult<Vec<String>> {
        let conn = self.reader();
        let mut st = conn.prepare_cached(
            "SELECT id FROM games WHERE status = 'over' ORDER BY created_ms, id LIMIT ?1 OFFSET ?2",
        )?;
        let rows = st.query_map(rusqlite::params![limit, offset], |r| r.get(0))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }
    fn check_writable(&self) -> StoreResult<()> {
        Sqlite::check_writable(self)?;
        super::disk::check_space(self.reader().path())
    }
    fn save_analysis(&self, id: &str, epoch: u64, seq: u64, data: &str) -> StoreResult<()> {
        Ok(Sqlite::save_analysis(self, id, epoch, seq, data)?)
    }
    fn load_analysis(&self, id: &str) -> StoreResult<Option<(u64, u64, String)>> {
        Ok(Sqlite::load_analysis(self, id)?)
    }
    fn count(&self) -> StoreResult<u64> {
        Ok(Sqlite::count(self)?)
    }
    fn step_times(&self, id: &str) -> StoreResult<Vec<Option<i64>>> {
        Ok(Sqlite::step_times(self, id)?)
    }
    fn timed_games(&self) -> StoreResult<Vec<String>> {
        Ok(Sqlite::timed_games(self)?)
    }
    fn lobby(
        &self,
        kind: LobbyKind,
        variant: Option<&str>,
        limit: u32,
        offset: u32,
    ) -> StoreResult<Vec<ListedGame>> {
        Ok(Sqlite::lobby(self, kind, variant, limit, offset)?)
    }
    fn games_by_id(&self, ids: &[String]) -> StoreResult<Vec<ListedGame>> {
        Ok(Sqlite::games_by_id(self, ids)?)
    }
    fn add_chat(&self, id: &str, side: Side, text: &str, at_ms: i64) -> StoreResult<ChatMessage> {
        Ok(Sqlite::add_chat(self, id, side, text, at_ms)?)
    }
    fn chat(&self, id: &str, limit: u32) -> StoreResult<Vec<ChatMessage>> {
        Ok(Sqlite::chat(self, id, limit)?)
    }
    fn delete_abandoned(&self, before_ms: i64, limit: u32) -> StoreResult<Vec<String>> {
        super::expiry::sqlite(&self.conn(), before_ms, limit)
    }
    fn accounts(&self) -> &dyn super::AccountStorage {
        self
    }
    fn passkeys(&self) -> &dyn super::PasskeyStorage {
        self
    }
    fn ratings(&self) -> &dyn super::RatingStorage {
        self
    }
}

mod appends;
mod checkpoint;
mod load;
#[cfg(test)]
mod tests;
