//! Building a tablebase: the solvers ([`Solver`]) and the choice among
//! them, solving layers in memory ([`Tablebase::solve_in_memory`]) or into
//! files ([`Tablebase::build`], reusing the layer files that exist), and
//! what a build reports per layer ([`LayerReport`]).

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

use hoyito_core::Rules;

use crate::file::{self, LayerFile};
use crate::solve::{self, LayerStats, MAX_LAYER_POSITIONS};
use crate::{compact, layer_seeds, lean, stream, Layer, OnProgress, SweepStats, Tablebase, TablebaseError};

/// Which solver solves a layer.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Solver {
    /// The graph solver when the layer's move graph fits in memory
    /// (see [`graph_fits`]), else the stream solver (faster than the
    /// compact, disk and lean solvers, in less memory: docs/SOLUTIONS.md).
    #[default]
    Auto,
    /// [`solve::solve_layer`]: stores the layer's move graph (27–43 bytes per position).
    Graph,
    /// [`lean::solve_layer_lean`] with its compact cache of inner edges
    /// (about 13 bytes per position, no predecessor lists, plain sweeps).
    Compact,
    /// The compact solver with its inner edges in a temporary file beside
    /// the tables ([`lean::Cache::Disk`]): about 5 bytes of memory per
    /// position, and 4 bytes of disk per inner edge while the layer is solved.
    Disk,
    /// [`lean::solve_layer_lean`]: 2–4 bytes per position, moves regenerated on every sweep.
    Lean,
    /// [`stream::solve_layer_stream`]: 2.25 bytes of memory per position,
    /// the moves generated once and streamed from a work file beside the
    /// tables (about 3 bytes plus 5 per inner edge of disk while the layer is
    /// solved); resumable after an interruption.
    Stream,
}

/// Bytes of memory per position of [`Solver::Disk`] (2 of state, 2 of
/// exits, 1 edge count); [`Solver::Auto`] no longer chooses it, the stream
/// solver being faster in less memory.
pub const DISK_BYTES_PER_POSITION: u64 = 5;

/// Bytes per position assumed for the graph solver's work memory when
/// choosing a solver (the largest measured: 43 on 2×6 with work lists).
pub const GRAPH_BYTES_PER_POSITION: u64 = 44;

/// Memory the graph solver may use: half of the memory available now
/// (`MemAvailable` of `/proc/meminfo`), or 4 GiB where that is unknown.
pub fn graph_memory_budget() -> u64 {
    let available = std::fs::read_to_string("/proc/meminfo").ok().and_then(|m| {
        m.lines()
            .find_map(|l| l.strip_prefix("MemAvailable:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
            .map(|kb| kb * 1024)
    });
    available.map_or(4 << 30, |b| b / 2)
}

/// Whether the graph solver can take a layer of `positions` positions within
/// `budget` bytes (and its 31-bit child ranks).
pub fn graph_fits(positions: u64, budget: u64) -> bool {
    positions < MAX_LAYER_POSITIONS && positions.saturating_mul(GRAPH_BYTES_PER_POSITION) <= budget
}

/// Options of [`Tablebase::build`].
#[derive(Clone, Copy, Default)]
pub struct BuildOptions<'a> {
    /// Called with the progress of each layer being solved (from the
    /// solver's worker threads; see [`OnProgress`]).
    pub progress: Option<OnProgress<'a>>,
    /// Which solver to use for layers that are not reused.
    pub solver: Solver,
}

impl std::fmt::Debug for BuildOptions<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BuildOptions")
            .field("progress", &self.progress.map(|_| "callback"))
            .field("solver", &self.solver)
            .finish()
    }
}

/// What [`Tablebase::build`] did for one layer.
#[derive(Debug, Clone, Copy)]
pub enum LayerReport {
    /// The layer's file existed and passed its checks.
    Reused {
        /// Seeds in play.
        seeds: u32,
        /// Positions.
        positions: u64,
    },
    /// One sweep of a sweeping solver (lean, compact, disk, stream) is done
    /// (the layer is not written yet).
    Sweep {
        /// Seeds in play of the layer being solved.
        seeds: u32,
        /// The sweep's figures.
        stats: SweepStats,
    },
    /// The layer was solved and written.
    Solved(LayerStats),
}

impl Tablebase {
    fn solve_one(
        &self,
        seeds: u32,
        progress: Option<OnProgress<'_>>,
        solver: Solver,
        spill_dir: &Path,
        report: &mut dyn FnMut(&LayerReport),
    ) -> Result<(Vec<i8>, LayerStats), TablebaseError> {
        let positions = self.indexers[seeds as usize].count();
        let progress = progress.unwrap_or(&|_| {});
        let solver = self.choose(solver, positions);
        if solver == Solver::Stream {
            let solved = self.solve_stream(seeds, Some(progress), spill_dir, None, report)?;
            let values = (0..positions).map(|p| solved.value(p)).collect();
            stream::remove_work_files(spill_dir, seeds)?;
            return Ok((values, solved.stats));
        }
        if matches!(solver, Solver::Compact | Solver::Disk) && positions > MAX_LAYER_POSITIONS {
            return Err(TablebaseError::TooLarge {
                seeds,
                positions,
                limit: MAX_LAYER_POSITIONS,
            });
        }
        if solver != Solver::Graph {
            let cache = match solver {
                Solver::Compact => lean::Cache::Memory,
                Solver::Disk => lean::Cache::Disk(spill_dir),
                _ => lean::Cache::None,
            };
            let (values, stats, _) =
                lean::solve_layer_lean(self.rules, seeds, self, progress, cache, |st| {
                    report(&LayerReport::Sweep { seeds, stats: *st })
                })?;
            return Ok((values, stats));
        }
        if positions >= MAX_LAYER_POSITIONS {
            return Err(TablebaseError::TooLarge {
                seeds,
                positions,
                limit: MAX_LAYER_POSITIONS - 1,
            });
        }
        Ok(solve::solve_layer(self.rules, seeds, self, progress))
    }

    /// The solver [`Solver::Auto`] stands for with a layer of `positions`.
    fn choose(&self, solver: Solver, positions: u64) -> Solver {
        match solver {
            Solver::Auto => {
                if graph_fits(positions, graph_memory_budget()) {
                    Solver::Graph
                } else {
                    // Faster than the compact, disk and lean solvers in
                    // less memory (docs/SOLUTIONS.md), and for layers of
                    // up to 2³⁹ positions.
                    Solver::Stream
                }
            }
            other => other,
        }
    }

    fn solve_stream(
        &self,
        seeds: u32,
        progress: Option<OnProgress<'_>>,
        dir: &Path,
        stop: Option<&AtomicBool>,
        report: &mut dyn FnMut(&LayerReport),
    ) -> Result<stream::Solved, TablebaseError> {
        stream::solve_layer_stream(
            self.rules,
            seeds,
            self,
            progress.unwrap_or(&|_| {}),
            dir,
            stop,
            |st| report(&LayerReport::Sweep { seeds, stats: *st }),
        )
    }

    /// Solves layers 4, 8, …, `max_seeds` in memory, without files, with
    /// the solver chosen by [`Solver::Auto`].
    ///
    /// # Errors
    /// [`TablebaseError::Unsupported`] for rules the tablebase does not cover.
    pub fn solve_in_memory(rules: Rules, max_seeds: u32) -> Result<Tablebase, TablebaseError> {
        Tablebase::solve_in_memory_with(rules, max_seeds, Solver::Auto)
    }

    /// Solves layers 4, 8, …, `max_seeds` in memory with `solver`.
    ///
    /// # Errors
    /// As [`Tablebase::solve_in_memory`], plus [`TablebaseError::TooLarge`]
    /// for a layer of 2³¹ positions or more with [`Solver::Graph`].
    pub fn solve_in_memory_with(
        rules: Rules,
        max_seeds: u32,
        solver: Solver,
    ) -> Result<Tablebase, TablebaseError> {
        let mut tb = Tablebase::empty(rules, max_seeds)?;
        let work = tempfile::tempdir().map_err(|source| TablebaseError::Io {
            path: std::env::temp_dir(),
            source,
        })?;
        for seeds in layer_seeds(max_seeds) {
            let (values, _) = tb.solve_one(seeds, None, solver, work.path(), &mut |_| {})?;
            tb.layers[seeds as usize] = Some(Layer::Owned(values));
        }
        Ok(tb)
    }

    /// Builds layers 4, 8, …, `max_seeds` into `rules_dir(dir, rules)`,
    /// reusing layer files that exist and pass their checks, and calls
    /// `report` after each layer. The result probes every built layer.
    ///
    /// # Errors
    /// As [`Tablebase::solve_in_memory`], plus [`TablebaseError::Io`] when
    /// writing fails. Layers written before the error are complete files.
    pub fn build(
        rules: Rules,
        dir: &Path,
        max_seeds: u32,
        options: BuildOptions<'_>,
        report: impl FnMut(&LayerReport),
    ) -> Result<Tablebase, TablebaseError> {
        Tablebase::build_until(rules, dir, max_seeds, options, None, report)
    }

    /// As [`Tablebase::build`], stopping when `stop` becomes true: the
    /// stream solver ([`Solver::Stream`]) then saves its state (building
    /// again resumes the layer where it stopped, and writes the same
    /// bytes); the other solvers look at `stop` only between layers.
    ///
    /// # Errors
    /// As [`Tablebase::build`], plus [`TablebaseError::Interrupted`] when stopped.
    pub fn build_until(
        rules: Rules,
        dir: &Path,
        max_seeds: u32,
        options: BuildOptions<'_>,
        stop: Option<&AtomicBool>,
        mut report: impl FnMut(&LayerReport),
    ) -> Result<Tablebase, TablebaseError> {
        let mut tb = Tablebase::empty(rules, max_seeds)?;
        let sub = file::rules_dir(dir, &rules);
        for seeds in layer_seeds(max_seeds) {
            let path = sub.join(file::layer_file_name(seeds));
            let positions = tb.indexers[seeds as usize].count();
            let compact_path = sub.join(compact::compact_file_name(seeds));
            if path.exists() || compact_path.exists() {
                if let Ok(layer) = tb.open_layer(&sub, seeds) {
                    tb.layers[seeds as usize] = Some(layer);
                    report(&LayerReport::Reused { seeds, positions });
                    continue;
                }
            }
            // A layer is solved above these: the solvers read lower layers
            // at random, which a compact layer answers a block at a time.
            tb.expand();
            // The layer's file goes here, and the disk solver's edge file.
            std::fs::create_dir_all(&sub).map_err(|source| TablebaseError::Io {
                path: sub.clone(),
                source,
            })?;
            if stop.is_some_and(|s| s.load(Relaxed)) {
                return Err(TablebaseError::Interrupted { seeds });
            }
            let stats = if tb.choose(options.solver, positions) == Solver::Stream {
                // The values go from the packed states to the file block by
                // block: no second copy of the layer in memory.
                let solved = tb.solve_stream(seeds, options.progress, &sub, stop, &mut report)?;
                file::write_layer_with(&path, &rules, seeds, positions, |start, block| {
                    for (i, v) in block.iter_mut().enumerate() {
                        *v = solved.value(start + i as u64);
                    }
                })?;
                stream::remove_work_files(&sub, seeds)?;
                solved.stats
            } else {
                let (values, stats) =
                    tb.solve_one(seeds, options.progress, options.solver, &sub, &mut report)?;
                file::write_layer(&path, &rules, seeds, &values)?;
                stats
            };
            tb.layers[seeds as usize] =
                Some(Layer::Mapped(LayerFile::open(&path, &rules, seeds, positions)?));
            report(&LayerReport::Solved(stats));
        }
        Ok(tb)
    }
}
