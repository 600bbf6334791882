//! Deleting abandoned games ([`super::Storage::delete_abandoned`]): online
//! games still waiting for their second player that have not changed since
//! a time. Their moves, chat and analysis go with them (`ON DELETE CASCADE`).

use super::StoreResult;

/// The games deleted: `?1`/`$1` is the time before which they last changed.
const ABANDONED: &str = "mode = 'online' AND status = 'waiting' AND updated_ms < ";

/// SQLite: deletes up to `limit` abandoned games; their ids.
pub(super) fn sqlite(conn: &rusqlite::Connection, before_ms: i64, limit: u32) -> StoreResult<Vec<String>> {
    let mut st = conn.prepare_cached(&format!(
        "DELETE FROM games WHERE id IN (SELECT id FROM games WHERE {ABANDONED} ?1 LIMIT ?2)
         RETURNING id"
    ))?;
    let ids = st.query_map(rusqlite::params![before_ms, limit], |r| r.get(0))?;
    Ok(ids.collect::<rusqlite::Result<_>>()?)
}

/// PostgreSQL: deletes up to `limit` abandoned games in `tx` (whose
/// caller announces each to the other nodes before committing); their ids.
pub(super) fn postgres(
    tx: &mut ::postgres::Transaction<'_>,
    before_ms: i64,
    limit: u32,
) -> StoreResult<Vec<String>> {
    let rows = tx.query(
        &format!(
            "DELETE FROM games WHERE id IN (SELECT id FROM games WHERE {ABANDONED} $1 LIMIT $2
               FOR UPDATE SKIP LOCKED)
             RETURNING id"
        ),
        &[&before_ms, &i64::from(limit)],
    )?;
    Ok(rows.iter().map(|r| r.get(0)).collect())
}
