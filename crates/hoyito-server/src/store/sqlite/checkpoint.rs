//! Checkpoints off the writer's path: the writer connection never copies
//! the write-ahead log back into the database itself (`wal_autocheckpoint`
//! is off there), a thread of the store's own does it twice a second on a
//! connection of its own, in SQLite's PASSIVE mode, which never blocks the
//! writer or the readers. A checkpoint syncs the files to disk; on the
//! writer that sync held every move queued behind it.

use std::path::Path;
use std::sync::mpsc::{channel, RecvTimeoutError, Sender};
use std::thread::JoinHandle;
use std::time::Duration;

use rusqlite::Connection;

/// How often the log is copied back.
pub const CHECKPOINT_EVERY: Duration = Duration::from_millis(500);

/// The checkpointing thread; it stops when this is dropped.
#[derive(Debug)]
pub(super) struct Checkpointer {
    stop: Option<Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl Checkpointer {
    /// Starts checkpointing the database at `path` (in WAL mode).
    ///
    /// # Errors
    /// If its connection cannot be opened or its thread started.
    pub(super) fn start(path: &Path) -> rusqlite::Result<Checkpointer> {
        let conn = Connection::open(path)?;
        conn.busy_timeout(Duration::from_secs(5))?;
        let (stop, stopped) = channel::<()>();
        let thread = std::thread::Builder::new()
            .name("sqlite-checkpoint".into())
            .spawn(move || {
                while let Err(RecvTimeoutError::Timeout) = stopped.recv_timeout(CHECKPOINT_EVERY) {
                    // A failed checkpoint (a full disk, say) is tried again
                    // next time; the log keeps every commit.
                    let _ = conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(()));
                }
            })
            .map_err(|e| {
                rusqlite::Error::SqliteFailure(
                    rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_ERROR),
                    Some(format!("cannot start the checkpoint thread: {e}")),
                )
            })?;
        Ok(Checkpointer {
            stop: Some(stop),
            thread: Some(thread),
        })
    }
}

impl Drop for Checkpointer {
    fn drop(&mut self) {
        drop(self.stop.take());
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}
