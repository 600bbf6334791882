//! Passkeys as stored: [`PasskeyStorage`] ([`super::Storage::passkeys`]),
//! in SQLite (`sqlite_passkeys.rs`) and PostgreSQL (`postgres_passkeys.rs`).
//!
//! Tables: `passkeys` (one row per passkey: its id, its account, its
//! credential id in base64url, unique, the credential as `webauthn-rs`
//! keeps it (JSON: the public key, the signature counter, the backup
//! flags), when it was added and last used) and `passkey_ceremonies` (a
//! registration or sign-in under way, between its two requests: the
//! SHA-256 of its id, what it is for, the account or the new account's
//! username, the origin it was started for, the `webauthn-rs` state (JSON:
//! the challenge and the policy) and when it expires). A ceremony is kept
//! in the database, not in a node's memory, so that its second request may
//! reach another node than its first; it is used once (taken and deleted
//! together). No private key is ever sent to the server: a copy of these
//! tables signs nobody in.
//!
//! An account without a password (passkeys only) has an empty
//! `accounts.password_hash`, which matches no password.

use super::{Account, StoreResult};

/// A passkey as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredPasskey {
    /// Its id (random, URL-safe): how the account's owner names it.
    pub id: String,
    /// Its account.
    pub account_id: String,
    /// The credential id, in base64url without padding (unique).
    pub credential_id: String,
    /// The credential as `webauthn-rs` serialises its `Passkey` (JSON).
    pub passkey: String,
    /// When it was added, ms since the Unix epoch.
    pub created_ms: i64,
    /// When it last signed in, if ever.
    pub last_used_ms: Option<i64>,
}

/// A registration or sign-in under way, between its two requests.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ceremony {
    /// The SHA-256 of its id (the id is the client's only).
    pub id_hash: String,
    /// What it is for: `sign_up`, `add` (a passkey for the account signed
    /// in) or `sign_in`.
    pub kind: String,
    /// The account: the new one's id (`sign_up`), the one signed in
    /// (`add`), the one named (`sign_in` with a username), or none.
    pub account_id: Option<String>,
    /// The new account's username (`sign_up`).
    pub username: Option<String>,
    /// The origin the ceremony was started for (`https://example.org`).
    pub origin: String,
    /// The `webauthn-rs` state (JSON).
    pub state: String,
    /// When it expires, ms since the Unix epoch.
    pub expires_ms: i64,
}

/// How a new account with a passkey was stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NewAccount {
    /// Stored.
    Created,
    /// Nothing stored: an account has a username with the same skeleton.
    UsernameTaken,
    /// Nothing stored: the credential is registered already.
    PasskeyTaken,
}

/// What removing a passkey did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Removal {
    /// Removed.
    Removed,
    /// The account has no such passkey.
    NotFound,
    /// Refused: it is the account's last way to sign in (no password, no
    /// other passkey).
    LastSignIn,
}

/// The stored passkeys and ceremonies. Every call blocks: call from
/// blocking threads (`AppState::db`).
pub trait PasskeyStorage: Send + Sync {
    /// Stores a ceremony (and deletes the ceremonies expired at `now_ms`).
    ///
    /// # Errors
    /// If the database fails.
    fn insert_ceremony(&self, ceremony: &Ceremony, now_ms: i64) -> StoreResult<()>;

    /// Takes the ceremony whose id hashes to `id_hash`: deletes it and
    /// returns it, unless it has expired at `now_ms` (then it is deleted
    /// and `None` returned, as for an unknown one).
    ///
    /// # Errors
    /// If the database fails.
    fn take_ceremony(&self, id_hash: &str, now_ms: i64) -> StoreResult<Option<Ceremony>>;

    /// Stores a new account, the hashes of its recovery codes and its
    /// first passkey, in one transaction (all or nothing).
    ///
    /// # Errors
    /// If the database fails.
    fn insert_account_with_passkey(
        &self,
        account: &Account,
        recovery: &[String],
        passkey: &StoredPasskey,
    ) -> StoreResult<NewAccount>;

    /// Stores a passkey of an existing account; `false` (nothing stored) if
    /// the credential is registered already.
    ///
    /// # Errors
    /// If the database fails (e.g. no such account).
    fn insert_passkey(&self, passkey: &StoredPasskey) -> StoreResult<bool>;

    /// The passkey with credential id `credential_id` (base64url) and its
    /// account.
    ///
    /// # Errors
    /// If the database fails.
    fn passkey_by_credential(&self, credential_id: &str) -> StoreResult<Option<(StoredPasskey, Account)>>;

    /// The passkeys of `account`, oldest first.
    ///
    /// # Errors
    /// If the database fails.
    fn account_passkeys(&self, account: &str) -> StoreResult<Vec<StoredPasskey>>;

    /// Notes that passkey `id` signed in at `used_ms`, and stores its
    /// credential anew if given (its counter or backup state changed).
    ///
    /// # Errors
    /// If the database fails.
    fn passkey_used(&self, id: &str, passkey: Option<&str>, used_ms: i64) -> StoreResult<()>;

    /// Removes passkey `id` of `account`, unless it is the account's last
    /// way to sign in (no password and no other passkey), in one
    /// transaction.
    ///
    /// # Errors
    /// If the database fails.
    fn remove_passkey(&self, account: &str, id: &str) -> StoreResult<Removal>;
}
