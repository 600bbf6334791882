//! The tables of a PostgreSQL database ([`super::Postgres`]): made when
//! missing, brought to [`PG_SCHEMA_VERSION`] by one node at a time.
//!
//! Several nodes share the database, and during a rolling upgrade nodes of
//! two versions share it. A change of the tables is made in two steps
//! (expand, then contract): a migration adds what the new version uses and
//! keeps what the older nodes use working beside it; a later version drops
//! the old parts once no older node runs. The table `hoyito_schema` holds
//! two numbers: `applied`, the migrations the tables have, and `version`,
//! the oldest schema version whose nodes may use them. Nodes before schema
//! version 4 know `version` only: they read it as the tables' version and
//! refuse a database whose `version` is above their own.

use ::postgres::{Client, Transaction};

use super::{StoreError, StoreResult};

/// The schema version of this code (`applied` once it migrated a database).
/// 1: the tables as first made; 2: the waiting draw offer in `games`
/// (`draw_offer`, `draw_offer_seq`, `draw_rev`); 3: the waiting takeback
/// request in `games` (`takeback_offer`, `takeback_offer_seq`); 4: the
/// count of stored steps in `games` is the column `steps`; `plies`, which
/// nodes before version 4 read and write, is kept equal to it by the
/// trigger `games_steps_plies` (dropped, with `plies`, by a later version);
/// 5: the tables of accounts (`accounts`, `recovery_codes`, `sessions`,
/// `account_seats`: [`super::accounts`]), which older nodes never read:
/// they share the database as before (their games are anonymous); 6: the
/// tables of ratings (`ratings`, `rated_games`, `rating_history`:
/// [`super::ratings`]) and whether a game is rated (`games.rated`, false
/// by default), which older nodes never read (their games are never
/// rated); 7: the tables of passkeys (`passkeys`, `passkey_ceremonies`:
/// [`super::passkeys`]), which older nodes never read; an account with
/// passkeys only has an empty `password_hash`, which an older node's
/// password check refuses like a wrong password; 8: the solvers' puzzle
/// ratings on their accounts (`puzzle_ratings`: [`super::ratings`]),
/// which older nodes never read (an account they delete takes its row).
pub const PG_SCHEMA_VERSION: i32 = 8;

/// The oldest schema version whose nodes can share a database with this
/// code's nodes (`version` once it migrated a database): nodes of version 3
/// read and write `plies`, which the trigger keeps equal to `steps`.
pub const PG_OLDEST_SHARING: i32 = 3;

/// The tables as at schema version 3, where missing.
const TABLES_3: &str = "CREATE TABLE IF NOT EXISTS hoyito_schema (version INTEGER NOT NULL);
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
    );";

/// Migration 4 (expand): the column `steps`, filled from `plies`, and the
/// trigger `games_steps_plies` that keeps the two equal: before a row is
/// inserted or updated, whichever of the two the writer set is copied to
/// the other. An insert
/// without `steps` is an older node's (`steps` has no default); an update
/// that changes `steps` is a newer node's, one that changes `plies` only an
/// older node's.
const STEPS_4: &str = "ALTER TABLE games ADD COLUMN IF NOT EXISTS steps BIGINT;
    UPDATE games SET steps = plies WHERE steps IS NULL;
    ALTER TABLE games ALTER COLUMN steps SET NOT NULL;
    CREATE OR REPLACE FUNCTION games_steps_plies() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF TG_OP = 'INSERT' THEN
            IF NEW.steps IS NULL THEN
                NEW.steps := NEW.plies;
            ELSE
                NEW.plies := NEW.steps;
            END IF;
        ELSIF NEW.steps IS DISTINCT FROM OLD.steps THEN
            NEW.plies := NEW.steps;
        ELSIF NEW.plies IS DISTINCT FROM OLD.plies THEN
            NEW.steps := NEW.plies;
        END IF;
        RETURN NEW;
    END
    $$;
    DROP TRIGGER IF EXISTS games_steps_plies ON games;
    CREATE TRIGGER games_steps_plies BEFORE INSERT OR UPDATE ON games
        FOR EACH ROW EXECUTE FUNCTION games_steps_plies();";

/// Migration 5 (expand only): the tables of accounts. Nodes of versions 3
/// and 4 do not know them; a game they delete takes its seat links with it
/// (`ON DELETE CASCADE`).
const ACCOUNTS_5: &str = "CREATE TABLE IF NOT EXISTS accounts (
        id TEXT PRIMARY KEY,
        username TEXT NOT NULL,
        skeleton TEXT NOT NULL UNIQUE,
        password_hash TEXT NOT NULL,
        created_ms BIGINT NOT NULL
    );
    CREATE TABLE IF NOT EXISTS recovery_codes (
        account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        code_hash TEXT NOT NULL,
        PRIMARY KEY (account_id, code_hash)
    );
    CREATE TABLE IF NOT EXISTS sessions (
        token_hash TEXT PRIMARY KEY,
        account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        created_ms BIGINT NOT NULL,
        expires_ms BIGINT NOT NULL
    );
    CREATE INDEX IF NOT EXISTS sessions_account ON sessions(account_id);
    CREATE TABLE IF NOT EXISTS account_seats (
        game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seat TEXT NOT NULL,
        account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        PRIMARY KEY (game_id, seat)
    );
    CREATE INDEX IF NOT EXISTS account_seats_account ON account_seats(account_id);";

/// Migration 6 (expand only): the tables of ratings. Nodes of versions 3
/// to 5 do not know them.
const RATINGS_6: &str = "ALTER TABLE games ADD COLUMN IF NOT EXISTS rated BOOLEAN NOT NULL DEFAULT FALSE;
    ALTER TABLE games ADD COLUMN IF NOT EXISTS rating_min INTEGER;
    ALTER TABLE games ADD COLUMN IF NOT EXISTS rating_max INTEGER;
    CREATE TABLE IF NOT EXISTS ratings (
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
    );
    CREATE INDEX IF NOT EXISTS ratings_pool ON ratings(pool, rating);
    CREATE TABLE IF NOT EXISTS rated_games (
        game_id TEXT PRIMARY KEY,
        pool TEXT NOT NULL,
        south_id TEXT,
        north_id TEXT,
        south_score DOUBLE PRECISION NOT NULL,
        ended_ms BIGINT NOT NULL
    );
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
    );
    CREATE INDEX IF NOT EXISTS rating_history_account ON rating_history(account_id, ended_ms);";

/// The solvers' puzzle ratings (schema version 8).
const PUZZLE_RATINGS_8: &str = "CREATE TABLE IF NOT EXISTS puzzle_ratings (
        account_id TEXT PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
        rating DOUBLE PRECISION NOT NULL,
        deviation DOUBLE PRECISION NOT NULL,
        volatility DOUBLE PRECISION NOT NULL,
        attempts BIGINT NOT NULL,
        updated_ms BIGINT NOT NULL
    );";

/// Migration 7 (expand only): the tables of passkeys. Nodes of versions 3
/// to 6 do not know them; an account they delete takes its passkeys with
/// it (`ON DELETE CASCADE`).
const PASSKEYS_7: &str = "CREATE TABLE IF NOT EXISTS passkeys (
        id TEXT PRIMARY KEY,
        account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        credential_id TEXT NOT NULL UNIQUE,
        passkey TEXT NOT NULL,
        created_ms BIGINT NOT NULL,
        last_used_ms BIGINT
    );
    CREATE INDEX IF NOT EXISTS passkeys_account ON passkeys(account_id);
    CREATE TABLE IF NOT EXISTS passkey_ceremonies (
        id_hash TEXT PRIMARY KEY,
        kind TEXT NOT NULL,
        account_id TEXT,
        username TEXT,
        origin TEXT NOT NULL,
        state TEXT NOT NULL,
        expires_ms BIGINT NOT NULL
    );
    CREATE INDEX IF NOT EXISTS passkey_ceremonies_expiry ON passkey_ceremonies(expires_ms);";

/// Creates the tables if missing and brings them to [`PG_SCHEMA_VERSION`],
/// one node at a time (an advisory lock), in one transaction.
///
/// # Errors
/// [`StoreError::Corrupt`] if the database is only for nodes newer than
/// this one; if PostgreSQL fails.
pub(super) fn migrate(conn: &mut Client) -> StoreResult<()> {
    let mut tx = conn.transaction()?;
    tx.execute("SELECT pg_advisory_xact_lock(7406105)", &[])?;
    tx.batch_execute(TABLES_3)?;
    tx.batch_execute("ALTER TABLE hoyito_schema ADD COLUMN IF NOT EXISTS applied INTEGER")?;
    let row = tx.query_opt("SELECT version, applied FROM hoyito_schema", &[])?;
    let (oldest, applied) = match row {
        Some(r) => {
            let version: i32 = r.get(0);
            // Before version 4 the one number was both.
            (version, r.get::<_, Option<i32>>(1).unwrap_or(version))
        }
        None => {
            // The tables were just made, as at version 3.
            tx.execute("INSERT INTO hoyito_schema (version, applied) VALUES (3, 3)", &[])?;
            (3, 3)
        }
    };
    if oldest > PG_SCHEMA_VERSION {
        return Err(StoreError::Corrupt(format!(
            "the database has schema version {applied} for nodes of version {oldest} or later; \
             this hoyito has version {PG_SCHEMA_VERSION}"
        )));
    }
    if applied < PG_SCHEMA_VERSION {
        upgrade(&mut tx, applied)?;
        tx.execute(
            "UPDATE hoyito_schema SET version = GREATEST(version, $1), applied = $2",
            &[&PG_OLDEST_SHARING, &PG_SCHEMA_VERSION],
        )?;
    }
    tx.commit()?;
    Ok(())
}

/// The migrations after version `applied`.
fn upgrade(tx: &mut Transaction<'_>, applied: i32) -> StoreResult<()> {
    if applied < 2 {
        tx.batch_execute(
            "ALTER TABLE games ADD COLUMN IF NOT EXISTS draw_offer TEXT,
                ADD COLUMN IF NOT EXISTS draw_offer_seq BIGINT,
                ADD COLUMN IF NOT EXISTS draw_rev BIGINT NOT NULL DEFAULT 0;",
        )?;
    }
    if applied < 3 {
        tx.batch_execute(
            "ALTER TABLE games ADD COLUMN IF NOT EXISTS takeback_offer TEXT,
                ADD COLUMN IF NOT EXISTS takeback_offer_seq BIGINT;",
        )?;
    }
    if applied < 4 {
        tx.batch_execute(STEPS_4)?;
    }
    if applied < 5 {
        tx.batch_execute(ACCOUNTS_5)?;
    }
    if applied < 6 {
        tx.batch_execute(RATINGS_6)?;
    }
    if applied < 7 {
        tx.batch_execute(PASSKEYS_7)?;
    }
    if applied < 8 {
        tx.batch_execute(PUZZLE_RATINGS_8)?;
    }
    Ok(())
}
