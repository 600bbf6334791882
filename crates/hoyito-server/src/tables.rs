//! The server's endgame tablebases ([`Tablebases`]): the tables under one
//! directory, opened on first use, and the set a server builds there in
//! the background when it starts ([`default_plan`]: every 2×4 position
//! and every 2×6 position with up to 16 seeds in play, in the three
//! variants), so that exact values and perfect play need no operator.
//! Each set is stored compact once built ([`hoyito_tablebase::compact`]:
//! about a third of the disk of one-byte files), unless the server keeps
//! one-byte tables ([`Tablebases::keep_bytes`]).

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use hoyito_core::{Rules, Variant};
use hoyito_tablebase::compact::{compact_tables, CompactOptions};
use hoyito_tablebase::{BuildOptions, Solver, Tablebase, TablebaseError};

/// One rule set's tables to build: layers 4, 8, …, `max_seeds`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TableSet {
    /// The rules.
    pub rules: Rules,
    /// The largest number of seeds in play.
    pub max_seeds: u32,
}

/// The tables a server builds when it starts, smallest first: every 2×4
/// position (up to 32 seeds) and every 2×6 position with up to 16 seeds in
/// play, for Hoyito I, II and III with the standard options.
pub fn default_plan() -> Vec<TableSet> {
    let variants = [Variant::I, Variant::II, Variant::III];
    let set = |variant, holes, max_seeds| TableSet {
        rules: Rules::new(variant, holes).expect("a standard board"),
        max_seeds,
    };
    variants
        .iter()
        .map(|&v| set(v, 4, 32))
        .chain(variants.iter().map(|&v| set(v, 6, 16)))
        .collect()
}

/// The endgame tablebases of a server (`hoyito tablebase build` output
/// under one directory), for level-10 engine moves, hints and exact
/// values: perfect play where they cover the position. The tables of a
/// rule set are opened (and their files checked) on first use and kept;
/// a set the server builds is opened anew once built.
pub struct Tablebases {
    dir: PathBuf,
    pub(crate) opened: Mutex<HashMap<Rules, Arc<Tablebase>>>,
    plan: Vec<TableSet>,
    /// Sets of `plan` built so far.
    built: AtomicUsize,
    /// Why building stopped, if it failed.
    failed: Mutex<Option<String>>,
    /// Keep the sets built as one-byte files (not compacted).
    keep_bytes: bool,
}

impl Tablebases {
    /// The tablebases stored under `dir`; nothing is opened yet.
    pub fn new(dir: PathBuf) -> Tablebases {
        Tablebases::with_plan(dir, Vec::new())
    }

    /// The tablebases stored under `dir`, where the server builds `plan`
    /// ([`Tablebases::build_plan`]).
    pub fn with_plan(dir: PathBuf, plan: Vec<TableSet>) -> Tablebases {
        Tablebases {
            dir,
            opened: Mutex::new(HashMap::new()),
            plan,
            built: AtomicUsize::new(0),
            failed: Mutex::new(None),
            keep_bytes: false,
        }
    }

    /// The directory the tables are stored under.
    pub fn dir(&self) -> &std::path::Path {
        &self.dir
    }

    /// Whether the sets built are kept as one-byte files (`true`: faster
    /// probes outside the cache of decoded blocks, about three times the
    /// disk) or converted to compact files (`false`, the default).
    pub fn keep_bytes(mut self, keep: bool) -> Tablebases {
        self.keep_bytes = keep;
        self
    }

    /// The tables of `rules`, opened on first use; `None` if there are
    /// none for these rules (they are looked for again next time, so
    /// tables built while the server runs are found). Blocks while opening:
    /// call from a blocking thread.
    pub fn for_rules(&self, rules: Rules) -> Option<Arc<Tablebase>> {
        if let Some(tb) = self.opened.lock().unwrap_or_else(|e| e.into_inner()).get(&rules) {
            return Some(Arc::clone(tb));
        }
        // Opened without the lock: a second request may open the same
        // tables meanwhile, and the first one stored is kept.
        let tb = Arc::new(Tablebase::open(rules, &self.dir).ok()?);
        let mut opened = self.opened.lock().unwrap_or_else(|e| e.into_inner());
        Some(Arc::clone(opened.entry(rules).or_insert(tb)))
    }

    /// Whether the server is still to build tables of `rules` (or is
    /// building them now), up to how many seeds.
    pub fn building(&self, rules: &Rules) -> Option<u32> {
        if self.failed.lock().unwrap_or_else(|e| e.into_inner()).is_some() {
            return None;
        }
        let built = self.built.load(Ordering::Acquire);
        self.plan
            .get(built..)?
            .iter()
            .find(|s| s.rules == *rules)
            .map(|s| s.max_seeds)
    }

    /// Whether there is anything to build.
    pub fn has_plan(&self) -> bool {
        !self.plan.is_empty()
    }

    /// Builds the plan's sets not built yet, in order, on the calling
    /// thread, each on one worker thread at the lowest priority (play
    /// goes first), then converts each set to compact files unless told
    /// to keep one-byte ones; stops between layers (the stream solver:
    /// within one, keeping its state) once `stop` is set. Layer files
    /// already built and valid, of either format, are reused, so a
    /// restarted server goes on where it was.
    ///
    /// # Errors
    /// The first set that failed, and why (also kept: [`Tablebases::building`]
    /// then says nothing is being built).
    pub fn build_plan(&self, stop: &AtomicBool) -> Result<(), TablebaseError> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .thread_name(|_| "hoyito-tables".into())
            .start_handler(|_| lowest_priority())
            .build()
            .map_err(|e| TablebaseError::Io {
                path: self.dir.clone(),
                source: std::io::Error::other(e),
            })?;
        for (i, set) in self
            .plan
            .iter()
            .enumerate()
            .skip(self.built.load(Ordering::Acquire))
        {
            if stop.load(Ordering::Relaxed) {
                return Err(TablebaseError::Interrupted { seeds: 0 });
            }
            let started = Instant::now();
            let options = BuildOptions {
                progress: None,
                solver: Solver::Stream,
            };
            let result = pool.install(|| {
                Tablebase::build_until(set.rules, &self.dir, set.max_seeds, options, Some(stop), |_| {})?;
                if !self.keep_bytes {
                    // Written whole and read back before a one-byte file goes.
                    compact_tables(
                        set.rules,
                        &self.dir,
                        CompactOptions::default(),
                        Some(stop),
                        |_| {},
                    )?;
                }
                Ok(())
            });
            if let Err(e) = result {
                if !matches!(e, TablebaseError::Interrupted { .. }) {
                    tracing::warn!("tables of {} up to {} seeds: {e}", set.rules, set.max_seeds);
                    *self.failed.lock().unwrap_or_else(|p| p.into_inner()) = Some(e.to_string());
                }
                return Err(e);
            }
            // Opened anew with the layers just built (or compacted).
            self.opened
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .remove(&set.rules);
            self.built.store(i + 1, Ordering::Release);
            tracing::info!(
                "tables of {} up to {} seeds ready in {:.1} s",
                set.rules,
                set.max_seeds,
                started.elapsed().as_secs_f64()
            );
        }
        Ok(())
    }
}

/// Gives the calling thread the lowest scheduling priority (nice 19), so
/// that a background build takes only what play leaves.
fn lowest_priority() {
    // Linux gives each thread its own nice value: this thread's only.
    #[cfg(target_os = "linux")]
    if let Err(e) = rustix::process::setpriority_process(Some(rustix::thread::gettid()), 19) {
        tracing::warn!("the tables' builder keeps its priority: {e}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_plan_covers_2x4_whole_and_2x6_to_16_seeds_smallest_first() {
        let plan = default_plan();
        assert_eq!(plan.len(), 6);
        assert!(plan[..3]
            .iter()
            .all(|s| s.rules.holes() == 4 && s.max_seeds == 32));
        assert!(plan[3..]
            .iter()
            .all(|s| s.rules.holes() == 6 && s.max_seeds == 16));
    }

    #[test]
    fn a_plan_is_built_once_and_its_tables_then_open() {
        let dir = tempfile::tempdir().unwrap();
        let rules = Rules::new(Variant::II, 4).unwrap();
        let tb = Tablebases::with_plan(dir.path().to_path_buf(), vec![TableSet { rules, max_seeds: 8 }]);
        assert_eq!(tb.building(&rules), Some(8));
        assert!(tb.for_rules(rules).is_none());
        tb.build_plan(&AtomicBool::new(false)).unwrap();
        assert_eq!(tb.building(&rules), None);
        let opened = tb.for_rules(rules).expect("the tables built");
        assert_eq!(opened.layers(), vec![4, 8]);
        // Stored compact, the one-byte files gone.
        assert_eq!(
            opened.layer_format(8),
            Some(hoyito_tablebase::LayerFormat::Compact)
        );
        let sub = Tablebase::files_dir(dir.path(), &rules);
        let mut names: Vec<_> = std::fs::read_dir(&sub)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        assert_eq!(names, ["seeds-004.htc", "seeds-008.htc"]);
        // Built again (a restart), nothing changes.
        let again = Tablebases::with_plan(dir.path().to_path_buf(), vec![TableSet { rules, max_seeds: 8 }]);
        again.build_plan(&AtomicBool::new(false)).unwrap();
        assert_eq!(
            again.for_rules(rules).unwrap().layer_format(4),
            Some(hoyito_tablebase::LayerFormat::Compact)
        );
        // A server that keeps one-byte tables leaves them so.
        let bytes_dir = tempfile::tempdir().unwrap();
        let bytes = Tablebases::with_plan(
            bytes_dir.path().to_path_buf(),
            vec![TableSet { rules, max_seeds: 8 }],
        )
        .keep_bytes(true);
        bytes.build_plan(&AtomicBool::new(false)).unwrap();
        assert_eq!(
            bytes.for_rules(rules).unwrap().layer_format(8),
            Some(hoyito_tablebase::LayerFormat::Bytes)
        );
        // Stopped before it starts, nothing more is built.
        let other = Tablebases::with_plan(
            dir.path().to_path_buf(),
            vec![TableSet {
                rules: Rules::new(Variant::I, 4).unwrap(),
                max_seeds: 4,
            }],
        );
        assert!(matches!(
            other.build_plan(&AtomicBool::new(true)),
            Err(TablebaseError::Interrupted { .. })
        ));
    }
}
