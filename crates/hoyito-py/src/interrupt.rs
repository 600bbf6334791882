//! Long Rust calls that Ctrl-C interrupts. The work runs on a helper
//! thread; the calling thread waits for it with the GIL released and, every
//! [`POLL`], lets Python run its signal handlers. When one raises (Ctrl-C's
//! `KeyboardInterrupt`), the work is told to stop through its flag and the
//! exception is raised once the work has returned, so nothing it was
//! writing is left half done.
//!
//! Loops that must come back to Python between short steps (the chunks of
//! `random_playouts`, the batches of `PuctSearch`, whose evaluator is a
//! Python callable run on the calling thread) release the GIL for each
//! step and check the signals between steps instead.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use pyo3::prelude::*;

/// How often the waiting thread looks at Python's signals.
const POLL: Duration = Duration::from_millis(50);

/// Stack of the helper thread: as much as a main thread gets, for deep searches.
const STACK_BYTES: usize = 16 << 20;

/// Runs `work` (given the stop flag it must watch) until it returns or a
/// signal handler raises; in the second case the handler's exception is
/// the result, after `work` has seen the flag and returned.
pub(crate) fn interruptible<T: Send>(
    py: Python<'_>,
    work: impl FnOnce(&AtomicBool) -> T + Send,
) -> PyResult<T> {
    let stop = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let waiter = std::thread::current();
        let stop = &stop;
        let handle = std::thread::Builder::new()
            .name("hoyito-work".into())
            .stack_size(STACK_BYTES)
            .spawn_scoped(scope, move || {
                let out = work(stop);
                waiter.unpark();
                out
            })
            .map_err(|e| pyo3::exceptions::PyRuntimeError::new_err(format!("cannot start a thread: {e}")))?;
        let mut raised = None;
        while !handle.is_finished() {
            py.detach(|| std::thread::park_timeout(POLL));
            if raised.is_none() {
                if let Err(e) = py.check_signals() {
                    stop.store(true, Ordering::Relaxed);
                    raised = Some(e);
                }
            }
        }
        let out = handle
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        match raised {
            Some(e) => Err(e),
            None => Ok(out),
        }
    })
}
