//! The tablebase as the engine's exact-value oracle (added by the tablebase
//! work; see docs/SOLUTIONS.md). With the oracle answering every node below
//! the root, a one-ply search is exact: its score is the tablebase's final
//! margin and its move is one of the tablebase's best moves.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, OnceLock};

use hoyito_core::{Game, Move, Position, Rules, Setup, Side, Variant};
use hoyito_engine::{random_depth, Engine, EngineKind, Limits, MAX_SWINDLE_DEPTH};
use hoyito_tablebase::index::Indexer;
use hoyito_tablebase::Tablebase;

/// The random moves of the opponent that the swindle's random model plays
/// at its deepest (the engine's own rule).
const RANDOM_DEPTH: u32 = random_depth(MAX_SWINDLE_DEPTH);

/// The 2×4 tables of one variant: to 12 seeds, which the engine gets, and
/// to 20 seeds, against which its play above them is checked.
struct Tables {
    small: Arc<Tablebase>,
    big: Tablebase,
}

/// The tables of `variant`, built once per test process.
fn tables(variant: Variant) -> &'static Tables {
    static TABLES: [OnceLock<Tables>; 3] = [OnceLock::new(), OnceLock::new(), OnceLock::new()];
    let i = Variant::ALL
        .iter()
        .position(|&v| v == variant)
        .expect("a variant");
    TABLES[i].get_or_init(|| {
        let rules = Rules::new(variant, 4).unwrap();
        Tables {
            small: Arc::new(Tablebase::solve_in_memory(rules, 12).unwrap()),
            big: Tablebase::solve_in_memory(rules, 20).unwrap(),
        }
    })
}

/// The 20-seed tables of `pos`'s variant: perfect play in the reference
/// models.
fn big(pos: &Position) -> &'static Tablebase {
    &tables(pos.rules().variant()).big
}

/// A plain probe function is an oracle too (one that proves nothing).
#[test]
fn one_ply_search_with_the_tablebase_oracle_is_exact() {
    for variant in Variant::ALL {
        let rules = Rules::new(variant, 4).unwrap();
        let tb = &tables(variant).small;
        let probe = Arc::clone(tb);
        let mut engine = Engine::new(EngineKind::AlphaBeta);
        engine.set_oracle(Some(Arc::new(move |p: &Position| probe.final_margin(p))));
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

/// Every `step`-th 2×4 board of the `seeds` layer with South to move (passes
/// settled), except finished games.
fn sample(rules: Rules, seeds: u32, step: usize) -> Vec<Position> {
    let ix = Indexer::new(8, seeds);
    let mut board = vec![0u8; 8];
    let mut setup = Setup::start(&rules);
    let mut out = Vec::new();
    for rank in (0..ix.count()).step_by(step) {
        ix.unrank(rank, &mut board);
        setup.board = board.clone();
        setup.to_move = Side::South;
        let pos = Position::from_setup(rules, &setup).unwrap();
        if !pos.is_over() {
            out.push(pos);
        }
    }
    out
}

/// A full-strength search of `pos` with a node budget.
fn search(engine: &mut Engine, pos: Position, nodes: u64) -> hoyito_engine::SearchResult {
    let limits = Limits {
        node_budget: Some(nodes),
        ..Limits::default()
    };
    engine.search(
        &Game::from_position(pos),
        limits,
        &AtomicBool::new(false),
        &mut |_| {},
    )
}

/// Above the tables, a full-strength search proves every root move's value
/// down into them and plays a best move: its score is the final margin that
/// larger tables store, and its move is one of their best moves.
#[test]
fn root_proofs_above_the_tables_play_perfectly() {
    for variant in [Variant::I, Variant::II, Variant::III] {
        let rules = Rules::new(variant, 4).unwrap();
        let Tables { small, big } = tables(variant);
        let mut engine = Engine::new(EngineKind::AlphaBeta);
        // Perfect play only: a swindle may leave the best moves when lost.
        engine.set_swindle(false);
        assert_eq!(engine.set_tablebase(Arc::clone(small)), vec![4, 8, 12]);
        let (mut searched, mut proved) = (0, 0);
        for pos in sample(rules, 20, 9973) {
            if pos.in_play() <= 12 {
                continue;
            }
            let result = search(&mut engine, pos, 4_000_000);
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

/// The mover's final margin in `pos` under perfect play, read from `tb`.
fn final_for(tb: &Tablebase, pos: &Position, me: Side) -> i32 {
    if pos.is_over() {
        return pos.margin(me);
    }
    let m = tb.final_margin(pos).expect("covered");
    if pos.to_move() == me {
        m
    } else {
        -m
    }
}

/// Results of a reference model already computed, shared by the tests of
/// this process (several tests ask for the same positions, and every
/// model meets the same positions along different lines). The models read
/// perfect play from [`big`] of the position's own variant, so a key needs
/// no table.
type Memo<K, V> = OnceLock<Mutex<HashMap<K, V>>>;

/// `memo[key]`, computed by `f` the first time (outside the lock, so that
/// `f` may recurse).
fn memoised<K: Hash + Eq, V: Copy>(memo: &Memo<K, V>, key: K, f: impl FnOnce() -> V) -> V {
    let memo = memo.get_or_init(Default::default);
    if let Some(&v) = memo.lock().unwrap().get(&key) {
        return v;
    }
    let v = f();
    memo.lock().unwrap().insert(key, v);
    v
}

/// `pos` after `m`, passes settled (as the engine and the model see it).
fn after(pos: &Position, m: Move) -> Position {
    let mut p = *pos;
    p.play(m).unwrap();
    p.settle();
    p
}

/// Whether, from `pos` (settled), an opponent who plays only its most
/// tempting moves (largest immediate gain) for its next `depth` moves can
/// let `me` reach a result of at least `goal` (−1 lost, 0 drawn, 1 won),
/// `me` choosing among the moves that keep its proved result: the
/// condition for a swindle to have a chance ([`big`] gives the perfect-play
/// results). In a lost position every move keeps the result.
fn reaches(pos: &Position, me: Side, depth: u32, goal: i32) -> bool {
    static MEMO: Memo<(Position, Side, u32, i32), bool> = OnceLock::new();
    memoised(&MEMO, (*pos, me, depth, goal), || {
        reaches_uncached(pos, me, depth, goal)
    })
}

/// [`reaches`], computed.
fn reaches_uncached(pos: &Position, me: Side, depth: u32, goal: i32) -> bool {
    let tb = big(pos);
    let result = final_for(tb, pos, me).signum();
    if result >= goal {
        return true;
    }
    if pos.is_over() || depth == 0 {
        return false;
    }
    let mover = pos.to_move();
    let children: Vec<(i32, Position)> = pos
        .legal_moves()
        .iter()
        .map(|&r| {
            let p = after(pos, r);
            (p.margin(mover) - pos.margin(mover), p)
        })
        .collect();
    if mover == me {
        return children
            .iter()
            .any(|(_, p)| final_for(tb, p, me).signum() >= result && reaches(p, me, depth, goal));
    }
    let tempting = children.iter().map(|&(g, _)| g).max().unwrap();
    children
        .iter()
        .any(|(g, p)| *g == tempting && reaches(p, me, depth - 1, goal))
}

/// Expected points for `me` after `pos` (settled) when the opponent's next
/// `depth` moves are uniformly random and play is perfect after them, `me`
/// playing its best moves that keep the result ([`big`] gives the results), an
/// extra turn included: the swindle's chance against an opponent who errs
/// at random.
fn random_points(pos: &Position, me: Side, depth: u32) -> f64 {
    model_points(pos, me, depth, false)
}

/// [`random_points`] (`greedy` false) or [`tempting_points`] (`greedy`
/// true): the opponent's next `depth` moves are any move, or one of its
/// most tempting ones (largest immediate gain), each equally likely.
fn model_points(pos: &Position, me: Side, depth: u32, greedy: bool) -> f64 {
    static MEMO: Memo<(Position, Side, u32, bool), f64> = OnceLock::new();
    memoised(&MEMO, (*pos, me, depth, greedy), || {
        model_points_uncached(pos, me, depth, greedy)
    })
}

/// [`model_points`], computed.
fn model_points_uncached(pos: &Position, me: Side, depth: u32, greedy: bool) -> f64 {
    let tb = big(pos);
    let points = |p: &Position| (final_for(tb, p, me).signum() as f64 + 1.0) / 2.0;
    if pos.is_over() || depth == 0 {
        return points(pos);
    }
    let mover = pos.to_move();
    let children: Vec<(i32, Position)> = pos
        .legal_moves()
        .iter()
        .map(|&r| {
            let p = after(pos, r);
            (p.margin(mover) - pos.margin(mover), p)
        })
        .collect();
    if mover != me {
        let least = if greedy {
            children.iter().map(|&(g, _)| g).max().unwrap()
        } else {
            i32::MIN
        };
        let chosen: Vec<&Position> = children
            .iter()
            .filter(|&&(g, _)| g >= least)
            .map(|(_, p)| p)
            .collect();
        return chosen
            .iter()
            .map(|p| model_points(p, me, depth - 1, greedy))
            .sum::<f64>()
            / chosen.len() as f64;
    }
    // An extra turn (captures take seeds, so this ends).
    if points(pos) == 1.0 {
        return 1.0;
    }
    children
        .iter()
        .filter(|(_, p)| points(p) >= points(pos))
        .map(|(_, p)| model_points(p, me, depth, greedy))
        .fold(points(pos), f64::max)
}

/// With swindling on (the default), a position that is not lost is still
/// played perfectly; in a lost one the engine plays a best move, or a move
/// after which the opponent's most tempting moves, or one of its moves
/// at random, can throw the win away, and it does set such traps. Its
/// score is the played move's proved value.
#[test]
fn swindles_only_in_lost_positions_and_set_real_traps() {
    let mut swindles = 0;
    for variant in [Variant::I, Variant::II, Variant::III] {
        let rules = Rules::new(variant, 4).unwrap();
        let Tables { small, big } = tables(variant);
        let mut engine = Engine::new(EngineKind::AlphaBeta);
        engine.set_tablebase(Arc::clone(small));
        for seeds in [16, 20] {
            for pos in sample(rules, seeds, 2003) {
                let result = search(&mut engine, pos, 1_000_000);
                let m = result.best.expect("a move");
                // Passes are settled: South may have had to pass.
                let me = pos.to_move();
                let child = after(&pos, m);
                if result.depth == 0 {
                    assert_eq!(result.score, final_for(big, &child, me), "{}", pos.to_notation());
                }
                let best = big.best_moves(&pos).unwrap();
                if best.iter().any(|&(b, _)| b == m) {
                    continue;
                }
                assert!(
                    final_for(big, &pos, me) < 0,
                    "{variant:?} {}: left the best moves {best:?} for {m:?}",
                    pos.to_notation()
                );
                assert!(
                    reaches(&child, me, MAX_SWINDLE_DEPTH, 0)
                        || random_points(&child, me, RANDOM_DEPTH) > 0.0,
                    "{variant:?} {}: {m:?} sets no trap",
                    pos.to_notation()
                );
                swindles += 1;
            }
        }
    }
    assert!(swindles > 10, "only {swindles} swindles");
}

/// The swindle's model counts its positions against the search's node
/// budget even inside the tables, where every value it needs is a probe:
/// with a budget too small for any model, the engine plays a best move in
/// every lost position, and with a large one it sets traps in some of them.
/// (Uncounted, the model ran for minutes per move on 2×6.)
#[test]
fn swindles_stay_within_the_node_budget() {
    let (mut lost, mut traps) = (0, 0);
    for variant in [Variant::I, Variant::II, Variant::III] {
        let rules = Rules::new(variant, 4).unwrap();
        let tb = &tables(variant).small;
        let mut engine = Engine::new(EngineKind::AlphaBeta);
        engine.set_tablebase(Arc::clone(tb));
        for pos in sample(rules, 12, 37) {
            if tb.final_margin(&pos).expect("covered") >= 0 {
                continue;
            }
            lost += 1;
            let best = tb.best_moves(&pos).unwrap();
            let is_best = |m| best.iter().any(|&(b, _)| b == m);
            // A budget of 4 nodes gives the model 2 positions.
            let m = search(&mut engine, pos, 4).best.expect("a move");
            assert!(
                is_best(m),
                "{variant:?} {}: {m:?} is no best move {best:?} and the model had no budget",
                pos.to_notation()
            );
            if !is_best(search(&mut engine, pos, 1_000_000).best.expect("a move")) {
                traps += 1;
            }
        }
    }
    assert!(lost > 30 && traps > 3, "{lost} lost positions, {traps} traps");
}

/// In a drawn position the swindling engine keeps the draw (it plays a
/// best move) and, among the moves that keep it, prefers those after which
/// the opponent's most tempting moves can lose: it sets such traps more
/// often than the engine that does not swindle.
#[test]
fn drawn_positions_keep_the_draw_and_set_traps() {
    let (mut drawn, mut traps, mut plain_traps) = (0, 0, 0);
    for variant in [Variant::I, Variant::II, Variant::III] {
        let rules = Rules::new(variant, 4).unwrap();
        let Tables { small, big } = tables(variant);
        let mut swindler = Engine::new(EngineKind::AlphaBeta);
        swindler.set_tablebase(Arc::clone(small));
        let mut plain = Engine::new(EngineKind::AlphaBeta);
        plain.set_tablebase(Arc::clone(small));
        plain.set_swindle(false);
        for seeds in [12, 16, 20] {
            for pos in sample(rules, seeds, 1009) {
                let me = pos.to_move();
                if final_for(big, &pos, me) != 0 {
                    continue;
                }
                drawn += 1;
                let best = big.best_moves(&pos).unwrap();
                let trap = |m| reaches(&after(&pos, m), me, MAX_SWINDLE_DEPTH, 1);
                let m = search(&mut swindler, pos, 1_000_000).best.expect("a move");
                assert!(
                    best.iter().any(|&(b, _)| b == m),
                    "{variant:?} {}: {m:?} gives up the draw ({best:?})",
                    pos.to_notation()
                );
                traps += usize::from(trap(m));
                plain_traps += usize::from(trap(search(&mut plain, pos, 1_000_000).best.expect("a move")));
            }
        }
    }
    assert!(drawn > 30, "{drawn} drawn positions");
    assert!(
        traps > plain_traps,
        "{traps} traps swindling, {plain_traps} without, in {drawn} drawn positions"
    );
}

/// Calls `f` for every `step`-th lost or drawn 2×4 position (12, 16 and 20
/// seeds, South to move) of each variant, with the engine on the 12-seed
/// tables, the 20-seed tables, the mover and its proved result (−1 or 0).
fn for_each_unwon(step: usize, mut f: impl FnMut(Variant, &mut Engine, &Tablebase, Position, Side, i32)) {
    for variant in [Variant::I, Variant::II, Variant::III] {
        let rules = Rules::new(variant, 4).unwrap();
        let Tables { small, big } = tables(variant);
        let mut engine = Engine::new(EngineKind::AlphaBeta);
        engine.set_tablebase(Arc::clone(small));
        for seeds in [12, 16, 20] {
            for pos in sample(rules, seeds, step) {
                let me = pos.to_move();
                let result = final_for(big, &pos, me).signum();
                if result <= 0 {
                    f(variant, &mut engine, big, pos, me, result);
                }
            }
        }
    }
}

/// Where no move lets the opponent's most tempting moves go wrong, the
/// swindle still counts on errors at random: in lost and drawn positions
/// whose result no tempting line can improve, the engine plays, among the
/// moves that keep the result, one that gives an opponent moving at random
/// for its next `RANDOM_DEPTH` moves the best chance (checked over the
/// 20-seed tables), whenever some move gives any; and some of these
/// positions give no chance at the first random move.
#[test]
fn random_errors_count_where_tempting_ones_do_not() {
    // Positions where some move gives a random opponent a chance, and
    // those where only a later random move can err.
    let (mut chances, mut deeper) = (0, 0);
    for_each_unwon(211, |variant, engine, big, pos, me, result| {
        let keep: Vec<_> = pos
            .legal_moves()
            .iter()
            .copied()
            .filter(|&m| final_for(big, &after(&pos, m), me).signum() == result)
            .collect();
        if keep
            .iter()
            .any(|&m| reaches(&after(&pos, m), me, MAX_SWINDLE_DEPTH, result + 1))
        {
            return;
        }
        let chance = |m| random_points(&after(&pos, m), me, RANDOM_DEPTH);
        let most = keep.iter().map(|&m| chance(m)).fold(0.0, f64::max);
        if most <= (result as f64 + 1.0) / 2.0 {
            return;
        }
        chances += 1;
        let first = |m| random_points(&after(&pos, m), me, 1);
        if keep.iter().all(|&m| first(m) <= (result as f64 + 1.0) / 2.0) {
            deeper += 1;
        }
        let m = search(engine, pos, 1_000_000).best.expect("a move");
        assert!(
            keep.contains(&m) && chance(m) == most,
            "{variant:?} {}: {m:?} gives a random opponent {} where {most} was possible",
            pos.to_notation(),
            chance(m)
        );
    });
    assert!(chances > 20, "only {chances} positions with a chance");
    assert!(deeper > 0, "no position where only a later random move can err");
    eprintln!("{chances} positions with a chance, {deeper} of them only after the first random move");
}

/// Expected points for `me` after `pos` (settled) when the opponent plays
/// one of its most tempting moves (largest immediate gain, each equally
/// likely) for its next `depth` moves and perfectly after them, `me`
/// playing its best moves that keep the result ([`big`] gives the results):
/// the swindle's chance against a one-ply greedy opponent.
fn tempting_points(pos: &Position, me: Side, depth: u32) -> f64 {
    model_points(pos, me, depth, true)
}

/// A fallible opponent may err greedily or at random: in lost and drawn
/// positions, among the moves that keep the result and give either kind of
/// opponent a chance, the engine plays one with the largest sum of the two
/// expected results (checked over the 20-seed tables), also where the move
/// best against a greedy opponent alone is a worse trap for a random one.
#[test]
fn swindles_weigh_greedy_and_random_errors_together() {
    let (mut chances, mut disagree) = (0, 0);
    for_each_unwon(2003, |variant, engine, big, pos, me, result| {
        let floor = (result as f64 + 1.0) / 2.0;
        let keys: Vec<(Move, f64, f64)> = pos
            .legal_moves()
            .iter()
            .copied()
            .filter(|&m| final_for(big, &after(&pos, m), me).signum() == result)
            .map(|m| {
                let child = after(&pos, m);
                (
                    m,
                    tempting_points(&child, me, MAX_SWINDLE_DEPTH),
                    random_points(&child, me, RANDOM_DEPTH),
                )
            })
            .filter(|&(_, t, u)| t > floor || u > floor)
            .collect();
        if keys.is_empty() {
            return;
        }
        chances += 1;
        let most = keys.iter().map(|&(_, t, u)| t + u).fold(f64::MIN, f64::max);
        // The old key: greedy errors first, random ones only to break ties.
        let (_, gt, gu) = keys
            .iter()
            .copied()
            .max_by(|a, b| (a.1, a.2).partial_cmp(&(b.1, b.2)).unwrap())
            .unwrap();
        if gt + gu < most - 1e-9 {
            disagree += 1;
        }
        let m = search(engine, pos, 1_000_000).best.expect("a move");
        let got = keys.iter().find(|&&(k, ..)| k == m).map(|&(_, t, u)| t + u);
        assert!(
            got.is_some_and(|g| g >= most - 1e-9),
            "{variant:?} {}: {m:?} scores {got:?} for both kinds of error where {most} was possible ({keys:?})",
            pos.to_notation()
        );
    });
    assert!(chances > 100, "only {chances} positions with a chance");
    assert!(
        disagree > 10,
        "only {disagree} positions where the greedy-first key falls short"
    );
    eprintln!("{chances} positions with a chance, {disagree} where greedy errors first fall short");
}
