//! The lean and compact solvers against the graph solver: every value of
//! every layer must be identical (they compute the same least fixpoint).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use hoyito_core::{Rules, RulesSpec, Variant};
use hoyito_tablebase::index::Indexer;
use hoyito_tablebase::lean::{solve_layer_lean, Cache, LEAN_CHUNK};
use hoyito_tablebase::solve::solve_layer;
use hoyito_tablebase::{
    graph_fits, layer_seeds, Progress, Solver, Stage, Tablebase, GRAPH_BYTES_PER_POSITION,
};

fn rules(variant: Variant, holes: u8) -> Rules {
    Rules::try_from(RulesSpec {
        variant,
        holes,
        ..RulesSpec::default()
    })
    .unwrap()
}

/// Every stored value of `a` equals `b`'s, layer by layer; returns how many
/// values were nonzero (a table of zeros would compare equal too easily).
fn same_tables(rules: Rules, a: &Tablebase, b: &Tablebase, max_seeds: u32) -> u64 {
    let holes = rules.board_len();
    let mut nonzero = 0;
    for seeds in layer_seeds(max_seeds) {
        let ix = Indexer::new(holes, seeds);
        let mut board = vec![0u8; holes];
        ix.unrank(0, &mut board);
        loop {
            let (x, y) = (a.board_value(&board), b.board_value(&board));
            assert!(x.is_some(), "{rules}: layer {seeds} missing");
            assert_eq!(x, y, "{rules}: {board:?}");
            nonzero += (x != Some(0)) as u64;
            if !ix.next(&mut board) {
                break;
            }
        }
    }
    nonzero
}

/// The graph solver's tables of `rules` to `max_seeds`, built once per test
/// process (several tests compare other solvers with the same ones).
fn graph_tables(rules: Rules, max_seeds: u32) -> Arc<Tablebase> {
    type Built = Mutex<HashMap<(Rules, u32), Arc<OnceLock<Arc<Tablebase>>>>>;
    static BUILT: OnceLock<Built> = OnceLock::new();
    // One cell per key, filled outside the map's lock: tests building
    // different tables do not wait for each other.
    let cell = Arc::clone(
        BUILT
            .get_or_init(Default::default)
            .lock()
            .unwrap()
            .entry((rules, max_seeds))
            .or_default(),
    );
    let tb = cell
        .get_or_init(|| Arc::new(Tablebase::solve_in_memory_with(rules, max_seeds, Solver::Graph).unwrap()));
    Arc::clone(tb)
}

fn check(rules: Rules, max_seeds: u32, solver: Solver) {
    let graph = graph_tables(rules, max_seeds);
    let other = Tablebase::solve_in_memory_with(rules, max_seeds, solver).unwrap();
    assert!(same_tables(rules, &graph, &other, max_seeds) > 0);
    // And the Bellman equations hold for the other solver's values.
    for seeds in layer_seeds(max_seeds) {
        let (_, bad) = other.check_bellman(seeds, 3).unwrap();
        assert!(bad.is_empty(), "{rules}, {seeds} seeds: {bad:?}");
    }
}

#[test]
fn lean_equals_graph_on_2x4() {
    for v in Variant::ALL {
        check(rules(v, 4), 12, Solver::Lean);
    }
}

#[test]
fn compact_equals_graph_on_2x4() {
    for v in Variant::ALL {
        check(rules(v, 4), 16, Solver::Compact);
    }
}

#[test]
fn disk_equals_graph_on_2x4_and_2x5() {
    for v in Variant::ALL {
        check(rules(v, 4), 16, Solver::Disk);
        check(rules(v, 5), 12, Solver::Disk);
    }
}

/// A build with the disk solver writes the same files as the graph solver,
/// and leaves no edge file behind.
#[test]
fn disk_build_writes_the_graph_solvers_files() {
    let r = rules(Variant::III, 4);
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    for (dir, solver) in [(&a, Solver::Graph), (&b, Solver::Disk)] {
        let options = hoyito_tablebase::BuildOptions {
            progress: None,
            solver,
        };
        Tablebase::build(r, dir.path(), 16, options, |_| {}).unwrap();
    }
    let sub = |d: &tempfile::TempDir| hoyito_tablebase::file::rules_dir(d.path(), &r);
    let names = |d: &tempfile::TempDir| {
        let mut v: Vec<_> = std::fs::read_dir(sub(d))
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        v.sort();
        v
    };
    assert_eq!(names(&a), names(&b));
    assert_eq!(names(&b).len(), 4, "{:?}", names(&b));
    for n in names(&a) {
        let x = std::fs::read(sub(&a).join(&n)).unwrap();
        assert_eq!(x, std::fs::read(sub(&b).join(&n)).unwrap(), "{n:?}");
    }
}

#[test]
fn lean_and_compact_equal_graph_on_2x5_and_2x6() {
    for v in Variant::ALL {
        check(rules(v, 5), 8, Solver::Lean);
        check(rules(v, 5), 12, Solver::Compact);
        check(rules(v, 6), 8, Solver::Lean);
        check(rules(v, 6), 8, Solver::Compact);
    }
}

#[test]
fn options_pass_through_the_lean_solver() {
    let spec = RulesSpec {
        variant: Variant::II,
        holes: 4,
        skip_origin: true,
        ..RulesSpec::default()
    };
    check(Rules::try_from(spec).unwrap(), 12, Solver::Lean);
    let spec = RulesSpec {
        variant: Variant::III,
        holes: 4,
        capture_side: hoyito_core::CaptureSide::Opponent,
        ..RulesSpec::default()
    };
    check(Rules::try_from(spec).unwrap(), 12, Solver::Compact);
}

/// The sweep log adds up: the first sweep evaluates every position, the
/// last changes nothing, every other changes something, and chunk skipping
/// never evaluates more than the layer.
#[test]
fn sweep_figures() {
    let r = rules(Variant::II, 4);
    let lower = graph_tables(r, 12);
    let dir = tempfile::tempdir().unwrap();
    let mut first: Option<Vec<i8>> = None;
    for cache in [Cache::None, Cache::Memory, Cache::Disk(dir.path())] {
        let mut seen = Vec::new();
        let (values, stats, log) =
            solve_layer_lean(r, 16, &*lower, &|_| {}, cache, |s| seen.push(*s)).unwrap();
        // The three caches give the same values.
        assert_eq!(&values, first.get_or_insert_with(|| values.clone()));
        assert_eq!(seen, log);
        let count = Indexer::new(8, 16).count();
        assert_eq!(values.len() as u64, count);
        assert!(count > 4 * LEAN_CHUNK, "several chunks");
        assert_eq!(stats.sweeps as usize, log.len());
        assert!(stats.lean && stats.sweeps > 2);
        assert_eq!(log[0].evaluated, count);
        assert_eq!(log.last().unwrap().changed, 0);
        assert!(log[..log.len() - 1].iter().all(|s| s.changed > 0));
        assert!(log.iter().all(|s| s.evaluated <= count));
        // About 2 inner edges per position on 2x4.
        assert!(stats.inner_edges > count && stats.inner_edges < 4 * count);
        let per_position = stats.work_bytes as f64 / count as f64;
        match cache {
            Cache::Memory => assert!(per_position > 7.0 && per_position < 20.0, "{per_position}"),
            _ => assert!(per_position < 6.0, "{per_position}"),
        }
        // The disk cache keeps exactly the inner edges in its file.
        let on_disk = if matches!(cache, Cache::Disk(_)) {
            4 * stats.inner_edges
        } else {
            0
        };
        assert_eq!(stats.spill_bytes, on_disk);
    }
    // The edge file is unnamed: nothing is left in the directory.
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

/// Both solvers report every stage of a layer, in order, each from 0 to all
/// of the layer's positions.
#[test]
fn progress_covers_every_stage() {
    let r = rules(Variant::II, 4);
    let lower = graph_tables(r, 12);
    let count = Indexer::new(8, 16).count();
    for lean in [false, true] {
        let seen = Mutex::new(Vec::new());
        let on_progress = |p: &Progress| seen.lock().unwrap().push(*p);
        let (stats, expected) = if lean {
            let stats = solve_layer_lean(r, 16, &*lower, &on_progress, Cache::None, |_| {})
                .unwrap()
                .1;
            (stats, (1..=stats.sweeps).map(Stage::Sweep).collect::<Vec<_>>())
        } else {
            let stats = solve_layer(r, 16, &*lower, &on_progress).1;
            let rounds = (1..=stats.sweeps).map(Stage::Round);
            (stats, std::iter::once(Stage::Moves).chain(rounds).collect())
        };
        assert!(stats.sweeps > 2, "lean {lean}: {} sweeps", stats.sweeps);
        let seen = seen.into_inner().unwrap();
        let mut stages: Vec<Stage> = seen.iter().map(|p| p.stage).collect();
        stages.dedup();
        assert_eq!(stages, expected, "lean {lean}");
        for stage in expected {
            let of: Vec<&Progress> = seen.iter().filter(|p| p.stage == stage).collect();
            assert!(of
                .iter()
                .all(|p| p.seeds == 16 && p.total == count && p.done <= count));
            assert_eq!(of[0].done, 0, "lean {lean}, {stage:?} starts at 0");
            assert_eq!(
                of.iter().map(|p| p.done).max(),
                Some(count),
                "lean {lean}, {stage:?}"
            );
        }
    }
}

#[test]
fn automatic_choice_of_solver() {
    assert!(graph_fits(1000, 1000 * GRAPH_BYTES_PER_POSITION));
    assert!(!graph_fits(1000, 1000 * GRAPH_BYTES_PER_POSITION - 1));
    assert!(!graph_fits(1 << 31, u64::MAX));
}
