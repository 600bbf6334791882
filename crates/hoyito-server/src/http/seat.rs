//! The seat of a request: the token of its `Authorization` header and the
//! seat it holds in a game.

use axum::http::{header, HeaderMap};

use crate::auth::Seat;
use crate::error::ApiError;
use crate::room::live::LiveGame;

/// The token of an `Authorization: Bearer <token>` header, if any (the
/// scheme's case does not matter).
pub(crate) fn bearer(headers: &HeaderMap) -> Option<&str> {
    let v = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = v.trim_start().split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then(|| token.trim())
        .filter(|t| !t.is_empty())
}

/// The seat the request's bearer token holds in `game`.
///
/// # Errors
/// 403 if there is no token or it holds no seat.
pub(crate) fn seat(game: &LiveGame, headers: &HeaderMap) -> Result<Seat, ApiError> {
    match bearer(headers) {
        None => Err(ApiError::forbidden(
            "this needs the seat's token: send Authorization: Bearer <token>",
        )),
        Some(t) => game
            .seat_of(Some(t))
            .ok_or_else(|| ApiError::forbidden("this token holds no seat in this game")),
    }
}
