//! [`Postgres`]'s passkeys and passkey ceremonies ([`PasskeyStorage`]):
//! the same tables as SQLite's. A ceremony started on one node may be
//! finished on any other: its state is in the database.

use ::postgres::Row;

use super::deadline::check_commit;
use super::passkeys::{Ceremony, NewAccount, PasskeyStorage, Removal, StoredPasskey};
use super::postgres::Postgres;
use super::postgres_accounts::account;
use super::{Account, StoreResult};

/// The columns a [`StoredPasskey`] is read from (after an account's five,
/// in [`PasskeyStorage::passkey_by_credential`]).
const PASSKEY: &str = "p.id, p.account_id, p.credential_id, p.passkey, p.created_ms, p.last_used_ms";

fn passkey(r: &Row, at: usize) -> StoredPasskey {
    StoredPasskey {
        id: r.get(at),
        account_id: r.get(at + 1),
        credential_id: r.get(at + 2),
        passkey: r.get(at + 3),
        created_ms: r.get(at + 4),
        last_used_ms: r.get(at + 5),
    }
}

/// Inserts `p`; `false` if its credential is registered already.
fn insert(tx: &mut ::postgres::Transaction<'_>, p: &StoredPasskey) -> Result<bool, ::postgres::Error> {
    let n = tx.execute(
        "INSERT INTO passkeys (id, account_id, credential_id, passkey, created_ms, last_used_ms)
         VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (credential_id) DO NOTHING",
        &[
            &p.id,
            &p.account_id,
            &p.credential_id,
            &p.passkey,
            &p.created_ms,
            &p.last_used_ms,
        ],
    )?;
    Ok(n > 0)
}

impl PasskeyStorage for Postgres {
    fn insert_ceremony(&self, c: &Ceremony, now_ms: i64) -> StoreResult<()> {
        let mut conn = self.conn()?;
        let mut tx = conn.transaction()?;
        tx.execute(
            "DELETE FROM passkey_ceremonies WHERE expires_ms <= $1",
            &[&now_ms],
        )?;
        tx.execute(
            "INSERT INTO passkey_ceremonies (id_hash, kind, account_id, username, origin, state, expires_ms)
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
            &[
                &c.id_hash,
                &c.kind,
                &c.account_id,
                &c.username,
                &c.origin,
                &c.state,
                &c.expires_ms,
            ],
        )?;
        check_commit()?;
        tx.commit()?;
        Ok(())
    }

    fn take_ceremony(&self, id_hash: &str, now_ms: i64) -> StoreResult<Option<Ceremony>> {
        let row = self.conn()?.query_opt(
            "DELETE FROM passkey_ceremonies WHERE id_hash = $1
             RETURNING id_hash, kind, account_id, username, origin, state, expires_ms",
            &[&id_hash],
        )?;
        Ok(row
            .map(|r| Ceremony {
                id_hash: r.get(0),
                kind: r.get(1),
                account_id: r.get(2),
                username: r.get(3),
                origin: r.get(4),
                state: r.get(5),
                expires_ms: r.get(6),
            })
            .filter(|c| c.expires_ms > now_ms))
    }

    fn insert_account_with_passkey(
        &self,
        a: &Account,
        recovery: &[String],
        p: &StoredPasskey,
    ) -> StoreResult<NewAccount> {
        let mut conn = self.conn()?;
        let mut tx = conn.transaction()?;
        let inserted = tx.execute(
            "INSERT INTO accounts (id, username, skeleton, password_hash, created_ms)
             VALUES ($1, $2, $3, $4, $5) ON CONFLICT (skeleton) DO NOTHING",
            &[&a.id, &a.username, &a.skeleton, &a.password_hash, &a.created_ms],
        )?;
        if inserted == 0 {
            return Ok(NewAccount::UsernameTaken);
        }
        for code in recovery {
            tx.execute(
                "INSERT INTO recovery_codes (account_id, code_hash) VALUES ($1, $2)",
                &[&a.id, code],
            )?;
        }
        if !insert(&mut tx, p)? {
            return Ok(NewAccount::PasskeyTaken);
        }
        check_commit()?;
        tx.commit()?;
        Ok(NewAccount::Created)
    }

    fn insert_passkey(&self, p: &StoredPasskey) -> StoreResult<bool> {
        let mut conn = self.conn()?;
        let mut tx = conn.transaction()?;
        let inserted = insert(&mut tx, p)?;
        check_commit()?;
        tx.commit()?;
        Ok(inserted)
    }

    fn passkey_by_credential(&self, credential_id: &str) -> StoreResult<Option<(StoredPasskey, Account)>> {
        let row = self.conn()?.query_opt(
            &format!(
                "SELECT a.id, a.username, a.skeleton, a.password_hash, a.created_ms, {PASSKEY}
                 FROM passkeys p JOIN accounts a ON a.id = p.account_id
                 WHERE p.credential_id = $1"
            ),
            &[&credential_id],
        )?;
        Ok(row.map(|r| (passkey(&r, 5), account(&r))))
    }

    fn account_passkeys(&self, account: &str) -> StoreResult<Vec<StoredPasskey>> {
        let rows = self.conn()?.query(
            &format!("SELECT {PASSKEY} FROM passkeys p WHERE p.account_id = $1 ORDER BY p.created_ms, p.id"),
            &[&account],
        )?;
        Ok(rows.iter().map(|r| passkey(r, 0)).collect())
    }

    fn passkey_used(&self, id: &str, passkey: Option<&str>, used_ms: i64) -> StoreResult<()> {
        self.conn()?.execute(
            "UPDATE passkeys SET last_used_ms = $2, passkey = COALESCE($3, passkey) WHERE id = $1",
            &[&id, &used_ms, &passkey],
        )?;
        Ok(())
    }

    fn remove_passkey(&self, account: &str, id: &str) -> StoreResult<Removal> {
        let mut conn = self.conn()?;
        let mut tx = conn.transaction()?;
        // The account's row, locked: two removals of its passkeys at once
        // (on two nodes) take turns, so they cannot both leave it none.
        let Some(row) = tx.query_opt(
            "SELECT password_hash <> '' FROM accounts WHERE id = $1 FOR UPDATE",
            &[&account],
        )?
        else {
            return Ok(Removal::NotFound);
        };
        let password: bool = row.get(0);
        let mine = tx.query_opt(
            "SELECT 1 FROM passkeys WHERE id = $1 AND account_id = $2",
            &[&id, &account],
        )?;
        if mine.is_none() {
            return Ok(Removal::NotFound);
        }
        let passkeys: i64 = tx
            .query_one("SELECT COUNT(*) FROM passkeys WHERE account_id = $1", &[&account])?
            .get(0);
        if !password && passkeys <= 1 {
            return Ok(Removal::LastSignIn);
        }
        tx.execute("DELETE FROM passkeys WHERE id = $1", &[&id])?;
        check_commit()?;
        tx.commit()?;
        Ok(Removal::Removed)
    }
}
