//! [`Postgres`]'s accounts, sessions and seats of accounts
//! ([`AccountStorage`]): the same tables as SQLite's. Every node reads the
//! sessions from the database, so a session made on one node is known to
//! all at once.

use ::postgres::Row;

use super::accounts::{
    player_games_sql, seat_columns, Account, AccountGame, AccountStorage, ClearedSeat, PlayerGame,
    PlayerGames, PlayerGamesFilter,
};
use super::deadline::check_commit;
use super::postgres::{listed_game, notify, Postgres};
use super::{StoreError, StoreResult, LISTED, LISTED_COUNT};

/// The columns an [`Account`] is read from.
pub(super) const ACCOUNT: &str = "id, username, skeleton, password_hash, created_ms";

pub(super) fn account(r: &Row) -> Account {
    Account {
        id: r.get(0),
        username: r.get(1),
        skeleton: r.get(2),
        password_hash: r.get(3),
        created_ms: r.get(4),
    }
}

impl AccountStorage for Postgres {
    fn insert_account(&self, a: &Account, recovery: &[String]) -> StoreResult<bool> {
        let mut conn = self.conn()?;
        let mut tx = conn.transaction()?;
        let inserted = tx.execute(
            "INSERT INTO accounts (id, username, skeleton, password_hash, created_ms)
             VALUES ($1, $2, $3, $4, $5) ON CONFLICT (skeleton) DO NOTHING",
            &[&a.id, &a.username, &a.skeleton, &a.password_hash, &a.created_ms],
        )?;
        if inserted == 0 {
            return Ok(false);
        }
        for code in recovery {
            tx.execute(
                "INSERT INTO recovery_codes (account_id, code_hash) VALUES ($1, $2)",
                &[&a.id, code],
            )?;
        }
        check_commit()?;
        tx.commit()?;
        Ok(true)
    }

    fn account_by_skeleton(&self, skeleton: &str) -> StoreResult<Option<Account>> {
        let row = self.conn()?.query_opt(
            &format!("SELECT {ACCOUNT} FROM accounts WHERE skeleton = $1"),
            &[&skeleton],
        )?;
        Ok(row.as_ref().map(account))
    }

    fn session_account(&self, token_hash: &str, now_ms: i64) -> StoreResult<Option<Account>> {
        let row = self.conn()?.query_opt(
            "SELECT a.id, a.username, a.skeleton, a.password_hash, a.created_ms
             FROM sessions s JOIN accounts a ON a.id = s.account_id
             WHERE s.token_hash = $1 AND s.expires_ms > $2",
            &[&token_hash, &now_ms],
        )?;
        Ok(row.as_ref().map(account))
    }

    fn insert_session(
        &self,
        token_hash: &str,
        account: &str,
        now_ms: i64,
        expires_ms: i64,
    ) -> StoreResult<()> {
        let mut conn = self.conn()?;
        let mut tx = conn.transaction()?;
        tx.execute(
            "DELETE FROM sessions WHERE account_id = $1 AND expires_ms <= $2",
            &[&account, &now_ms],
        )?;
        tx.execute(
            "INSERT INTO sessions (token_hash, account_id, created_ms, expires_ms) VALUES ($1, $2, $3, $4)",
            &[&token_hash, &account, &now_ms, &expires_ms],
        )?;
        check_commit()?;
        tx.commit()?;
        Ok(())
    }

    fn delete_session(&self, token_hash: &str) -> StoreResult<bool> {
        let n = self
            .conn()?
            .execute("DELETE FROM sessions WHERE token_hash = $1", &[&token_hash])?;
        Ok(n > 0)
    }

    fn delete_sessions(&self, account: &str) -> StoreResult<u64> {
        Ok(self
            .conn()?
            .execute("DELETE FROM sessions WHERE account_id = $1", &[&account])?)
    }

    fn recovery_codes_left(&self, account: &str) -> StoreResult<u64> {
        let row = self.conn()?.query_one(
            "SELECT COUNT(*) FROM recovery_codes WHERE account_id = $1",
            &[&account],
        )?;
        Ok(row.get::<_, i64>(0) as u64)
    }

    fn recover(&self, account: &str, code_hash: &str, password_hash: &str) -> StoreResult<bool> {
        let mut conn = self.conn()?;
        let mut tx = conn.transaction()?;
        let used = tx.execute(
            "DELETE FROM recovery_codes WHERE account_id = $1 AND code_hash = $2",
            &[&account, &code_hash],
        )?;
        if used == 0 {
            return Ok(false);
        }
        tx.execute(
            "UPDATE accounts SET password_hash = $2 WHERE id = $1",
            &[&account, &password_hash],
        )?;
        tx.execute("DELETE FROM sessions WHERE account_id = $1", &[&account])?;
        check_commit()?;
        tx.commit()?;
        Ok(true)
    }

    fn delete_account(&self, account: &str) -> StoreResult<Vec<ClearedSeat>> {
        let mut conn = self.conn()?;
        let mut tx = conn.transaction()?;
        let seats: Vec<ClearedSeat> = tx
            .query(
                "SELECT game_id, seat FROM account_seats WHERE account_id = $1 ORDER BY game_id",
                &[&account],
            )?
            .iter()
            .map(|r| ClearedSeat {
                game: r.get(0),
                seat: r.get(1),
            })
            .collect();
        for s in &seats {
            for (_, name) in seat_columns(&s.seat) {
                tx.execute(
                    &format!("UPDATE games SET {name} = NULL WHERE id = $1"),
                    &[&s.game],
                )?;
            }
            notify(&mut tx, self.node_name(), &s.game, None)?;
        }
        // Sessions, recovery codes and seat links go with the account
        // (ON DELETE CASCADE).
        tx.execute("DELETE FROM accounts WHERE id = $1", &[&account])?;
        check_commit()?;
        tx.commit()?;
        Ok(seats)
    }

    fn link_seat(&self, game: &str, seat: &str, account: &str) -> StoreResult<()> {
        self.conn()?.execute(
            "INSERT INTO account_seats (game_id, seat, account_id) VALUES ($1, $2, $3)
             ON CONFLICT (game_id, seat) DO UPDATE SET account_id = EXCLUDED.account_id",
            &[&game, &seat, &account],
        )?;
        Ok(())
    }

    fn account_seat(&self, account: &str, game: &str) -> StoreResult<Option<String>> {
        let row = self.conn()?.query_opt(
            "SELECT seat FROM account_seats WHERE account_id = $1 AND game_id = $2",
            &[&account, &game],
        )?;
        Ok(row.map(|r| r.get(0)))
    }

    fn seat_accounts(&self, game: &str) -> StoreResult<Vec<(String, String)>> {
        let rows = self.conn()?.query(
            "SELECT seat, account_id FROM account_seats WHERE game_id = $1",
            &[&game],
        )?;
        Ok(rows.iter().map(|r| (r.get(0), r.get(1))).collect())
    }

    fn account_games(&self, account: &str, limit: u32, offset: u32) -> StoreResult<Vec<AccountGame>> {
        let columns: Vec<String> = LISTED.split(',').map(|c| format!("g.{}", c.trim())).collect();
        let rows = self.conn()?.query(
            &format!(
                "SELECT {}, s.seat FROM account_seats s JOIN games g ON g.id = s.game_id
                 WHERE s.account_id = $1 ORDER BY g.updated_ms DESC, g.id LIMIT $2 OFFSET $3",
                columns.join(", ")
            ),
            &[&account, &i64::from(limit), &i64::from(offset)],
        )?;
        Ok(rows
            .iter()
            .map(|r| AccountGame {
                game: listed_game(r),
                seat: r.get(LISTED_COUNT),
            })
            .collect())
    }

    fn player_games(
        &self,
        account: &str,
        filter: &PlayerGamesFilter,
        limit: u32,
        offset: u32,
    ) -> StoreResult<PlayerGames> {
        let (list, tally) = player_games_sql("(g.rules::jsonb ->> 'variant')", |n| match n {
            3 => "$3::boolean".to_owned(),
            6 | 7 => format!("${n}::bigint"),
            _ => format!("${n}::text"),
        });
        let mut conn = self.conn()?;
        let result = filter.result.map(|r| r.as_str());
        let t = conn.query_one(
            &tally,
            &[&account, &filter.variant, &filter.rated, &filter.opponent],
        )?;
        let rows = conn.query(
            &list,
            &[
                &account,
                &filter.variant,
                &filter.rated,
                &filter.opponent,
                &result,
                &i64::from(limit),
                &i64::from(offset),
            ],
        )?;
        let count = |i: usize| t.get::<_, i64>(i) as u64;
        let mut out = PlayerGames {
            games: rows
                .iter()
                .map(|r| PlayerGame {
                    game: listed_game(r),
                    seat: r.get(LISTED_COUNT),
                    opponent: r.get(LISTED_COUNT + 1),
                })
                .collect(),
            wins: count(1),
            draws: count(2),
            losses: count(3),
            ..PlayerGames::default()
        };
        out.total_for(filter.result, count(0));
        Ok(out)
    }

    fn set_seat_token(&self, game: &str, seat: &str, token_hash: &str) -> StoreResult<()> {
        let mut conn = self.conn()?;
        let mut tx = conn.transaction()?;
        let locked = tx.query_opt("SELECT 1 FROM games WHERE id = $1 FOR UPDATE", &[&game])?;
        if locked.is_none() {
            return Err(StoreError::Corrupt(format!("no game {game}")));
        }
        for (token, _) in seat_columns(seat) {
            tx.execute(
                &format!("UPDATE games SET {token} = $2 WHERE id = $1"),
                &[&game, &token_hash],
            )?;
        }
        notify(&mut tx, self.node_name(), game, None)?;
        check_commit()?;
        tx.commit()?;
        Ok(())
    }
}
