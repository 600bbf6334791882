//! Password hashing off the async executor ([`AppState::password_work`]):
//! argon2id takes tens of milliseconds of a core and 19 MiB, so at most
//! [`crate::ServerLimits::password_hashes`] run at once on blocking threads,
//! and at most [`crate::ServerLimits::password_queue`] requests wait for one;
//! beyond, 503 `busy`.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use tokio::sync::Semaphore;

use super::AppState;
use crate::error::ApiError;

/// The permits of password work and the count of requests holding or
/// waiting for one.
#[derive(Debug)]
pub(crate) struct PasswordWork {
    permits: Arc<Semaphore>,
    waiting: AtomicUsize,
    queue: usize,
}

impl PasswordWork {
    /// `at_once` hashes at a time (at least one), `queue` more waiting.
    pub(crate) fn new(at_once: usize, queue: usize) -> PasswordWork {
        let at_once = at_once.max(1);
        PasswordWork {
            permits: Arc::new(Semaphore::new(at_once)),
            waiting: AtomicUsize::new(0),
            queue: at_once + queue,
        }
    }
}

/// Counts a request among those holding or waiting for password work.
struct Waiting<'a>(&'a AtomicUsize);

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

impl AppState {
    /// Runs `f` (password hashing or checking) on a blocking thread once a
    /// permit of password work is free.
    ///
    /// # Errors
    /// 503 `busy` (`Retry-After: 1`) if too many requests wait already; 500
    /// if the task fails.
    pub(crate) async fn password_work<T: Send + 'static>(
        &self,
        f: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, ApiError> {
        let work = &self.passwords;
        let _waiting = Waiting(&work.waiting);
        if work.waiting.fetch_add(1, Ordering::AcqRel) >= work.queue {
            return Err(ApiError::unavailable(
                "busy",
                "the server is checking too many passwords now: try again in a second",
            )
            .retry_after(1));
        }
        let permit = work
            .permits
            .clone()
            .acquire_owned()
            .await
            .map_err(|_| ApiError::unavailable("busy", "the server is stopping"))?;
        tokio::task::spawn_blocking(move || {
            let out = f();
            drop(permit);
            out
        })
        .await
        .map_err(|e| ApiError::internal(format!("password task failed: {e}")))
    }
}
