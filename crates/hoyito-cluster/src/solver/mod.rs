//! # The partitioned layer solver
//!
//! The same fixpoint as `hoyito_tablebase::solve` and its stream solver
//! (`secure`/`concede` states packed in 16 bits, monotone updates from 0,
//! values `secure` or `−concede`), with the positions of a layer split
//! among the `W` workers of a timely computation.
//!
//! **Partition.** Worker `w` owns the contiguous rank range
//! `⌊N·w/W⌋..⌊N·(w+1)/W⌋` of the layer's `N` positions. Contiguous ranges
//! keep the part's positions in rank order, so a worker walks its range
//! with `Indexer::next` (no ranking) and its values are one contiguous
//! slice of the layer file. A hash partition would not spread the
//! children any better: a position's children (its board sown on) lie all
//! over the layer either way, so with `W` parts about `(W−1)/W` of the
//! inner edges cross to another worker whatever the partition, and
//! contiguous parts of equal size are balanced in positions and, measured,
//! within a few per cent in edges.
//!
//! **What a worker holds** for its part of `n` positions: the packed
//! state (2 bytes a position), its exits' bounds (2), its count of inner
//! edges (1), two change bits (¼), and the inner edges (4 bytes each: a
//! 30-bit index, a flag "held by another worker" and the flip bit). An edge
//! to a child of its own part indexes its state; an edge to a child owned
//! by another worker indexes a *ghost*: a copy of that child's state
//! (2 bytes and a bit per distinct such child). For each other worker it
//! also keeps the list of its own positions that worker holds as ghosts
//! (4 bytes an entry).
//!
//! **Rounds.** Every round is one timely epoch: each worker sends its
//! records at the epoch, ends them with a report to every worker, advances
//! its input, and steps the dataflow until the probe has passed the epoch,
//! when every record of the epoch has been received everywhere (timely's
//! progress tracking is the sweep boundary). A layer takes:
//!
//! 1. The first sweep: each worker generates its positions' moves with
//!    hoyito-core, keeps the inner edges, values the exits from the lower
//!    layers' files (memory-mapped) and evaluates each position once, with
//!    its ghosts at 0.
//! 2. Round 0: each worker sends every other worker the list of that
//!    worker's positions it holds as ghosts.
//! 3. Round `k` (for sweep `k ≥ 1`): each worker sends, to every worker
//!    that holds it, the state of each of its positions that changed in
//!    sweep `k` (8 bytes an update), and its count of changed positions.
//!    The receiving operator applies updates to the ghosts as they arrive
//!    (monotone: the larger of the two states), and marks them. If no
//!    position changed anywhere, the states are the least fixpoint: every
//!    position's equation holds with current children. Else sweep `k + 1`
//!    evaluates, in place, every position with a child changed since its
//!    last evaluation (a marked ghost, or a child of its own part changed
//!    in this sweep or the one before), as the stream solver does.
//! 4. Each worker writes its part's values to a part file; once all are
//!    written, worker 0 concatenates them into the layer file in the
//!    normal format (written under a temporary name and renamed, so a
//!    failed build leaves no layer file), removes the parts, and a last
//!    round tells everyone the layer is there for the next layers.
//!
//! Updates are monotone and every state stays between 0 and the least

mod files;
mod job;
mod layer;
mod node;
mod part;

use std::time::Instant;

use hoyito_tablebase::file::{self, LayerFile};
use hoyito_tablebase::Indexer;
use timely::worker::Worker;

use crate::error::ClusterError;
use crate::wire::Report;
use files::{io_at, Lower};
use layer::solve_layer;
use node::Node;

pub use files::{part_file_name, part_start};
pub use job::{BuildJob, LayerSummary, OnSweep, SweepFigures};

/// Builds the layers of `job` as one worker of a timely computation (every
/// worker calls it, with the same job): the body of [`crate::run`].
///
/// # Errors
/// See [`ClusterError`]; a worker that fails tells the others, which then
/// fail with [`ClusterError::WorkerFailed`] (or, if it is gone,
/// [`ClusterError::WorkerLost`]).
pub fn build_worker(worker: &mut Worker, job: &BuildJob) -> Result<Vec<LayerSummary>, ClusterError> {
    hoyito_tablebase::check_rules(&job.rules)?;
    if job.max_seeds > 127 {
        return Err(ClusterError::Tablebase(
            hoyito_tablebase::TablebaseError::Unsupported(format!(
                "{} seeds (values are stored in i8: at most 127 seeds)",
                job.max_seeds
            )),
        ));
    }
    let mut node = Node::new(worker);
    let sub = file::rules_dir(&job.dir, &job.rules);
    let mut lower = Lower {
        layers: (0..=job.max_seeds).map(|_| None).collect(),
    };
    let mut out = Vec::new();
    let holes = job.rules.board_len();
    for seeds in hoyito_tablebase::layer_seeds(job.max_seeds) {
        let t0 = Instant::now();
        let path = sub.join(file::layer_file_name(seeds));
        let count = Indexer::new(holes, seeds).count();
        // Every worker looks at the same file, which nobody writes now.
        if let Ok(f) = LayerFile::open(&path, &job.rules, seeds, count) {
            lower.layers[seeds as usize] = Some(f);
            if job.verbose && node.index == 0 {
                eprintln!("layer {seeds:>3}: {count} positions, reused");
            }
            out.push(LayerSummary {
                seeds,
                positions: count,
                reused: true,
                part_positions: 0,
                part_edges: 0,
                ghosts: 0,
                subscriptions: 0,
                setup: Report::default(),
                sweeps: Vec::new(),
                work_bytes: 0,
                seconds: t0.elapsed(),
            });
            continue;
        }
        let made = std::fs::create_dir_all(&sub).map_err(io_at(&sub));
        let solved = solve_layer(&mut node, worker, job, seeds, &lower, &sub, made.is_ok());
        made?;
        let mut summary = solved?;
        lower.layers[seeds as usize] = Some(LayerFile::open(&path, &job.rules, seeds, count)?);
        summary.seconds = t0.elapsed();
        if job.verbose && node.index == 0 {
            let s = &summary;
            eprintln!(
                "layer {seeds:>3}: done, {} positions, {} sweeps, {:.2} s",
                s.positions,
                s.sweeps.len(),
                s.seconds.as_secs_f64()
            );
        }
        out.push(summary);
    }
    Ok(out)
}
