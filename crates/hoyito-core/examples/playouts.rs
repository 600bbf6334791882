//! Random playouts from the start, as `hoyito bench` runs them, for
//! profiling the rules engine on its own (callgrind, perf).
//!
//! ```text
//! cargo run --release -p hoyito-core --example playouts -- <I|II|III> [games] [holes]
//! ```

use hoyito_core::{playout, Position, RepetitionTracker, Rules, Variant};
use rand::rngs::SmallRng;
use rand::{RngCore, SeedableRng};

fn main() {
    let mut args = std::env::args().skip(1);
    let variant: Variant = args
        .next()
        .as_deref()
        .unwrap_or("I")
        .parse()
        .expect("variant I, II or III");
    let games: u64 = args.next().and_then(|g| g.parse().ok()).unwrap_or(100_000);
    let holes: usize = args.next().and_then(|h| h.parse().ok()).unwrap_or(6);
    let start = Position::new(Rules::new(variant, holes).expect("holes 4..=12"));
    let mut rng = SmallRng::seed_from_u64(1);
    let mut below = |k: usize| playout::uniform_below(k, || rng.next_u32());
    let mut tracker = RepetitionTracker::new();
    let began = std::time::Instant::now();
    let mut plies = 0;
    for _ in 0..games {
        plies += playout::random_game(start, &mut below, &mut tracker).1;
    }
    let s = began.elapsed().as_secs_f64();
    println!(
        "{variant} 2x{holes}: {games} games, {plies} plies, {:.0} games/s, {:.2} M plies/s",
        games as f64 / s,
        plies as f64 / s / 1e6
    );
}
