//! `hoyito bench`: single-threaded random playouts under the full rules.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use hoyito_core::{Position, RepetitionTracker, Rules, Variant};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use super::common::RulesArgs;

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    rules: RulesArgs,
    /// Only this variant (default: the variant given, or all three if --variant is not given).
    #[arg(long)]
    all: bool,
    /// Seconds per variant.
    #[arg(long, default_value_t = 3.0)]
    seconds: f64,
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

/// Plays one uniformly random game under the full rules; returns plies.
/// Uniform choice by rejection: a random candidate is tried, and an endless
/// one is removed and another drawn; a player with none passes.
pub fn random_game(start: Position, rng: &mut SmallRng, tracker: &mut RepetitionTracker) -> (Position, u64) {
    let mut pos = start;
    let mut plies = 0;
    tracker.clear();
    while !pos.is_over() {
        let next = if pos.opening_pending() {
            let legal = pos.legal_moves();
            (!legal.is_empty()).then(|| {
                let mut p = pos;
                p.play_unchecked(legal[rng.gen_range(0..legal.len())])
                    .expect("legal");
                p
            })
        } else {
            random_candidate(&pos, rng)
        };
        match next {
            None => pos.pass(),
            Some(p) => {
                if tracker.push(&pos) >= 3 {
                    pos.end_by_repetition();
                    break;
                }
                pos = p;
                plies += 1;
            }
        }
    }
    (pos, plies)
}

/// The position after a uniformly random legal one-hole move, or `None`.
#[inline]
fn random_candidate(pos: &Position, rng: &mut SmallRng) -> Option<Position> {
    let mut cands = pos.candidates();
    while !cands.is_empty() {
        let i = rng.gen_range(0..cands.len());
        let mut p = *pos;
        if p.play_unchecked(cands[i]).is_ok() {
            return Some(p);
        }
        cands.swap_remove(i);
    }
    None
}

/// Random playouts from the start for about `seconds`.
pub fn run_playouts(rules: Rules, seconds: f64, seed: u64) -> (Totals, Duration) {
    let start = Position::new(rules);
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut tracker = RepetitionTracker::new();
    let mut t = Totals::default();
    let began = Instant::now();
    let limit = Duration::from_secs_f64(seconds.max(0.0));
    loop {
        for _ in 0..256 {
            let (end, plies) = random_game(start, &mut rng, &mut tracker);
            t.games += 1;
            t.plies += plies;
            match end.outcome().and_then(|o| o.winner) {
                Some(hoyito_core::Side::South) => t.south_wins += 1,
                Some(hoyito_core::Side::North) => t.north_wins += 1,
                None => {}
            }
        }
        if began.elapsed() >= limit {
            break;
        }
    }
    (t, began.elapsed())
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let base = args.rules.rules()?;
    let explicit_variant = std::env::args().any(|a| a == "--variant" || a.starts_with("--variant="));
    let variants: Vec<Variant> = if explicit_variant && !args.all {
        vec![base.variant()]
    } else {
        Variant::ALL.to_vec()
    };
    for v in variants {
        let mut spec = base.spec();
        spec.variant = v;
        let rules = Rules::try_from(spec)?;
        let (t, dt) = run_playouts(rules, args.seconds, args.seed);
        let secs = dt.as_secs_f64();
        let gps = t.games as f64 / secs;
        let pps = t.plies as f64 / secs;
        if args.json {
            println!(
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
            );
        } else {
            println!(
                "Hoyito {:<3} 2x{:<2}  {:>10.0} games/s  {:>12.0} plies/s  ({} games, {:.1} plies/game, South {:.1}% North {:.1}%)",
                v.name(),
                rules.holes(),
                gps,
                pps,
                t.games,
                t.plies as f64 / t.games.max(1) as f64,
                100.0 * t.south_wins as f64 / t.games.max(1) as f64,
                100.0 * t.north_wins as f64 / t.games.max(1) as f64,
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}
