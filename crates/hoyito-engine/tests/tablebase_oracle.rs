//! The tablebase as the engine's exact-value oracle (added by the tablebase
//! work; see docs/SOLUTIONS.md). With the oracle answering every node below
//! the root, a one-ply search is exact: its score is the tablebase's final
//! margin and its move is one of the tablebase's best moves.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use hoyito_core::{Game, Position, Rules, Setup, Side, Variant};
use hoyito_engine::{Engine, EngineKind, Limits, Oracle};
use hoyito_tablebase::index::Indexer;
use hoyito_tablebase::Tablebase;

#[test]
fn one_ply_search_with_the_tablebase_oracle_is_exact() {
    for variant in Variant::ALL {
        let rules = Rules::new(variant, 4).unwrap();
        let tb = Arc::new(Tablebase::solve_in_memory(rules, 12).unwrap());
        let probe = Arc::clone(&tb);
        let oracle: Oracle = Arc::new(move |p: &Position| probe.final_margin(p));
        let mut engine = Engine::new(EngineKind::AlphaBeta);
        engine.set_oracle(Some(oracle));
        let ix = Indexer::new(8, 12);
        let mut board = vec![0u8; 8];
        let mut setup = Setup::start(&rules);
        let mut searched = 0;
        for rank in (0..ix.count()).step_by(997) {
            ix.unrank(rank, &mut board);
            setup.board = board.clone();
            setup.to_move = Side::North;
            let pos = Position::from_setup(rules, &setup).unwrap();
            if pos.is_over() {
                continue;
            }
            engine.new_game();
            let limits = Limits {
                depth: Some(1),
                ..Limits::default()
            };
            let result = engine.search(
                &Game::from_position(pos),
                limits,
                &AtomicBool::new(false),
                &mut |_| {},
            );
            let best = tb.best_moves(&pos).unwrap();
            assert_eq!(Some(result.score), tb.final_margin(&pos), "{}", pos.to_notation());
            let m = result.best.expect("a move");
            assert!(
                best.iter().any(|&(b, _)| b == m),
                "{}: engine {m:?}, best {best:?}",
                pos.to_notation()
            );
            searched += 1;
        }
        assert!(searched > 30);
    }
}

/// Above the tables, a full-strength search proves every root move's value
/// down into them and plays a best move: its score is the final margin that
/// larger tables store, and its move is one of their best moves.
#[test]
fn root_proofs_above_the_tables_play_perfectly() {
    for variant in [Variant::I, Variant::II, Variant::III] {
        let rules = Rules::new(variant, 4).unwrap();
        let small = Arc::new(Tablebase::solve_in_memory(rules, 12).unwrap());
        let big = Tablebase::solve_in_memory(rules, 20).unwrap();
        let mut engine = Engine::new(EngineKind::AlphaBeta);
        assert_eq!(engine.set_tablebase(Arc::clone(&small)), vec![4, 8, 12]);
        let ix = Indexer::new(8, 20);
        let mut board = vec![0u8; 8];
        let mut setup = Setup::start(&rules);
        let (mut searched, mut proved) = (0, 0);
        for rank in (0..ix.count()).step_by(9973) {
            ix.unrank(rank, &mut board);
            setup.board = board.clone();
            setup.to_move = Side::South;
            let pos = Position::from_setup(rules, &setup).unwrap();
            if pos.is_over() || pos.in_play() <= 12 {
                continue;
            }
            let limits = Limits {
                node_budget: Some(4_000_000),
                ..Limits::default()
            };
            let result = engine.search(
                &Game::from_position(pos),
                limits,
                &AtomicBool::new(false),
                &mut |_| {},
            );
            let m = result.best.expect("a move");
            let best = big.best_moves(&pos).unwrap();
            assert!(
                best.iter().any(|&(b, _)| b == m),
                "{variant:?} {}: engine {m:?}, best {best:?}",
                pos.to_notation()
            );
            if result.depth == 0 {
                // Proved: the score is exact.
                assert_eq!(
                    Some(result.score),
                    big.final_margin(&pos),
                    "{}",
                    pos.to_notation()
                );
                proved += 1;
            }
            searched += 1;
        }
        assert!(searched > 30, "{variant:?}: {searched}");
        assert!(
            proved * 10 >= searched * 9,
            "{variant:?}: {proved} of {searched} proved"
        );
    }
}
