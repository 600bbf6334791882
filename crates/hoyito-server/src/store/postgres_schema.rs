//! The tables of a PostgreSQL database ([`super::Postgres`]): made when
//! missing, brought to [`PG_SCHEMA_VERSION`] by one node at a time.

use ::postgres::Client;

use super::{StoreError, StoreResult};

/// The schema version of a PostgreSQL database (the table `hoyito_schema`).
/// 1: the tables as first made; 2: the waiting draw offer in `games`
/// (`draw_offer`, `draw_offer_seq`, `draw_rev`); 3: the waiting takeback
/// request in `games` (`takeback_offer`, `takeback_offer_seq`).
pub const PG_SCHEMA_VERSION: i32 = 3;

/// Creates the tables if missing and brings them to [`PG_SCHEMA_VERSION`],
/// one node at a time (an advisory lock).
pub(super) fn migrate(conn: &mut Client) -> StoreResult<()> {
    let mut tx = conn.transaction()?;
    tx.execute("SELECT pg_advisory_xact_lock(7406105)", &[])?;
    tx.batch_execute(
        "CREATE TABLE IF NOT EXISTS hoyito_schema (version INTEGER NOT NULL);
        CREATE TABLE IF NOT EXISTS games (
            id TEXT PRIMARY KEY,
            created_ms BIGINT NOT NULL,
            updated_ms BIGINT NOT NULL,
            mode TEXT NOT NULL,
            rules TEXT NOT NULL,
            is_match BOOLEAN NOT NULL,
            level SMALLINT NOT NULL,
            engine_side TEXT,
            start TEXT,
            south_token TEXT,
            north_token TEXT,
            invite TEXT,
            undos BIGINT NOT NULL DEFAULT 0,
            status TEXT NOT NULL,
            plies BIGINT NOT NULL DEFAULT 0,
            result TEXT,
            score_south BIGINT NOT NULL DEFAULT 0,
            score_north BIGINT NOT NULL DEFAULT 0,
            to_move TEXT,
            south_name TEXT,
            north_name TEXT,
            clock TEXT,
            public BOOLEAN NOT NULL DEFAULT FALSE,
            draw_offer TEXT,
            draw_offer_seq BIGINT,
            draw_rev BIGINT NOT NULL DEFAULT 0,
            takeback_offer TEXT,
            takeback_offer_seq BIGINT
        );
        CREATE INDEX IF NOT EXISTS games_updated ON games(updated_ms);
        CREATE INDEX IF NOT EXISTS games_status ON games(status, updated_ms);
        CREATE TABLE IF NOT EXISTS moves (
            game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
            seq BIGINT NOT NULL,
            token TEXT NOT NULL,
            at_ms BIGINT,
            PRIMARY KEY (game_id, seq)
        );
        CREATE TABLE IF NOT EXISTS chat (
            game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
            seq BIGINT NOT NULL,
            side TEXT NOT NULL,
            text TEXT NOT NULL,
            at_ms BIGINT NOT NULL,
            PRIMARY KEY (game_id, seq)
        );
        CREATE TABLE IF NOT EXISTS analyses (
            game_id TEXT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
            epoch BIGINT NOT NULL,
            seq BIGINT NOT NULL,
            created_ms BIGINT NOT NULL,
            data TEXT NOT NULL
        );
        CREATE TABLE IF NOT EXISTS health (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            checked_ms BIGINT NOT NULL
        );",
    )?;
    let version: Option<i32> = tx
        .query_opt("SELECT version FROM hoyito_schema", &[])?
        .map(|r| r.get(0));
    match version {
        None => {
            tx.execute(
                "INSERT INTO hoyito_schema (version) VALUES ($1)",
                &[&PG_SCHEMA_VERSION],
            )?;
        }
        Some(v) if v > PG_SCHEMA_VERSION => {
            return Err(StoreError::Corrupt(format!(
                "the database has schema version {v}; this hoyito reads versions up to {PG_SCHEMA_VERSION}"
            )));
        }
        Some(v) => {
            if v < 2 {
                tx.batch_execute(
                    "ALTER TABLE games ADD COLUMN IF NOT EXISTS draw_offer TEXT,
                        ADD COLUMN IF NOT EXISTS draw_offer_seq BIGINT,
                        ADD COLUMN IF NOT EXISTS draw_rev BIGINT NOT NULL DEFAULT 0;",
                )?;
            }
            if v < 3 {
                tx.batch_execute(
                    "ALTER TABLE games ADD COLUMN IF NOT EXISTS takeback_offer TEXT,
                        ADD COLUMN IF NOT EXISTS takeback_offer_seq BIGINT;",
                )?;
            }
            if v < PG_SCHEMA_VERSION {
                tx.execute("UPDATE hoyito_schema SET version = $1", &[&PG_SCHEMA_VERSION])?;
            }
        }
    }
    tx.commit()?;
    Ok(())
}
