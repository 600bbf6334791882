//! [`Sqlite`]'s ratings ([`RatingStorage`]).

use rusqlite::{params, OptionalExtension};

use super::ratings::{
    changes, puzzle_rating_sql, score_value, store_puzzle_rating_sql, wdl, GameRatingChanges, HistoryEntry,
    Leader, PoolRating, PuzzleRating, RatedResult, RatingChange, RatingStorage,
};
use super::sqlite::Sqlite;
use super::StoreResult;
use crate::ratings::{Rating, PROVISIONAL_DEVIATION};

/// The columns a [`RatingChange`] is read from, in `rating_history`.
pub(super) const CHANGE: &str = "rating_before, rating_after, deviation_before, deviation_after";

fn stored(tx: &rusqlite::Transaction<'_>, account: &str, pool: &str) -> rusqlite::Result<Option<Rating>> {
    tx.query_row(
        "SELECT rating, deviation, volatility FROM ratings WHERE account_id = ?1 AND pool = ?2",
        params![account, pool],
        |r| {
            Ok(Rating {
                rating: r.get(0)?,
                deviation: r.get(1)?,
                volatility: r.get(2)?,
            })
        },
    )
    .optional()
}

fn change(r: &rusqlite::Row<'_>, at: usize) -> rusqlite::Result<RatingChange> {
    Ok(RatingChange {
        before: r.get(at)?,
        after: r.get(at + 1)?,
        deviation_before: r.get(at + 2)?,
        deviation_after: r.get(at + 3)?,
    })
}

fn game_changes(conn: &rusqlite::Connection, game: &str) -> rusqlite::Result<Option<GameRatingChanges>> {
    let mut stmt = conn.prepare(&format!(
        "SELECT side, {CHANGE} FROM rating_history WHERE game_id = ?1"
    ))?;
    let rows = stmt
        .query_map(params![game], |r| Ok((r.get::<_, String>(0)?, change(r, 1)?)))?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    let side = |s: &str| rows.iter().find(|(x, _)| x == s).map(|(_, c)| *c);
    Ok(side("south")
        .zip(side("north"))
        .map(|(south, north)| GameRatingChanges { south, north }))
}

impl RatingStorage for Sqlite {
    fn rate_game(&self, g: &RatedResult) -> StoreResult<(GameRatingChanges, bool)> {
        let mut conn = self.conn();
        let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        let fresh = tx.execute(
            "INSERT INTO rated_games (game_id, pool, south_id, north_id, south_score, ended_ms)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT (game_id) DO NOTHING",
            params![
                g.game,
                g.pool,
                g.south,
                g.north,
                score_value(g.south_score),
                g.ended_ms
            ],
        )? == 1;
        if !fresh {
            let stored = game_changes(&tx, &g.game)?;
            drop(tx);
            return stored
                .map(|c| (c, false))
                .ok_or_else(|| super::StoreError::Corrupt(format!("rated game {} has no history", g.game)));
        }
        let (c, south, north) = changes(
            stored(&tx, &g.south, &g.pool)?,
            stored(&tx, &g.north, &g.pool)?,
            g.south_score,
        );
        for (side, account, opponent, new, ch, score) in [
            ("south", &g.south, &g.north, south, c.south, g.south_score),
            ("north", &g.north, &g.south, north, c.north, g.south_score.flip()),
        ] {
            let (w, d, l) = wdl(score);
            tx.execute(
                "INSERT INTO ratings (account_id, pool, rating, deviation, volatility, games, wins,
                     draws, losses, last_ms) VALUES (?1, ?2, ?3, ?4, ?5, 1, ?6, ?7, ?8, ?9)
                 ON CONFLICT (account_id, pool) DO UPDATE SET rating = excluded.rating,
                     deviation = excluded.deviation, volatility = excluded.volatility,
                     games = games + 1, wins = wins + excluded.wins, draws = draws + excluded.draws,
                     losses = losses + excluded.losses, last_ms = excluded.last_ms",
                params![
                    account,
                    g.pool,
                    new.rating,
                    new.deviation,
                    new.volatility,
                    w,
                    d,
                    l,
                    g.ended_ms
                ],
            )?;
            tx.execute(
                &format!(
                    "INSERT INTO rating_history (game_id, account_id, opponent_id, side, pool, score,
                         {CHANGE}, ended_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)"
                ),
                params![
                    g.game,
                    account,
                    opponent,
                    side,
                    g.pool,
                    score_value(score),
                    ch.before,
                    ch.after,
                    ch.deviation_before,
                    ch.deviation_after,
                    g.ended_ms
                ],
            )?;
        }
        tx.commit()?;
        Ok((c, true))
    }

    fn game_changes(&self, game: &str) -> StoreResult<Option<GameRatingChanges>> {
        Ok(game_changes(&self.reader(), game)?)
    }

    fn account_ratings(&self, account: &str) -> StoreResult<Vec<PoolRating>> {
        let conn = self.reader();
        let mut stmt = conn.prepare(
            "SELECT pool, rating, deviation, volatility, games, wins, draws, losses, last_ms
             FROM ratings WHERE account_id = ?1 ORDER BY pool",
        )?;
        let rows = stmt.query_map(params![account], |r| {
            Ok(PoolRating {
                pool: r.get(0)?,
                rating: r.get(1)?,
                deviation: r.get(2)?,
                volatility: r.get(3)?,
                games: r.get(4)?,
                wins: r.get(5)?,
                draws: r.get(6)?,
                losses: r.get(7)?,
                last_ms: r.get(8)?,
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    fn history(&self, account: &str, pool: Option<&str>, limit: u32) -> StoreResult<Vec<HistoryEntry>> {
        let conn = self.reader();
        let mut stmt = conn.prepare(&format!(
            "SELECT h.game_id, h.pool, a.username, h.score, {CHANGE}, h.ended_ms
             FROM rating_history h LEFT JOIN accounts a ON a.id = h.opponent_id
             WHERE h.account_id = ?1 AND (?2 IS NULL OR h.pool = ?2)
             ORDER BY h.ended_ms DESC, h.game_id DESC LIMIT ?3"
        ))?;
        let rows = stmt.query_map(params![account, pool, limit], |r| {
            Ok(HistoryEntry {
                game: r.get(0)?,
                pool: r.get(1)?,
                opponent: r.get(2)?,
                score: r.get(3)?,
                change: change(r, 4)?,
                ended_ms: r.get(8)?,
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    fn leaderboard(&self, pool: &str, limit: u32) -> StoreResult<Vec<Leader>> {
        let conn = self.reader();
        let mut stmt = conn.prepare(
            "SELECT a.username, r.rating, r.deviation, r.games
             FROM ratings r JOIN accounts a ON a.id = r.account_id
             WHERE r.pool = ?1 AND r.deviation <= ?2
             ORDER BY r.rating DESC, a.username LIMIT ?3",
        )?;
        let rows = stmt.query_map(params![pool, PROVISIONAL_DEVIATION, limit], |r| {
            Ok(Leader {
                username: r.get(0)?,
                rating: r.get(1)?,
                deviation: r.get(2)?,
                games: r.get(3)?,
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    fn puzzle_rating(&self, account: &str) -> StoreResult<Option<PuzzleRating>> {
        let conn = self.reader();
        let found = conn
            .prepare_cached(&puzzle_rating_sql('?'))?
            .query_row(params![account], |r| {
                Ok(PuzzleRating {
                    rating: r.get(0)?,
                    deviation: r.get(1)?,
                    volatility: r.get(2)?,
                    attempts: r.get(3)?,
                    updated_ms: r.get(4)?,
                })
            })
            .optional()?;
        Ok(found)
    }

    fn store_puzzle_rating(&self, account: &str, new: &PuzzleRating) -> StoreResult<bool> {
        let conn = self.conn();
        let n = conn
            .prepare_cached(&store_puzzle_rating_sql('?'))?
            .execute(params![
                account,
                new.rating,
                new.deviation,
                new.volatility,
                new.attempts,
                new.updated_ms
            ])?;
        Ok(n == 1)
    }
}
