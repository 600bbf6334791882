//! Passkeys (WebAuthn, with `webauthn-rs`): the relying party a request's
//! ceremony is for, and what the server keeps of a passkey.
//!
//! - **The relying party** is the site the page was served from: its
//!   origin is `--public-origin` where given (a site behind a proxy), else
//!   the request's `Origin`, which must be the server's own (its host is
//!   the request's `Host`), else (a request from no browser page)
//!   `http://` or, with `--behind-tls`, `https://` and the `Host`. The RP
//!   id is that origin's host, which must be a domain name: WebAuthn has
//!   no passkeys for an IP address (`http://localhost:PORT` works on the
//!   machine itself, `http://127.0.0.1:PORT` does not). A browser binds
//!   each passkey to the RP id, so a page of another site can never use
//!   it, and the server checks the origin and the RP id the authenticator
//!   signed.
//! - **A ceremony** (a registration or a sign-in) has two requests: the
//!   first answers a random challenge and a ceremony id; the second brings
//!   the authenticator's signed answer with that id. Between the two the
//!   state is in the database ([`crate::store::passkeys`]), so the second
//!   may reach another node; it lasts
//!   [`crate::ServerLimits::passkey_timeout`] and is used once.
//! - **A passkey** is kept as its public key, credential id, signature
//!   counter and backup flags; the private key never leaves the
//!   authenticator. Every passkey requires user verification (a PIN or a
//!   biometric on the device).

use std::time::Duration;

use axum::http::{header, HeaderMap, StatusCode};
use sha2::{Digest, Sha256};
use webauthn_rs::prelude::{Url, Uuid, Webauthn, WebauthnBuilder};

use crate::error::ApiError;
use crate::limits::ServerLimits;

/// The relying party's name, which an authenticator may show.
pub const RP_NAME: &str = "Hoyito";

/// How long a ceremony lasts by default (WebAuthn's recommended timeout).
pub const CEREMONY_TIMEOUT: Duration = Duration::from_secs(300);

/// `origin` as an origin: `http` or `https`, a domain name (not an IP
/// address) and the port if not the scheme's default, without a path.
fn parse(origin: &str) -> Result<Url, String> {
    let url = Url::parse(origin.trim()).map_err(|e| format!("{origin:?} is no origin: {e}"))?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(format!("{origin:?} is no origin: http:// or https:// expected"));
    }
    if url.path() != "/" || url.query().is_some() || url.fragment().is_some() || !url.username().is_empty() {
        return Err(format!(
            "{origin:?} is no origin: give the scheme, the host and the port only (https://example.org)"
        ));
    }
    Ok(url)
}

/// Checks a `--public-origin` (`https://example.org`): the origin as the
/// browser writes it.
///
/// # Errors
/// What is wrong with it.
pub fn parse_public_origin(origin: &str) -> Result<String, String> {
    let url = parse(origin)?;
    if url.domain().is_none() {
        return Err(format!(
            "{origin:?} has an IP address: passkeys need a domain name (localhost on this machine)"
        ));
    }
    Ok(url.origin().ascii_serialization())
}

/// 403 `wrong_origin`: a page of another origin than the relying party's.
fn wrong_origin(from: &str, expected: Option<&str>) -> ApiError {
    let expected = expected.map(|e| format!(" ({e})")).unwrap_or_default();
    ApiError::new(
        StatusCode::FORBIDDEN,
        "wrong_origin",
        format!("passkeys work on this site's own pages{expected} only, and this request comes from a page of {from:?}"),
    )
}

/// The origin of the relying party the request's ceremony is for
/// (see the module's documentation).
///
/// # Errors
/// 403 `wrong_origin` for a page of another origin; 422
/// `passkeys_unavailable` if the site is reached by an IP address.
pub(crate) fn relying_party(headers: &HeaderMap, limits: &ServerLimits) -> Result<String, ApiError> {
    let page = crate::http::origin::of(headers);
    let origin = match (&limits.public_origin, page) {
        (Some(public), Some(page)) => {
            let same = parse(page).is_ok_and(|u| u.origin().ascii_serialization() == *public);
            if !same {
                return Err(wrong_origin(page, Some(public)));
            }
            public.clone()
        }
        (Some(public), None) => public.clone(),
        (None, Some(page)) => {
            if !crate::http::origin::own(headers, page) {
                return Err(wrong_origin(page, None));
            }
            page.to_string()
        }
        (None, None) => {
            let host = headers
                .get(header::HOST)
                .and_then(|h| h.to_str().ok())
                .unwrap_or("")
                .trim();
            let scheme = if limits.secure_cookies { "https" } else { "http" };
            format!("{scheme}://{host}")
        }
    };
    let url = parse(&origin).map_err(|e| ApiError::bad_request(format!("the page's origin: {e}")))?;
    if url.domain().is_none() {
        return Err(ApiError::unprocessable(
            "passkeys_unavailable",
            format!(
                "passkeys need the site reached by a domain name, and {origin} is an IP address: \
                 open the site by its name (http://localhost:PORT on this machine), or start the \
                 server with --public-origin"
            ),
        ));
    }
    Ok(url.origin().ascii_serialization())
}

/// The WebAuthn relying party of `origin` (from [`relying_party`], kept
/// with a ceremony): its RP id is the origin's host.
///
/// # Errors
/// 500 if `origin` cannot be a relying party (not from [`relying_party`]).
pub(crate) fn webauthn(origin: &str, timeout: Duration) -> Result<Webauthn, ApiError> {
    let url = parse(origin).map_err(ApiError::internal)?;
    let id = url
        .domain()
        .ok_or_else(|| ApiError::internal(format!("{origin} has no domain")))?
        .to_string();
    WebauthnBuilder::new(&id, &url)
        .and_then(|b| b.rp_name(RP_NAME).timeout(timeout).build())
        .map_err(|e| ApiError::internal(format!("the relying party {origin}: {e}")))
}

/// The WebAuthn user handle of an account: derived from its id (random,
/// no personal data), the same for each of its passkeys, so that an
/// authenticator keeps one passkey per account of this site.
pub(crate) fn user_handle(account_id: &str) -> Uuid {
    let digest = Sha256::digest(format!("hoyito passkey user\0{account_id}").as_bytes());
    let mut bytes = [0u8; 16];
    bytes.copy_from_slice(&digest[..16]);
    Uuid::from_bytes(bytes)
}

/// `bytes` in base64url without padding (how WebAuthn writes credential ids).
pub(crate) fn base64url(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, b)| n | (u32::from(*b) << (16 - 8 * i)));
        for i in 0..=chunk.len() {
            out.push(ALPHABET[(n >> (18 - 6 * i)) as usize & 63] as char);
        }
    }
    out
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
    fn base64url_is_unpadded_and_url_safe() {
        assert_eq!(base64url(b""), "");
        assert_eq!(base64url(b"f"), "Zg");
        assert_eq!(base64url(b"fo"), "Zm8");
        assert_eq!(base64url(b"foo"), "Zm9v");
        assert_eq!(base64url(b"foob"), "Zm9vYg");
        assert_eq!(base64url(&[0xfb, 0xff, 0xbf]), "-_-_");
    }

    #[test]
    fn the_relying_party_is_the_page_s_own_origin() {
        let limits = ServerLimits::default();
        let page = [("host", "localhost:8080"), ("origin", "http://localhost:8080")];
        assert_eq!(
            relying_party(&headers(&page), &limits).unwrap(),
            "http://localhost:8080"
        );
        // No Origin (not a browser page): the Host, over https behind TLS.
        let mut tls = limits.clone();
        tls.secure_cookies = true;
        assert_eq!(
            relying_party(&headers(&[("host", "hoyito.example")]), &tls).unwrap(),
            "https://hoyito.example"
        );
        // Another site's page, and an IP address.
        let other = [("host", "hoyito.example"), ("origin", "https://friends.example")];
        assert_eq!(
            relying_party(&headers(&other), &limits).unwrap_err().code,
            "wrong_origin"
        );
        let ip = [("host", "127.0.0.1:8080"), ("origin", "http://127.0.0.1:8080")];
        assert_eq!(
            relying_party(&headers(&ip), &limits).unwrap_err().code,
            "passkeys_unavailable"
        );
        // Behind a proxy: the public origin, whatever the Host.
        let mut proxied = limits.clone();
        proxied.public_origin = Some(parse_public_origin("https://Hoyito.example/").unwrap());
        let behind = [("host", "127.0.0.1:8081"), ("origin", "https://hoyito.example")];
        assert_eq!(
            relying_party(&headers(&behind), &proxied).unwrap(),
            "https://hoyito.example"
        );
        let elsewhere = [("host", "127.0.0.1:8081"), ("origin", "https://other.example")];
        assert_eq!(
            relying_party(&headers(&elsewhere), &proxied).unwrap_err().code,
            "wrong_origin"
        );
    }

    #[test]
    fn a_public_origin_is_a_named_http_origin() {
        assert_eq!(
            parse_public_origin("https://example.org").as_deref(),
            Ok("https://example.org")
        );
        assert_eq!(
            parse_public_origin("https://example.org:443/").as_deref(),
            Ok("https://example.org")
        );
        assert_eq!(
            parse_public_origin("http://localhost:8080").as_deref(),
            Ok("http://localhost:8080")
        );
        for bad in [
            "example.org",
            "ftp://example.org",
            "https://example.org/play",
            "https://192.0.2.1",
            "https://[::1]:8080",
        ] {
            assert!(parse_public_origin(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_user_handle_is_stable_per_account() {
        assert_eq!(user_handle("abc"), user_handle("abc"));
        assert_ne!(user_handle("abc"), user_handle("abd"));
        assert!(webauthn("http://localhost:8080", CEREMONY_TIMEOUT).is_ok());
    }
}
