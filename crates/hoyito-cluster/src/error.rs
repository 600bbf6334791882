//! The errors of a distributed build.

use std::path::PathBuf;

use hoyito_tablebase::TablebaseError;

/// Why a distributed build failed.
#[derive(Debug, thiserror::Error)]
pub enum ClusterError {
    /// Opening a lower layer or writing the layer file failed.
    #[error(transparent)]
    Tablebase(#[from] TablebaseError),
    /// A part file could not be written, read or removed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// timely could not set up its workers (for example, this process's
    /// address could not be bound).
    #[error("timely could not start its workers: {0}")]
    Timely(String),
    /// The host list is unusable.
    #[error("host list: {0}")]
    Hosts(String),
    /// A worker's part of a layer does not fit the 30-bit local indices of
    /// its edges: the layer needs more workers.
    #[error(
        "layer {seeds}: worker {worker}'s part has {positions} positions and {ghosts} children \
         held by other workers; at most 2^30 each, so use more workers"
    )]
    PartTooLarge {
        /// Seeds of the layer.
        seeds: u32,
        /// The worker.
        worker: usize,
        /// Positions of its part.
        positions: u64,
        /// Distinct children of its part held by other workers.
        ghosts: u64,
    },
    /// A round ended without the report of every worker: a worker stopped
    /// (its thread returned or panicked) before the build was done.
    #[error(
        "layer {seeds}: a round ended with the reports of {heard} of {workers} workers; a worker stopped"
    )]
    WorkerLost {
        /// Seeds of the layer.
        seeds: u32,
        /// Reports received.
        heard: usize,
        /// Workers in all.
        workers: usize,
    },
    /// Another worker reported a failure (its own error is reported by its
    /// process).
    #[error("layer {seeds}: worker {worker} failed")]
    WorkerFailed {
        /// Seeds of the layer.
        seeds: u32,
        /// The worker that failed.
        worker: usize,
    },
    /// A worker thread of this process panicked.
    #[error("a worker thread panicked: {0}")]
    Panicked(String),
}
