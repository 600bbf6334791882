//! Who may do what: seat tokens from the `Authorization` header, and the
//! random game ids, seat tokens and invite secrets.

use axum::http::{header, HeaderMap};
use hoyito_core::Side;

use crate::error::ApiError;
use crate::live::LiveGame;

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

/// What the database keeps of a seat token or an invite secret: its
/// SHA-256, in hex. The secrets are 128-bit random, so no salt is needed.
pub fn hash_secret(secret: &str) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(secret.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Whether `secret` hashes to `stored`, compared in constant time.
pub fn secret_matches(secret: &str, stored: &str) -> bool {
    use subtle::ConstantTimeEq;
    hash_secret(secret).as_bytes().ct_eq(stored.as_bytes()).into()
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

/// A random id of `len` characters, without look-alike letters.
pub(crate) fn random_id(len: usize) -> String {
    use rand::Rng;
    const ALPHABET: &[u8] = b"ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";
    let mut rng = rand::rng();
    (0..len)
        .map(|_| ALPHABET[rng.random_range(0..ALPHABET.len())] as char)
        .collect()
}

/// A random 128-bit secret, in hex: a seat token or an invite secret.
pub(crate) fn random_token() -> String {
    let bytes: [u8; 16] = rand::random();
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Who a token lets move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Seat {
    /// One side.
    One(Side),
    /// Both sides (hot-seat).
    Both,
}

impl Seat {
    /// Whether this seat may move for `side`.
    pub fn holds(self, side: Side) -> bool {
        match self {
            Seat::Both => true,
            Seat::One(s) => s == side,
        }
    }
    /// `south`, `north` or `both`.
    pub fn name(self) -> &'static str {
        match self {
            Seat::Both => "both",
            Seat::One(s) => s.name(),
        }
    }
}

impl LiveGame {
    /// The seat a token holds, if any (the game keeps the tokens' hashes).
    pub fn seat_of(&self, token: Option<&str>) -> Option<Seat> {
        let token = token?;
        let t = &self.meta.tokens;
        let south = t.south.as_deref().is_some_and(|h| secret_matches(token, h));
        let north = t.north.as_deref().is_some_and(|h| secret_matches(token, h));
        match (south, north) {
            (true, true) => Some(Seat::Both),
            (true, false) => Some(Seat::One(Side::South)),
            (false, true) => Some(Seat::One(Side::North)),
            (false, false) => None,
        }
    }
}
