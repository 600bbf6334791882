//! [`ApiError`]: every failure of the HTTP API, mapped to a status code and
//! a JSON body `{"error": "...", "code": "..."}`; a storage failure's status
//! too. The extractors that answer with it are [`crate::http::extract`].

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Serialize;

/// An API error: an HTTP status, a stable machine-readable code and a
/// human-readable message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{status}: {message}")]
pub struct ApiError {
    /// The HTTP status.
    pub status: StatusCode,
    /// A stable snake-case code, e.g. `illegal_move`.
    pub code: &'static str,
    /// What went wrong, in English.
    pub message: String,
    /// Seconds after which the client may try again, sent as `Retry-After`
    /// (429 and 503 answers).
    pub retry_after: Option<u64>,
}

#[derive(Serialize)]
struct ErrorBody<'a> {
    error: &'a str,
    code: &'a str,
    status: u16,
}

impl ApiError {
    /// An error with a status, a code and a message.
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            code,
            message: message.into(),
            retry_after: None,
        }
    }
    /// This error, telling the client to try again after `seconds`.
    #[must_use]
    pub fn retry_after(mut self, seconds: u64) -> ApiError {
        self.retry_after = Some(seconds);
        self
    }
    /// 429: this client already has such a request in flight.
    pub fn too_many(code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::TOO_MANY_REQUESTS, code, message)
    }
    /// 503: the server is too busy for this request now.
    pub fn unavailable(code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::SERVICE_UNAVAILABLE, code, message)
    }
    /// 404: no game has this id.
    pub fn no_game(id: &str) -> ApiError {
        ApiError::new(
            StatusCode::NOT_FOUND,
            "unknown_game",
            format!("no game with id {id:?}"),
        )
    }
    /// 400: the request is malformed.
    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, "bad_request", message)
    }
    /// 403: the token does not hold the seat.
    pub fn forbidden(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::FORBIDDEN, "forbidden", message)
    }
    /// 409: the request conflicts with the game's state.
    pub fn conflict(code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::CONFLICT, code, message)
    }
    /// 422: the move or the rules are not valid.
    pub fn unprocessable(code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, code, message)
    }
    /// 500: the server failed (storage, a task that panicked). The message
    /// is logged; the client gets a generic one.
    pub fn internal(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", message)
    }
}

/// What a client is told of a server failure; the details go to the log.
const INTERNAL_MESSAGE: &str = "the server failed to handle this request; the failure is in its log";

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let message = if self.status.is_server_error() {
            tracing::error!(code = self.code, status = self.status.as_u16(), error = %self.message, "request failed");
            if self.status == StatusCode::INTERNAL_SERVER_ERROR {
                INTERNAL_MESSAGE
            } else {
                &self.message
            }
        } else {
            &self.message
        };
        let body = ErrorBody {
            error: message,
            code: self.code,
            status: self.status.as_u16(),
        };
        let mut response = (self.status, Json(body)).into_response();
        if let Some(seconds) = self.retry_after {
            response
                .headers_mut()
                .insert(axum::http::header::RETRY_AFTER, seconds.into());
        }
        response
    }
}

impl From<crate::store::StoreError> for ApiError {
    fn from(e: crate::store::StoreError) -> ApiError {
        match e {
            // Another server node changed the game first: nothing was stored.
            crate::store::StoreError::Conflict { .. } => ApiError::conflict(
                "stale",
                "the game changed meanwhile (on another server): reload it",
            ),
            e if is_full(&e) => ApiError::storage_full(format!("storage: {e}")),
            e if is_unreachable(&e) => ApiError::storage_unavailable(format!("storage: {e}")),
            e => ApiError::internal(format!("storage: {e}")),
        }
    }
}

/// Seconds a client is told to wait (`Retry-After`) while the database
/// cannot be reached.
pub const STORAGE_RETRY_AFTER: u64 = 3;

impl ApiError {
    /// 503 `storage_unavailable`, `Retry-After` `STORAGE_RETRY_AFTER`:
    /// the database cannot be reached (or is busy) now; nothing was stored.
    /// `cause` goes to the log; the client is told what to do.
    pub fn storage_unavailable(cause: impl std::fmt::Display) -> ApiError {
        tracing::warn!(error = %cause, "the database cannot be reached");
        ApiError::unavailable(
            "storage_unavailable",
            format!(
                "the database cannot be reached now, and nothing was stored: \
                 try again in {STORAGE_RETRY_AFTER} s"
            ),
        )
        .retry_after(STORAGE_RETRY_AFTER)
    }
}

/// Seconds a client is told to wait (`Retry-After`) while the database's
/// disk is full: freeing space takes an operator.
pub const STORAGE_FULL_RETRY_AFTER: u64 = 30;

impl ApiError {
    /// 503 `storage_full`, `Retry-After` `STORAGE_FULL_RETRY_AFTER`: the
    /// disk holding the database is full; nothing was stored. `cause` goes
    /// to the log.
    pub fn storage_full(cause: impl std::fmt::Display) -> ApiError {
        tracing::error!(error = %cause, "the database's disk is full");
        ApiError::unavailable(
            "storage_full",
            format!(
                "the server's disk is full, and nothing was stored: \
                 try again in {STORAGE_FULL_RETRY_AFTER} s"
            ),
        )
        .retry_after(STORAGE_FULL_RETRY_AFTER)
    }
}

/// Whether a storage failure is a full disk: SQLite's `SQLITE_FULL`,
/// PostgreSQL's `disk_full` (53100), or the health check's free-space test.
fn is_full(e: &crate::store::StoreError) -> bool {
    use crate::store::StoreError;
    match e {
        StoreError::DiskFull { .. } => true,
        StoreError::Sqlite(e) => crate::store::disk::sqlite_full(e),
        StoreError::Postgres(e) => e.code().map(postgres::error::SqlState::code) == Some("53100"),
        _ => false,
    }
}

/// Whether a storage failure means the database cannot be reached or used
/// now (no connection, the connection lost, the server shutting down or
/// starting, out of resources, a statement or lock wait over its time, no
/// answer within the call's time, SQLite's file locked by another writer
/// or failing to be read or written), rather than a fault of the request
/// or of the data.
fn is_unreachable(e: &crate::store::StoreError) -> bool {
    use crate::store::StoreError;
    match e {
        StoreError::Pool(_) | StoreError::TimedOut(_) => true,
        StoreError::Postgres(e) => {
            let lost =
                e.is_closed() || std::error::Error::source(e).is_some_and(|s| s.is::<std::io::Error>());
            // Class 08: connection exceptions; 53: insufficient resources
            // (too many connections, out of memory); 57014: a statement over
            // `statement_timeout`; 55P03: a lock over `lock_timeout`;
            // 57P01–57P03: the server is shutting down, crashed, or cannot
            // take connections yet.
            let state = e.code().map(postgres::error::SqlState::code);
            lost || state.is_some_and(|c| {
                c.starts_with("08")
                    || c.starts_with("53")
                    || ["57014", "55P03", "57P01", "57P02", "57P03"].contains(&c)
            })
        }
        StoreError::Sqlite(e) => {
            matches!(
                e.sqlite_error_code(),
                Some(rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked)
            ) || crate::store::disk::sqlite_io(e)
        }
        StoreError::Corrupt(_) | StoreError::Conflict { .. } | StoreError::DiskFull { .. } => false,
    }
}

impl From<hoyito_room::RoomError> for ApiError {
    fn from(e: hoyito_room::RoomError) -> ApiError {
        let code = e.code();
        if e.is_conflict() {
            ApiError::conflict(code, e.to_string())
        } else {
            ApiError::unprocessable(code, e.to_string())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::StoreError;

    #[test]
    fn an_unreachable_or_full_database_is_503_with_retry_after_and_other_failures_500() {
        let busy =
            rusqlite::Error::SqliteFailure(rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_BUSY), None);
        for e in [
            StoreError::Pool("timed out waiting for connection".into()),
            StoreError::Sqlite(busy),
        ] {
            let api = ApiError::from(e);
            assert_eq!(
                (api.status, api.code),
                (StatusCode::SERVICE_UNAVAILABLE, "storage_unavailable")
            );
            assert_eq!(api.retry_after, Some(STORAGE_RETRY_AFTER));
            let response = api.into_response();
            assert_eq!(response.headers()[axum::http::header::RETRY_AFTER], "3");
        }
        let sqlite = |code: i32| {
            StoreError::Sqlite(rusqlite::Error::SqliteFailure(
                rusqlite::ffi::Error::new(code),
                None,
            ))
        };
        for e in [
            sqlite(rusqlite::ffi::SQLITE_FULL),
            StoreError::DiskFull {
                path: "/var/lib/hoyito/hoyito.db".into(),
                free: 0,
            },
        ] {
            let api = ApiError::from(e);
            assert_eq!(
                (api.status, api.code, api.retry_after),
                (
                    StatusCode::SERVICE_UNAVAILABLE,
                    "storage_full",
                    Some(STORAGE_FULL_RETRY_AFTER)
                )
            );
            assert!(api.message.contains("disk is full"), "{}", api.message);
        }
        for e in [
            sqlite(rusqlite::ffi::SQLITE_IOERR_WRITE),
            sqlite(rusqlite::ffi::SQLITE_IOERR_FSYNC),
            sqlite(rusqlite::ffi::SQLITE_IOERR_SHMSIZE),
            sqlite(rusqlite::ffi::SQLITE_READONLY),
            StoreError::TimedOut(std::time::Duration::from_secs(5)),
        ] {
            let api = ApiError::from(e);
            assert_eq!(
                (api.status, api.code, api.retry_after),
                (
                    StatusCode::SERVICE_UNAVAILABLE,
                    "storage_unavailable",
                    Some(STORAGE_RETRY_AFTER)
                )
            );
        }
        let constraint = rusqlite::Error::SqliteFailure(
            rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_CONSTRAINT),
            Some("UNIQUE constraint failed".into()),
        );
        for e in [
            StoreError::Sqlite(constraint),
            StoreError::Corrupt("rules".into()),
        ] {
            let api = ApiError::from(e);
            assert_eq!(
                (api.status, api.code),
                (StatusCode::INTERNAL_SERVER_ERROR, "internal")
            );
            assert_eq!(api.retry_after, None);
        }
    }
}
