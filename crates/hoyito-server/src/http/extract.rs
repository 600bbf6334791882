//! Extractors whose rejections are [`ApiError`]s: JSON bodies ([`ApiJson`],
//! [`ApiJsonOpt`], read within [`BodyTimeout`] and with every key once),
//! path segments ([`ApiPath`]) and queries ([`ApiQuery`]).

use axum::extract::rejection::JsonRejection;
use axum::http::StatusCode;
use axum::Json;

use crate::error::ApiError;
use crate::http::unique_keys::UniqueKeys;

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

/// How long [`ApiJson`] waits for a request body: a request extension set by
/// the router from [`crate::ServerLimits::body_read_timeout`].
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
/// and 422 for anything but an object of the documented fields and types,
/// each given once: a key repeated in any object of the body is refused).
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
        // Read as a value first, refusing duplicated keys, then as `T`.
        let value = match tokio::time::timeout(timeout, Json::<UniqueKeys>::from_request(req, state)).await {
            Ok(json) => json?.0 .0,
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
