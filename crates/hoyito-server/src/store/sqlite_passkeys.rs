//! [`Sqlite`]'s passkeys and passkey ceremonies ([`PasskeyStorage`]).

use rusqlite::{params, OptionalExtension};

use super::passkeys::{Ceremony, NewAccount, PasskeyStorage, Removal, StoredPasskey};
use super::sqlite::Sqlite;
use super::sqlite_accounts::account;
use super::{Account, StoreResult};

/// The columns a [`StoredPasskey`] is read from (after an account's five,
/// in [`PasskeyStorage::passkey_by_credential`]).
const PASSKEY: &str = "p.id, p.account_id, p.credential_id, p.passkey, p.created_ms, p.last_used_ms";

fn passkey(r: &rusqlite::Row<'_>, at: usize) -> rusqlite::Result<StoredPasskey> {
    Ok(StoredPasskey {
        id: r.get(at)?,
        account_id: r.get(at + 1)?,
        credential_id: r.get(at + 2)?,
        passkey: r.get(at + 3)?,
        created_ms: r.get(at + 4)?,
        last_used_ms: r.get(at + 5)?,
    })
}

/// Inserts `p`; `false` if its credential is registered already.
fn insert(tx: &rusqlite::Transaction<'_>, p: &StoredPasskey) -> rusqlite::Result<bool> {
    let n = tx.execute(
        "INSERT INTO passkeys (id, account_id, credential_id, passkey, created_ms, last_used_ms)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT (credential_id) DO NOTHING",
        params![
            p.id,
            p.account_id,
            p.credential_id,
            p.passkey,
            p.created_ms,
            p.last_used_ms
        ],
    )?;
    Ok(n > 0)
}

impl PasskeyStorage for Sqlite {
    fn insert_ceremony(&self, c: &Ceremony, now_ms: i64) -> StoreResult<()> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        tx.execute(
            "DELETE FROM passkey_ceremonies WHERE expires_ms <= ?1",
            params![now_ms],
        )?;
        tx.execute(
            "INSERT INTO passkey_ceremonies (id_hash, kind, account_id, username, origin, state, expires_ms)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            params![
                c.id_hash,
                c.kind,
                c.account_id,
                c.username,
                c.origin,
                c.state,
                c.expires_ms
            ],
        )?;
        tx.commit()?;
        Ok(())
    }

    fn take_ceremony(&self, id_hash: &str, now_ms: i64) -> StoreResult<Option<Ceremony>> {
        let taken = self
            .conn()
            .query_row(
                "DELETE FROM passkey_ceremonies WHERE id_hash = ?1
                 RETURNING id_hash, kind, account_id, username, origin, state, expires_ms",
                params![id_hash],
                |r| {
                    Ok(Ceremony {
                        id_hash: r.get(0)?,
                        kind: r.get(1)?,
                        account_id: r.get(2)?,
                        username: r.get(3)?,
                        origin: r.get(4)?,
                        state: r.get(5)?,
                        expires_ms: r.get(6)?,
                    })
                },
            )
            .optional()?;
        Ok(taken.filter(|c| c.expires_ms > now_ms))
    }

    fn insert_account_with_passkey(
        &self,
        a: &Account,
        recovery: &[String],
        p: &StoredPasskey,
    ) -> StoreResult<NewAccount> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        let inserted = tx.execute(
            "INSERT INTO accounts (id, username, skeleton, password_hash, created_ms)
             VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (skeleton) DO NOTHING",
            params![a.id, a.username, a.skeleton, a.password_hash, a.created_ms],
        )?;
        if inserted == 0 {
            return Ok(NewAccount::UsernameTaken);
        }
        for code in recovery {
            tx.execute(
                "INSERT INTO recovery_codes (account_id, code_hash) VALUES (?1, ?2)",
                params![a.id, code],
            )?;
        }
        if !insert(&tx, p)? {
            return Ok(NewAccount::PasskeyTaken);
        }
        tx.commit()?;
        Ok(NewAccount::Created)
    }

    fn insert_passkey(&self, p: &StoredPasskey) -> StoreResult<bool> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        let inserted = insert(&tx, p)?;
        tx.commit()?;
        Ok(inserted)
    }

    fn passkey_by_credential(&self, credential_id: &str) -> StoreResult<Option<(StoredPasskey, Account)>> {
        Ok(self
            .reader()
            .query_row(
                &format!(
                    "SELECT a.id, a.username, a.skeleton, a.password_hash, a.created_ms, {PASSKEY}
                     FROM passkeys p JOIN accounts a ON a.id = p.account_id
                     WHERE p.credential_id = ?1"
                ),
                params![credential_id],
                |r| Ok((passkey(r, 5)?, account(r)?)),
            )
            .optional()?)
    }

    fn account_passkeys(&self, account: &str) -> StoreResult<Vec<StoredPasskey>> {
        let conn = self.reader();
        let mut st = conn.prepare_cached(&format!(
            "SELECT {PASSKEY} FROM passkeys p WHERE p.account_id = ?1 ORDER BY p.created_ms, p.id"
        ))?;
        let rows = st.query_map(params![account], |r| passkey(r, 0))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    fn passkey_used(&self, id: &str, passkey: Option<&str>, used_ms: i64) -> StoreResult<()> {
        self.conn().execute(
            "UPDATE passkeys SET last_used_ms = ?2, passkey = COALESCE(?3, passkey) WHERE id = ?1",
            params![id, used_ms, passkey],
        )?;
        Ok(())
    }

    fn remove_passkey(&self, account: &str, id: &str) -> StoreResult<Removal> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        let mine: bool = tx.query_row(
            "SELECT COUNT(*) > 0 FROM passkeys WHERE id = ?1 AND account_id = ?2",
            params![id, account],
            |r| r.get(0),
        )?;
        if !mine {
            return Ok(Removal::NotFound);
        }
        let (password, passkeys): (bool, i64) = tx.query_row(
            "SELECT a.password_hash <> '', (SELECT COUNT(*) FROM passkeys WHERE account_id = a.id)
             FROM accounts a WHERE a.id = ?1",
            params![account],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )?;
        if !password && passkeys <= 1 {
            return Ok(Removal::LastSignIn);
        }
        tx.execute("DELETE FROM passkeys WHERE id = ?1", params![id])?;
        tx.commit()?;
        Ok(Removal::Removed)
    }
}
