//! Progress of a layer being solved, reported to a callback so that the
//! caller can draw it (the `hoyito` binary draws progress bars); the
//! library draws nothing.

#[cfg(feature = "files")]
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Where a solver is in a layer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    /// Seeds in play of the layer.
    pub seeds: u32,
    /// What the solver is doing.
    pub stage: Stage,
    /// Positions of the stage done so far.
    pub done: u64,
    /// Positions of the stage in all (the layer's).
    pub total: u64,
}

/// A stage of solving a layer; each passes over the layer's positions once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// Generating the layer's move graph ([`solve_layer`](crate::solve::solve_layer)).
    Moves,
    /// A round of the fixpoint iteration over the graph, from 1.
    Round(u32),
    /// A sweep of [`solve_layer_lean`](crate::lean::solve_layer_lean), from
    /// 1 (the first evaluates every position).
    Sweep(u32),
}

impl std::fmt::Display for Progress {
    /// `16 seeds: round 3`, the stage of the layer.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} seeds: ", self.seeds)?;
        match self.stage {
            Stage::Moves => write!(f, "moves"),
            Stage::Round(n) => write!(f, "round {n}"),
            Stage::Sweep(1) => write!(f, "sweep 1 (all)"),
            Stage::Sweep(n) => write!(f, "sweep {n}"),
        }
    }
}

/// A progress callback. Solvers call it from their worker threads, at the
/// start of each stage (with `done` 0) and after each chunk of positions,
/// so it must be quick.
pub type OnProgress<'a> = &'a (dyn Fn(&Progress) + Sync);

/// Counts the positions of one stage across worker threads and reports them.
#[cfg(feature = "files")]
pub(crate) struct StageCounter<'a> {
    on_progress: OnProgress<'a>,
    seeds: u32,
    stage: Stage,
    total: u64,
    done: AtomicU64,
}

#[cfg(feature = "files")]
impl<'a> StageCounter<'a> {
    /// Starts `stage` of the layer of `seeds` (`total` positions): reports 0 done.
    pub(crate) fn start(on_progress: OnProgress<'a>, seeds: u32, stage: Stage, total: u64) -> Self {
        on_progress(&Progress {
            seeds,
            stage,
            done: 0,
            total,
        });
        StageCounter {
            on_progress,
            seeds,
            stage,
            total,
            done: AtomicU64::new(0),
        }
    }

    /// Counts `n` more positions done and reports the total so far.
    pub(crate) fn add(&self, n: u64) {
        let done = self.done.fetch_add(n, Relaxed) + n;
        (self.on_progress)(&Progress {
            seeds: self.seeds,
            stage: self.stage,
            done,
            total: self.total,
        });
    }
}
