//! The session of a request: its cookie ([`COOKIE`]), the account it signs
//! in ([`signed_in`]), and the check that keeps other sites from making
//! writes a cookie authorises ([`same_origin`]).
//!
//! The cookie holds a 256-bit random token; the store keeps its SHA-256
//! hash only. It is `HttpOnly` (no script reads it), `SameSite=Strict`
//! (a browser sends it on requests from the server's own pages only),
//! `Path=/`, and `Secure` when [`crate::ServerLimits::secure_cookies`] is
//! set. Every write that a session authorises also checks that the
//! request comes from the server's own pages ([`same_origin`]), which
//! covers browsers that ignore `SameSite` and sibling sites of one domain.

use axum::http::{header, HeaderMap, HeaderValue, StatusCode};

use crate::auth::hash_secret;
use crate::error::ApiError;
use crate::limits::ServerLimits;
use crate::state::AppState;
use crate::store::Account;

/// The session cookie's name.
pub const COOKIE: &str = "hoyito_session";

/// The session token of the request's cookie, if any (a token is 64 hex
/// digits; anything else is no token).
pub(crate) fn token(headers: &HeaderMap) -> Option<&str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, _)| *name == COOKIE)
        .map(|(_, value)| value.trim())
        .filter(|t| t.len() == 64 && t.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// The `Set-Cookie` value that gives the browser session `token`.
pub(crate) fn set_cookie(token: &str, limits: &ServerLimits) -> HeaderValue {
    let secure = if limits.secure_cookies { "; Secure" } else { "" };
    let value = format!(
        "{COOKIE}={token}; Path=/; HttpOnly; SameSite=Strict; Max-Age={}{secure}",
        limits.session_lifetime.as_secs()
    );
    HeaderValue::from_str(&value).expect("a hex token makes a valid header")
}

/// The `Set-Cookie` value that removes the session cookie.
pub(crate) fn clear_cookie(limits: &ServerLimits) -> HeaderValue {
    let secure = if limits.secure_cookies { "; Secure" } else { "" };
    HeaderValue::from_str(&format!(
        "{COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0{secure}"
    ))
    .expect("a valid header")
}

/// 403 `cross_site` unless the request comes from the server's own pages
/// or a page of an origin in `allowed` (`--allowed-origin`):
/// `Sec-Fetch-Site`, where the browser sends it, is `same-origin` or `none`
/// (typed by the user), and `Origin`, where sent, is the server's own (its
/// host is the request's `Host`) or listed. A request with neither header
/// does not come from a browser's page and is served.
///
/// # Errors
/// 403 `cross_site`.
pub(crate) fn same_origin(headers: &HeaderMap, allowed: &[String]) -> Result<(), ApiError> {
    let origin = super::origin::of(headers);
    let listed = origin.is_some_and(|o| super::origin::listed(o, allowed));
    let refused = |from: &str| {
        ApiError::new(
            StatusCode::FORBIDDEN,
            "cross_site",
            format!(
                "this request needs your session and comes from {from}: only this site's pages may make it"
            ),
        )
    };
    if let Some(site) = headers.get("sec-fetch-site") {
        let site = site.to_str().unwrap_or("");
        if !matches!(site, "same-origin" | "none") && !listed {
            return Err(refused(&format!("another site (Sec-Fetch-Site: {site})")));
        }
    }
    if let Some(origin) = origin {
        let same = super::origin::own(headers, origin);
        if !same && !listed {
            return Err(refused(&format!("a page of {origin:?}")));
        }
    }
    Ok(())
}

/// The account the request's session signs in, if any (an unknown or
/// expired session is none).
///
/// # Errors
/// If the store fails.
pub(crate) async fn signed_in(st: &AppState, headers: &HeaderMap) -> Result<Option<Account>, ApiError> {
    let Some(token) = token(headers) else {
        return Ok(None);
    };
    let hash = hash_secret(token);
    let now = crate::store::now();
    st.db(move |s| s.accounts().session_account(&hash, now)).await
}

/// The account of a request that needs one.
///
/// # Errors
/// 401 `signed_out` if the request has no valid session; if the store fails.
pub(crate) async fn require(st: &AppState, headers: &HeaderMap) -> Result<Account, ApiError> {
    signed_in(st, headers).await?.ok_or_else(|| {
        ApiError::new(
            StatusCode::UNAUTHORIZED,
            "signed_out",
            "this needs you signed in: sign in first (POST /api/session)",
        )
    })
}

/// The account of a write a session may authorise (creating or joining a
/// game): none without a session cookie; with one, the request must come
/// from the server's own pages ([`same_origin`]).
///
/// # Errors
/// 403 `cross_site`; if the store fails.
pub(crate) async fn for_write(st: &AppState, headers: &HeaderMap) -> Result<Option<Account>, ApiError> {
    if token(headers).is_none() {
        return Ok(None);
    }
    same_origin(headers, &st.limits.allowed_origins)?;
    signed_in(st, headers).await
}

/// Links `seat` of game `game`, just taken, to `account`. A failure is
/// logged, not answered: the seat is taken and its token is the device's;
/// only the account's list of games misses it.
pub(crate) async fn link_seat(st: &AppState, game: &str, seat: &'static str, account: &Account) {
    let (g, a) = (game.to_string(), account.id.clone());
    if let Err(e) = st.db(move |s| s.accounts().link_seat(&g, seat, &a)).await {
        tracing::warn!(game, seat, error = %e.message, "the seat was taken but not linked to its account");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.append(
                axum::http::HeaderName::from_bytes(k.as_bytes()).unwrap(),
                v.parse().unwrap(),
            );
        }
        h
    }

    #[test]
    fn the_token_is_read_from_the_session_cookie_only() {
        let t = "a".repeat(64);
        let h = headers(&[("cookie", &format!("x=1; {COOKIE}={t}; y=2"))]);
        assert_eq!(token(&h), Some(t.as_str()));
        assert_eq!(token(&headers(&[("cookie", "other=1")])), None);
        assert_eq!(token(&headers(&[("cookie", &format!("{COOKIE}=short"))])), None);
    }

    #[test]
    fn writes_from_other_sites_are_refused() {
        let host = ("host", "hoyito.example");
        for ok in [
            vec![host],
            vec![
                host,
                ("origin", "https://hoyito.example"),
                ("sec-fetch-site", "same-origin"),
            ],
            vec![host, ("sec-fetch-site", "none")],
        ] {
            assert!(same_origin(&headers(&ok), &[]).is_ok(), "{ok:?}");
        }
        for bad in [
            vec![host, ("origin", "https://evil.example")],
            vec![host, ("sec-fetch-site", "cross-site")],
            vec![
                host,
                ("sec-fetch-site", "same-site"),
                ("origin", "https://a.hoyito.example"),
            ],
            vec![host, ("origin", "null")],
        ] {
            let e = same_origin(&headers(&bad), &[]).unwrap_err();
            assert_eq!(
                (e.status, e.code),
                (StatusCode::FORBIDDEN, "cross_site"),
                "{bad:?}"
            );
        }
        let listed = ["https://friends.example".to_string()];
        let h = headers(&[
            host,
            ("origin", "https://friends.example"),
            ("sec-fetch-site", "cross-site"),
        ]);
        assert!(same_origin(&h, &listed).is_ok());
    }

    #[test]
    fn the_cookie_is_http_only_strict_and_secure_when_told() {
        let mut limits = ServerLimits::default();
        let c = set_cookie(&"b".repeat(64), &limits);
        let c = c.to_str().unwrap();
        assert!(c.contains("HttpOnly") && c.contains("SameSite=Strict") && c.contains("Path=/"));
        assert!(!c.contains("Secure"));
        limits.secure_cookies = true;
        assert!(set_cookie("c", &limits).to_str().unwrap().ends_with("; Secure"));
        assert!(clear_cookie(&limits).to_str().unwrap().contains("Max-Age=0"));
    }
}
