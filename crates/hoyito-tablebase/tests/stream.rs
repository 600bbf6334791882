//! The stream solver against the graph solver (identical values and
//! files), and its resumption after a stop.

use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

use hoyito_core::{Rules, RulesSpec, Variant};
use hoyito_tablebase::index::Indexer;
use hoyito_tablebase::{
    file, layer_seeds, BuildOptions, LayerReport, Progress, Solver, Stage, Tablebase, TablebaseError,
};

fn rules(variant: Variant, holes: u8) -> Rules {
    Rules::try_from(RulesSpec {
        variant,
        holes,
        ..RulesSpec::default()
    })
    .unwrap()
}

/// Builds `rules` to `max_seeds` into `dir` with `solver`.
fn build(r: Rules, dir: &Path, max_seeds: u32, solver: Solver) -> Vec<LayerReport> {
    let mut reports = Vec::new();
    let options = BuildOptions {
        progress: None,
        solver,
    };
    Tablebase::build(r, dir, max_seeds, options, |rep| reports.push(*rep)).unwrap();
    reports
}

/// The files of `rules` in `dir`, sorted by name, with their bytes.
fn files(r: Rules, dir: &Path) -> Vec<(String, Vec<u8>)> {
    let sub = file::rules_dir(dir, &r);
    let mut v: Vec<(String, Vec<u8>)> = std::fs::read_dir(&sub)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().into_string().unwrap(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect();
    v.sort();
    v
}

/// The stream solver writes byte for byte the graph solver's files, and
/// leaves no work file behind.
#[test]
fn stream_build_writes_the_graph_solvers_files() {
    for (holes, max_seeds) in [(4, 16), (5, 12)] {
        for v in Variant::ALL {
            let r = rules(v, holes);
            let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
            build(r, a.path(), max_seeds, Solver::Graph);
            let reports = build(r, b.path(), max_seeds, Solver::Stream);
            let (x, y) = (files(r, a.path()), files(r, b.path()));
            assert_eq!(
                y.len(),
                layer_seeds(max_seeds).count(),
                "{r}: {:?}",
                y.iter().map(|f| &f.0).collect::<Vec<_>>()
            );
            assert_eq!(x, y, "{r}");
            // Solved by the stream solver, with its per-sweep figures.
            let solved: Vec<_> = reports
                .iter()
                .filter_map(|rep| match rep {
                    LayerReport::Solved(s) => Some(*s),
                    _ => None,
                })
                .collect();
            assert_eq!(solved.len(), layer_seeds(max_seeds).count());
            for s in &solved {
                assert!(s.lean && s.spill_bytes > 0, "{s:?}");
                // At most 2.5 bytes of work memory per position.
                assert!(s.work_bytes * 2 <= s.positions * 5, "{s:?}");
                let sweeps = reports
                    .iter()
                    .filter(|rep| matches!(rep, LayerReport::Sweep { seeds, .. } if *seeds == s.seeds))
                    .count();
                assert_eq!(sweeps as u32, s.sweeps, "{s:?}");
            }
            // The values are nonzero somewhere and satisfy the Bellman equations.
            let tb = Tablebase::open(r, b.path()).unwrap();
            let top = Indexer::new(r.board_len(), max_seeds);
            let nonzero = (0..top.count())
                .filter(|&p| {
                    let mut board = vec![0u8; r.board_len()];
                    top.unrank(p, &mut board);
                    tb.board_value(&board) != Some(0)
                })
                .count();
            assert!(nonzero > 0, "{r}");
            for seeds in layer_seeds(max_seeds) {
                let (_, bad) = tb.check_bellman(seeds, 3).unwrap();
                assert!(bad.is_empty(), "{r}, {seeds} seeds: {bad:?}");
            }
        }
    }
}

/// In memory too, the stream solver's tables equal the graph solver's.
#[test]
fn stream_in_memory_equals_graph() {
    let r = rules(Variant::II, 4);
    let a = Tablebase::solve_in_memory_with(r, 16, Solver::Graph).unwrap();
    let b = Tablebase::solve_in_memory_with(r, 16, Solver::Stream).unwrap();
    for seeds in layer_seeds(16) {
        let ix = Indexer::new(r.board_len(), seeds);
        let mut board = vec![0u8; r.board_len()];
        for p in 0..ix.count() {
            ix.unrank(p, &mut board);
            assert_eq!(a.board_value(&board), b.board_value(&board), "{board:?}");
        }
    }
}

/// Builds with the stream solver, stopping (through the stop flag) once
/// `after` positions of `stage` of the top layer are done; returns whether it
/// stopped.
fn build_stopping(r: Rules, dir: &Path, max_seeds: u32, stage: Stage, after: u64) -> bool {
    let stop = AtomicBool::new(false);
    let on_progress = |p: &Progress| {
        if p.seeds == max_seeds && p.stage == stage && p.done >= after {
            stop.store(true, Relaxed);
        }
    };
    let options = BuildOptions {
        progress: Some(&on_progress),
        solver: Solver::Stream,
    };
    match Tablebase::build_until(r, dir, max_seeds, options, Some(&stop), |_| {}) {
        Ok(_) => false,
        Err(TablebaseError::Interrupted { seeds }) => {
            assert_eq!(seeds, max_seeds);
            true
        }
        Err(e) => panic!("{e}"),
    }
}

/// A build stopped in its first sweep (moves file incomplete) or in a later
/// one (moves file complete), then resumed, writes the same bytes as one
/// never stopped; the resumed run starts after the saved sweep.
#[test]
fn stopped_builds_resume_to_the_same_bytes() {
    let r = rules(Variant::III, 5);
    let max_seeds = 16;
    let whole = tempfile::tempdir().unwrap();
    let reports = build(r, whole.path(), max_seeds, Solver::Stream);
    let sweeps = reports
        .iter()
        .find_map(|rep| match rep {
            LayerReport::Solved(s) if s.seeds == max_seeds => Some(s.sweeps),
            _ => None,
        })
        .unwrap();
    assert!(sweeps >= 3, "{sweeps} sweeps");
    let positions = Indexer::new(r.board_len(), max_seeds).count();
    for (stage, after) in [
        (Stage::Sweep(1), positions / 3),
        (Stage::Sweep(2), positions / 2),
        (Stage::Sweep(3), 1),
    ] {
        let dir = tempfile::tempdir().unwrap();
        assert!(
            build_stopping(r, dir.path(), max_seeds, stage, after),
            "{stage:?}"
        );
        let sub = file::rules_dir(dir.path(), &r);
        let names: Vec<String> = files(r, dir.path()).into_iter().map(|f| f.0).collect();
        // No layer file for the stopped layer, its state saved; the moves
        // file complete only after the first sweep.
        assert!(!sub.join(file::layer_file_name(max_seeds)).exists());
        assert!(names.contains(&"seeds-016.state".to_string()), "{names:?}");
        assert_eq!(
            names.contains(&"seeds-016.moves".to_string()),
            stage != Stage::Sweep(1),
            "{names:?}"
        );
        // Resume: the first sweep of the run comes after the saved one.
        let first = AtomicU64::new(u64::MAX);
        let on_progress = |p: &Progress| {
            if let Stage::Sweep(n) = p.stage {
                first.fetch_min(n as u64, Relaxed);
            }
        };
        let options = BuildOptions {
            progress: Some(&on_progress),
            solver: Solver::Stream,
        };
        Tablebase::build(r, dir.path(), max_seeds, options, |_| {}).unwrap();
        let Stage::Sweep(n) = stage else { unreachable!() };
        assert_eq!(first.load(Relaxed), n as u64, "{stage:?}");
        assert_eq!(files(r, whole.path()), files(r, dir.path()), "{stage:?}");
    }
}
