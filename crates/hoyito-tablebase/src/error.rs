//! Errors of the tablebase library.

use std::path::PathBuf;

use thiserror::Error;

/// Why a tablebase cannot be built, opened or probed.
#[derive(Debug, Error)]
pub enum TablebaseError {
    /// The rules use an option the tablebase does not cover.
    #[error("unsupported for tablebases: {0}")]
    Unsupported(String),
    /// The position's layer has not been built (or was not found).
    #[error("no tablebase layer for {seeds} seeds in play (built: {built})")]
    Missing {
        /// Seeds in play of the probed position.
        seeds: u32,
        /// The layers that are available, e.g. `4, 8, 12`.
        built: String,
    },
    /// A layer is too large for this solver.
    #[error("the {seeds}-seed layer has {positions} positions, more than this solver handles ({limit})")]
    TooLarge {
        /// Seeds in play.
        seeds: u32,
        /// Positions in the layer.
        positions: u64,
        /// Largest layer handled.
        limit: u64,
    },
    /// Reading or writing a file failed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The system error.
        #[source]
        source: std::io::Error,
    },
    /// An [`ExactSearch`](crate::search::ExactSearch) reached its node
    /// limit before settling the value.
    #[error("the search reached its limit of {limit} positions without a result")]
    NodeLimit {
        /// The limit set by `ExactSearch::set_node_limit`.
        limit: u64,
    },
    /// An [`ExactSearch`](crate::search::ExactSearch) passed its deadline
    /// before settling the value.
    #[error("the search ran out of its time without a result")]
    Deadline,
    /// A build was stopped through its stop flag
    /// ([`Tablebase::build_until`](crate::Tablebase::build_until)); the stream
    /// solver saved its state, and building again resumes it.
    #[error("stopped while solving the {seeds}-seed layer (building again resumes it)")]
    Interrupted {
        /// Seeds in play of the layer being solved.
        seeds: u32,
    },
    /// A layer file failed its checks.
    #[error("{}: corrupt tablebase file: {reason}", path.display())]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What was wrong.
        reason: String,
    },
}
