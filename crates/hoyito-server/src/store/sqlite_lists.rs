//! [`Sqlite`]'s lists: the public games, a game's step times, the timed games, the lobby,
//! games by id, and chat. The game rows and their moves are written and
//! loaded in `sqlite.rs`.

use hoyito_core::Side;
use rusqlite::params;

use super::sqlite::Sqlite;
use super::{ChatMessage, ListedGame, LobbyKind, LISTED};

/// A result of SQLite.
type SqlResult<T> = rusqlite::Result<T>;

impl Sqlite {
    /// The most recently changed public games, newest first.
    ///
    /// # Errors
    /// If SQLite fails.
    pub fn list(&self, limit: u32, status: Option<&str>) -> SqlResult<Vec<ListedGame>> {
        let conn = self.reader();
        let mut st = conn.prepare_cached(&format!(
            "SELECT {LISTED} FROM games WHERE public = 1 AND (?2 IS NULL OR status = ?2)
               ORDER BY updated_ms DESC, id LIMIT ?1"
        ))?;
        let rows = st.query_map(params![limit, status], listed_game)?;
        rows.collect()
    }

    /// When each stored step of game `id` was stored, in order (`None` for
    /// steps stored without a time: imported or older ones).
    ///
    /// # Errors
    /// If SQLite fails.
    pub fn step_times(&self, id: &str) -> SqlResult<Vec<Option<i64>>> {
        let conn = self.conn();
        let mut st = conn.prepare_cached("SELECT at_ms FROM moves WHERE game_id = ?1 ORDER BY seq")?;
        let rows = st.query_map(params![id], |r| r.get(0))?;
        rows.collect()
    }

    /// The ids of the games with a clock that go on (their clocks run even
    /// with nobody watching).
    ///
    /// # Errors
    /// If SQLite fails.
    pub fn timed_games(&self) -> SqlResult<Vec<String>> {
        let conn = self.conn();
        let mut st =
            conn.prepare_cached("SELECT id FROM games WHERE clock IS NOT NULL AND status != 'over'")?;
        let rows = st.query_map([], |r| r.get(0))?;
        rows.collect()
    }

    /// A page of the lobby: `kind`'s games of `variant` (any if `None`),
    /// most recently changed first, `limit` of them after skipping `offset`.
    ///
    /// # Errors
    /// If SQLite fails.
    pub fn lobby(
        &self,
        kind: LobbyKind,
        variant: Option<&str>,
        limit: u32,
        offset: u32,
    ) -> SqlResult<Vec<ListedGame>> {
        let filter = match kind {
            LobbyKind::Open => "status = 'waiting' AND public = 1",
            LobbyKind::Playing => "status = 'playing' AND public = 1",
        };
        let conn = self.reader();
        let mut st = conn.prepare_cached(&format!(
            "SELECT {LISTED} FROM games WHERE {filter}
               AND (?1 IS NULL OR json_extract(rules, '$.variant') = ?1)
             ORDER BY updated_ms DESC, id LIMIT ?2 OFFSET ?3"
        ))?;
        let rows = st.query_map(params![variant, limit, offset], listed_game)?;
        rows.collect()
    }

    /// The listed games among `ids` (unknown ids are left out), most
    /// recently changed first.
    ///
    /// # Errors
    /// If SQLite fails.
    pub fn games_by_id(&self, ids: &[String]) -> SqlResult<Vec<ListedGame>> {
        let conn = self.reader();
        let list = serde_json::to_string(ids).expect("ids serialise");
        let mut st = conn.prepare_cached(&format!(
            "SELECT {LISTED} FROM games WHERE id IN (SELECT value FROM json_each(?1))
             ORDER BY updated_ms DESC, id"
        ))?;
        let rows = st.query_map(params![list], listed_game)?;
        rows.collect()
    }

    /// Stores a chat message as the next of game `id`'s; returns it.
    ///
    /// # Errors
    /// If SQLite fails.
    pub fn add_chat(&self, id: &str, side: Side, text: &str, at_ms: i64) -> SqlResult<ChatMessage> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        let seq: u64 = tx.query_row(
            "SELECT COALESCE(MAX(seq), 0) + 1 FROM chat WHERE game_id = ?1",
            params![id],
            |r| r.get(0),
        )?;
        tx.execute(
            "INSERT INTO chat (game_id, seq, side, text, at_ms) VALUES (?1, ?2, ?3, ?4, ?5)",
            params![id, seq, side.name(), text, at_ms],
        )?;
        tx.commit()?;
        Ok(ChatMessage {
            seq,
            side,
            text: text.to_string(),
            at_ms,
        })
    }

    /// Game `id`'s last `limit` chat messages, oldest first.
    ///
    /// # Errors
    /// If SQLite fails or a stored side is corrupt.
    pub fn chat(&self, id: &str, limit: u32) -> SqlResult<Vec<ChatMessage>> {
        let conn = self.conn();
        let mut st = conn.prepare_cached(
            "SELECT seq, side, text, at_ms FROM
               (SELECT * FROM chat WHERE game_id = ?1 ORDER BY seq DESC LIMIT ?2)
             ORDER BY seq",
        )?;
        let rows = st.query_map(params![id, limit], |r| {
            let side: String = r.get(1)?;
            Ok(ChatMessage {
                seq: r.get(0)?,
                side: side.parse().map_err(|_| {
                    rusqlite::Error::FromSqlConversionFailure(
                        1,
                        rusqlite::types::Type::Text,
                        format!("chat of game {id}: bad side").into(),
                    )
                })?,
                text: r.get(2)?,
                at_ms: r.get(3)?,
            })
        })?;
        rows.collect()
    }
}

/// A [`ListedGame`] from a row of the [`LISTED`] columns.
pub(crate) fn listed_game(r: &rusqlite::Row<'_>) -> rusqlite::Result<ListedGame> {
    let rules: String = r.get(2)?;
    let clock: Option<String> = r.get(15)?;
    Ok(ListedGame {
        id: r.get(0)?,
        mode: r.get(1)?,
        rules: serde_json::from_str(&rules).unwrap_or_default(),
        is_match: r.get(3)?,
        level: r.get(4)?,
        created_ms: r.get(5)?,
        updated_ms: r.get(6)?,
        status: r.get(7)?,
        seq: r.get(8)?,
        result: r.get(9)?,
        score: [r.get(10)?, r.get(11)?],
        to_move: r.get(12)?,
        names: [r.get(13)?, r.get(14)?],
        clock: clock.and_then(|c| serde_json::from_str(&c).ok()),
        public: r.get(16)?,
        rated: r.get(17)?,
        rating_range: r
            .get::<_, Option<i32>>(18)?
            .zip(r.get::<_, Option<i32>>(19)?)
            .map(|(a, b)| [a, b]),
    })
}
