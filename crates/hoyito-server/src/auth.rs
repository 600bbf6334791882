//! Who may do what: [`Seat`], and the random game ids, seat tokens and
//! invite secrets with the hashes the database keeps of them. The seat a
//! token holds in a game is [`crate::live::LiveGame::seat_of`]; the token
//! of a request is read in `http/seat.rs`.

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

pub use hoyito_room::Seat;
