//! [`Postgres`]: the database several server nodes share.
//!
//! The same tables as SQLite, in PostgreSQL. A game's row is locked
//! (`SELECT … FOR UPDATE`) by every change to it, so changes from several
//! nodes are serialised by the database; a step is stored only after the
//! last stored one ([`StoreError::Conflict`] otherwise). Every committed
//! change is announced on the channel [`CHANNEL`] (`NOTIFY`), and each node
//! follows the others' announcements ([`Storage::follow`]).

use std::time::Duration;

use ::postgres::{GenericClient, Row, Transaction};
use hoyito_core::{ByPlayer, Rules, RulesSpec, Side};

use super::deadline::check_commit;
use super::postgres_conn::{redact, session_timeouts, Connector, DbOptions};
use super::postgres_listen::{listen, CHANNEL};
use super::postgres_schema::migrate;
use super::{
    now, Change, ChatMessage, ListedGame, LobbyKind, Meta, Mode, Offer, OfferKind, OpenError, Storage,
    StoreError, StoreResult, StoredGame, Summary, UNDO_SET,
};

/// Connections a node keeps to PostgreSQL at most.
pub const POOL_SIZE: u32 = 8;

/// How long a storage call waits for a connection from the pool (or a new
/// one) before it fails: a request answers 503 `storage_unavailable` after
/// this long while PostgreSQL is unreachable.
pub const POOL_WAIT: Duration = Duration::from_secs(2);

/// How long [`Postgres::connect`] waits for its first connection.
pub const CONNECT_WAIT: Duration = Duration::from_secs(5);

/// How long a storage call made for a request may take in all
/// ([`Storage::call_limit`]): a connection from the pool ([`POOL_WAIT`],
/// checked within `postgres_conn::VALIDATE_WAIT`), a lock wait
/// (`postgres_conn::LOCK_TIMEOUT`) and the statements. A database that stops
/// answering (frozen, or cut off without the connection closing) has the
/// request answered 503 after this long.
pub const CALL_LIMIT: Duration = Duration::from_secs(5);

type Pool = r2d2::Pool<Connector>;

/// A PostgreSQL database of games and moves, shared by any number of
/// server nodes.
pub struct Postgres {
    /// Always `Some` but while dropped.
    pool: Option<Pool>,
    connector: Connector,
    node: String,
}

impl std::fmt::Debug for Postgres {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Postgres")
            .field("node", &self.node)
            .finish_non_exhaustive()
    }
}

impl Postgres {
    /// Connects to the database at `url` (`postgres://user:password@host:port/db`)
    /// and creates or checks its tables.
    ///
    /// # Errors
    /// As [`Postgres::connect_with`].
    pub fn connect(url: &str) -> Result<Postgres, OpenError> {
        Postgres::connect_with(url, &DbOptions::default())
    }

    /// Connects to the database at `url` (`postgres://user@host:port/db`,
    /// with `?sslmode=…&sslrootcert=…` for TLS), with the password of the
    /// URL, of `options`' file or of `PGPASSWORD`, and creates or checks its
    /// tables.
    ///
    /// # Errors
    /// [`OpenError::Postgres`] if the URL or its TLS settings are wrong, the
    /// server cannot be reached within 5 s (or its certificate is not the one
    /// `sslmode` requires), or the schema cannot be set up.
    pub fn connect_with(url: &str, options: &DbOptions) -> Result<Postgres, OpenError> {
        let failed = |source: StoreError| OpenError::Postgres {
            url: redact(url),
            source,
        };
        let mut connector = Connector::new(url, options).map_err(|source| OpenError::PostgresSetup {
            url: redact(url),
            source,
        })?;
        connector.default_connect_timeout(POOL_WAIT);
        tracing::info!(url = redact(url), tls = ?connector.mode(), "connecting to PostgreSQL");
        let pool = r2d2::Pool::builder()
            .max_size(POOL_SIZE)
            .min_idle(Some(1))
            .connection_timeout(POOL_WAIT)
            .build(connector.clone())
            .map_err(|e| failed(StoreError::Pool(e.to_string())))?;
        let store = Postgres {
            pool: Some(pool),
            connector,
            node: crate::auth::random_token()[..12].to_string(),
        };
        let pool = store.pool.as_ref().expect("the pool was just made");
        let mut conn = pool
            .get_timeout(CONNECT_WAIT)
            .map_err(|e| failed(StoreError::Pool(e.to_string())))?;
        // A migration may wait for another node's and take its time.
        conn.batch_execute("SET statement_timeout = 0; SET lock_timeout = 0")
            .map_err(|e| failed(e.into()))?;
        migrate(&mut conn).map_err(failed)?;
        conn.batch_execute(&session_timeouts())
            .map_err(|e| failed(e.into()))?;
        Ok(store)
    }

    pub(super) fn conn(&self) -> StoreResult<r2d2::PooledConnection<Connector>> {
        let pool = self.pool.as_ref().expect("the pool lives as long as the store");
        let conn = pool.get().map_err(|e| StoreError::Pool(e.to_string()))?;
        super::deadline::check_time()?;
        Ok(conn)
    }
}

impl Postgres {
    /// This node's name in the [`Change`]s it announces.
    pub(super) fn node_name(&self) -> &str {
        &self.node
    }
}

impl Drop for Postgres {
    fn drop(&mut self) {
        // Closing a connection blocks on its own small runtime, which must
        // not happen on an async executor's thread: the store may well be
        // dropped on one.
        if let Some(pool) = self.pool.take() {
            let _ = std::thread::Builder::new()
                .name("hoyito-pg-close".into())
                .spawn(move || drop(pool));
        }
    }
}

/// Announces a change of game `id` to the other nodes (sent when the
/// transaction commits).
pub(super) fn notify(tx: &mut Transaction<'_>, node: &str, id: &str, chat: Option<u64>) -> StoreResult<()> {
    let change = Change {
        node: node.to_string(),
        game: id.to_string(),
        chat,
    };
    let payload = serde_json::to_string(&change).expect("a change serialises");
    tx.execute("SELECT pg_notify($1, $2)", &[&CHANNEL, &payload])?;
    Ok(())
}

/// Locks game `id`'s row until the transaction ends; its stored steps.
fn lock_game(tx: &mut Transaction<'_>, id: &str) -> StoreResult<u64> {
    let row = tx.query_opt("SELECT steps FROM games WHERE id = $1 FOR UPDATE", &[&id])?;
    match row {
        Some(r) => Ok(r.get::<_, i64>(0) as u64),
        None => Err(StoreError::Corrupt(format!("no game {id}"))),
    }
}

fn insert_game_row(tx: &mut impl GenericClient, meta: &Meta, summary: &Summary) -> StoreResult<()> {
    let rules = serde_json::to_string(&meta.rules.spec()).expect("rules serialise");
    let clock = meta
        .clock
        .map(|c| serde_json::to_string(&c).expect("a clock serialises"));
    tx.execute(
        "INSERT INTO games (id, created_ms, updated_ms, mode, rules, is_match, level, engine_side,
            start, south_token, north_token, invite, status, steps, result, score_south, score_north,
            south_name, north_name, clock, public, to_move, rated, rating_min, rating_max)
         VALUES ($1, $2, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16,
            $17, $18, $19, $20, $21, $22, $23, $24)",
        &[
            &meta.id,
            &meta.created_ms,
            &meta.mode.name(),
            &rules,
            &meta.is_match,
            &i16::from(meta.level),
            &meta.engine_side.map(Side::name),
            &meta.start,
            &meta.tokens.south,
            &meta.tokens.north,
            &meta.invite,
            &summary.status,
            &(summary.seq as i64),
            &summary.result,
            &i64::from(summary.score[0]),
            &i64::from(summary.score[1]),
            &meta.names.south,
            &meta.names.north,
            &clock,
            &meta.public,
            &summary.to_move,
            &meta.rated,
            &meta.rating_range.map(|r| r[0]),
            &meta.rating_range.map(|r| r[1]),
        ],
    )?;
    Ok(())
}

fn update_summary(tx: &mut Transaction<'_>, id: &str, s: &Summary) -> StoreResult<()> {
    tx.execute(
        "UPDATE games SET updated_ms = $2, status = $3, steps = $4, result = $5, score_south = $6,
            score_north = $7, to_move = $8 WHERE id = $1",
        &[
            &id,
            &now(),
            &s.status,
            &(s.seq as i64),
            &s.result,
            &i64::from(s.score[0]),
            &i64::from(s.score[1]),
            &s.to_move,
        ],
    )?;
    Ok(())
}

/// A [`ListedGame`] from a row of the [`super::LISTED`] columns.
pub(super) fn listed_game(r: &Row) -> ListedGame {
    let rules: String = r.get(2);
    let clock: Option<String> = r.get(15);
    ListedGame {
        id: r.get(0),
        mode: r.get(1),
        rules: serde_json::from_str(&rules).unwrap_or_default(),
        is_match: r.get(3),
        level: r.get::<_, i16>(4) as u8,
        created_ms: r.get(5),
        updated_ms: r.get(6),
        status: r.get(7),
        seq: r.get::<_, i64>(8) as u64,
        result: r.get(9),
        score: [r.get::<_, i64>(10) as u32, r.get::<_, i64>(11) as u32],
        to_move: r.get(12),
        names: [r.get(13), r.get(14)],
        clock: clock.and_then(|c| serde_json::from_str(&c).ok()),
        public: r.get(16),
        rated: r.get(17),
        rating_range: r
            .get::<_, Option<i32>>(18)
            .zip(r.get::<_, Option<i32>>(19))
            .map(|(a, b)| [a, b]),
    }
}

impl Storage for Postgres {
    fn insert_game(&self, meta: &Meta, summary: &Summary) -> StoreResult<()> {
        insert_game_row(&mut *self.conn()?, meta, summary)
    }

    fn insert_game_with_steps(&self, meta: &Meta, steps: &[String], summary: &Summary) -> StoreResult<()> {
        let mut conn = self.conn()?;
        let mut tx = conn.transaction()?;
        insert_game_row(&mut tx, meta, summary)?;
        let st = tx.prepare("INSERT INTO moves (game_id, seq, token) VALUES ($1, $2, $3)")?;
        for (i, t) in steps.iter().enumerate() {
            tx.execute(&st, &[&meta.id, &(i as i64 + 1), t])?;
        }
        check_commit()?;
        tx.commit()?;
        Ok(())
    }

    fn append_at(&self, id: &str, seq: u64, token: &str, at_ms: i64, summary: &Summary) -> StoreResult<()> {
        let mut conn = self.conn()?;
        let mut tx = conn.transaction()?;
        let stored = lock_game(&mut tx, id)?;
        if stored + 1 != seq {
            return Err(StoreError::Conflict {
                id: id.to_string(),
                expected: seq.saturating_sub(1),
                stored,
            });
        }
        tx.execute(
            "INSERT INTO moves (game_id, seq, token, at_ms) VALUES ($1, $2, $3, $4)",
            &[&id, &(seq as i64), &token, &at_ms],
        )?;
        update_summary(&mut tx, id, summary)?;
        notify(&mut tx, &self.node, id, None)?;
        check_commit()?;
        tx.commit()?;
        Ok(())
    }

    fn truncate(&self, id: &str, keep: u64, summary: &Summary) -> StoreResult<()> {
        let mut conn = self.conn()?;
        let mut tx = conn.transaction()?;
        lock_game(&mut tx, id)?;
        tx.execute(
            "DELETE FROM moves WHERE game_id = $1 AND seq > $2",
            &[&id, &(keep as i64)],
        )?;
        tx.execute(&format!("UPDATE games SET {UNDO_SET} WHERE id = $1"), &[&id])?;
        update_summary(&mut tx, id, summary)?;
        notify(&mut tx, &self.node, id, None)?;
        check_commit()?;
        tx.commit()?;
        Ok(())
    }

    fn bind_seat(
        &self,
        id: &str,
        side: Side,
        token: &str,
        name: Option<&str>,
        summary: &Summary,
    ) -> StoreResult<()> {
        let mut conn = self.conn()?;
        let mut tx = conn.transaction()?;
        lock_game(&mut tx, id)?;
        let sql = match side {
            Side::South => "UPDATE games SET south_token = $2, south_name = $3, invite = NULL WHERE id = $1",
            Side::North => "UPDATE games SET north_token = $2, north_name = $3, invite = NULL WHERE id = $1",
        };
        tx.execute(sql, &[&id, &token, &name])?;
        update_summary(&mut tx, id, summary)?;
        notify(&mut tx, &self.node, id, None)?;
        check_commit()?;
        tx.commit()?;
        Ok(())
    }

    fn load(&self, id: &str) -> StoreResult<Option<StoredGame>> {
        let mut conn = self.conn()?;
        // One snapshot for the game and its steps.
        let mut tx = conn
            .build_transaction()
            .isolation_level(::postgres::IsolationLevel::RepeatableRead)
            .read_only(true)
            .start()?;
        let Some(r) = tx.query_opt(
            "SELECT id, created_ms, mode, rules, is_match, level, engine_side, start,
                    south_token, north_token, invite, undos, south_name, north_name, clock, public,
                    draw_offer, draw_offer_seq, draw_rev, takeback_offer, takeback_offer_seq, rated,
                    rating_min, rating_max
             FROM games WHERE id = $1",
            &[&id],
        )?
        else {
            return Ok(None);
        };
        let corrupt = |what: &str| StoreError::Corrupt(format!("game {id}: bad {what}"));
        let mode: String = r.get(2);
        let mode = Mode::parse(&mode).ok_or_else(|| corrupt("mode"))?;
        let rules: String = r.get(3);
        let spec: RulesSpec = serde_json::from_str(&rules).map_err(|_| corrupt("rules"))?;
        let rules = Rules::try_from(spec).map_err(|_| corrupt("rules"))?;
        let engine_side = match r.get::<_, Option<String>>(6) {
            Some(s) => Some(s.parse::<Side>().map_err(|_| corrupt("engine side"))?),
            None => None,
        };
        let clock = match r.get::<_, Option<String>>(14) {
            Some(c) => Some(serde_json::from_str(&c).map_err(|_| corrupt("clock"))?),
            None => None,
        };
        let offer = |side: usize, what: &str| match (
            r.get::<_, Option<String>>(side),
            r.get::<_, Option<i64>>(side + 1),
        ) {
            (Some(side), Some(seq)) => Ok(Some(Offer {
                side: side.parse::<Side>().map_err(|_| corrupt(what))?,
                seq: seq as u64,
            })),
            _ => Ok::<_, StoreError>(None),
        };
        let draw_offer = offer(16, "draw offer")?;
        let takeback_offer = offer(19, "takeback request")?;
        let steps = tx
            .query("SELECT token FROM moves WHERE game_id = $1 ORDER BY seq", &[&id])?
            .iter()
            .map(|r| r.get::<_, String>(0))
            .collect();
        tx.commit()?;
        let meta = Meta {
            id: r.get(0),
            created_ms: r.get(1),
            mode,
            rules,
            is_match: r.get(4),
            level: r.get::<_, i16>(5) as u8,
            engine_side,
            start: r.get(7),
            tokens: ByPlayer::new(r.get(8), r.get(9)),
            invite: r.get(10),
            names: ByPlayer::new(r.get(12), r.get(13)),
            clock,
            public: r.get(15),
            rated: r.get(21),
            rating_range: r
                .get::<_, Option<i32>>(22)
                .zip(r.get::<_, Option<i32>>(23))
                .map(|(a, b)| [a, b]),
        };
        Ok(Some(StoredGame {
            meta,
            undos: r.get::<_, i64>(11) as u64,
            steps,
            draw_offer,
            takeback_offer,
            draw_rev: r.get::<_, i64>(18) as u64,
        }))
    }

    fn set_offer(&self, id: &str, kind: OfferKind, seq: u64, side: Option<Side>) -> StoreResult<u64> {
        let mut conn = self.conn()?;
        let mut tx = conn.transaction()?;
        let stored = lock_game(&mut tx, id)?;
        if stored != seq {
            return Err(StoreError::Conflict {
                id: id.to_string(),
                expected: seq,
                stored,
            });
        }
        let rev: i64 = tx
            .query_one(
                &super::offer_update_sql(kind, '$'),
                &[&id, &side.map(Side::name), &side.map(|_| seq as i64)],
            )?
            .get(0);
        notify(&mut tx, &self.node, id, None)?;
        check_commit()?;
        tx.commit()?;
        Ok(rev as u64)
    }

    fn over_game_ids(&self, limit: u32, offset: u64) -> StoreResult<Vec<String>> {
        let offset = i64::try_from(offset).unwrap_or(i64::MAX);
        let rows = self.conn()?.query(
            "SELECT id FROM games WHERE status = 'over' ORDER BY created_ms, id LIMIT $1 OFFSET $2",
            &[&i64::from(limit), &offset],
        )?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }

    fn list(&self, limit: u32, status: Option<&str>) -> StoreResult<Vec<ListedGame>> {
        let rows = self.conn()?.query(
            &format!(
                "SELECT {} FROM games WHERE public AND ($2::TEXT IS NULL OR status = $2)
                 ORDER BY updated_ms DESC, id LIMIT $1",
                super::LISTED
            ),
            &[&i64::from(limit), &status],
        )?;
        Ok(rows.iter().map(listed_game).collect())
    }

    fn check_writable(&self) -> StoreResult<()> {
        let mut conn = self.conn()?;
        let mut tx = conn.transaction()?;
        tx.batch_execute("SET LOCAL lock_timeout = '500ms'; SET LOCAL statement_timeout = '2s'")?;
        tx.execute(
            "INSERT INTO health (id, checked_ms) VALUES (1, $1)
             ON CONFLICT (id) DO UPDATE SET checked_ms = EXCLUDED.checked_ms",
            &[&now()],
        )?;
        tx.commit()?;
        Ok(())
    }

    fn save_analysis(&self, id: &str, epoch: u64, seq: u64, data: &str) -> StoreResult<()> {
        self.conn()?.execute(
            "INSERT INTO analyses (game_id, epoch, seq, created_ms, data) VALUES ($1, $2, $3, $4, $5)
             ON CONFLICT (game_id) DO UPDATE SET epoch = EXCLUDED.epoch, seq = EXCLUDED.seq,
                created_ms = EXCLUDED.created_ms, data = EXCLUDED.data",
            &[&id, &(epoch as i64), &(seq as i64), &now(), &data],
        )?;
        Ok(())
    }

    fn load_analysis(&self, id: &str) -> StoreResult<Option<(u64, u64, String)>> {
        let row = self
            .conn()?
            .query_opt("SELECT epoch, seq, data FROM analyses WHERE game_id = $1", &[&id])?;
        Ok(row.map(|r| (r.get::<_, i64>(0) as u64, r.get::<_, i64>(1) as u64, r.get(2))))
    }

    fn count(&self) -> StoreResult<u64> {
        let row = self.conn()?.query_one("SELECT COUNT(*) FROM games", &[])?;
        Ok(row.get::<_, i64>(0) as u64)
    }

    fn step_times(&self, id: &str) -> StoreResult<Vec<Option<i64>>> {
        let rows = self
            .conn()?
            .query("SELECT at_ms FROM moves WHERE game_id = $1 ORDER BY seq", &[&id])?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }

    fn timed_games(&self) -> StoreResult<Vec<String>> {
        let rows = self.conn()?.query(
            "SELECT id FROM games WHERE clock IS NOT NULL AND status != 'over'",
            &[],
        )?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }

    fn lobby(
        &self,
        kind: LobbyKind,
        variant: Option<&str>,
        limit: u32,
        offset: u32,
    ) -> StoreResult<Vec<ListedGame>> {
        let filter = match kind {
            LobbyKind::Open => "status = 'waiting' AND public",
            LobbyKind::Playing => "status = 'playing' AND public",
        };
        let rows = self.conn()?.query(
            &format!(
                "SELECT {} FROM games WHERE {filter}
                   AND ($1::TEXT IS NULL OR (rules::jsonb ->> 'variant') = $1)
                 ORDER BY updated_ms DESC, id LIMIT $2 OFFSET $3",
                super::LISTED
            ),
            &[&variant, &i64::from(limit), &i64::from(offset)],
        )?;
        Ok(rows.iter().map(listed_game).collect())
    }

    fn games_by_id(&self, ids: &[String]) -> StoreResult<Vec<ListedGame>> {
        let rows = self.conn()?.query(
            &format!(
                "SELECT {} FROM games WHERE id = ANY($1) ORDER BY updated_ms DESC, id",
                super::LISTED
            ),
            &[&ids],
        )?;
        Ok(rows.iter().map(listed_game).collect())
    }

    fn add_chat(&self, id: &str, side: Side, text: &str, at_ms: i64) -> StoreResult<ChatMessage> {
        let mut conn = self.conn()?;
        let mut tx = conn.transaction()?;
        lock_game(&mut tx, id)?;
        let seq: i64 = tx
            .query_one(
                "SELECT COALESCE(MAX(seq), 0) + 1 FROM chat WHERE game_id = $1",
                &[&id],
            )?
            .get(0);
        tx.execute(
            "INSERT INTO chat (game_id, seq, side, text, at_ms) VALUES ($1, $2, $3, $4, $5)",
            &[&id, &seq, &side.name(), &text, &at_ms],
        )?;
        notify(&mut tx, &self.node, id, Some(seq as u64))?;
        check_commit()?;
        tx.commit()?;
        Ok(ChatMessage {
            seq: seq as u64,
            side,
            text: text.to_string(),
            at_ms,
        })
    }

    fn chat(&self, id: &str, limit: u32) -> StoreResult<Vec<ChatMessage>> {
        let rows = self.conn()?.query(
            "SELECT seq, side, text, at_ms FROM
               (SELECT * FROM chat WHERE game_id = $1 ORDER BY seq DESC LIMIT $2) AS last
             ORDER BY seq",
            &[&id, &i64::from(limit)],
        )?;
        rows.iter()
            .map(|r| {
                let side: String = r.get(1);
                Ok(ChatMessage {
                    seq: r.get::<_, i64>(0) as u64,
                    side: side
                        .parse()
                        .map_err(|_| StoreError::Corrupt(format!("chat of game {id}: bad side")))?,
                    text: r.get(2),
                    at_ms: r.get(3),
                })
            })
            .collect()
    }

    fn delete_abandoned(&self, before_ms: i64, limit: u32) -> StoreResult<Vec<String>> {
        // Each deleted game is announced to the other nodes (which drop it
        // from memory).
        let mut conn = self.conn()?;
        let mut tx = conn.transaction()?;
        let ids = super::expiry::postgres(&mut tx, before_ms, limit)?;
        for id in &ids {
            notify(&mut tx, &self.node, id, None)?;
        }
        check_commit()?;
        tx.commit()?;
        Ok(ids)
    }

    fn node(&self) -> Option<&str> {
        Some(&self.node)
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

    fn call_limit(&self) -> Option<Duration> {
        Some(CALL_LIMIT)
    }

    fn follow(&self, to: tokio::sync::mpsc::UnboundedSender<Change>) -> StoreResult<()> {
        // Connect and listen once here, so that a node that cannot listen
        // fails to start, and no change committed after this returns is missed.
        let mut client = self.connector.connect_plain()?;
        client.batch_execute(&format!("LISTEN {CHANNEL}"))?;
        let connector = self.connector.clone();
        let node = self.node.clone();
        std::thread::Builder::new()
            .name("hoyito-listen".into())
            .spawn(move || listen(client, &connector, &node, &to))
            .map_err(|e| StoreError::Pool(format!("cannot start the listening thread: {e}")))?;
        Ok(())
    }
}
