//! The exact search above the tables against the tables themselves: a
//! search that probes only the small layers must find the values that the
//! retrograde solver stored for the larger ones (cycles included).

use hoyito_core::{Position, Rules, Setup, Side, Variant};
use hoyito_tablebase::index::Indexer;
use hoyito_tablebase::search::ExactSearch;
use hoyito_tablebase::Tablebase;

fn position(rules: Rules, board: &[u8], side: Side) -> Position {
    let mut setup = Setup::start(&rules);
    setup.board = board.to_vec();
    setup.to_move = side;
    setup.opening = false;
    Position::from_setup(rules, &setup).expect("valid board")
}

/// Every `step`-th board of the layers above `low` up to `high`, both sides
/// to move: the search over the `low`-seed tables equals the `high` tables,
/// for the value and for every move's value.
fn compare(rules: Rules, low: u32, high: u32, step: u64, expect_cycles: bool) {
    let small = Tablebase::solve_in_memory(rules, low).unwrap();
    let big = Tablebase::solve_in_memory(rules, high).unwrap();
    let mut search = ExactSearch::new(&small, 1 << 16);
    let (mut checked, mut nonzero, mut cycles, mut proofs) = (0, 0, 0, 0);
    for seeds in (low + 4..=high).step_by(4) {
        let ix = Indexer::new(rules.board_len(), seeds);
        let mut board = vec![0u8; rules.board_len()];
        for r in (0..ix.count()).step_by(step as usize) {
            ix.unrank(r, &mut board);
            for side in Side::ALL {
                let pos = position(rules, &board, side);
                if pos.is_over() {
                    continue;
                }
                // A fresh search meets the position's cycles itself; the
                // shared one below reuses what earlier positions stored.
                let mut fresh = ExactSearch::new(&small, 1 << 12);
                let got = fresh.exact_value(&pos).unwrap();
                cycles += fresh.stats().repetitions;
                assert_eq!(search.value(&pos).unwrap(), got, "{rules}: {}", pos.to_notation());
                assert_eq!(got, big.value(&pos).unwrap(), "{rules}: {}", pos.to_notation());
                // The depth-limited proofs bracket the same value (a fresh
                // search: the shared one already holds the exact value).
                let mut prover = ExactSearch::new(&small, 1 << 12);
                let note = pos.to_notation();
                assert!(prover.at_least(&pos, got).unwrap(), "{rules}: {note} >= {got}");
                assert!(
                    !prover.at_least(&pos, got + 1).unwrap(),
                    "{rules}: {note} < {}",
                    got + 1
                );
                proofs += (prover.stats().depth > 0) as u32;
                let expected = big.move_values(&pos).unwrap();
                let moves = search.move_values(&pos).unwrap();
                assert_eq!(moves, expected, "{rules}: {}", pos.to_notation());
                checked += 1;
                nonzero += (got != 0) as u32;
            }
        }
    }
    eprintln!("{rules}: {checked} positions, {cycles} repetition cuts, {proofs} depth-limited proofs");
    // Most bounds must have been proved by the depth-limited search, not
    // left to the exact search after it.
    assert!(
        proofs > checked * 9 / 10,
        "{rules}: {proofs} depth-limited proofs of {checked}"
    );
    assert!(checked > 200, "{rules}: only {checked} positions");
    assert!(nonzero > checked / 10, "{rules}: {nonzero} of {checked} non-zero");
    // The search must have met cycles, or the cycle rule would be untested
    // (Hoyito I captures too often at these densities to meet any).
    assert!(
        !expect_cycles || cycles > 0,
        "{rules}: no search met a repeated position"
    );
}

#[test]
fn search_matches_tables_hoyito_i() {
    compare(Rules::new(Variant::I, 4).unwrap(), 12, 20, 997, false);
}

#[test]
fn search_matches_tables_hoyito_ii() {
    // Many cycles (the 12-seed tables are far below), and denser layers
    // where the value of a cycle decides some positions.
    compare(Rules::new(Variant::II, 4).unwrap(), 12, 20, 997, true);
    compare(Rules::new(Variant::II, 4).unwrap(), 16, 24, 9973, true);
}

#[test]
fn search_matches_tables_hoyito_iii() {
    // Many cycles (the 12-seed tables are far below), and denser layers
    // where the value of a cycle decides some positions.
    compare(Rules::new(Variant::III, 4).unwrap(), 12, 20, 997, true);
    compare(Rules::new(Variant::III, 4).unwrap(), 16, 24, 9973, true);
}

/// The node limit and the deadline stop a search with their own errors,
/// and count the positions a caller walks itself (`count_node`); a
/// covered position's value is one probe.
#[test]
fn limits_stop_the_search() {
    use hoyito_tablebase::TablebaseError;
    use std::time::{Duration, Instant};
    let rules = Rules::new(Variant::II, 4).unwrap();
    let small = Tablebase::solve_in_memory(rules, 8).unwrap();
    let start = Position::new(rules);

    let mut search = ExactSearch::new(&small, 1 << 12);
    search.set_node_limit(Some(100));
    assert!(matches!(
        search.value(&start),
        Err(TablebaseError::NodeLimit { limit: 100 })
    ));
    assert_eq!(search.stats().nodes, 101);
    assert!(search.count_node().is_err(), "the limit holds for callers too");

    let mut search = ExactSearch::new(&small, 1 << 12);
    for _ in 0..10 {
        search.count_node().unwrap();
    }
    search.set_deadline(Some(Instant::now()));
    assert!(matches!(search.value(&start), Err(TablebaseError::Deadline)));
    // Checked every 1,024 positions: the 1,024th is the first to see it.
    assert_eq!(search.stats().nodes, 1024);
    search.set_deadline(Some(Instant::now() + Duration::from_secs(3600)));
    search.set_node_limit(Some(search.stats().nodes + 10));
    assert!((0..10).all(|_| search.count_node().is_ok()));
    assert!(matches!(
        search.count_node(),
        Err(TablebaseError::NodeLimit { .. })
    ));

    let covered = position(rules, &[2, 0, 1, 0, 0, 3, 0, 2], Side::South);
    let mut search = ExactSearch::new(&small, 1 << 12);
    assert_eq!(search.value(&covered).unwrap(), small.value(&covered).unwrap());
    assert_eq!((search.stats().nodes, search.stats().probes), (0, 1));
}
