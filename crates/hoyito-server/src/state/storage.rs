//! Storage calls from async code ([`AppState::db`]): on a blocking thread,
//! within the store's time ([`crate::store::Storage::call_limit`]), the
//! last storage fault a request met kept for the health check
//! ([`AppState::storage_health`]).

use std::sync::Mutex;
use std::time::{Duration, Instant};

use axum::http::StatusCode;

use super::AppState;
use crate::error::ApiError;
use crate::store::{Store, StoreError, StoreResult};

/// How long the health check reports the storage fault a request met
/// (503 `storage_unavailable` or `storage_full`), whatever its own test
/// write finds: a node whose requests fail is taken out of a proxy's
/// rotation even if its test write gets through.
pub const FAULT_MEMORY: Duration = Duration::from_secs(10);

/// How long the health check waits for its test write and count.
pub const HEALTH_WAIT: Duration = Duration::from_secs(3);

/// The last storage fault a request met, and when.
#[derive(Debug, Default)]
pub(crate) struct Faults(Mutex<Option<(Instant, ApiError)>>);

impl Faults {
    fn record(&self, e: &ApiError) {
        *self.0.lock().unwrap_or_else(|p| p.into_inner()) = Some((Instant::now(), e.clone()));
    }

    /// The fault met within the last [`FAULT_MEMORY`], if any.
    fn recent(&self) -> Option<ApiError> {
        let last = self.0.lock().unwrap_or_else(|p| p.into_inner());
        last.as_ref()
            .filter(|(at, _)| at.elapsed() < FAULT_MEMORY)
            .map(|(_, e)| e.clone())
    }
}

impl AppState {
    /// Runs a storage call for a request on a blocking thread, within the
    /// store's [`crate::store::Storage::call_limit`]: past it, 503
    /// `storage_unavailable` (and a write still running is not committed:
    /// [`crate::store::deadline`]). A 503 is remembered for the health check.
    pub(crate) async fn db<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Store) -> StoreResult<T> + Send + 'static,
    ) -> Result<T, ApiError> {
        let result = self.db_within(self.store.call_limit(), f).await;
        if let Err(e) = &result {
            if e.status == StatusCode::SERVICE_UNAVAILABLE {
                self.storage_faults.record(e);
            }
        }
        result
    }

    /// [`AppState::db`] within `limit` (none: as long as it takes), not
    /// remembered for the health check.
    pub(crate) async fn db_within<T: Send + 'static>(
        &self,
        limit: Option<Duration>,
        f: impl FnOnce(&Store) -> StoreResult<T> + Send + 'static,
    ) -> Result<T, ApiError> {
        let store = self.store.clone();
        let start = Instant::now();
        let task = tokio::task::spawn_blocking(move || match limit {
            Some(limit) => crate::store::deadline::within(start, limit, || f(&store)),
            None => f(&store),
        });
        let joined = match limit {
            // The blocking call goes on if the database never answers; its
            // write will not be committed.
            Some(limit) => tokio::time::timeout_at((start + limit).into(), task)
                .await
                .unwrap_or(Ok(Err(StoreError::TimedOut(limit)))),
            None => task.await,
        };
        let result = joined
            .map_err(|e| ApiError::internal(format!("storage task failed: {e}")))
            .and_then(|r| self.stored(r));
        if result.is_err() {
            self.metrics.db_errors.inc();
        }
        result
    }

    /// Stores step `seq` of game `id` (and the game's new summary): queued
    /// for the store's writer when it has one, else as [`AppState::db`].
    pub(crate) async fn append_step(
        &self,
        id: String,
        seq: u64,
        token: String,
        at_ms: i64,
        summary: crate::store::Summary,
    ) -> Result<(), ApiError> {
        let Some(answer) = self.store.append_queued(&id, seq, &token, at_ms, &summary) else {
            return self
                .db(move |s| s.append_at(&id, seq, &token, at_ms, &summary))
                .await;
        };
        let result = answer
            .await
            .map_err(|_| ApiError::internal("the store's writer stopped before answering"))
            .and_then(|r| self.stored(r));
        if let Err(e) = &result {
            self.metrics.db_errors.inc();
            if e.status == StatusCode::SERVICE_UNAVAILABLE {
                self.storage_faults.record(e);
            }
        }
        result
    }

    /// A storage call's result as the API answers it.
    fn stored<T>(&self, r: StoreResult<T>) -> Result<T, ApiError> {
        r.map_err(|e| {
            // Another node stored first: this node's copy is stale.
            if let (StoreError::Conflict { id, .. }, Some(reloads)) = (&e, self.reloads.get()) {
                let _ = reloads.send(crate::store::Change {
                    node: String::new(),
                    game: id.clone(),
                    chat: None,
                });
            }
            ApiError::from(e)
        })
    }

    /// The health of the storage: the number of stored games once a test
    /// write succeeded within [`HEALTH_WAIT`] (and, with SQLite, the disk
    /// has room); else, or if a request met a storage fault in the last
    /// [`FAULT_MEMORY`], that fault.
    ///
    /// # Errors
    /// The fault: 503 `storage_unavailable` or `storage_full`.
    pub(crate) async fn storage_health(&self) -> Result<u64, ApiError> {
        let games = self
            .db_within(Some(HEALTH_WAIT), |s| {
                s.check_writable()?;
                s.count()
            })
            .await?;
        match self.storage_faults.recent() {
            Some(fault) => Err(fault),
            None => Ok(games),
        }
    }
}
