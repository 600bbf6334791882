//! The periodic job that deletes abandoned games: online games still
//! waiting for their second player and unchanged for
//! [`crate::ServerLimits::expire_waiting_days`] days
//! ([`crate::store::Storage::delete_abandoned`]).

use std::sync::Arc;
use std::time::Duration;

use crate::error::ApiError;
use crate::state::AppState;

/// How often the job runs (and once at start).
const EVERY: Duration = Duration::from_secs(60 * 60);

/// Games deleted per storage call: the writer is never held long.
const BATCH: u32 = 500;

/// A day in milliseconds.
const DAY_MS: i64 = 24 * 60 * 60 * 1000;

/// Runs the job every [`EVERY`] until aborted; does nothing if expiry is
/// off (0 days).
pub(crate) async fn run(st: Arc<AppState>) {
    let days = st.limits.expire_waiting_days;
    if days == 0 {
        return;
    }
    let mut tick = tokio::time::interval(EVERY);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        let before_ms = crate::store::now() - i64::from(days) * DAY_MS;
        match expire(&st, before_ms).await {
            Ok(0) => {}
            Ok(n) => tracing::info!(games = n, days, "deleted abandoned games"),
            Err(e) => tracing::error!(error = %e.message, "deleting abandoned games failed"),
        }
    }
}

/// Deletes every abandoned game unchanged since `before_ms` and drops it
/// from memory; how many there were.
///
/// # Errors
/// If the database fails (the games deleted so far stay deleted).
pub(crate) async fn expire(st: &Arc<AppState>, before_ms: i64) -> Result<usize, ApiError> {
    let mut deleted = 0;
    loop {
        let ids = st.db(move |s| s.delete_abandoned(before_ms, BATCH)).await?;
        for id in &ids {
            forget(st, id);
        }
        deleted += ids.len();
        if ids.len() < BATCH as usize {
            return Ok(deleted);
        }
    }
}

/// Drops game `id` from memory (it is no longer stored): a request for it
/// is then 404 `unknown_game`.
pub(crate) fn forget(st: &AppState, id: &str) {
    st.games.lock().unwrap_or_else(|e| e.into_inner()).remove(id);
}
