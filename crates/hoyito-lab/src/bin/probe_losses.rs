//! Plays full-strength alpha-beta (a node budget per move) against a level
//! from random openings, both colours, and prints every game it does not win
//! with the engine's score after each of its moves: a tool to tell lost
//! openings from search blunders.
//!
//! `cargo run --release -p hoyito-lab --bin probe_losses -- VARIANT PAIRS NODES OPP_LEVEL RANDOM_PLIES [SEED]`
//!
//! With `HOYITO_TABLEBASES=DIR` the engine uses the tablebases in `DIR`.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use hoyito_core::{Game, Rules, Side, Variant};
use hoyito_engine::{Engine, EngineKind, Limits};
use hoyito_tablebase::Tablebase;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let variant = match args.first().map(String::as_str) {
        Some("II") => Variant::II,
        Some("III") => Variant::III,
        _ => Variant::I,
    };
    let num = |i: usize, d: u64| args.get(i).and_then(|s| s.parse().ok()).unwrap_or(d);
    let pairs = num(1, 10);
    let nodes = num(2, 1_000_000);
    let opp = num(3, 2) as u8;
    let plies = num(4, 2);
    let seed = num(5, 1);
    let rules = Rules::standard(variant);
    let stop = AtomicBool::new(false);
    // Opened (and checked) once for every game.
    let tables = std::env::var("HOYITO_TABLEBASES")
        .ok()
        .map(|dir| Arc::new(Tablebase::open(rules, dir.as_ref()).expect("tablebases")));
    let (mut w, mut d, mut l) = (0, 0, 0);
    for pair in 0..pairs {
        let mut rng = SmallRng::seed_from_u64(seed ^ pair.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let mut opening = Game::new(rules);
        for _ in 0..plies {
            if opening.is_over() {
                break;
            }
            let legal = opening.position().legal_moves();
            opening
                .play(legal[rng.random_range(0..legal.len())])
                .expect("legal");
        }
        for a_side in [Side::South, Side::North] {
            let mut game = opening.clone();
            let mut ea = Engine::new(EngineKind::AlphaBeta);
            ea.set_hash_mb(8);
            if let Some(tb) = &tables {
                ea.set_tablebase(Arc::clone(tb));
            }
            let mut eb = Engine::with_level(opp);
            eb.set_seed(pair * 2 + (a_side == Side::North) as u64);
            let limits = Limits {
                node_budget: Some(nodes),
                ..Limits::default()
            };
            let mut trace = Vec::new();
            while !game.is_over() {
                let me = game.position().to_move();
                let r = if me == a_side {
                    ea.search(&game, limits, &stop, &mut |_| {})
                } else {
                    eb.search(&game, limits, &stop, &mut |_| {})
                };
                let m = r.best.expect("a move");
                let tok = game.position().move_token(m).to_string();
                if me == a_side {
                    trace.push(format!("A:{tok}({:+},d{})", r.score, r.depth));
                } else {
                    trace.push(format!("b:{tok}"));
                }
                game.play(m).expect("legal");
            }
            let margin = game.position().margin(a_side);
            match margin.signum() {
                1 => w += 1,
                0 => d += 1,
                _ => l += 1,
            }
            if margin <= 0 {
                println!(
                    "pair {pair} A={a_side:?} opening {:?} final margin {margin:+} reason {:?}\n  {}",
                    opening.tokens(),
                    game.position().outcome().map(|o| o.reason),
                    trace.join(" ")
                );
            }
        }
    }
    println!("A: +{w} ={d} -{l}");
}
