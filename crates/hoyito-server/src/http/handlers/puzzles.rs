//! `GET /api/puzzles/{id}`, `GET /api/puzzles/next` and
//! `GET /api/puzzles/daily`: the shipped
//! puzzles certified by the tablebases (`crate::puzzles`).

use axum::http::StatusCode;
use axum::Json;
use hoyito_core::Variant;
use hoyito_puzzle::PuzzleRecord;

use crate::error::ApiError;
use crate::http::extract::{ApiPath, ApiQuery};
use crate::http::wire::{DailyPuzzle, DailyQuery, PuzzleQuery};
use crate::puzzles::{date_of_day, day_of_date, Filter, PuzzleSet};

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
