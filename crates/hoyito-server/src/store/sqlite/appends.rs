//! Group commit of moves: a thread of the store's own writes the steps
//! that callers append, those that arrived together in one SQLite
//! transaction, each inside a savepoint of its own, so one step's failure
//! (a duplicate, say) leaves the others stored.
//!
//! A caller queues its step and waits for the answer on a channel, which an
//! async caller awaits without a blocking thread: under load the thread
//! never sleeps between batches, so a move costs no thread hand-off, no
//! turn at a contended lock and only a share of one commit.

use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use rusqlite::{params, Connection};
use tokio::sync::oneshot;

use super::{update_summary, SqlResult, Summary};
use crate::store::StoreResult;

/// Steps written in one transaction at most: a batch that waits behind a
/// long one stays short.
pub const MAX_BATCH: usize = 256;

/// One step waiting to be written, and where its answer goes.
#[derive(Debug)]
pub(super) struct Append {
    id: String,
    seq: u64,
    token: String,
    at_ms: i64,
    summary: Summary,
    answer: oneshot::Sender<StoreResult<()>>,
}

impl Append {
    /// Step `seq` of game `id`, and the receiver of its answer.
    pub(super) fn new(
        id: &str,
        seq: u64,
        token: &str,
        at_ms: i64,
        summary: &Summary,
    ) -> (Append, oneshot::Receiver<StoreResult<()>>) {
        let (answer, receiver) = oneshot::channel();
        let append = Append {
            id: id.to_owned(),
            seq,
            token: token.to_owned(),
            at_ms,
            summary: summary.clone(),
            answer,
        };
        (append, receiver)
    }
}

/// The thread that writes queued steps through the writer connection.
#[derive(Debug)]
pub(super) struct Appender {
    queue: Option<Sender<Append>>,
    thread: Option<JoinHandle<()>>,
}

impl Appender {
    /// Starts the thread; it takes `writer` for each batch.
    pub(super) fn start(writer: Arc<Mutex<Connection>>) -> std::io::Result<Appender> {
        let (queue, steps) = channel();
        let thread = std::thread::Builder::new()
            .name("sqlite-appends".into())
            .spawn(move || run(&writer, &steps))?;
        Ok(Appender {
            queue: Some(queue),
            thread: Some(thread),
        })
    }

    /// Queues step `seq` of game `id` (and the game's new summary); the
    /// receiver gets the answer once it is committed, or refused.
    pub(super) fn append(
        &self,
        id: &str,
        seq: u64,
        token: &str,
        at_ms: i64,
        summary: &Summary,
    ) -> oneshot::Receiver<StoreResult<()>> {
        let (step, receiver) = Append::new(id, seq, token, at_ms, summary);
        if let Some(queue) = &self.queue {
            // A send fails only once the thread is gone; the receiver then
            // answers that nothing was stored.
            let _ = queue.send(step);
        }
        receiver
    }
}

impl Drop for Appender {
    /// Lets the thread write what is queued, and waits for it.
    fn drop(&mut self) {
        drop(self.queue.take());
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// The thread: each batch is the steps queued by the time it starts.
fn run(writer: &Mutex<Connection>, steps: &Receiver<Append>) {
    while let Ok(first) = steps.recv() {
        let mut batch = vec![first];
        while batch.len() < MAX_BATCH {
            match steps.try_recv() {
                Ok(step) => batch.push(step),
                Err(_) => break,
            }
        }
        // A panic while holding the lock leaves SQLite consistent.
        let mut conn = writer.lock().unwrap_or_else(|e| e.into_inner());
        write(&mut conn, batch);
    }
}

/// The answer of a step whose writer is gone.
pub(super) fn writer_gone() -> rusqlite::Error {
    other_error("the store's writer stopped before the step was written".into())
}

/// Writes `batch` in one transaction and answers every step.
pub(super) fn write(conn: &mut Connection, batch: Vec<Append>) {
    let mut results = Vec::with_capacity(batch.len());
    let committed = (|| {
        let tx = conn.transaction()?;
        for step in &batch {
            results.push(write_one(&tx, step));
        }
        tx.commit()
    })();
    match committed {
        Ok(()) => {
            for (step, result) in batch.into_iter().zip(results) {
                let _ = step.answer.send(result.map_err(Into::into));
            }
        }
        // Nothing of the batch was stored: each step gets the failure.
        Err(e) => {
            for step in batch {
                let _ = step.answer.send(Err(copy_error(&e).into()));
            }
        }
    }
}

/// One step inside its savepoint: stored with its summary, or not at all.
fn write_one(tx: &rusqlite::Transaction<'_>, step: &Append) -> SqlResult<()> {
    // Prepared once per connection, like the statements of the step.
    tx.prepare_cached("SAVEPOINT step")?.execute([])?;
    let done = tx
        .prepare_cached("INSERT INTO moves (game_id, seq, token, at_ms) VALUES (?1, ?2, ?3, ?4)")
        .and_then(|mut insert| insert.execute(params![step.id, step.seq, step.token, step.at_ms]))
        .and_then(|_| update_summary(tx, &step.id, &step.summary));
    match done {
        Ok(()) => tx.prepare_cached("RELEASE step")?.execute([]).map(drop),
        Err(e) => {
            tx.prepare_cached("ROLLBACK TO step")?.execute([])?;
            tx.prepare_cached("RELEASE step")?.execute([])?;
            Err(e)
        }
    }
}

/// The same failure for another step of a batch whose commit failed
/// (`rusqlite::Error` is not `Clone`): SQLite's codes are kept, which is
/// what the server's answers (busy, full disk, I/O) are decided by.
fn copy_error(e: &rusqlite::Error) -> rusqlite::Error {
    match e {
        rusqlite::Error::SqliteFailure(code, message) => {
            rusqlite::Error::SqliteFailure(*code, message.clone())
        }
        other => other_error(other.to_string()),
    }
}

/// A failure that is not SQLite's own, with its message.
fn other_error(message: String) -> rusqlite::Error {
    rusqlite::Error::SqliteFailure(
        rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_ERROR),
        Some(message),
    )
}
