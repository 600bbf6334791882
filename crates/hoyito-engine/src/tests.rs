//! Search correctness on tiny positions: alpha-beta against a plain
//! minimax, extra turns, passes, repetition, determinism, levels.

use std::sync::atomic::AtomicBool;

use hoyito_core::{
    EndReason, Game, Move, Position, Repetition, RepetitionKey, Rules, RulesSpec, Side, Variant,
};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use super::*;
use crate::eval::{evaluate, split_value, EvalWeights, SCALE};
use crate::search::{Searcher, MAX_PLY};

fn rules(variant: Variant, holes: u8, repetition: Repetition) -> Rules {
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
fn notation(board: &[u8; 8], south_to_move: bool, south: u32, north: u32) -> String {
    let row = |r: &[u8]| r.iter().map(u8::to_string).collect::<Vec<_>>().join(",");
    let side = if south_to_move { "s" } else { "n" };
    format!("{}/{} {side} {south}-{north}", row(&board[..4]), row(&board[4..]))
}

/// A random small position on 2×4: up to `max_seeds` seeds in play.
fn random_position(rng: &mut SmallRng, r: Rules, max_seeds: u32) -> Position {
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

#[test]
fn levels_table_is_ordered() {
    for w in LEVELS.windows(2) {
        assert!(w[0].level + 1 == w[1].level);
        assert!(w[0].noise >= w[1].noise || w[0].material_only);
        assert!(w[1].depth.is_none_or(|d| w[0].depth.is_some_and(|e| e <= d)));
    }
    assert_eq!(Engine::with_level(0).level(), Some(1));
    assert_eq!(Engine::with_level(42).level(), Some(10));
}

#[test]
fn time_for_move_is_sane() {
    use std::time::Duration;
    let t = time_for_move(Duration::from_secs(60), Duration::from_secs(1));
    assert!(t > Duration::from_secs(1) && t < Duration::from_secs(10));
    assert!(time_for_move(Duration::from_millis(10), Duration::ZERO) <= Duration::from_millis(5));
}

/// The incremental board hash, updated from each sowing's events, equals the
/// hash computed from scratch after every move of random games under every
/// variant and option, with closed holes, and so does the table key; the
/// games cover passes, extra turns, two-hole openings and clockwise moves.
#[test]
fn incremental_hash_equals_scratch_hash() {
    use hoyito_core::{CaptureSide, DirectionRule, Setup};

    use crate::zobrist::{board_hash, key, play_hashed, play_hashed_unchecked};

    let mut rng = SmallRng::seed_from_u64(0x4A5C);
    let mut unchecked = 0;
    let (mut moves, mut passes, mut extra, mut pairs, mut cw, mut closed_games, mut endless) =
        (0, 0, 0, 0, 0, 0, 0);
    for variant in Variant::ALL {
        for holes in [4u8, 6, 9, 12] {
            for direction in [
                DirectionRule::Fixed,
                DirectionRule::PerPlayer,
                DirectionRule::PerMove,
            ] {
                for (two_hole_opening, skip_origin, capture_side) in [
                    (false, false, CaptureSide::Any),
                    (true, true, CaptureSide::Any),
                    (true, false, CaptureSide::Opponent),
                    (false, true, CaptureSide::Opponent),
                ] {
                    let r = Rules::try_from(RulesSpec {
                        variant,
                        holes,
                        seeds: rng.random_range(2..=5),
                        skip_origin,
                        direction,
                        two_hole_opening,
                        capture_side,
                        ..RulesSpec::default()
                    })
                    .unwrap();
                    for g in 0..3 {
                        let mut setup = Setup::start(&r);
                        if g == 2 {
                            // Close some holes of each row, as in later rounds of a match.
                            let n = holes as usize;
                            for row in [0, n] {
                                for i in 0..rng.random_range(1..n) {
                                    setup.board[row + n - 1 - i] = 0;
                                    setup.closed.push(row + n - 1 - i);
                                }
                            }
                            closed_games += 1;
                        }
                        let mut pos = Position::from_setup(r, &setup).unwrap();
                        let mut h = board_hash(&pos);
                        for _ in 0..400 {
                            if pos.is_over() {
                                break;
                            }
                            // Candidates include endless sowings, which must leave everything unchanged.
                            let cands = pos.candidates();
                            let legal = pos.legal_moves();
                            let m = if rng.random_bool(0.2) && !pos.opening_pending() {
                                cands[rng.random_range(0..cands.len())]
                            } else {
                                legal[rng.random_range(0..legal.len())]
                            };
                            // The search's path (word-wise laps reported
                            // as one event each) gives the same hash.
                            let mut q = pos;
                            if let Ok((_, hq)) = play_hashed_unchecked(&mut q, h, m) {
                                if !q.is_over() {
                                    assert_eq!(hq, board_hash(&q), "unchecked, {r:?} after {m:?}");
                                    unchecked += 1;
                                }
                            }
                            let before = pos;
                            match play_hashed(&mut pos, h, m) {
                                Ok((played, h2)) => {
                                    h = h2;
                                    moves += 1;
                                    extra += played.extra_turn as u32;
                                    pairs += m.is_pair() as u32;
                                    cw += (m.direction() == hoyito_core::Direction::Cw) as u32;
                                    let next = if played.extra_turn {
                                        before.to_move()
                                    } else {
                                        before.to_move().other()
                                    };
                                    passes += (!pos.is_over() && pos.to_move() != next) as u32;
                                }
                                Err(_) => {
                                    assert_eq!(pos, before, "a failed move leaves the position");
                                    endless += 1;
                                }
                            }
                            if !pos.is_over() {
                                assert_eq!(h, board_hash(&pos), "{r:?} after {m:?}: {}", pos.to_notation());
                                assert_eq!(key(&pos, h), key(&pos, board_hash(&pos)));
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(moves > 10_000, "{moves} moves");
    assert!(unchecked > 10_000, "{unchecked} unchecked moves");
    for (what, n) in [
        ("passes", passes),
        ("extra turns", extra),
        ("two-hole openings", pairs),
        ("clockwise moves", cw),
        ("games with closed holes", closed_games),
        ("endless sowings", endless),
    ] {
        assert!(n > 10, "only {n} {what}");
    }
}

/// Different positions get different keys: the side to move, the opening
/// flag and direction choices are part of the key, not only the board.
#[test]
fn keys_separate_state_beyond_the_board() {
    use crate::zobrist::{board_hash, key};
    let r = Rules::try_from(RulesSpec {
        variant: Variant::II,
        holes: 6,
        direction: hoyito_core::DirectionRule::PerPlayer,
        two_hole_opening: true,
        ..RulesSpec::default()
    })
    .unwrap();
    let p = Position::new(r);
    let mut q = p;
    q.pass();
    assert_eq!(board_hash(&p), board_hash(&q));
    assert_ne!(p.to_move(), q.to_move());
    assert_ne!(key(&p, board_hash(&p)), key(&q, board_hash(&q)));
    let a = Position::from_notation(Rules::standard(Variant::II), "4,4,4,4,4,4/4,4,4,4,4,4 s 0-0").unwrap();
    let b = Position::from_notation(Rules::standard(Variant::II), "5,3,4,4,4,4/4,4,4,4,4,4 s 0-0").unwrap();
    assert_ne!(board_hash(&a), board_hash(&b));
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

/// The tie-break among equally good root moves (the one giving a fallible
/// opponent most chances to err) never plays a move worse than the best:
/// on random small positions the move chosen scores, by an exact analysis
/// of every move at the same depth, as much as the best move.
#[test]
fn tie_break_keeps_the_best_score() {
    let mut rng = SmallRng::seed_from_u64(99);
    let stop = AtomicBool::new(false);
    let limits = Limits {
        depth: Some(7),
        ..Limits::default()
    };
    let mut changed = 0;
    for variant in Variant::ALL {
        let r = rules(variant, 4, Repetition::Even);
        for _ in 0..40 {
            let game = Game::from_position(random_position(&mut rng, r, 16));
            let mut e = Engine::new(EngineKind::AlphaBeta);
            let chosen = e.search(&game, limits, &stop, &mut |_| {});
            let all = e.analyze(&game, limits, &stop);
            let best = all[0].1;
            let mine = all.iter().find(|x| Some(x.0) == chosen.best).unwrap().1;
            assert_eq!(
                mine,
                best,
                "{}: chose {:?} among {all:?}",
                game.position().to_notation(),
                chosen.best
            );
            assert_eq!(chosen.score, best);
            changed += (chosen.best != Some(all[0].0)) as u32;
        }
    }
    // The tie-break does choose other moves than the first best one.
    assert!(changed > 0);
}

/// The swindle model's results above the tables (at most two threshold
/// proofs each) are those of perfect play: on 2×4 positions of 16 and 20
/// seeds, over 12-seed tables, each won, drawn or lost result is what the
/// 20-seed tables say.
#[cfg(feature = "tablebase")]
#[test]
fn model_results_above_the_tables_are_exact() {
    use crate::swindle::Model;
    use hoyito_tablebase::Tablebase;
    use std::collections::HashMap;
    let mut rng = SmallRng::seed_from_u64(11);
    for variant in Variant::ALL {
        let r = Rules::new(variant, 4).unwrap();
        let small = Tablebase::solve_in_memory(r, 12).unwrap();
        let big = Tablebase::solve_in_memory(r, 20).unwrap();
        let mut search = hoyito_tablebase::search::ExactSearch::new(&small, 1 << 14);
        let mut model = Model {
            prover: &mut search,
            results: HashMap::new(),
        };
        let mut seen = [0; 3];
        while seen.iter().sum::<i32>() < 60 {
            let in_play = if rng.random_bool(0.5) { 16 } else { 20 };
            let mut board = [0u8; 8];
            for _ in 0..in_play {
                board[rng.random_range(0..8)] += 1;
            }
            let south = 4 * rng.random_range(0..=(32 - in_play) / 4);
            let text = notation(&board, rng.random_bool(0.5), south, 32 - in_play - south);
            let mut pos = Position::from_notation(r, &text).unwrap();
            pos.settle();
            if pos.is_over() {
                continue;
            }
            let want = big.final_margin(&pos).unwrap().signum();
            assert_eq!(model.result(&pos).unwrap(), want, "{variant:?} {text}");
            // A second call reads the stored result.
            assert_eq!(model.result(&pos).unwrap(), want);
            seen[(want + 1) as usize] += 1;
        }
        assert!(
            seen.iter().all(|&n| n > 0),
            "{variant:?}: lost/drawn/won {seen:?}"
        );
    }
}
