//! [`Postgres`]'s ratings ([`RatingStorage`]): the same tables as
//! SQLite's. A game is rated in one transaction that first claims its row
//! of `rated_games` and locks both accounts' rows, so two nodes ending the
//! same game rate it once, and two games of one player are rated one after
//! the other.

use ::postgres::{GenericClient, Row};

use super::deadline::check_commit;
use super::postgres::Postgres;
use super::ratings::{
    changes, puzzle_rating_sql, score_value, store_puzzle_rating_sql, wdl, GameRatingChanges, HistoryEntry,
    Leader, PoolRating, PuzzleRating, RatedResult, RatingChange, RatingStorage,
};
use super::{StoreError, StoreResult};
use crate::ratings::{Rating, PROVISIONAL_DEVIATION};

/// The columns a [`RatingChange`] is read from, in `rating_history`.
const CHANGE: &str = "rating_before, rating_after, deviation_before, deviation_after";

fn stored(tx: &mut impl GenericClient, account: &str, pool: &str) -> StoreResult<Option<Rating>> {
    let row = tx.query_opt(
        "SELECT rating, deviation, volatility FROM ratings WHERE account_id = $1 AND pool = $2",
        &[&account, &pool],
    )?;
    Ok(row.map(|r| Rating {
        rating: r.get(0),
        deviation: r.get(1),
        volatility: r.get(2),
    }))
}

fn change(r: &Row, at: usize) -> RatingChange {
    RatingChange {
        before: r.get(at),
        after: r.get(at + 1),
        deviation_before: r.get(at + 2),
        deviation_after: r.get(at + 3),
    }
}

fn game_changes(conn: &mut impl GenericClient, game: &str) -> StoreResult<Option<GameRatingChanges>> {
    let rows: Vec<(String, RatingChange)> = conn
        .query(
            &format!("SELECT side, {CHANGE} FROM rating_history WHERE game_id = $1"),
            &[&game],
        )?
        .iter()
        .map(|r| (r.get(0), change(r, 1)))
        .collect();
    let side = |s: &str| rows.iter().find(|(x, _)| x == s).map(|(_, c)| *c);
    Ok(side("south")
        .zip(side("north"))
        .map(|(south, north)| GameRatingChanges { south, north }))
}

impl RatingStorage for Postgres {
    fn rate_game(&self, g: &RatedResult) -> StoreResult<(GameRatingChanges, bool)> {
        let mut conn = self.conn()?;
        let mut tx = conn.transaction()?;
        let fresh = tx.execute(
            "INSERT INTO rated_games (game_id, pool, south_id, north_id, south_score, ended_ms)
             VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (game_id) DO NOTHING",
            &[
                &g.game,
                &g.pool,
                &g.south,
                &g.north,
                &score_value(g.south_score),
                &g.ended_ms,
            ],
        )? == 1;
        if !fresh {
            let stored = game_changes(&mut tx, &g.game)?;
            return stored
                .map(|c| (c, false))
                .ok_or_else(|| StoreError::Corrupt(format!("rated game {} has no history", g.game)));
        }
        tx.execute(
            "SELECT id FROM accounts WHERE id = $1 OR id = $2 ORDER BY id FOR UPDATE",
            &[&g.south, &g.north],
        )?;
        let (s0, n0) = (
            stored(&mut tx, &g.south, &g.pool)?,
            stored(&mut tx, &g.north, &g.pool)?,
        );
        let (c, south, north) = changes(s0, n0, g.south_score);
        for (side, account, opponent, new, ch, score) in [
            ("south", &g.south, &g.north, south, c.south, g.south_score),
            ("north", &g.north, &g.south, north, c.north, g.south_score.flip()),
        ] {
            let (w, d, l) = wdl(score);
            tx.execute(
                "INSERT INTO ratings (account_id, pool, rating, deviation, volatility, games, wins,
                     draws, losses, last_ms) VALUES ($1, $2, $3, $4, $5, 1, $6, $7, $8, $9)
                 ON CONFLICT (account_id, pool) DO UPDATE SET rating = excluded.rating,
                     deviation = excluded.deviation, volatility = excluded.volatility,
                     games = ratings.games + 1, wins = ratings.wins + excluded.wins,
                     draws = ratings.draws + excluded.draws, losses = ratings.losses + excluded.losses, last_ms = excluded.last_ms",
                &[account, &g.pool, &new.rating, &new.deviation, &new.volatility, &w, &d, &l, &g.ended_ms],
            )?;
            tx.execute(
                &format!(
                    "INSERT INTO rating_history (game_id, account_id, opponent_id, side, pool, score,
                         {CHANGE}, ended_ms) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)"
                ),
                &[
                    &g.game,
                    account,
                    opponent,
                    &side,
                    &g.pool,
                    &score_value(score),
                    &ch.before,
                    &ch.after,
                    &ch.deviation_before,
                    &ch.deviation_after,
                    &g.ended_ms,
                ],
            )?;
        }
        check_commit()?;
        tx.commit()?;
        Ok((c, true))
    }

    fn game_changes(&self, game: &str) -> StoreResult<Option<GameRatingChanges>> {
        game_changes(&mut *self.conn()?, game)
    }

    fn account_ratings(&self, account: &str) -> StoreResult<Vec<PoolRating>> {
        let rows = self.conn()?.query(
            "SELECT pool, rating, deviation, volatility, games, wins, draws, losses, last_ms
             FROM ratings WHERE account_id = $1 ORDER BY pool",
            &[&account],
        )?;
        Ok(rows
            .iter()
            .map(|r| PoolRating {
                pool: r.get(0),
                rating: r.get(1),
                deviation: r.get(2),
                volatility: r.get(3),
                games: r.get(4),
                wins: r.get(5),
                draws: r.get(6),
                losses: r.get(7),
                last_ms: r.get(8),
            })
            .collect())
    }

    fn history(&self, account: &str, pool: Option<&str>, limit: u32) -> StoreResult<Vec<HistoryEntry>> {
        let rows = self.conn()?.query(
            &format!(
                "SELECT h.game_id, h.pool, a.username, h.score, {CHANGE}, h.ended_ms
                 FROM rating_history h LEFT JOIN accounts a ON a.id = h.opponent_id
                 WHERE h.account_id = $1 AND ($2::TEXT IS NULL OR h.pool = $2)
                 ORDER BY h.ended_ms DESC, h.game_id DESC LIMIT $3"
            ),
            &[&account, &pool, &i64::from(limit)],
        )?;
        Ok(rows
            .iter()
            .map(|r| HistoryEntry {
                game: r.get(0),
                pool: r.get(1),
                opponent: r.get(2),
                score: r.get(3),
                change: change(r, 4),
                ended_ms: r.get(8),
            })
            .collect())
    }

    fn leaderboard(&self, pool: &str, limit: u32) -> StoreResult<Vec<Leader>> {
        let rows = self.conn()?.query(
            "SELECT a.username, r.rating, r.deviation, r.games
             FROM ratings r JOIN accounts a ON a.id = r.account_id
             WHERE r.pool = $1 AND r.deviation <= $2
             ORDER BY r.rating DESC, a.username LIMIT $3",
            &[&pool, &PROVISIONAL_DEVIATION, &i64::from(limit)],
        )?;
        Ok(rows
            .iter()
            .map(|r| Leader {
                username: r.get(0),
                rating: r.get(1),
                deviation: r.get(2),
                games: r.get(3),
            })
            .collect())
    }

    fn puzzle_rating(&self, account: &str) -> StoreResult<Option<PuzzleRating>> {
        let row = self.conn()?.query_opt(&puzzle_rating_sql('$'), &[&account])?;
        Ok(row.map(|r| PuzzleRating {
            rating: r.get(0),
            deviation: r.get(1),
            volatility: r.get(2),
            attempts: r.get(3),
            updated_ms: r.get(4),
        }))
    }

    fn store_puzzle_rating(&self, account: &str, new: &PuzzleRating) -> StoreResult<bool> {
        let n = self.conn()?.execute(
            &store_puzzle_rating_sql('$'),
            &[
                &account,
                &new.rating,
                &new.deviation,
                &new.volatility,
                &new.attempts,
                &new.updated_ms,
            ],
        )?;
        Ok(n == 1)
    }
}
