//! What to build and what a build reports: [`BuildJob`], [`SweepFigures`],
//! [`LayerSummary`].

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use hoyito_core::Rules;

use crate::wire::Report;

/// Called by each worker after each of its sweeps with the layer's seeds
/// and the sweep (before the round that reports it).
pub type OnSweep = Arc<dyn Fn(u32, u32) + Send + Sync>;

/// What to build: layers 4, 8, …, `max_seeds` of `rules` into `dir`.
#[derive(Clone)]
pub struct BuildJob {
    /// The rules (checked with `hoyito_tablebase::check_rules`).
    pub rules: Rules,
    /// The tables' directory (their files go to its subdirectory for the
    /// rules, as with `hoyito tablebase build`). All workers must see the
    /// same directory: one machine, or a shared file system.
    pub dir: PathBuf,
    /// The top layer.
    pub max_seeds: u32,
    /// Print each layer's and sweep's figures to stderr (from worker 0).
    pub verbose: bool,
    /// Called after each sweep of each worker.
    pub on_sweep: Option<OnSweep>,
}

impl std::fmt::Debug for BuildJob {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BuildJob")
            .field("rules", &self.rules)
            .field("dir", &self.dir)
            .field("max_seeds", &self.max_seeds)
            .field("verbose", &self.verbose)
            .finish_non_exhaustive()
    }
}

/// The figures of one sweep, over all workers, with the round that followed it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SweepFigures {
    /// The sweep (1 is the move generation).
    pub sweep: u32,
    /// The sum of the workers' reports of the sweep and its round.
    pub total: Report,
    /// This worker's own sweep time.
    pub seconds_local: Duration,
    /// Wall clock of the sweep and its round at this worker.
    pub seconds: Duration,
}

/// What a worker did for one layer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LayerSummary {
    /// Seeds of the layer.
    pub seeds: u32,
    /// Positions of the layer.
    pub positions: u64,
    /// The layer's file existed and passed its checks; nothing was solved.
    pub reused: bool,
    /// This worker's positions.
    pub part_positions: u64,
    /// This worker's inner edges.
    pub part_edges: u64,
    /// This worker's ghosts (distinct children owned by other workers).
    pub ghosts: u64,
    /// Entries of this worker's lists of positions other workers hold.
    pub subscriptions: u64,
    /// The ghost lists' round: records and bytes over all workers.
    pub setup: Report,
    /// Every sweep, over all workers.
    pub sweeps: Vec<SweepFigures>,
    /// This worker's memory for the layer (states, exits, edges, ghosts, lists).
    pub work_bytes: u64,
    /// Wall clock of the layer, files included.
    pub seconds: Duration,
}
