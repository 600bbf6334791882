//! [`ApiError`]: every failure of the HTTP API, mapped to a status code and
//! a JSON body `{"error": "...", "code": "..."}`.

use axum::extract::rejection::JsonRejection;
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

impl From<JsonRejection> for ApiError {
    fn from(rej: JsonRejection) -> ApiError {
        let status = rej.status();
        let code = match status {
            StatusCode::PAYLOAD_TOO_LARGE => "body_too_large",
            StatusCode::UNSUPPORTED_MEDIA_TYPE => "unsupported_media_type",
            StatusCode::UNPROCESSABLE_ENTITY => "invalid_fields",
            _ => "malformed_json",
        };
        ApiError::new(status, code, rej.body_text())
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
            e => ApiError::internal(format!("storage: {e}")),
        }
    }
}

/// How long [`ApiJson`] waits for a request body: a request extension set by
/// the router from [`crate::Limits::body_read_timeout`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BodyTimeout(pub std::time::Duration);

impl BodyTimeout {
    /// The wait when no extension is set.
    pub const DEFAULT: std::time::Duration = std::time::Duration::from_secs(10);

    /// The wait for `req`'s body.
    fn of(req: &axum::extract::Request) -> std::time::Duration {
        req.extensions()
            .get::<BodyTimeout>()
            .map_or(BodyTimeout::DEFAULT, |t| t.0)
    }

    /// 408 `body_timeout`: the body did not arrive within `timeout`.
    fn exceeded(timeout: std::time::Duration) -> ApiError {
        ApiError::new(
            StatusCode::REQUEST_TIMEOUT,
            "body_timeout",
            format!("the request body did not arrive within {timeout:?}"),
        )
    }
}

/// A JSON body extractor whose rejections are [`ApiError`]s (JSON bodies
/// with the right status: 400 malformed, 408 too slow, 413 too large, 415,
/// and 422 for anything but an object of the documented fields and types).
#[derive(Debug, Clone, Copy, Default)]
pub struct ApiJson<T>(pub T);

impl<T, S> axum::extract::FromRequest<S> for ApiJson<T>
where
    T: serde::de::DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(req: axum::extract::Request, state: &S) -> Result<Self, Self::Rejection> {
        let timeout = BodyTimeout::of(&req);
        let value =
            match tokio::time::timeout(timeout, Json::<serde_json::Value>::from_request(req, state)).await {
                Ok(json) => json?.0,
                Err(_) => return Err(BodyTimeout::exceeded(timeout)),
            };
        if !value.is_object() {
            return Err(ApiError::unprocessable(
                "invalid_fields",
                "the body must be a JSON object",
            ));
        }
        serde_json::from_value(value)
            .map(ApiJson)
            .map_err(|e| ApiError::unprocessable("invalid_fields", e.to_string()))
    }
}

/// An optional JSON body: `None` for an empty body (sent with or without
/// a content type), otherwise read as [`ApiJson`] reads it, with the same
/// rejections.
#[derive(Debug, Clone, Copy, Default)]
pub struct ApiJsonOpt<T>(pub Option<T>);

impl<T, S> axum::extract::FromRequest<S> for ApiJsonOpt<T>
where
    T: serde::de::DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(req: axum::extract::Request, state: &S) -> Result<Self, Self::Rejection> {
        let timeout = BodyTimeout::of(&req);
        let (parts, body) = req.into_parts();
        let read = axum::extract::Request::from_parts(parts.clone(), body);
        let bytes = match tokio::time::timeout(timeout, axum::body::Bytes::from_request(read, state)).await {
            Ok(Ok(bytes)) => bytes,
            Ok(Err(rej)) => {
                let status = rej.status();
                let code = if status == StatusCode::PAYLOAD_TOO_LARGE {
                    "body_too_large"
                } else {
                    "bad_request"
                };
                return Err(ApiError::new(status, code, rej.body_text()));
            }
            Err(_) => return Err(BodyTimeout::exceeded(timeout)),
        };
        if bytes.is_empty() {
            return Ok(ApiJsonOpt(None));
        }
        let req = axum::extract::Request::from_parts(parts, axum::body::Body::from(bytes));
        let ApiJson(value) = ApiJson::<T>::from_request(req, state).await?;
        Ok(ApiJsonOpt(Some(value)))
    }
}

/// A path extractor whose rejections are [`ApiError`]s: 400 `bad_request`
/// (e.g. a segment that is not UTF-8).
#[derive(Debug, Clone, Default)]
pub struct ApiPath<T>(pub T);

impl<T, S> axum::extract::FromRequestParts<S> for ApiPath<T>
where
    T: serde::de::DeserializeOwned + Send,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        state: &S,
    ) -> Result<Self, Self::Rejection> {
        match axum::extract::Path::<T>::from_request_parts(parts, state).await {
            Ok(axum::extract::Path(v)) => Ok(ApiPath(v)),
            Err(e) => Err(ApiError::bad_request(e.body_text())),
        }
    }
}

/// A query-string extractor whose rejections are [`ApiError`]s: 400 `bad_request`.
#[derive(Debug, Clone, Default)]
pub struct ApiQuery<T>(pub T);

impl<T, S> axum::extract::FromRequestParts<S> for ApiQuery<T>
where
    T: serde::de::DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        state: &S,
    ) -> Result<Self, Self::Rejection> {
        match axum::extract::Query::<T>::from_request_parts(parts, state).await {
            Ok(axum::extract::Query(v)) => Ok(ApiQuery(v)),
            Err(e) => Err(ApiError::bad_request(e.body_text())),
        }
    }
}
