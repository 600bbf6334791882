//! How long the rules take to list the legal moves of a position (every
//! candidate sown, each sowing proved finite or endless), by seeds per hole,
//! on the smallest and largest boards: the data behind the server's
//! seeds-per-hole cap (`SERVED_SEEDS_PER_HOLE`, docs/API.md).
//!
//! ```text
//! cargo run --profile test -p hoyito-server --example legal_cost -- [GAMES] [MAX_SEEDS]
//! ```
//!
//! For each variant, board (2×4, 2×6, 2×12) and seeds per hole from 4 to
//! `MAX_SEEDS` (default 12; at most 240 seeds in all), it plays `GAMES`
//! (default 200) random single games (fixed random seed) to their end and
//! times every `legal_tokens` call. Prints the positions timed, the mean and
//! the slowest call, and the slowest position in notation.

use std::time::{Duration, Instant};

use hoyito_core::{Game, Rules, RulesSpec, Variant};
use rand::seq::IndexedRandom;
use rand::SeedableRng;

fn main() {
    let mut args = std::env::args().skip(1);
    let games: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(200);
    let max_seeds: u8 = args.next().and_then(|a| a.parse().ok()).unwrap_or(12);
    println!("variant board seeds positions mean_us max_ms slowest");
    for seeds in 4..=max_seeds {
        for holes in [4u8, 6, 12] {
            if 2 * u32::from(holes) * u32::from(seeds) > 240 {
                continue;
            }
            for variant in [Variant::I, Variant::II, Variant::III] {
                let spec = RulesSpec {
                    variant,
                    holes,
                    seeds,
                    ..RulesSpec::default()
                };
                let Ok(rules) = Rules::try_from(spec) else {
                    continue;
                };
                let mut rng = rand::rngs::StdRng::seed_from_u64(u64::from(seeds) * 1000 + u64::from(holes));
                let (mut n, mut total, mut worst, mut slowest) =
                    (0u64, Duration::ZERO, Duration::ZERO, String::new());
                for _ in 0..games {
                    let mut game = Game::new(rules);
                    for _ in 0..2000 {
                        if game.is_over() {
                            break;
                        }
                        let start = Instant::now();
                        let legal = game.position().legal_tokens();
                        let took = start.elapsed();
                        n += 1;
                        total += took;
                        if took > worst {
                            worst = took;
                            slowest = game.position().to_notation();
                        }
                        let Some(t) = legal.choose(&mut rng) else { break };
                        if game.play_token(t).is_err() {
                            break;
                        }
                    }
                }
                println!(
                    "{variant:?} 2x{holes} {seeds} {n} {:.1} {:.2} {slowest}",
                    total.as_secs_f64() * 1e6 / n.max(1) as f64,
                    worst.as_secs_f64() * 1e3
                );
            }
        }
    }
}
