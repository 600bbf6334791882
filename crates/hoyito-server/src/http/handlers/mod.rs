//! The HTTP handlers, by concern.

pub(crate) mod account;
pub(crate) mod analysis;
pub(crate) mod chat;
pub(crate) mod claim;
pub(crate) mod games;
pub(crate) mod lobby;
pub(crate) mod offer;
pub(crate) mod passkeys;
pub(crate) mod play;
pub(crate) mod players;
pub(crate) mod puzzles;
pub(crate) mod rematch;
pub(crate) mod tablebase;
pub(crate) mod tables;
#[cfg(test)]
mod tests;

use axum::http::StatusCode;

use crate::error::ApiError;

/// The `limit` query parameter of a listing: `default` when absent, else a
/// number from 1 to `max`.
///
/// # Errors
/// 400 `bad_request` naming the range, for 0 or a number over `max`.
pub(crate) fn page_limit(limit: Option<u32>, default: u32, max: u32) -> Result<u32, ApiError> {
    match limit.unwrap_or(default) {
        n @ 1.. if n <= max => Ok(n),
        n => Err(ApiError::bad_request(format!(
            "limit {n} is out of range: it must be 1 to {max}"
        ))),
    }
}

/// 404 `not_found` for a path that is no API endpoint.
pub(crate) async fn api_not_found() -> ApiError {
    ApiError::new(StatusCode::NOT_FOUND, "not_found", "no such API endpoint")
}

/// 405 `method_not_allowed` for a method a path does not take.
pub(crate) async fn method_not_allowed() -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "method_not_allowed",
        "this path does not take this method",
    )
}
