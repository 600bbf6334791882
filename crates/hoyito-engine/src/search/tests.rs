//! Search correctness on tiny positions: alpha-beta against a plain
//! minimax written independently, passes, repetition, limits. The
//! helpers that make small positions serve the other modules' tests too.

use std::sync::atomic::AtomicBool;

use hoyito_core::{
    EndReason, Game, Move, Position, Repetition, RepetitionKey, Rules, RulesSpec, Side, Variant,
};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use super::{Searcher, MAX_PLY};
use crate::eval::{evaluate, split_value, EvalWeights, SCALE};
use crate::{Engine, EngineKind, Limits};

pub(crate) fn rules(variant: Variant, holes: u8, repetition: Repetition) -> Rules {
    Rules::try_from(RulesSpec {
        variant,
        holes,
        repetition,
        ..RulesSpec::default()
    })
    .unwrap()
}

/// Plain minimax with the engine's semantics, written independently: no
/// pruning, no table, no ordering. `path` holds positions since the last capture.
fn minimax(pos: &Position, depth: i32, path: &mut Vec<(RepetitionKey, u8)>, w: &EvalWeights) -> i32 {
    let me = pos.to_move();
    if depth == 0 {
        return evaluate(pos, w);
    }
    let mut kids = Vec::new();
    Searcher::gen_children(pos, &mut kids);
    if kids.is_empty() {
        let mut p = *pos;
        p.pass();
        return if p.is_over() {
            p.margin(me) * SCALE
        } else {
            -minimax(&p, depth, path, w)
        };
    }
    path.push((pos.repetition_key(), pos.in_play()));
    let best = kids
        .iter()
        .map(|c| child_minimax(&c.pos, me, c.captured, depth - 1, path, w))
        .max()
        .unwrap();
    path.pop();
    best
}

fn child_minimax(
    child: &Position,
    me: Side,
    captured: u8,
    depth: i32,
    path: &mut Vec<(RepetitionKey, u8)>,
    w: &EvalWeights,
) -> i32 {
    if child.is_over() {
        return child.margin(me) * SCALE;
    }
    let key = (child.repetition_key(), child.in_play());
    if captured == 0 && path.contains(&key) {
        return split_value(child, me);
    }
    if child.to_move() == me {
        minimax(child, depth, path, w)
    } else {
        -minimax(child, depth, path, w)
    }
}

/// Root scores of every legal move by the reference, from the mover's view.
fn reference_scores(game: &Game, depth: i32, w: &EvalWeights) -> Vec<(Move, i32)> {
    let root = *game.position();
    let mut path: Vec<_> = game
        .positions()
        .iter()
        .filter(|p| p.in_play() == root.in_play())
        .map(|p| (p.repetition_key(), p.in_play()))
        .collect();
    root.legal_moves()
        .iter()
        .map(|&m| {
            let mut p = root;
            let played = p.play(m).unwrap();
            (
                m,
                child_minimax(&p, root.to_move(), played.captured, depth - 1, &mut path, w),
            )
        })
        .collect()
}

fn engine_scores(engine: &mut Engine, game: &Game, depth: u32) -> Vec<(Move, i32)> {
    let stop = AtomicBool::new(false);
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let (moves, _) = engine.alpha_beta(game, limits, &stop, true, &mut |_| {});
    let mut v: Vec<_> = moves.into_iter().map(|(m, s, _)| (m, s)).collect();
    v.sort_by_key(|x| (x.0.hole(), x.0.second(), x.0.direction()));
    v
}

/// The notation of a 2×4 position: South's row, North's row, the side to
/// move and the captures.
pub(crate) fn notation(board: &[u8; 8], south_to_move: bool, south: u32, north: u32) -> String {
    let row = |r: &[u8]| r.iter().map(u8::to_string).collect::<Vec<_>>().join(",");
    let side = if south_to_move { "s" } else { "n" };
    format!("{}/{} {side} {south}-{north}", row(&board[..4]), row(&board[4..]))
}

/// A random small position on 2×4: up to `max_seeds` seeds in play.
pub(crate) fn random_position(rng: &mut SmallRng, r: Rules, max_seeds: u32) -> Position {
    loop {
        let mut board = [0u8; 8];
        let seeds = rng.random_range(2..=max_seeds);
        for _ in 0..seeds {
            board[rng.random_range(0..8)] += 1;
        }
        let captured = rng.random_range(0..=8u8);
        let text = notation(
            &board,
            rng.random_bool(0.5),
            captured.into(),
            (8 - captured).into(),
        );
        let p = Position::from_notation(r, &text).unwrap();
        if !p.is_over() {
            return p;
        }
    }
}

#[test]
fn alpha_beta_equals_minimax_without_table() {
    let mut rng = SmallRng::seed_from_u64(7);
    for variant in Variant::ALL {
        for repetition in [Repetition::Even, Repetition::OwnRow] {
            let r = rules(variant, 4, repetition);
            for _ in 0..12 {
                let pos = random_position(&mut rng, r, 14);
                let game = Game::from_position(pos);
                for depth in 1..=5 {
                    let mut e = Engine::new(EngineKind::AlphaBeta);
                    e.use_tt = false;
                    let want = {
                        let mut v = reference_scores(&game, depth, &EvalWeights::DEFAULT);
                        v.sort_by_key(|x| (x.0.hole(), x.0.second(), x.0.direction()));
                        v
                    };
                    assert_eq!(
                        engine_scores(&mut e, &game, depth as u32),
                        want,
                        "{} depth {depth} {variant:?} {repetition:?}",
                        pos.to_notation()
                    );
                }
            }
        }
    }
}

/// With the table, values may legitimately differ from a plain depth-limited
/// minimax (entries proven deeper, or under a different repetition path),
/// but only rarely: a broken table (sign, relative values, bounds) would
/// disagree in most positions.
#[test]
fn table_search_agrees_with_minimax() {
    let mut rng = SmallRng::seed_from_u64(11);
    let (mut total, mut same) = (0, 0);
    for variant in Variant::ALL {
        for repetition in [Repetition::Even, Repetition::OwnRow] {
            let r = rules(variant, 4, repetition);
            for _ in 0..10 {
                let pos = random_position(&mut rng, r, 14);
                let game = Game::from_position(pos);
                let mut e = Engine::new(EngineKind::AlphaBeta);
                for depth in [3, 6] {
                    let mut want = reference_scores(&game, depth, &EvalWeights::DEFAULT);
                    want.sort_by_key(|x| (x.0.hole(), x.0.second(), x.0.direction()));
                    let got = engine_scores(&mut e, &game, depth as u32);
                    total += got.len();
                    same += got.iter().zip(&want).filter(|(a, b)| a == b).count();
                }
            }
        }
    }
    eprintln!("table search agrees on {same} of {total} root moves");
    assert!(
        same * 100 >= total * 95,
        "table search agrees on only {same} of {total} root moves"
    );
}

#[test]
fn pass_when_the_opponent_has_no_seeds() {
    // North has no seeds: South moves twice in a row without a capture.
    let r = rules(Variant::I, 4, Repetition::Even);
    let pos = Position::from_notation(r, "2,0,0,0/0,0,0,0 s 20-18").unwrap();
    let mut after = pos;
    after
        .play(hoyito_core::Move::single(0, hoyito_core::Direction::Ccw))
        .unwrap();
    assert_eq!(after.to_move(), Side::South, "North passes");
    let game = Game::from_position(pos);
    for depth in 1..=6 {
        let mut e = Engine::new(EngineKind::AlphaBeta);
        e.use_tt = false;
        let want = reference_scores(&game, depth, &EvalWeights::DEFAULT);
        let got = engine_scores(&mut e, &game, depth as u32);
        assert_eq!(got, want, "depth {depth}");
    }
}

/// A game that ended by repetition, found by random play on a small board.
fn repetition_game(r: Rules) -> Game {
    let mut rng = SmallRng::seed_from_u64(3);
    loop {
        let mut game = Game::from_position(random_position(&mut rng, r, 10));
        while !game.is_over() && game.moves().len() < 200 {
            let legal = game.position().legal_moves();
            game.play(legal[rng.random_range(0..legal.len())]).unwrap();
        }
        if game.position().outcome().map(|o| o.reason) == Some(EndReason::Repetition) {
            return game;
        }
    }
}

#[test]
fn repetition_scores_as_the_split() {
    for repetition in [Repetition::Even, Repetition::OwnRow] {
        let r = rules(Variant::I, 4, repetition);
        let full = repetition_game(r);
        // The game just before the move that repeated a third time.
        let mut game = Game::from_position(*full.start());
        for &m in &full.moves()[..full.moves().len() - 1] {
            game.play(m).unwrap();
        }
        let last = *full.moves().last().unwrap();
        let me = game.position().to_move();
        let mut child = *game.position();
        child.play(last).unwrap();
        let want = split_value(&child, me);
        for depth in [1, 3] {
            let mut e = Engine::new(EngineKind::AlphaBeta);
            let got = engine_scores(&mut e, &game, depth);
            let score = got.iter().find(|x| x.0 == last).unwrap().1;
            assert_eq!(score, want, "{repetition:?} depth {depth}");
        }
        // The game's own end agrees with the split.
        assert_eq!(full.position().margin(me) * SCALE, want);
    }
}

#[test]
fn limits_stop_the_search() {
    let game = Game::new(Rules::standard(Variant::II));
    let stop = AtomicBool::new(false);
    let mut e = Engine::new(EngineKind::AlphaBeta);
    let r = e.search(
        &game,
        Limits {
            nodes: Some(5_000),
            ..Limits::default()
        },
        &stop,
        &mut |_| {},
    );
    assert!(r.best.is_some());
    assert!(r.nodes < 6_000, "{} nodes", r.nodes);
    let set = AtomicBool::new(true);
    let r = e.search(&game, Limits::default(), &set, &mut |_| {});
    assert!(r.best.is_some() && r.depth <= 1);
    let r = e.search(
        &game,
        Limits {
            movetime: Some(std::time::Duration::from_millis(50)),
            ..Limits::default()
        },
        &stop,
        &mut |_| {},
    );
    // Only the time stops this search: the opening is far from solved.
    assert!(
        r.best.is_some() && r.depth < MAX_PLY as u32 - 1,
        "depth {}",
        r.depth
    );
}
