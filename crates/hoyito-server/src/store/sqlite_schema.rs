//! The SQLite schema: its version and the migrations that bring an older
//! database to it (used by [`super::Sqlite`] when a database is opened).

use rusqlite::{params, Connection};

/// A result of SQLite.
type SqlResult<T> = rusqlite::Result<T>;

/// The schema version this code writes, kept in `PRAGMA user_version`.
/// 1: the `games` and `moves` tables (databases older than the version
/// number read as 0 and have them); 2: seat tokens and invite secrets
/// stored as SHA-256 hashes, and the `health` table; 3: nicknames, clocks,
/// lobby listing and the side to move in `games`, the time of each step in
/// `moves`, and the `chat` table; 4: the `analyses` table (one post-game
/// analysis per game); 5: the waiting draw offer in `games` (`draw_offer`,
/// `draw_offer_seq`, `draw_rev`); 6: the waiting takeback request in
/// `games` (`takeback_offer`, `takeback_offer_seq`); 7: the count of
/// stored steps in `games` is the column `steps` (before: `plies`); 8: the
/// tables of accounts (`accounts`, `recovery_codes`, `sessions`,
/// `account_seats`: [`super::accounts`]); 9: the tables of ratings
/// (`ratings`, `rated_games`, `rating_history`: [`super::ratings`]) and
/// whether a game is rated (`games.rated`) and the ratings its free seat
/// is open to (`rating_min`, `rating_max`); 10: the tables of passkeys
/// (`passkeys`, `passkey_ceremonies`: [`super::passkeys`]); 11: the
/// solvers' puzzle ratings on their accounts (`puzzle_ratings`:
/// [`super::ratings`]).
pub const SCHEMA_VERSION: i64 = 11;

/// Brings the schema to [`SCHEMA_VERSION`] in one transaction.
pub(super) fn migrate(conn: &mut Connection) -> SqlResult<()> {
    let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    let version: i64 = tx.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    if version > SCHEMA_VERSION {
        return Err(rusqlite::Error::SqliteFailure(
            rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_MISMATCH),
            Some(format!(
                "the database has schema version {version}; this hoyito reads versions up to {SCHEMA_VERSION}"
            )),
        ));
    }
    if version < 1 {
        tx.execute_batch(
            "CREATE TABLE IF NOT EXISTS games (
                id TEXT PRIMARY KEY,
                created_ms INTEGER NOT NULL,
                updated_ms INTEGER NOT NULL,
                mode TEXT NOT NULL,
                rules TEXT NOT NULL,
                is_match INTEGER NOT NULL,
                level INTEGER NOT NULL,
                engine_side TEXT,
                start TEXT,
                south_token TEXT,
                north_token TEXT,
                invite TEXT,
                undos INTEGER NOT NULL DEFAULT 0,
                status TEXT NOT NULL,
                plies INTEGER NOT NULL DEFAULT 0,
                result TEXT,
                score_south INTEGER NOT NULL DEFAULT 0,
                score_north INTEGER NOT NULL DEFAULT 0
            );
            CREATE INDEX IF NOT EXISTS games_updated ON games(updated_ms);
            CREATE TABLE IF NOT EXISTS moves (
                game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
                seq INTEGER NOT NULL,
                token TEXT NOT NULL,
                PRIMARY KEY (game_id, seq)
            ) WITHOUT ROWID;",
        )?;
    }
    if version < 2 {
        tx.execute_batch(
            "CREATE TABLE IF NOT EXISTS health (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                checked_ms INTEGER NOT NULL
            );",
        )?;
        let rows = {
            let mut st = tx.prepare("SELECT id, south_token, north_token, invite FROM games")?;
            let rows = st.query_map([], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, Option<String>>(1)?,
                    r.get::<_, Option<String>>(2)?,
                    r.get::<_, Option<String>>(3)?,
                ))
            })?;
            rows.collect::<SqlResult<Vec<_>>>()?
        };
        let hash = |s: Option<String>| s.as_deref().map(crate::auth::hash_secret);
        for (id, south, north, invite) in rows {
            tx.execute(
                "UPDATE games SET south_token = ?2, north_token = ?3, invite = ?4 WHERE id = ?1",
                params![id, hash(south), hash(north), hash(invite)],
            )?;
        }
    }
    if version < 3 {
        for (table, column, decl) in [
            ("games", "south_name", "TEXT"),
            ("games", "north_name", "TEXT"),
            ("games", "clock", "TEXT"),
            ("games", "public", "INTEGER NOT NULL DEFAULT 0"),
            ("games", "to_move", "TEXT"),
            ("moves", "at_ms", "INTEGER"),
        ] {
            add_column(&tx, table, column, decl)?;
        }
        tx.execute_batch(
            "CREATE INDEX IF NOT EXISTS games_status ON games(status, updated_ms);
            CREATE TABLE IF NOT EXISTS chat (
                game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
                seq INTEGER NOT NULL,
                side TEXT NOT NULL,
                text TEXT NOT NULL,
                at_ms INTEGER NOT NULL,
                PRIMARY KEY (game_id, seq)
            ) WITHOUT ROWID;",
        )?;
    }
    if version < 4 {
        tx.execute_batch(
            "CREATE TABLE IF NOT EXISTS analyses (
                game_id TEXT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
                epoch INTEGER NOT NULL,
                seq INTEGER NOT NULL,
                created_ms INTEGER NOT NULL,
                data TEXT NOT NULL
            );",
        )?;
    }
    if version < 5 {
        for (column, decl) in [
            ("draw_offer", "TEXT"),
            ("draw_offer_seq", "INTEGER"),
            ("draw_rev", "INTEGER NOT NULL DEFAULT 0"),
        ] {
            add_column(&tx, "games", column, decl)?;
        }
    }
    if version < 6 {
        for (column, decl) in [("takeback_offer", "TEXT"), ("takeback_offer_seq", "INTEGER")] {
            add_column(&tx, "games", column, decl)?;
        }
    }
    if version < 7 {
        rename_column(&tx, "games", "plies", "steps")?;
    }
    if version < 8 {
        tx.execute_batch(ACCOUNTS_8)?;
    }
    if version < 9 {
        add_column(&tx, "games", "rated", "INTEGER NOT NULL DEFAULT 0")?;
        add_column(&tx, "games", "rating_min", "INTEGER")?;
        add_column(&tx, "games", "rating_max", "INTEGER")?;
        tx.execute_batch(RATINGS_9)?;
    }
    if version < 10 {
        tx.execute_batch(PASSKEYS_10)?;
    }
    if version < 11 {
        tx.execute_batch(PUZZLE_RATINGS_11)?;
    }
    tx.pragma_update(None, "user_version", SCHEMA_VERSION)?;
    tx.commit()
}

/// The tables of accounts (schema version 8).
const ACCOUNTS_8: &str = "CREATE TABLE IF NOT EXISTS accounts (
        id TEXT PRIMARY KEY,
        username TEXT NOT NULL,
        skeleton TEXT NOT NULL UNIQUE,
        password_hash TEXT NOT NULL,
        created_ms INTEGER NOT NULL
    );
    CREATE TABLE IF NOT EXISTS recovery_codes (
        account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        code_hash TEXT NOT NULL,
        PRIMARY KEY (account_id, code_hash)
    ) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS sessions (
        token_hash TEXT PRIMARY KEY,
        account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        created_ms INTEGER NOT NULL,
        expires_ms INTEGER NOT NULL
    ) WITHOUT ROWID;
    CREATE INDEX IF NOT EXISTS sessions_account ON sessions(account_id);
    CREATE TABLE IF NOT EXISTS account_seats (
        game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seat TEXT NOT NULL,
        account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        PRIMARY KEY (game_id, seat)
    ) WITHOUT ROWID;
    CREATE INDEX IF NOT EXISTS account_seats_account ON account_seats(account_id);";

/// The tables of ratings (schema version 9).
const RATINGS_9: &str = "CREATE TABLE IF NOT EXISTS ratings (
        account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        pool TEXT NOT NULL,
        rating DOUBLE PRECISION NOT NULL,
        deviation DOUBLE PRECISION NOT NULL,
        volatility DOUBLE PRECISION NOT NULL,
        games BIGINT NOT NULL,
        wins BIGINT NOT NULL,
        draws BIGINT NOT NULL,
        losses BIGINT NOT NULL,
        last_ms BIGINT NOT NULL,
        PRIMARY KEY (account_id, pool)
    ) WITHOUT ROWID;
    CREATE INDEX IF NOT EXISTS ratings_pool ON ratings(pool, rating);
    CREATE TABLE IF NOT EXISTS rated_games (
        game_id TEXT PRIMARY KEY NOT NULL,
        pool TEXT NOT NULL,
        south_id TEXT,
        north_id TEXT,
        south_score DOUBLE PRECISION NOT NULL,
        ended_ms BIGINT NOT NULL
    ) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS rating_history (
        game_id TEXT NOT NULL REFERENCES rated_games(game_id) ON DELETE CASCADE,
        account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        opponent_id TEXT,
        side TEXT NOT NULL,
        pool TEXT NOT NULL,
        score DOUBLE PRECISION NOT NULL,
        rating_before DOUBLE PRECISION NOT NULL,
        rating_after DOUBLE PRECISION NOT NULL,
        deviation_before DOUBLE PRECISION NOT NULL,
        deviation_after DOUBLE PRECISION NOT NULL,
        ended_ms BIGINT NOT NULL,
        PRIMARY KEY (game_id, side)
    ) WITHOUT ROWID;
    CREATE INDEX IF NOT EXISTS rating_history_account ON rating_history(account_id, ended_ms);";

/// The solvers' puzzle ratings (schema version 11).
const PUZZLE_RATINGS_11: &str = "CREATE TABLE IF NOT EXISTS puzzle_ratings (
        account_id TEXT PRIMARY KEY NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        rating DOUBLE PRECISION NOT NULL,
        deviation DOUBLE PRECISION NOT NULL,
        volatility DOUBLE PRECISION NOT NULL,
        attempts BIGINT NOT NULL,
        updated_ms BIGINT NOT NULL
    ) WITHOUT ROWID;";

/// The tables of passkeys (schema version 10).
const PASSKEYS_10: &str = "CREATE TABLE IF NOT EXISTS passkeys (
        id TEXT PRIMARY KEY,
        account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        credential_id TEXT NOT NULL UNIQUE,
        passkey TEXT NOT NULL,
        created_ms INTEGER NOT NULL,
        last_used_ms INTEGER
    );
    CREATE INDEX IF NOT EXISTS passkeys_account ON passkeys(account_id);
    CREATE TABLE IF NOT EXISTS passkey_ceremonies (
        id_hash TEXT PRIMARY KEY,
        kind TEXT NOT NULL,
        account_id TEXT,
        username TEXT,
        origin TEXT NOT NULL,
        state TEXT NOT NULL,
        expires_ms INTEGER NOT NULL
    ) WITHOUT ROWID;
    CREATE INDEX IF NOT EXISTS passkey_ceremonies_expiry ON passkey_ceremonies(expires_ms);";

/// Adds a column to a table unless it has it already.
fn add_column(tx: &rusqlite::Transaction<'_>, table: &str, column: &str, decl: &str) -> SqlResult<()> {
    if !has_column(tx, table, column)? {
        tx.execute_batch(&format!("ALTER TABLE {table} ADD COLUMN {column} {decl};"))?;
    }
    Ok(())
}

/// Renames a column of a table unless it has the new name already.
fn rename_column(tx: &rusqlite::Transaction<'_>, table: &str, from: &str, to: &str) -> SqlResult<()> {
    if !has_column(tx, table, to)? {
        tx.execute_batch(&format!("ALTER TABLE {table} RENAME COLUMN {from} TO {to};"))?;
    }
    Ok(())
}

/// Whether a table has a column.
fn has_column(tx: &rusqlite::Transaction<'_>, table: &str, column: &str) -> SqlResult<bool> {
    tx.query_row(
        &format!("SELECT COUNT(*) > 0 FROM pragma_table_info('{table}') WHERE name = ?1"),
        params![column],
        |r| r.get(0),
    )
}
