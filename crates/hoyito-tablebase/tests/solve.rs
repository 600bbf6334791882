//! The fast solver against the independent reference solver, the Bellman
//! consistency of every stored value, and the probing API.

use hoyito_core::{CaptureSide, Position, Rules, RulesSpec, Side, Variant};
use hoyito_tablebase::index::Indexer;
use hoyito_tablebase::reference::Reference;
use hoyito_tablebase::{layer_seeds, Tablebase, TablebaseError};

fn rules(variant: Variant, holes: u8) -> Rules {
    Rules::try_from(RulesSpec {
        variant,
        holes,
        ..RulesSpec::default()
    })
    .unwrap()
}

/// Every board of every layer, both sides to move, fast == reference; and
/// every stored value is the best over its successors.
fn compare(rules: Rules, max_seeds: u32) {
    let tb = Tablebase::solve_in_memory(rules, max_seeds).unwrap();
    let reference = Reference::solve(rules, max_seeds).unwrap();
    let holes = rules.board_len();
    let mut nonzero = 0;
    for seeds in layer_seeds(max_seeds) {
        let ix = Indexer::new(holes, seeds);
        let mut board = vec![0u8; holes];
        ix.unrank(0, &mut board);
        loop {
            for side in Side::ALL {
                let pos = reference.position(&board, side);
                let expected = reference.value(&board, side).unwrap();
                // `value` is for the player to move after automatic passes.
                let got = match pos.is_over() {
                    true => 0,
                    false if pos.to_move() == side => tb.value(&pos).unwrap(),
                    false => -tb.value(&pos).unwrap(),
                };
                assert_eq!(got, expected, "{rules}: {} ({side} to move)", pos.to_notation());
                nonzero += (got != 0) as u32;
            }
            // The raw stored entry (South to move, before any pass) too.
            let south = reference.value(&board, Side::South).unwrap();
            assert_eq!(tb.board_value(&board), Some(south), "{rules}: raw {board:?}");
            if !ix.next(&mut board) {
                break;
            }
        }
        let (checked, bad) = tb.check_bellman(seeds, 5).unwrap();
        assert_eq!(checked, ix.count());
        assert!(bad.is_empty(), "{rules}, {seeds} seeds: {bad:?}");
    }
    assert!(nonzero > 0, "a tablebase of zeros would be suspicious");
}

#[test]
fn hoyito_i_2x4_matches_reference() {
    compare(rules(Variant::I, 4), 12);
}

#[test]
fn hoyito_ii_2x4_matches_reference() {
    compare(rules(Variant::II, 4), 12);
}

#[test]
fn hoyito_iii_2x4_matches_reference() {
    compare(rules(Variant::III, 4), 12);
}

#[test]
fn larger_boards_small_layers_match_reference() {
    for v in Variant::ALL {
        compare(rules(v, 5), 8);
        compare(rules(v, 6), 8);
    }
}

#[test]
fn options_pass_through() {
    let spec = RulesSpec {
        variant: Variant::II,
        holes: 4,
        skip_origin: true,
        ..RulesSpec::default()
    };
    compare(Rules::try_from(spec).unwrap(), 12);
    let spec = RulesSpec {
        variant: Variant::III,
        holes: 4,
        capture_side: CaptureSide::Opponent,
        ..RulesSpec::default()
    };
    compare(Rules::try_from(spec).unwrap(), 12);
}

#[test]
fn best_moves_realise_the_value() {
    let r = rules(Variant::II, 4);
    let tb = Tablebase::solve_in_memory(r, 12).unwrap();
    let positions = Reference::solve(r, 0).unwrap();
    let ix = Indexer::new(8, 12);
    let mut board = vec![0u8; 8];
    let mut checked = 0;
    for rank in (0..ix.count()).step_by(37) {
        ix.unrank(rank, &mut board);
        let pos = positions.position(&board, Side::North);
        if pos.is_over() || pos.legal_moves().is_empty() {
            continue;
        }
        let v = tb.value(&pos).unwrap();
        let all = tb.move_values(&pos).unwrap();
        let best = tb.best_moves(&pos).unwrap();
        assert_eq!(
            all.iter().map(|&(_, x)| x).max(),
            Some(v),
            "{}",
            pos.to_notation()
        );
        assert!(!best.is_empty() && best.iter().all(|&(_, x)| x == v));
        checked += 1;
    }
    assert!(checked > 500);
}

#[test]
fn unsupported_and_missing() {
    let per_move = Rules::try_from(RulesSpec {
        holes: 4,
        direction: hoyito_core::DirectionRule::PerMove,
        ..RulesSpec::default()
    })
    .unwrap();
    assert!(matches!(
        Tablebase::solve_in_memory(per_move, 4),
        Err(TablebaseError::Unsupported(_))
    ));
    let own_row = Rules::try_from(RulesSpec {
        holes: 4,
        repetition: hoyito_core::Repetition::OwnRow,
        ..RulesSpec::default()
    })
    .unwrap();
    assert!(matches!(
        Tablebase::solve_in_memory(own_row, 4),
        Err(TablebaseError::Unsupported(_))
    ));
    let r = rules(Variant::I, 4);
    let tb = Tablebase::solve_in_memory(r, 8).unwrap();
    let start = Position::new(r);
    assert!(matches!(
        tb.value(&start),
        Err(TablebaseError::Missing { seeds: 32, .. })
    ));
}
