//! How many positions of real games the tables answer: plays seeded
//! level-5 self-play games on the standard 2×6 board (random first plies
//! for variety) and counts, by ply, the positions whose exact value the
//! tables in `DIR` give (a probe, no search), per variant.
//!
//! `cargo run --release -p hoyito-lab --bin table_coverage -- DIR [GAMES] [SEED]`
//!
//! `DIR` holds tables as `hoyito tablebase build --dir DIR` writes them
//! (the server's default tables: every 2×6 position with up to 16 seeds in
//! play). Prints one table per variant: plies in bands of 10, positions,
//! positions answered, and the share.

use std::sync::atomic::AtomicBool;

use hoyito_core::{Game, Rules, Variant};
use hoyito_engine::{Engine, Limits};
use hoyito_tablebase::Tablebase;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// Plies in a band of the table.
const BAND: usize = 10;
/// Random first plies of each game.
const RANDOM_PLIES: usize = 2;
/// The engine's level.
const LEVEL: u8 = 5;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(dir) = args.first() else {
        eprintln!("usage: table_coverage DIR [GAMES] [SEED]");
        std::process::exit(2);
    };
    let num = |i: usize, d: u64| args.get(i).and_then(|s| s.parse().ok()).unwrap_or(d);
    let (games, seed) = (num(1, 50), num(2, 1));
    let stop = AtomicBool::new(false);
    for variant in Variant::ALL {
        let rules = Rules::standard(variant);
        let tb = match Tablebase::open(rules, dir.as_ref()) {
            Ok(tb) => tb,
            Err(e) => {
                eprintln!("{rules}: no tables in {dir}: {e}");
                continue;
            }
        };
        // [positions, answered] per band of plies.
        let mut bands: Vec<[u64; 2]> = Vec::new();
        let mut longest = 0;
        for g in 0..games {
            let mut rng = SmallRng::seed_from_u64(seed ^ g.wrapping_mul(0x9E37_79B9_7F4A_7C15));
            let mut game = Game::new(rules);
            let mut engine = Engine::with_level(LEVEL);
            engine.set_seed(seed.wrapping_add(g));
            let mut ply = 0;
            while !game.is_over() {
                let band = ply / BAND;
                if bands.len() <= band {
                    bands.resize(band + 1, [0, 0]);
                }
                bands[band][0] += 1;
                if tb.value(game.position()).is_ok() {
                    bands[band][1] += 1;
                }
                let m = if ply < RANDOM_PLIES {
                    let legal = game.position().legal_moves();
                    legal[rng.random_range(0..legal.len())]
                } else {
                    engine
                        .search(&game, Limits::default(), &stop, &mut |_| {})
                        .best
                        .expect("a move while the game goes on")
                };
                game.play(m).expect("a legal move");
                ply += 1;
            }
            longest = longest.max(ply);
        }
        let tables = tb.layers().last().copied().unwrap_or(0);
        println!("\n{rules}: {games} games of level {LEVEL} (seed {seed}), tables to {tables} seeds, longest {longest} plies");
        println!(
            "{:>9} {:>10} {:>10} {:>7}",
            "plies", "positions", "answered", "share"
        );
        let (mut all, mut hit) = (0, 0);
        for (i, [n, k]) in bands.iter().enumerate() {
            all += n;
            hit += k;
            println!(
                "{:>9} {:>10} {:>10} {:>6.1}%",
                format!("{}–{}", i * BAND, i * BAND + BAND - 1),
                n,
                k,
                100.0 * *k as f64 / (*n).max(1) as f64
            );
        }
        println!(
            "{:>9} {:>10} {:>10} {:>6.1}%",
            "all",
            all,
            hit,
            100.0 * hit as f64 / all.max(1) as f64
        );
    }
}
