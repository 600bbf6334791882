//! `Game.rollouts`: random games played on from a game's current position
//! in Rust, for Monte Carlo evaluation (OpenSpiel's MCTS through
//! `hoyito.openspiel.RolloutEvaluator`, or a researcher's own search).

use hoyito_core::{playout, Game, Side};
use numpy::PyArray1;
use pyo3::prelude::*;
use rand::rngs::SmallRng;
use rand::{RngCore, SeedableRng};

use crate::errors::HoyitoError;
use crate::interrupt::interruptible;

/// Most rollouts in one call.
const MAX_ROLLOUTS: i64 = 1 << 32;

/// What a rollout's end is worth to (South, North).
#[derive(Clone, Copy)]
pub(crate) enum Returns {
    /// +1 to the winner, −1 to the loser, 0 each for a draw.
    WinLoss,
    /// The final margin in seeds: South's captures minus North's, and its negation.
    Margin,
}

impl Returns {
    pub(crate) fn named(name: &str) -> PyResult<Returns> {
        match name {
            "win_loss" => Ok(Returns::WinLoss),
            "margin" => Ok(Returns::Margin),
            other => Err(HoyitoError::new_err(format!(
                "unknown returns {:?}: expected \"win_loss\" or \"margin\"",
                hoyito_core::error::echo(other)
            ))),
        }
    }

    /// The returns of a finished game.
    fn of(self, game: &Game) -> [f64; 2] {
        let pos = game.position();
        match self {
            Returns::WinLoss => match pos.outcome().and_then(|o| o.winner) {
                Some(Side::South) => [1.0, -1.0],
                Some(Side::North) => [-1.0, 1.0],
                None => [0.0, 0.0],
            },
            Returns::Margin => {
                let m = pos.margin(Side::South) as f64;
                [m, -m]
            }
        }
    }
}

/// The mean returns of `n` uniformly random games played on from `game`
/// (its history counts for the repetition rule), or the returns of `game`
/// itself once it is over.
fn mean_returns(
    game: &Game,
    n: u64,
    seed: u64,
    returns: Returns,
    stop: &std::sync::atomic::AtomicBool,
) -> [f64; 2] {
    if game.is_over() {
        return returns.of(game);
    }
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut below = |k: usize| playout::uniform_below(k, || rng.next_u32());
    let mut sum = [0.0; 2];
    let mut played = 0u64;
    for _ in 0..n {
        if stop.load(std::sync::atomic::Ordering::Relaxed) {
            break;
        }
        let mut g = game.clone();
        while !g.is_over() {
            let legal = g.position().legal_moves();
            if g.play(legal[below(legal.len())]).is_err() {
                break;
            }
        }
        let r = returns.of(&g);
        sum[0] += r[0];
        sum[1] += r[1];
        played += 1;
    }
    let k = played.max(1) as f64;
    [sum[0] / k, sum[1] / k]
}

/// `Game.rollouts(n=1, seed=None, returns="win_loss")`: see game.rs.
pub(crate) fn rollouts<'py>(
    py: Python<'py>,
    game: &Game,
    n: i64,
    seed: Option<u64>,
    returns: &str,
) -> PyResult<Bound<'py, PyArray1<f64>>> {
    let returns = Returns::named(returns)?;
    if !(1..=MAX_ROLLOUTS).contains(&n) {
        return Err(HoyitoError::new_err(format!(
            "n {n} is not allowed: expected 1 to {MAX_ROLLOUTS} rollouts"
        )));
    }
    let seed = seed.unwrap_or_else(rand::random);
    let out = if n > 64 {
        interruptible(py, |stop| mean_returns(game, n as u64, seed, returns, stop))?
    } else {
        // A few rollouts take microseconds: no helper thread for them.
        mean_returns(
            game,
            n as u64,
            seed,
            returns,
            &std::sync::atomic::AtomicBool::new(false),
        )
    };
    Ok(PyArray1::from_slice(py, &out))
}
