//! `hoyito bench`: single-threaded random playouts under the full rules.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use hoyito_core::{playout, Position, RepetitionTracker, Rules, Variant};
use rand::rngs::SmallRng;
use rand::{RngCore, SeedableRng};

use super::common::RulesArgs;

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    rules: RulesArgs,
    /// All three variants, even with --variant (without --variant, bench plays all three anyway).
    #[arg(long)]
    all: bool,
    /// Seconds per variant.
    #[arg(long, default_value_t = 3.0)]
    seconds: f64,
    /// Play exactly this many games per variant instead of timing (for instruction counts).
    #[arg(long)]
    games: Option<u64>,
    /// Random seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// One JSON line per variant.
    #[arg(long)]
    json: bool,
}

/// Totals of a batch of playouts.
#[derive(Debug, Default, Clone, Copy)]
pub struct Totals {
    pub games: u64,
    pub plies: u64,
    pub south_wins: u64,
    pub north_wins: u64,
}

/// Random playouts from the start for about `seconds`.
pub fn run_playouts(rules: Rules, seconds: f64, games: Option<u64>, seed: u64) -> (Totals, Duration) {
    let start = Position::new(rules);
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut below = |k: usize| playout::uniform_below(k, || rng.next_u32());
    let mut tracker = RepetitionTracker::new();
    let mut t = Totals::default();
    let began = Instant::now();
    let limit = Duration::from_secs_f64(seconds.max(0.0));
    loop {
        let batch = games.map_or(256, |g| g.saturating_sub(t.games).min(256));
        for _ in 0..batch {
            let (end, plies) = playout::random_game(start, &mut below, &mut tracker);
            t.games += 1;
            t.plies += plies;
            match end.outcome().and_then(|o| o.winner) {
                Some(hoyito_core::Side::South) => t.south_wins += 1,
                Some(hoyito_core::Side::North) => t.north_wins += 1,
                None => {}
            }
        }
        if games.map_or(began.elapsed() >= limit, |g| t.games >= g) {
            break;
        }
    }
    (t, began.elapsed())
}

/// Before timing, checks the rules engine against golden move counts on the
/// standard 2x6 board (crates/hoyito-core/tests/golden), so a fast wrong
/// engine cannot report a figure.
fn verify(rules: Rules) -> anyhow::Result<()> {
    if rules != Rules::standard(rules.variant()) {
        return Ok(());
    }
    let want = match rules.variant() {
        Variant::I => 13805,
        Variant::II => 19922,
        Variant::III => 20065,
    };
    let got = hoyito_core::perft::perft(&Position::new(rules), 6);
    anyhow::ensure!(
        got == want,
        "perft 6 of Hoyito {} is {got}, expected {want}: the rules engine is wrong",
        rules.variant()
    );
    Ok(())
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let base = args.rules.rules()?;
    let variants: Vec<Variant> = if args.rules.is_given("variant") && !args.all {
        vec![base.variant()]
    } else {
        Variant::ALL.to_vec()
    };
    for v in variants {
        let mut spec = base.spec();
        spec.variant = v;
        let rules = Rules::try_from(spec)?;
        verify(rules)?;
        let (t, dt) = run_playouts(rules, args.seconds, args.games, args.seed);
        let secs = dt.as_secs_f64();
        let gps = t.games as f64 / secs;
        let pps = t.plies as f64 / secs;
        if args.json {
            outln!(
                "{}",
                serde_json::json!({
                    "variant": v.name(),
                    "holes": rules.holes(),
                    "games": t.games,
                    "plies": t.plies,
                    "seconds": (secs * 1000.0).round() / 1000.0,
                    "games_per_s": gps.round(),
                    "plies_per_s": pps.round(),
                    "south_wins": t.south_wins,
                    "north_wins": t.north_wins,
                })
            )?;
        } else {
            outln!(
                "Hoyito {:<3} 2x{:<2}  {:>10.0} games/s  {:>12.0} plies/s  ({} games, {:.1} plies/game, South {:.1}% North {:.1}%)",
                v.name(),
                rules.holes(),
                gps,
                pps,
                t.games,
                t.plies as f64 / t.games.max(1) as f64,
                100.0 * t.south_wins as f64 / t.games.max(1) as f64,
                100.0 * t.north_wins as f64 / t.games.max(1) as f64,
            )?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
