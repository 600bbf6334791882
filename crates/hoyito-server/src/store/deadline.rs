//! The deadline of a storage call made for a request: the request is
//! answered 503 when it passes (`crate::state`), and a write still running
//! then must not be committed later, when the database answers again, since
//! the client was told nothing was stored. PostgreSQL's writes check
//! [`check_commit`] before their `COMMIT`.
//!
//! The deadline is the calling thread's (a blocking thread runs one storage
//! call at a time), set by [`within`].

use std::cell::Cell;
use std::time::{Duration, Instant};

use super::{StoreError, StoreResult};

/// What a `COMMIT` is left before the deadline, at least: the time it takes
/// a database that answers at all.
pub const COMMIT_MARGIN: Duration = Duration::from_secs(1);

thread_local! {
    /// The deadline of the storage call on this thread, and its length.
    static DEADLINE: Cell<Option<(Instant, Duration)>> = const { Cell::new(None) };
}

/// Runs `f`, a storage call given `limit` from `start`, with that deadline.
pub fn within<T>(start: Instant, limit: Duration, f: impl FnOnce() -> T) -> T {
    struct Restore(Option<(Instant, Duration)>);
    impl Drop for Restore {
        fn drop(&mut self) {
            DEADLINE.set(self.0);
        }
    }
    let _restore = Restore(DEADLINE.replace(Some((start + limit, limit))));
    f()
}

/// Whether a write may still be committed.
///
/// # Errors
/// [`StoreError::TimedOut`] if less than [`COMMIT_MARGIN`] is left before
/// the deadline: the write is rolled back instead.
pub fn check_commit() -> StoreResult<()> {
    match DEADLINE.get() {
        Some((deadline, limit)) if Instant::now() + COMMIT_MARGIN > deadline => {
            Err(StoreError::TimedOut(limit))
        }
        _ => Ok(()),
    }
}

/// Whether the call may still start a statement.
///
/// # Errors
/// [`StoreError::TimedOut`] past the deadline: the request was answered
/// already.
pub fn check_time() -> StoreResult<()> {
    match DEADLINE.get() {
        Some((deadline, limit)) if Instant::now() > deadline => Err(StoreError::TimedOut(limit)),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_write_is_committed_only_well_before_its_deadline() {
        assert!(check_commit().is_ok(), "no deadline: no check");
        let limit = Duration::from_secs(5);
        within(Instant::now(), limit, || {
            assert!(check_commit().is_ok());
            let late = Instant::now() - limit + COMMIT_MARGIN / 2;
            within(late, limit, || {
                assert!(matches!(check_commit(), Err(StoreError::TimedOut(l)) if l == limit));
                assert!(check_time().is_ok(), "a statement may still start");
            });
            within(Instant::now() - 2 * limit, limit, || {
                assert!(matches!(check_time(), Err(StoreError::TimedOut(_))));
            });
            assert!(check_commit().is_ok(), "the outer deadline again");
        });
        assert!(check_commit().is_ok(), "none after the call");
    }
}
