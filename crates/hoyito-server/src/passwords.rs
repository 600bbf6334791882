//! Passwords, recovery codes and session tokens: what the server keeps of
//! them and how it checks them.
//!
//! - A password is kept as its argon2id hash ([`PARAMS`]: 19 MiB, two
//!   passes, one lane), in the PHC string format, with a random 128-bit salt.
//!   A sign-in for a name that has no account is checked against
//!   [`dummy_hash`], so it does the same work and gets the same answer.
//! - A password must be at least [`MIN_PASSWORD_CHARS`] characters and at
//!   most [`MAX_PASSWORD_CHARS`], and not easy to guess: `zxcvbn`'s score
//!   at least [`MIN_SCORE`] (out of 4), counting the username as known.
//! - Recovery codes ([`recovery_codes`]) and session tokens
//!   ([`session_token`]) are random and long: they are kept as SHA-256
//!   hashes ([`crate::auth::hash_secret`]), like seat tokens.

use std::sync::LazyLock;

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};

/// The argon2id cost: memory in KiB, passes, lanes (OWASP's first choice
/// for argon2id). docs/PERFORMANCE.md has the time a hash takes.
pub const PARAMS: (u32, u32, u32) = (19 * 1024, 2, 1);

/// Shortest password, in characters.
pub const MIN_PASSWORD_CHARS: usize = 8;

/// Longest password, in characters (the strength check's time grows with it).
pub const MAX_PASSWORD_CHARS: usize = 128;

/// The lowest `zxcvbn` score a new password may have (0–4; 3: "safely
/// unguessable", about 10⁸ guesses or more).
pub const MIN_SCORE: u8 = 3;

/// Recovery codes given at sign-up.
pub const RECOVERY_CODES: usize = 8;

/// Why a password cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WeakPassword {
    /// Too short.
    #[error("the password has {0} characters: it needs at least {MIN_PASSWORD_CHARS}")]
    Short(usize),
    /// Too long.
    #[error("the password has {0} characters: it may have at most {MAX_PASSWORD_CHARS}")]
    Long(usize),
    /// Easy to guess.
    #[error("the password is too easy to guess (strength {score} of 4, at least {MIN_SCORE} needed){hint}")]
    Guessable {
        /// Its `zxcvbn` score.
        score: u8,
        /// `zxcvbn`'s warning, after ": ", or nothing.
        hint: String,
    },
}

/// Why a password could not be hashed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("argon2id failed to hash the password: {0}")]
pub struct HashError(String);

fn argon2() -> Argon2<'static> {
    let (m, t, p) = PARAMS;
    let params = Params::new(m, t, p, None).expect("the argon2id parameters are valid");
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
}

/// Checks that `password` may be the password of `username`.
///
/// # Errors
/// [`WeakPassword`] saying what is wrong.
pub fn check_strength(password: &str, username: &str) -> Result<(), WeakPassword> {
    let n = password.chars().count();
    if n < MIN_PASSWORD_CHARS {
        return Err(WeakPassword::Short(n));
    }
    if n > MAX_PASSWORD_CHARS {
        return Err(WeakPassword::Long(n));
    }
    let entropy = zxcvbn::zxcvbn(password, &[username, "hoyito"]);
    let score = u8::from(entropy.score());
    if score < MIN_SCORE {
        let hint = entropy
            .feedback()
            .and_then(|f| f.warning())
            .map(|w| format!(": {w}"))
            .unwrap_or_default();
        return Err(WeakPassword::Guessable { score, hint });
    }
    Ok(())
}

/// The argon2id hash of `password` (PHC string), with a random salt.
///
/// # Errors
/// If argon2 fails (it does not with these parameters and a password of at
/// most [`MAX_PASSWORD_CHARS`] characters).
pub fn hash_password(password: &str) -> Result<String, HashError> {
    let salt_bytes: [u8; 16] = rand::random();
    let salt = SaltString::encode_b64(&salt_bytes).map_err(|e| HashError(e.to_string()))?;
    argon2()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| HashError(e.to_string()))
}

/// Whether `password` hashes to `stored` (a PHC string). A stored hash
/// that cannot be read matches nothing.
pub fn verify_password(password: &str, stored: &str) -> bool {
    match PasswordHash::new(stored) {
        Ok(hash) => argon2().verify_password(password.as_bytes(), &hash).is_ok(),
        Err(_) => false,
    }
}

/// A hash of a random password with the same parameters: what a sign-in
/// for an unknown name is checked against.
pub fn dummy_hash() -> &'static str {
    static DUMMY: LazyLock<String> = LazyLock::new(|| {
        hash_password(&crate::auth::random_token()).expect("argon2id hashes a random token")
    });
    &DUMMY
}

/// The letters of recovery codes: lower case and digits without look-alikes.
const CODE_ALPHABET: &[u8] = b"abcdefghjkmnpqrstuvwxyz23456789";

/// [`RECOVERY_CODES`] new recovery codes, each `xxxx-xxxx-xxxx` (12 letters
/// of 31: 59 bits).
pub fn recovery_codes() -> Vec<String> {
    use rand::Rng;
    let mut rng = rand::rng();
    (0..RECOVERY_CODES)
        .map(|_| {
            let letters: Vec<char> = (0..12)
                .map(|_| CODE_ALPHABET[rng.random_range(0..CODE_ALPHABET.len())] as char)
                .collect();
            letters
                .chunks(4)
                .map(|c| c.iter().collect::<String>())
                .collect::<Vec<_>>()
                .join("-")
        })
        .collect()
}

/// A recovery code as typed, in the form it is hashed in: lower case,
/// without spaces and dashes.
pub fn normalize_code(code: &str) -> String {
    code.chars()
        .filter(|c| !c.is_whitespace() && *c != '-')
        .flat_map(char::to_lowercase)
        .collect()
}

/// A new session token: 256 random bits, in hex.
pub fn session_token() -> String {
    let bytes: [u8; 32] = rand::random();
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_password_verifies_against_its_hash_only() {
        let hash = hash_password("correct horse battery staple").unwrap();
        assert!(hash.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{hash}");
        assert!(verify_password("correct horse battery staple", &hash));
        assert!(!verify_password("correct horse battery stapler", &hash));
        assert!(!verify_password("correct horse battery staple", "not a hash"));
        // Salted: the same password hashes differently.
        assert_ne!(hash, hash_password("correct horse battery staple").unwrap());
        assert!(!verify_password("", dummy_hash()));
    }

    #[test]
    fn weak_and_common_passwords_are_refused() {
        assert_eq!(check_strength("abc", "ana"), Err(WeakPassword::Short(3)));
        assert!(matches!(
            check_strength(&"x".repeat(200), "ana"),
            Err(WeakPassword::Long(200))
        ));
        for weak in ["password1", "qwertyuiop", "anamaria1", "12345678910"] {
            assert!(
                matches!(
                    check_strength(weak, "anamaria"),
                    Err(WeakPassword::Guessable { .. })
                ),
                "{weak}"
            );
        }
        assert!(check_strength("tambor-lluvia-semilla-42", "ana").is_ok());
    }

    #[test]
    fn recovery_codes_are_read_however_they_are_typed() {
        let codes = recovery_codes();
        assert_eq!(codes.len(), RECOVERY_CODES);
        assert!(codes.iter().all(|c| c.len() == 14 && c.matches('-').count() == 2));
        let typed = format!(" {} ", codes[0].to_uppercase().replace('-', " "));
        assert_eq!(normalize_code(&typed), codes[0].replace('-', ""));
    }
}
