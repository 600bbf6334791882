//! Whose page a request comes from: its `Origin` against the server's own
//! (the request's `Host`) and the operator's list (`--allowed-origin`).
//! The WebSocket upgrade and the writes a session authorises both ask.

use axum::http::{header, HeaderMap};

/// The request's `Origin`, if it sent one (browsers send it with every
/// WebSocket upgrade and cross-site write).
pub(crate) fn of(headers: &HeaderMap) -> Option<&str> {
    headers
        .get(header::ORIGIN)
        .map(|o| o.to_str().unwrap_or("").trim())
}

/// Whether `origin` is one of `allowed` (a trailing `/` and case aside).
pub(crate) fn listed(origin: &str, allowed: &[String]) -> bool {
    allowed
        .iter()
        .any(|a| a.trim_end_matches('/').eq_ignore_ascii_case(origin))
}

/// Whether `origin` is the server's own: its host is the request's `Host`.
pub(crate) fn own(headers: &HeaderMap, origin: &str) -> bool {
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("")
        .trim();
    let authority = origin
        .strip_prefix("http://")
        .or_else(|| origin.strip_prefix("https://"))
        .unwrap_or("");
    !host.is_empty() && authority.eq_ignore_ascii_case(host)
}
