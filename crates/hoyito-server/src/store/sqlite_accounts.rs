//! [`Sqlite`]'s accounts, sessions and seats of accounts
//! ([`AccountStorage`]).

use rusqlite::{params, OptionalExtension};

use super::accounts::{
    player_games_sql, seat_columns, Account, AccountGame, AccountStorage, ClearedSeat, PlayerGame,
    PlayerGames, PlayerGamesFilter,
};
use super::sqlite::Sqlite;
use super::sqlite_lists::listed_game;
use super::{StoreError, StoreResult, LISTED, LISTED_COUNT};

/// The columns an [`Account`] is read from.
pub(super) const ACCOUNT: &str = "id, username, skeleton, password_hash, created_ms";

pub(super) fn account(r: &rusqlite::Row<'_>) -> rusqlite::Result<Account> {
    Ok(Account {
        id: r.get(0)?,
        username: r.get(1)?,
        skeleton: r.get(2)?,
        password_hash: r.get(3)?,
        created_ms: r.get(4)?,
    })
}

impl AccountStorage for Sqlite {
    fn insert_account(&self, a: &Account, recovery: &[String]) -> StoreResult<bool> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        let inserted = tx.execute(
            "INSERT INTO accounts (id, username, skeleton, password_hash, created_ms)
             VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (skeleton) DO NOTHING",
            params![a.id, a.username, a.skeleton, a.password_hash, a.created_ms],
        )?;
        if inserted == 0 {
            return Ok(false);
        }
        for code in recovery {
            tx.execute(
                "INSERT INTO recovery_codes (account_id, code_hash) VALUES (?1, ?2)",
                params![a.id, code],
            )?;
        }
        tx.commit()?;
        Ok(true)
    }

    fn account_by_skeleton(&self, skeleton: &str) -> StoreResult<Option<Account>> {
        Ok(self
            .reader()
            .query_row(
                &format!("SELECT {ACCOUNT} FROM accounts WHERE skeleton = ?1"),
                params![skeleton],
                account,
            )
            .optional()?)
    }

    fn session_account(&self, token_hash: &str, now_ms: i64) -> StoreResult<Option<Account>> {
        Ok(self
            .reader()
            .query_row(
                "SELECT a.id, a.username, a.skeleton, a.password_hash, a.created_ms
                 FROM sessions s JOIN accounts a ON a.id = s.account_id
                 WHERE s.token_hash = ?1 AND s.expires_ms > ?2",
                params![token_hash, now_ms],
                account,
            )
            .optional()?)
    }

    fn insert_session(
        &self,
        token_hash: &str,
        account: &str,
        now_ms: i64,
        expires_ms: i64,
    ) -> StoreResult<()> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        tx.execute(
            "DELETE FROM sessions WHERE account_id = ?1 AND expires_ms <= ?2",
            params![account, now_ms],
        )?;
        tx.execute(
            "INSERT INTO sessions (token_hash, account_id, created_ms, expires_ms) VALUES (?1, ?2, ?3, ?4)",
            params![token_hash, account, now_ms, expires_ms],
        )?;
        tx.commit()?;
        Ok(())
    }

    fn delete_session(&self, token_hash: &str) -> StoreResult<bool> {
        let n = self
            .conn()
            .execute("DELETE FROM sessions WHERE token_hash = ?1", params![token_hash])?;
        Ok(n > 0)
    }

    fn delete_sessions(&self, account: &str) -> StoreResult<u64> {
        let n = self
            .conn()
            .execute("DELETE FROM sessions WHERE account_id = ?1", params![account])?;
        Ok(n as u64)
    }

    fn recovery_codes_left(&self, account: &str) -> StoreResult<u64> {
        Ok(self.reader().query_row(
            "SELECT COUNT(*) FROM recovery_codes WHERE account_id = ?1",
            params![account],
            |r| r.get(0),
        )?)
    }

    fn recover(&self, account: &str, code_hash: &str, password_hash: &str) -> StoreResult<bool> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        let used = tx.execute(
            "DELETE FROM recovery_codes WHERE account_id = ?1 AND code_hash = ?2",
            params![account, code_hash],
        )?;
        if used == 0 {
            return Ok(false);
        }
        tx.execute(
            "UPDATE accounts SET password_hash = ?2 WHERE id = ?1",
            params![account, password_hash],
        )?;
        tx.execute("DELETE FROM sessions WHERE account_id = ?1", params![account])?;
        tx.commit()?;
        Ok(true)
    }

    fn delete_account(&self, account: &str) -> StoreResult<Vec<ClearedSeat>> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        let seats: Vec<ClearedSeat> = {
            let mut st = tx.prepare("SELECT game_id, seat FROM account_seats WHERE account_id = ?1")?;
            let rows = st.query_map(params![account], |r| {
                Ok(ClearedSeat {
                    game: r.get(0)?,
                    seat: r.get(1)?,
                })
            })?;
            rows.collect::<rusqlite::Result<_>>()?
        };
        for s in &seats {
            for (_, name) in seat_columns(&s.seat) {
                tx.execute(
                    &format!("UPDATE games SET {name} = NULL WHERE id = ?1"),
                    params![s.game],
                )?;
            }
        }
        // Sessions, recovery codes and seat links go with the account
        // (ON DELETE CASCADE).
        tx.execute("DELETE FROM accounts WHERE id = ?1", params![account])?;
        tx.commit()?;
        Ok(seats)
    }

    fn link_seat(&self, game: &str, seat: &str, account: &str) -> StoreResult<()> {
        self.conn().execute(
            "INSERT OR REPLACE INTO account_seats (game_id, seat, account_id) VALUES (?1, ?2, ?3)",
            params![game, seat, account],
        )?;
        Ok(())
    }

    fn account_seat(&self, account: &str, game: &str) -> StoreResult<Option<String>> {
        Ok(self
            .reader()
            .query_row(
                "SELECT seat FROM account_seats WHERE account_id = ?1 AND game_id = ?2",
                params![account, game],
                |r| r.get(0),
            )
            .optional()?)
    }

    fn seat_accounts(&self, game: &str) -> StoreResult<Vec<(String, String)>> {
        let conn = self.reader();
        let mut st = conn.prepare_cached("SELECT seat, account_id FROM account_seats WHERE game_id = ?1")?;
        let rows = st.query_map(params![game], |r| Ok((r.get(0)?, r.get(1)?)))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    fn account_games(&self, account: &str, limit: u32, offset: u32) -> StoreResult<Vec<AccountGame>> {
        let conn = self.reader();
        let columns = LISTED.replace('\n', " ");
        let columns: Vec<String> = columns.split(',').map(|c| format!("g.{}", c.trim())).collect();
        let mut st = conn.prepare_cached(&format!(
            "SELECT {}, s.seat FROM account_seats s JOIN games g ON g.id = s.game_id
             WHERE s.account_id = ?1 ORDER BY g.updated_ms DESC, g.id LIMIT ?2 OFFSET ?3",
            columns.join(", ")
        ))?;
        let rows = st.query_map(params![account, limit, offset], |r| {
            Ok(AccountGame {
                game: listed_game(r)?,
                seat: r.get(LISTED_COUNT)?,
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    fn player_games(
        &self,
        account: &str,
        filter: &PlayerGamesFilter,
        limit: u32,
        offset: u32,
    ) -> StoreResult<PlayerGames> {
        let conn = self.reader();
        let (list, tally) = player_games_sql("json_extract(g.rules, '$.variant')", |n| format!("?{n}"));
        let result = filter.result.map(|r| r.as_str());
        let (all, wins, draws, losses): (i64, i64, i64, i64) = conn.prepare_cached(&tally)?.query_row(
            params![account, filter.variant, filter.rated, filter.opponent],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
        )?;
        let mut st = conn.prepare_cached(&list)?;
        let rows = st.query_map(
            params![
                account,
                filter.variant,
                filter.rated,
                filter.opponent,
                result,
                limit,
                offset
            ],
            |r| {
                Ok(PlayerGame {
                    game: listed_game(r)?,
                    seat: r.get(LISTED_COUNT)?,
                    opponent: r.get(LISTED_COUNT + 1)?,
                })
            },
        )?;
        let mut out = PlayerGames {
            games: rows.collect::<rusqlite::Result<_>>()?,
            wins: wins as u64,
            draws: draws as u64,
            losses: losses as u64,
            ..PlayerGames::default()
        };
        out.total_for(filter.result, all as u64);
        Ok(out)
    }

    fn set_seat_token(&self, game: &str, seat: &str, token_hash: &str) -> StoreResult<()> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        for (token, _) in seat_columns(seat) {
            let n = tx.execute(
                &format!("UPDATE games SET {token} = ?2 WHERE id = ?1"),
                params![game, token_hash],
            )?;
            if n == 0 {
                return Err(StoreError::Corrupt(format!("no game {game}")));
            }
        }
        tx.commit()?;
        Ok(())
    }
}
