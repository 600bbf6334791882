//! ServerLimits on a request's head: the URL's length and the headers' number
//! and size (documented in `docs/API.md`).
//!
//! Two levels. The router refuses a head over [`MAX_URI`],
//! [`MAX_HEADERS`] or [`MAX_HEADER_BYTES`] with the API's JSON errors
//! (414 `uri_too_long`, 431 `headers_too_large`), through `enforce`.
//! Below the router, the HTTP parser holds at most `HARD_MAX_HEAD` bytes
//! and `HARD_MAX_HEADERS` headers of a head, which bounds a connection's
//! memory; a head beyond those never reaches the router: the parser
//! answers it 431 (414 for a URL over 64 KiB) and closes the connection,
//! with the same JSON errors (`crate::http::parser_reply`).

use axum::extract::Request;
use axum::http::{HeaderMap, StatusCode, Uri};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::error::ApiError;

/// The longest request target (path and query) the server reads.
pub const MAX_URI: usize = 8 * 1024;
/// The most headers a request may have.
pub const MAX_HEADERS: usize = 64;
/// The most bytes of headers (names and values) a request may have.
pub const MAX_HEADER_BYTES: usize = 16 * 1024;

/// The most bytes of a request head the parser buffers (also the size of
/// the connection's read buffer).
pub(crate) const HARD_MAX_HEAD: usize = 64 * 1024;
/// The most headers the parser reads.
pub(crate) const HARD_MAX_HEADERS: usize = 2 * MAX_HEADERS;

/// The middleware refusing a request whose head is over the limits.
pub(crate) async fn enforce(req: Request, next: Next) -> Response {
    match check(req.uri(), req.headers()) {
        Ok(()) => next.run(req).await,
        Err(e) => e.into_response(),
    }
}

/// Checks a request's target and headers against the limits.
///
/// # Errors
/// 414 `uri_too_long` or 431 `headers_too_large`, saying which limit.
pub(crate) fn check(uri: &Uri, headers: &HeaderMap) -> Result<(), ApiError> {
    let target = uri.scheme_str().map_or(0, str::len)
        + uri.authority().map_or(0, |a| a.as_str().len())
        + uri.path_and_query().map_or(0, |p| p.as_str().len());
    if target > MAX_URI {
        return Err(ApiError::new(
            StatusCode::URI_TOO_LONG,
            "uri_too_long",
            format!("the URL is {target} bytes long: at most {MAX_URI}"),
        ));
    }
    if headers.len() > MAX_HEADERS {
        return Err(ApiError::new(
            StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            "headers_too_large",
            format!("the request has {} headers: at most {MAX_HEADERS}", headers.len()),
        ));
    }
    // As sent: `name: value` and a line break each.
    let bytes: usize = headers
        .iter()
        .map(|(name, value)| name.as_str().len() + value.len() + 4)
        .sum();
    if bytes > MAX_HEADER_BYTES {
        return Err(ApiError::new(
            StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            "headers_too_large",
            format!("the request's headers are {bytes} bytes: at most {MAX_HEADER_BYTES}"),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    #[test]
    fn limits_are_inclusive_and_say_which_was_passed() {
        let at = |n: usize| {
            format!("/api/health?x={}", "a".repeat(n - 14))
                .parse::<Uri>()
                .unwrap()
        };
        assert!(check(&at(MAX_URI), &HeaderMap::new()).is_ok());
        let e = check(&at(MAX_URI + 1), &HeaderMap::new()).unwrap_err();
        assert_eq!((e.status, e.code), (StatusCode::URI_TOO_LONG, "uri_too_long"));

        let uri: Uri = "/".parse().unwrap();
        let mut many = HeaderMap::new();
        for i in 0..MAX_HEADERS {
            many.append(
                format!("x-h{i}").parse::<axum::http::HeaderName>().unwrap(),
                HeaderValue::from_static("v"),
            );
        }
        assert!(check(&uri, &many).is_ok());
        many.append("x-last", HeaderValue::from_static("v"));
        let e = check(&uri, &many).unwrap_err();
        assert_eq!(e.code, "headers_too_large");
        assert!(e.message.contains("headers: at most"), "{}", e.message);

        let mut big = HeaderMap::new();
        let value = "v".repeat(MAX_HEADER_BYTES - "x-big".len() - 4);
        big.insert("x-big", HeaderValue::from_str(&value).unwrap());
        assert!(check(&uri, &big).is_ok());
        big.insert("x-big", HeaderValue::from_str(&format!("{value}v")).unwrap());
        let e = check(&uri, &big).unwrap_err();
        assert_eq!(e.status, StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE);
        assert!(e.message.contains("bytes: at most"), "{}", e.message);
    }
}
