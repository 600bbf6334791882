//! Players and ratings, for anyone to read: a player's page
//! (`GET /api/players/{name}`), a player's rating history in one pool
//! (`GET /api/players/{name}/history`), a player's games over, filtered
//! and a page at a time, with the head-to-head score against another
//! player (`GET /api/players/{name}/games`) and a pool's leaderboard
//! (`GET /api/leaderboard`).

use std::sync::Arc;

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;

use crate::error::ApiError;
use crate::http::extract::{ApiPath, ApiQuery};
use crate::http::wire::{
    HistoryPoint, HistoryResponse, LeaderboardResponse, PlayerGamesQuery, PlayerGamesResponse, PlayerView,
    PoolQuery,
};
use crate::ratings::Pool;
use crate::room::lookalike::fold;
use crate::state::AppState;
use crate::store::{Account, PlayerGamesFilter};

/// Rated games in a player's `recent`.
const RECENT_GAMES: u32 = 20;
/// Points of a rating history at most.
const HISTORY_POINTS: u32 = 500;
/// Games a page of a player's games at most.
pub const MAX_PLAYER_GAMES: u32 = 100;
/// Players of a leaderboard at most.
const LEADERS: u32 = 50;

/// The account named `name` (compared as usernames are: by confusable
/// skeleton); 404 `unknown_player` if none.
async fn player(st: &AppState, name: &str) -> Result<Account, ApiError> {
    let skeleton = fold(name.trim());
    let found = st
        .db(move |s| s.accounts().account_by_skeleton(&skeleton))
        .await?;
    found.ok_or_else(|| {
        ApiError::new(
            StatusCode::NOT_FOUND,
            "unknown_player",
            format!("no player is named {name:?}"),
        )
    })
}

/// The query's pool; 400 `unknown_pool` if missing or no pool.
fn pool(q: PoolQuery) -> Result<Pool, ApiError> {
    let name = q.pool.ok_or_else(|| {
        ApiError::new(
            StatusCode::BAD_REQUEST,
            "unknown_pool",
            "the query needs pool=<variant>-<class>, e.g. pool=II-blitz",
        )
    })?;
    name.parse().map_err(|e: crate::ratings::UnknownPool| {
        ApiError::new(StatusCode::BAD_REQUEST, "unknown_pool", e.to_string())
    })
}

/// `GET /api/players/{name}`: the player's ratings per pool, rated wins,
/// draws and losses, and most recent rated games.
pub(crate) async fn show(
    State(st): State<Arc<AppState>>,
    ApiPath(name): ApiPath<String>,
) -> Result<Json<PlayerView>, ApiError> {
    let account = player(&st, &name).await?;
    let id = account.id.clone();
    let (ratings, recent) = st
        .db(move |s| {
            let r = s.ratings();
            Ok((r.account_ratings(&id)?, r.history(&id, None, RECENT_GAMES)?))
        })
        .await?;
    let sum = |f: fn(&crate::store::PoolRating) -> i64| ratings.iter().map(f).sum();
    Ok(Json(PlayerView {
        username: account.username,
        created_ms: account.created_ms,
        wins: sum(|r| r.wins),
        draws: sum(|r| r.draws),
        losses: sum(|r| r.losses),
        ratings: ratings.into_iter().map(Into::into).collect(),
        recent,
    }))
}

/// `GET /api/players/{name}/history?pool=…`: the player's rating after
/// each rated game of the pool, oldest first.
pub(crate) async fn history(
    State(st): State<Arc<AppState>>,
    ApiPath(name): ApiPath<String>,
    ApiQuery(q): ApiQuery<PoolQuery>,
) -> Result<Json<HistoryResponse>, ApiError> {
    let pool = pool(q)?.to_string();
    let account = player(&st, &name).await?;
    let wanted = pool.clone();
    let mut entries = st
        .db(move |s| s.ratings().history(&account.id, Some(&wanted), HISTORY_POINTS))
        .await?;
    entries.reverse();
    let points = entries
        .into_iter()
        .map(|h| HistoryPoint {
            game: h.game,
            ended_ms: h.ended_ms,
            rating: h.change.after,
            deviation: h.change.deviation_after,
            before: h.change.before,
            deviation_before: h.change.deviation_before,
            opponent: h.opponent,
            score: h.score,
        })
        .collect();
    Ok(Json(HistoryResponse { pool, points }))
}

/// `GET /api/players/{name}/games?variant=…&result=…&rated=…&opponent=…`:
/// the player's online games that are over, most recent first, a page at
/// a time, with the tally of won, drawn and lost (against `opponent`, the
/// head-to-head score).
pub(crate) async fn games(
    State(st): State<Arc<AppState>>,
    ApiPath(name): ApiPath<String>,
    ApiQuery(q): ApiQuery<PlayerGamesQuery>,
) -> Result<Json<PlayerGamesResponse>, ApiError> {
    let limit = super::page_limit(q.limit, 20, MAX_PLAYER_GAMES)?;
    let offset = q.offset.unwrap_or(0);
    if let Some(v) = &q.variant {
        if !matches!(v.as_str(), "I" | "II" | "III") {
            return Err(ApiError::bad_request("variant must be I, II or III"));
        }
    }
    let account = player(&st, &name).await?;
    let opponent = match &q.opponent {
        Some(o) => Some(player(&st, o).await?),
        None => None,
    };
    let filter = PlayerGamesFilter {
        variant: q.variant,
        result: q.result,
        rated: q.rated,
        opponent: opponent.as_ref().map(|o| o.id.clone()),
    };
    let id = account.id.clone();
    let games = st
        .db(move |s| s.accounts().player_games(&id, &filter, limit, offset))
        .await?;
    Ok(Json(PlayerGamesResponse {
        username: account.username,
        opponent: opponent.map(|o| o.username),
        games,
    }))
}

/// `GET /api/leaderboard?pool=…`: the pool's best ratings that are not
/// provisional.
pub(crate) async fn leaderboard(
    State(st): State<Arc<AppState>>,
    ApiQuery(q): ApiQuery<PoolQuery>,
) -> Result<Json<LeaderboardResponse>, ApiError> {
    let pool = pool(q)?.to_string();
    let wanted = pool.clone();
    let players = st.db(move |s| s.ratings().leaderboard(&wanted, LEADERS)).await?;
    Ok(Json(LeaderboardResponse { pool, players }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::http::wire::PoolQuery;
    use crate::ratings::{after_game, Rating, Score};
    use crate::store::{RatedResult, Store};

    fn q(pool: Option<&str>) -> ApiQuery<PoolQuery> {
        ApiQuery(PoolQuery {
            pool: pool.map(str::to_string),
        })
    }

    #[tokio::test]
    async fn a_players_ratings_history_and_leaderboard() {
        let (_stop, rx) = tokio::sync::watch::channel(false);
        let st = AppState::new(Store::in_memory().unwrap(), 1, rx);
        st.db(|s| {
            for (id, name) in [("a", "Ana"), ("b", "Beto")] {
                let account = Account {
                    id: id.into(),
                    username: name.into(),
                    skeleton: fold(name),
                    password_hash: "h".into(),
                    created_ms: 1,
                };
                s.accounts().insert_account(&account, &[])?;
            }
            for (game, score, at) in [("g1", Score::Win, 10), ("g2", Score::Draw, 20)] {
                let result = RatedResult {
                    game: game.into(),
                    pool: "III-classical".into(),
                    south: "a".into(),
                    north: "b".into(),
                    south_score: score,
                    ended_ms: at,
                };
                s.ratings().rate_game(&result)?;
            }
            Ok(())
        })
        .await
        .unwrap();
        let (a1, _) = after_game(Rating::default(), Rating::default(), Score::Win);

        // Names compare as usernames do.
        let Json(ana) = show(State(st.clone()), ApiPath(" ANA ".into())).await.unwrap();
        assert_eq!(ana.username, "Ana");
        assert_eq!((ana.wins, ana.draws, ana.losses), (1, 1, 0));
        assert_eq!(ana.ratings.len(), 1);
        assert!(ana.ratings[0].provisional);
        assert_eq!(
            ana.recent.iter().map(|h| h.game.as_str()).collect::<Vec<_>>(),
            ["g2", "g1"]
        );
        assert_eq!(ana.recent[0].opponent.as_deref(), Some("Beto"));

        let Json(h) = history(State(st.clone()), ApiPath("Ana".into()), q(Some("III-classical")))
            .await
            .unwrap();
        assert_eq!(
            h.points.iter().map(|p| p.game.as_str()).collect::<Vec<_>>(),
            ["g1", "g2"]
        );
        assert_eq!(h.points[0].rating, a1.rating);
        // Each point says whom the game was against, how it went and the rating before.
        assert_eq!(h.points[0].before, 1500.0);
        assert_eq!(h.points[1].before, a1.rating);
        assert_eq!(h.points[0].opponent.as_deref(), Some("Beto"));
        assert_eq!((h.points[0].score, h.points[1].score), (1.0, 0.5));
        let Json(other) = history(State(st.clone()), ApiPath("Ana".into()), q(Some("I-bullet")))
            .await
            .unwrap();
        assert!(other.points.is_empty());

        // Provisional ratings are off the leaderboard.
        let Json(board) = leaderboard(State(st.clone()), q(Some("III-classical")))
            .await
            .unwrap();
        assert!(board.players.is_empty());

        // Clear errors.
        let e = show(State(st.clone()), ApiPath("Nadie".into()))
            .await
            .unwrap_err();
        assert_eq!((e.status, e.code), (StatusCode::NOT_FOUND, "unknown_player"));
        for bad in [None, Some("III-lightning"), Some("IV-blitz")] {
            let e = history(State(st.clone()), ApiPath("Ana".into()), q(bad))
                .await
                .unwrap_err();
            assert_eq!(
                (e.status, e.code),
                (StatusCode::BAD_REQUEST, "unknown_pool"),
                "{bad:?}"
            );
            let e = leaderboard(State(st.clone()), q(bad)).await.unwrap_err();
            assert_eq!(e.code, "unknown_pool");
        }
        let e = history(State(st.clone()), ApiPath("Nadie".into()), q(Some("I-bullet")))
            .await
            .unwrap_err();
        assert_eq!(e.code, "unknown_player");
    }
}
