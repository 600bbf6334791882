//! Searches through the public API: extra turns keep the score's sign,
//! fixed depths and node budgets are deterministic, MCTS finds a double
//! capture, and level 10 beats level 1.

use std::sync::atomic::AtomicBool;

use hoyito_engine::hoyito_core::{Game, Position, Repetition, Rules, RulesSpec, Side, Variant};
use hoyito_engine::{play_out, Engine, EngineKind, Limits};

fn rules(variant: Variant, holes: u8, repetition: Repetition) -> Rules {
    Rules::try_from(RulesSpec {
        variant,
        holes,
        repetition,
        ..RulesSpec::default()
    })
    .unwrap()
}

#[test]
fn extra_turn_keeps_the_sign() {
    // Hoyito III, South: 1 and 3 in holes 1-2, 1 and 3 in holes 3-4. Each of
    // holes 1 and 3 makes a casa with an extra turn; both captures leave the
    // last four to South: 12-0.
    let r = rules(Variant::III, 4, Repetition::Even);
    let pos = Position::from_notation(r, "1,3,1,3/0,0,0,4 s 0-0").unwrap();
    let game = Game::from_position(pos);
    let mut e = Engine::new(EngineKind::AlphaBeta);
    let stop = AtomicBool::new(false);
    let res = e.search(
        &game,
        Limits {
            depth: Some(4),
            ..Limits::default()
        },
        &stop,
        &mut |_| {},
    );
    assert_eq!(res.score, 12);
    assert_eq!(res.pv.len(), 2, "two captures by South: {:?}", res.pv);
    assert!([0, 2].contains(&res.pv[0].hole()) && [0, 2].contains(&res.pv[1].hole()));
    // From North's view (North to move first, same board mirrored) the sign flips.
    let analysis = e.analyze(
        &game,
        Limits {
            depth: Some(4),
            ..Limits::default()
        },
        &stop,
    );
    assert_eq!(analysis[0].1, 12);
    assert!(analysis.iter().skip(1).all(|x| x.1 <= 12));
}

#[test]
fn fixed_depth_is_deterministic() {
    for variant in Variant::ALL {
        let mut game = Game::new(Rules::standard(variant));
        for t in ["3", "5"] {
            let _ = game.play_token(t);
        }
        let stop = AtomicBool::new(false);
        let limits = Limits {
            depth: Some(6),
            ..Limits::default()
        };
        let mut a = Engine::new(EngineKind::AlphaBeta);
        let ra = a.search(&game, limits, &stop, &mut |_| {});
        // A used engine, and a fresh one, give the same answer.
        let rb = a.search(&game, limits, &stop, &mut |_| {});
        let rc = Engine::new(EngineKind::AlphaBeta).search(&game, limits, &stop, &mut |_| {});
        for r in [&rb, &rc] {
            assert_eq!(
                (ra.best, ra.score, &ra.pv, ra.nodes),
                (r.best, r.score, &r.pv, r.nodes)
            );
        }
        assert_eq!(ra.depth, 6);
    }
}

/// A node budget stops the search at the budget, starts no iteration after
/// half of it, and (from a cleared table) gives the same answer every time.
#[test]
fn node_budget_limits_and_repeats() {
    let game = Game::new(Rules::standard(Variant::III));
    let stop = AtomicBool::new(false);
    let budget = Limits {
        node_budget: Some(200_000),
        ..Limits::default()
    };
    let mut e = Engine::new(EngineKind::AlphaBeta);
    let mut infos = Vec::new();
    let r = e.search(&game, budget, &stop, &mut |i| infos.push(i.nodes));
    assert!(r.nodes <= 200_000, "{} nodes", r.nodes);
    // Every completed iteration but the last ended below half the budget.
    assert!(infos.len() >= 2);
    assert!(
        infos[..infos.len() - 1].iter().all(|&n| n * 2 <= 200_000),
        "{infos:?}"
    );
    e.new_game();
    let r2 = e.search(&game, budget, &stop, &mut |_| {});
    assert_eq!(
        (r.best, r.score, r.nodes, r.depth),
        (r2.best, r2.score, r2.nodes, r2.depth)
    );
}

#[test]
fn mcts_finds_the_double_capture() {
    let r = rules(Variant::III, 4, Repetition::Even);
    let pos = Position::from_notation(r, "1,3,1,3/0,0,0,4 s 0-0").unwrap();
    let game = Game::from_position(pos);
    let mut e = Engine::new(EngineKind::Mcts);
    let stop = AtomicBool::new(false);
    let res = e.search(
        &game,
        Limits {
            nodes: Some(3000),
            ..Limits::default()
        },
        &stop,
        &mut |_| {},
    );
    assert!([0, 2].contains(&res.best.unwrap().hole()));
    assert_eq!(res.score, 12);
}

#[test]
fn level_ten_beats_random() {
    for variant in Variant::ALL {
        for (i, strong_side) in Side::ALL.into_iter().enumerate() {
            let mut strong = Engine::with_level(10);
            let mut weak = Engine::with_level(1);
            weak.set_seed(i as u64 + 1);
            let mut game = Game::new(Rules::standard(variant));
            let limits = Limits {
                depth: Some(4),
                ..Limits::default()
            };
            let (s, n) = match strong_side {
                Side::South => (&mut strong, &mut weak),
                Side::North => (&mut weak, &mut strong),
            };
            play_out(&mut game, s, n, limits, 1000);
            assert!(game.is_over());
            assert_eq!(
                game.position().outcome().unwrap().winner,
                Some(strong_side),
                "{variant:?}"
            );
        }
    }
}
