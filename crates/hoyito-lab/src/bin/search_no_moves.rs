//! Searches random sparse boards for positions where neither player has a
//! legal move although seeds are on the board: every sowing of both
//! players is endless (RULES.md §4), so the game ends and the seeds are
//! shared.
//!
//! ```text
//! cargo run --release -p hoyito-lab --bin search_no_moves -- [seed] [samples]
//! ```
//!
//! Each sample is a board of Hoyito I, II or III on 2×4 to 2×6 with 2 to 16
//! seeds (half the time all in South's row) and some empty holes closed;
//! up to eleven positions found are printed, each as notation (once the
//! game is settled: over, the seeds shared) and as the setup drawn, among
//! `samples` (5,000,000 unless given) boards drawn from `seed` (7 unless
//! given). The example committed in hoyito-core's `tests/examples.rs`
//! (`neither_player_can_move_the_seeds_are_shared`) was found this way.

use hoyito_core::{EndReason, Position, Rules, Setup, Variant};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

fn main() {
    let usage = "usage: search_no_moves [seed] [samples]";
    let mut args = std::env::args().skip(1);
    let seed: u64 = args.next().map_or(7, |s| s.parse().expect(usage));
    let samples: u64 = args.next().map_or(5_000_000, |s| s.parse().expect(usage));
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut found = 0;
    for _ in 0..samples {
        let v = Variant::ALL[rng.random_range(0..3)];
        let n = rng.random_range(4..=6u8);
        let r = Rules::new(v, n as usize).expect("2x4 to 2x6 are valid boards");
        let mut s = Setup::start(&r);
        let seeds = rng.random_range(2..=16u32);
        let len = 2 * n as usize;
        s.board = vec![0; len];
        // Half the time North's row is empty (then South's sowings alone decide).
        let north_empty = rng.random_bool(0.5);
        for _ in 0..seeds {
            let i = rng.random_range(0..if north_empty { n as usize } else { len });
            s.board[i] += 1;
        }
        s.closed = (0..len)
            .filter(|&i| s.board[i] == 0 && rng.random_bool(0.3))
            .collect();
        let p = Position::from_setup(r, &s).expect("a board of 2 to 16 seeds with only empty holes closed");
        if p.outcome().map(|o| o.reason) == Some(EndReason::NoMoves) {
            println!("NOMOVES variant={v} {}", p.to_notation());
            println!("  setup {s:?}");
            found += 1;
            if found > 10 {
                break;
            }
        }
    }
    println!("seed {seed}: {found} positions found");
}
