//! Ratings as stored: [`RatingStorage`] ([`super::Storage::ratings`]), in
//! SQLite (`sqlite_ratings.rs`) and PostgreSQL (`postgres_ratings.rs`).
//!
//! Tables: `ratings` (one row per account and pool: the Glicko-2 rating,
//! deviation and volatility, the counts of games, wins, draws and losses,
//! and when the last was played), `rated_games` (one row per rated game,
//! its primary key the game: a game is rated once, whichever node ends it
//! and however often) and `rating_history` (one row per rated game and
//! player: the rating and deviation before and after); `puzzle_ratings`
//! (one row per account that solved puzzles signed in: its Glicko-2
//! puzzle rating and how many attempts made it).

use serde::Serialize;

use super::StoreResult;
use crate::ratings::{after_game, Rating, Score};

/// A rated game that ended, to be rated.
#[derive(Debug, Clone, PartialEq)]
pub struct RatedResult {
    /// The game.
    pub game: String,
    /// Its pool's name (`crate::ratings::Pool`).
    pub pool: String,
    /// South's account.
    pub south: String,
    /// North's account.
    pub north: String,
    /// South's score.
    pub south_score: Score,
    /// When it ended, ms since the Unix epoch.
    pub ended_ms: i64,
}

/// One player's rating change in one game.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct RatingChange {
    /// The rating before the game.
    pub before: f64,
    /// The rating after it.
    pub after: f64,
    /// The deviation before.
    pub deviation_before: f64,
    /// The deviation after.
    pub deviation_after: f64,
}

impl RatingChange {
    /// Whether the rating after the game is provisional.
    pub fn provisional(&self) -> bool {
        self.deviation_after > crate::ratings::PROVISIONAL_DEVIATION
    }
}

/// Both players' rating changes in one game.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct GameRatingChanges {
    /// South's.
    pub south: RatingChange,
    /// North's.
    pub north: RatingChange,
}

/// An account's rating in one pool.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PoolRating {
    /// The pool's name.
    pub pool: String,
    /// The rating.
    pub rating: f64,
    /// The deviation.
    pub deviation: f64,
    /// The volatility.
    pub volatility: f64,
    /// Rated games played in the pool.
    pub games: i64,
    /// Of which won.
    pub wins: i64,
    /// Drawn.
    pub draws: i64,
    /// Lost.
    pub losses: i64,
    /// When the last was played, ms since the Unix epoch.
    pub last_ms: i64,
}

/// One rated game of an account, as its history holds it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HistoryEntry {
    /// The game.
    pub game: String,
    /// The pool's name.
    pub pool: String,
    /// The opponent's username (`None` once that account is deleted).
    pub opponent: Option<String>,
    /// The account's score: 1, 0.5 or 0.
    pub score: f64,
    /// Its rating change.
    #[serde(flatten)]
    pub change: RatingChange,
    /// When the game ended, ms since the Unix epoch.
    pub ended_ms: i64,
}

/// A solver's puzzle rating kept on their account.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct PuzzleRating {
    /// The rating.
    pub rating: f64,
    /// Its deviation.
    pub deviation: f64,
    /// Its volatility.
    pub volatility: f64,
    /// The rated attempts that made it.
    pub attempts: i64,
    /// When the last was stored, ms since the Unix epoch.
    pub updated_ms: i64,
}

/// One row of a leaderboard.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Leader {
    /// The username.
    pub username: String,
    /// The rating.
    pub rating: f64,
    /// The deviation.
    pub deviation: f64,
    /// Rated games played in the pool.
    pub games: i64,
}

/// The stored ratings. Every call blocks: call from blocking threads
/// (`AppState::db`).
pub trait RatingStorage: Send + Sync {
    /// Rates a game that ended: both ratings of its pool are updated and
    /// its history rows stored, in one transaction. A game already rated
    /// is not rated again: its stored changes are returned, with `false`.
    ///
    /// # Errors
    /// If the database fails (e.g. no such account).
    fn rate_game(&self, result: &RatedResult) -> StoreResult<(GameRatingChanges, bool)>;

    /// The rating changes of game `game`, if it was rated.
    ///
    /// # Errors
    /// If the database fails.
    fn game_changes(&self, game: &str) -> StoreResult<Option<GameRatingChanges>>;

    /// The ratings of `account`, one per pool it played rated games in.
    ///
    /// # Errors
    /// If the database fails.
    fn account_ratings(&self, account: &str) -> StoreResult<Vec<PoolRating>>;

    /// The rated games of `account` (in pool `pool` if given), most recent
    /// first, at most `limit`.
    ///
    /// # Errors
    /// If the database fails.
    fn history(&self, account: &str, pool: Option<&str>, limit: u32) -> StoreResult<Vec<HistoryEntry>>;

    /// The best ratings of pool `pool` whose deviation is at most
    /// [`crate::ratings::PROVISIONAL_DEVIATION`], at most `limit`.
    ///
    /// # Errors
    /// If the database fails.
    fn leaderboard(&self, pool: &str, limit: u32) -> StoreResult<Vec<Leader>>;

    /// The puzzle rating of `account`, if it has one.
    ///
    /// # Errors
    /// If the database fails.
    fn puzzle_rating(&self, account: &str) -> StoreResult<Option<PuzzleRating>>;

    /// Stores `new` as the puzzle rating of `account` if the stored one was
    /// made by `new.attempts - 1` attempts (none stored: `new.attempts` is
    /// 1); whether it was stored (`false`: another attempt was stored
    /// meanwhile, and the caller computes again from it).
    ///
    /// # Errors
    /// If the database fails (e.g. no such account).
    fn store_puzzle_rating(&self, account: &str, new: &PuzzleRating) -> StoreResult<bool>;
}

/// The SQL of [`RatingStorage::store_puzzle_rating`], with SQLite's and
/// PostgreSQL's numbered parameters (`?n` or `$n`): account, rating,
/// deviation, volatility, attempts, time.
pub(crate) fn store_puzzle_rating_sql(p: char) -> String {
    format!(
        "INSERT INTO puzzle_ratings (account_id, rating, deviation, volatility, attempts, updated_ms)
         VALUES ({p}1, {p}2, {p}3, {p}4, {p}5, {p}6)
         ON CONFLICT (account_id) DO UPDATE SET rating = excluded.rating, deviation = excluded.deviation,
           volatility = excluded.volatility, attempts = excluded.attempts, updated_ms = excluded.updated_ms
         WHERE puzzle_ratings.attempts = excluded.attempts - 1"
    )
}

/// The SQL of [`RatingStorage::puzzle_rating`] (parameter 1: the account).
pub(crate) fn puzzle_rating_sql(p: char) -> String {
    format!(
        "SELECT rating, deviation, volatility, attempts, updated_ms FROM puzzle_ratings WHERE account_id = {p}1"
    )
}

/// A score as stored: 1, 0.5 or 0.
pub(crate) fn score_value(s: Score) -> f64 {
    match s {
        Score::Win => 1.0,
        Score::Draw => 0.5,
        Score::Loss => 0.0,
    }
}

/// The new ratings of a game's two players, from their stored ratings
/// (`None`: never rated in the pool) and south's score.
pub(crate) fn changes(
    south: Option<Rating>,
    north: Option<Rating>,
    south_score: Score,
) -> (GameRatingChanges, Rating, Rating) {
    let (s0, n0) = (south.unwrap_or_default(), north.unwrap_or_default());
    let (s1, n1) = after_game(s0, n0, south_score);
    let change = |a: Rating, b: Rating| RatingChange {
        before: a.rating,
        after: b.rating,
        deviation_before: a.deviation,
        deviation_after: b.deviation,
    };
    (
        GameRatingChanges {
            south: change(s0, s1),
            north: change(n0, n1),
        },
        s1,
        n1,
    )
}

/// The counts (wins, draws, losses) a score adds.
pub(crate) fn wdl(s: Score) -> (i64, i64, i64) {
    match s {
        Score::Win => (1, 0, 0),
        Score::Draw => (0, 1, 0),
        Score::Loss => (0, 0, 1),
    }
}
