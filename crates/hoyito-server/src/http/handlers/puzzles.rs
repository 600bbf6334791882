//! `GET /api/puzzles/{id}`, `GET /api/puzzles/next`,
//! `GET /api/puzzles/daily` and `GET /api/puzzles/streak`: the shipped
//! puzzles certified by the tablebases (`crate::puzzles`);
//! `POST /api/puzzles/{id}/attempt` and `GET /api/puzzles/rating`: the
//! solver's rating, on the device or, signed in, on the account.

use std::sync::Arc;

use axum::extract::State;
use axum::http::HeaderMap;

use axum::http::StatusCode;
use axum::Json;
use hoyito_core::Variant;
use hoyito_puzzle::PuzzleRecord;

use crate::error::ApiError;
use crate::http::extract::ApiJson;
use crate::http::extract::{ApiPath, ApiQuery};
use crate::http::session;
use crate::http::wire::{
    AccountPuzzleRating, AttemptAnswer, AttemptRequest, DailyPuzzle, DailyQuery, PuzzleQuery, SolverRating,
    StreakQuery,
};
use crate::puzzles::{date_of_day, day_of_date, Filter, PuzzleSet};
use crate::state::AppState;
use crate::store::PuzzleRating;

/// The set, or 500 if the embedded files do not read (a build that skipped its tests).
fn set() -> Result<&'static PuzzleSet, ApiError> {
    PuzzleSet::shipped()
        .map_err(|e| ApiError::internal(format!("the embedded puzzle set does not read: {e}")))
}

/// At most 32 characters of an id, as an error repeats it.
fn echo(id: &str) -> String {
    match id.char_indices().nth(32) {
        None => id.to_string(),
        Some((i, _)) => format!("{}…", &id[..i]),
    }
}

fn not_found(message: String) -> ApiError {
    ApiError::new(StatusCode::NOT_FOUND, "puzzle_not_found", message)
}

/// `GET /api/puzzles/{id}`.
pub(crate) async fn get(ApiPath(id): ApiPath<String>) -> Result<Json<PuzzleRecord>, ApiError> {
    let set = set()?;
    set.get(&id)
        .cloned()
        .map(Json)
        .ok_or_else(|| not_found(format!("no puzzle with id {:?}", echo(&id))))
}

fn variant(v: Option<&str>) -> Result<Option<Variant>, ApiError> {
    v.map(|v| {
        v.parse::<Variant>()
            .map_err(|_| ApiError::bad_request("variant must be I, II or III"))
    })
    .transpose()
}

/// `GET /api/puzzles/daily?variant=…&holes=…&date=YYYY-MM-DD`: the puzzle
/// of the UTC day (`PuzzleSet::daily`), the same for everyone.
pub(crate) async fn daily(ApiQuery(q): ApiQuery<DailyQuery>) -> Result<Json<DailyPuzzle>, ApiError> {
    let filter = Filter {
        variant: variant(q.variant.as_deref())?,
        holes: q.holes,
        ..Filter::default()
    };
    let day = match &q.date {
        None => crate::store::now().div_euclid(86_400_000),
        Some(d) => day_of_date(d).ok_or_else(|| {
            ApiError::bad_request(format!(
                "date must be a day YYYY-MM-DD from 2000-01-01 to 2999-12-31, not {:?}",
                echo(d)
            ))
        })?,
    };
    let set = set()?;
    let puzzle = set
        .daily(&filter, day)
        .ok_or_else(|| not_found("no puzzle matches these filters".to_string()))?;
    Ok(Json(DailyPuzzle {
        date: date_of_day(day),
        puzzle: puzzle.clone(),
    }))
}

/// `GET /api/puzzles/next?variant=…&holes=…&after=…&min_rating=…&max_rating=…`.
pub(crate) async fn next(ApiQuery(q): ApiQuery<PuzzleQuery>) -> Result<Json<PuzzleRecord>, ApiError> {
    let filter = Filter {
        variant: variant(q.variant.as_deref())?,
        holes: q.holes,
        min_rating: q.min_rating,
        max_rating: q.max_rating,
    };
    let set = set()?;
    match set.next(&filter, q.after.as_deref()) {
        Ok(Some(p)) => Ok(Json(p.clone())),
        Ok(None) => Err(not_found("no puzzle matches these filters".to_string())),
        Err(()) => Err(not_found(format!(
            "after: no puzzle with id {:?}",
            echo(q.after.as_deref().unwrap_or(""))
        ))),
    }
}

/// `GET /api/puzzles/streak?variant=…&holes=…&above=…&seed=…`: the next
/// puzzle of a streak, rated above `above` (`PuzzleSet::streak`); 404 once
/// no puzzle is rated above it.
pub(crate) async fn streak(ApiQuery(q): ApiQuery<StreakQuery>) -> Result<Json<PuzzleRecord>, ApiError> {
    let filter = Filter {
        variant: variant(q.variant.as_deref())?,
        holes: q.holes,
        ..Filter::default()
    };
    let set = set()?;
    set.streak(&filter, q.above, q.seed.unwrap_or(0))
        .cloned()
        .map(Json)
        .ok_or_else(|| not_found("no puzzle matches these filters above this rating".to_string()))
}

/// The deviation a puzzle has as the solver's opponent: its rating is an
/// estimate from the position (PUZZLES.md), held fixed, so a fixed deviation.
pub(crate) const PUZZLE_DEVIATION: f64 = 80.0;
/// The volatility a puzzle has as the solver's opponent (Glicko-2's usual start).
pub(crate) const PUZZLE_VOLATILITY: f64 = 0.06;

/// The ranges a solver's rating must be in: each field, its least and greatest value.
const RANGES: [(&str, f64, f64); 3] = [
    ("rating", 0.0, 4000.0),
    ("deviation", 1.0, 350.0),
    ("volatility", 0.001, 1.0),
];

/// Checks that each field of `r` is a finite number in its range.
fn check_rating(r: &SolverRating) -> Result<(), ApiError> {
    for ((name, lo, hi), v) in RANGES.iter().zip([r.rating, r.deviation, r.volatility]) {
        if !v.is_finite() || v < *lo || v > *hi {
            return Err(ApiError::unprocessable(
                "invalid_rating",
                format!("rating.{name} must be a number from {lo} to {hi}, not {v}"),
            ));
        }
    }
    Ok(())
}

/// The solver's rating after one attempt at a puzzle rated `puzzle`: one
/// Glicko-2 game (tau 0.5) against the puzzle, won if `solved`.
pub(crate) fn update(solver: SolverRating, puzzle: u32, solved: bool) -> SolverRating {
    use skillratings::glicko2::{glicko2, Glicko2Config, Glicko2Rating};
    let me = Glicko2Rating {
        rating: solver.rating,
        deviation: solver.deviation,
        volatility: solver.volatility,
    };
    let them = Glicko2Rating {
        rating: f64::from(puzzle),
        deviation: PUZZLE_DEVIATION,
        volatility: PUZZLE_VOLATILITY,
    };
    let outcome = if solved {
        skillratings::Outcomes::WIN
    } else {
        skillratings::Outcomes::LOSS
    };
    let (new, _) = glicko2(&me, &them, &outcome, &Glicko2Config::new());
    SolverRating {
        rating: new.rating,
        deviation: new.deviation,
        volatility: new.volatility,
    }
}

/// Tries of an attempt on an account when other attempts of the same
/// account are stored meanwhile.
const ACCOUNT_TRIES: usize = 4;

/// `POST /api/puzzles/{id}/attempt`: the solver's new rating after an
/// attempt. Signed out, computed from the request's rating and forgotten
/// (the rating lives on the solver's device); signed in (a session cookie
/// from the site's own pages), computed from the rating kept on the
/// account (the request's at the first attempt) and kept there.
pub(crate) async fn attempt(
    State(st): State<Arc<AppState>>,
    headers: HeaderMap,
    ApiPath(id): ApiPath<String>,
    ApiJson(body): ApiJson<AttemptRequest>,
) -> Result<Json<AttemptAnswer>, ApiError> {
    let set = set()?;
    let puzzle = set
        .get(&id)
        .ok_or_else(|| not_found(format!("no puzzle with id {:?}", echo(&id))))?;
    check_rating(&body.rating)?;
    let answer = |before: SolverRating, rating: SolverRating, account: bool| AttemptAnswer {
        id: puzzle.id.clone(),
        puzzle_rating: puzzle.rating,
        change: (rating.rating - before.rating).round() as i64,
        rating,
        account,
    };
    let Some(account) = session::for_write(&st, &headers).await? else {
        let rating = update(body.rating, puzzle.rating, body.solved);
        return Ok(Json(answer(body.rating, rating, false)));
    };
    for _ in 0..ACCOUNT_TRIES {
        let who = account.id.clone();
        let kept = st.db(move |s| s.ratings().puzzle_rating(&who)).await?;
        let (before, attempts) = match kept {
            Some(k) => (
                SolverRating {
                    rating: k.rating,
                    deviation: k.deviation,
                    volatility: k.volatility,
                },
                k.attempts,
            ),
            None => (body.rating, 0),
        };
        let after = update(before, puzzle.rating, body.solved);
        let new = PuzzleRating {
            rating: after.rating,
            deviation: after.deviation,
            volatility: after.volatility,
            attempts: attempts + 1,
            updated_ms: crate::store::now(),
        };
        let who = account.id.clone();
        if st
            .db(move |s| s.ratings().store_puzzle_rating(&who, &new))
            .await?
        {
            return Ok(Json(answer(before, after, true)));
        }
    }
    Err(ApiError::new(
        StatusCode::CONFLICT,
        "puzzle_rating_busy",
        "other attempts of this account were being rated at the same time: send this one again",
    ))
}

/// `GET /api/puzzles/rating`: the signed-in solver's puzzle rating, kept on
/// their account.
pub(crate) async fn account_rating(
    State(st): State<Arc<AppState>>,
    headers: HeaderMap,
) -> Result<Json<AccountPuzzleRating>, ApiError> {
    let account = session::require(&st, &headers).await?;
    let kept = st.db(move |s| s.ratings().puzzle_rating(&account.id)).await?;
    Ok(Json(AccountPuzzleRating {
        rating: kept.map(|k| SolverRating {
            rating: k.rating,
            deviation: k.deviation,
            volatility: k.volatility,
        }),
        attempts: kept.map_or(0, |k| k.attempts),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Glickman's example ("Example of the Glicko-2 system", 2013): a player
    /// 1500, deviation 200, volatility 0.06, tau 0.5, whose first game is a
    /// win over a player rated 1400. Glickman's steps 1–8 for this one game
    /// (the same steps that give his three-game figures 1464.06, 151.52,
    /// 0.05999), with the opponent's deviation the puzzle's 80, give
    /// 1563.195, 176.393, 0.0599987; a loss 1389.593, 176.393, 0.0600008.
    #[test]
    fn one_attempt_moves_the_rating_as_glickman_computes() {
        let before = SolverRating {
            rating: 1500.0,
            deviation: 200.0,
            volatility: 0.06,
        };
        let won = update(before, 1400, true);
        assert!((won.rating - 1563.195).abs() < 0.01, "{won:?}");
        assert!((won.deviation - 176.393).abs() < 0.01, "{won:?}");
        assert!((won.volatility - 0.059_998_7).abs() < 1e-6, "{won:?}");
        let lost = update(before, 1400, false);
        assert!((lost.rating - 1389.593).abs() < 0.01, "{lost:?}");
        assert!((lost.deviation - 176.393).abs() < 0.01, "{lost:?}");
        assert!((lost.volatility - 0.060_000_8).abs() < 1e-6, "{lost:?}");
    }

    #[test]
    fn a_rating_out_of_range_is_refused_by_field() {
        let ok = SolverRating {
            rating: 1500.0,
            deviation: 350.0,
            volatility: 0.06,
        };
        assert!(check_rating(&ok).is_ok());
        for (bad, field) in [
            (
                SolverRating {
                    rating: f64::NAN,
                    ..ok
                },
                "rating.rating",
            ),
            (SolverRating { rating: 4000.5, ..ok }, "rating.rating"),
            (SolverRating { deviation: 0.0, ..ok }, "rating.deviation"),
            (
                SolverRating {
                    deviation: 351.0,
                    ..ok
                },
                "rating.deviation",
            ),
            (
                SolverRating {
                    volatility: f64::INFINITY,
                    ..ok
                },
                "rating.volatility",
            ),
        ] {
            let e = check_rating(&bad).unwrap_err();
            assert!(format!("{e:?}").contains(field), "{e:?}");
        }
    }
}
