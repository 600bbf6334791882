//! A puzzle's rating: a deterministic estimate of its difficulty on the
//! Elo-like scale players know from chess puzzles, made from what the tables
//! and the trace say about the solution (until ratings are learned from
//! players' attempts).
//!
//! From [`BASE`]:
//! - `+250` for each solver move after the first (a line must be seen to its end);
//! - `+40` for each legal move beyond two (more candidates to weigh);
//! - `+25` for each lap of the first move after the first, up to 8 (a relay
//!   must be counted seed by seed);
//! - `+300` if another move captures more at once than the solution (the
//!   greedy move is wrong), `+100` if the solution captures nothing at once
//!   (a quiet move);
//! - `+150` if the solution only saves a draw;
//! - `+50` for each other move that keeps the result but falls short by
//!   the clear margin or more (a plausible move that is not good enough);
//!
//! clamped to [`MIN`]..=[`MAX`] and rounded to a multiple of 10.

use hoyito_core::{Position, TracedMove};

use crate::certify::{Outlook, Step};

/// The rating of the simplest puzzle: one move among two, capturing the most.
pub const BASE: i32 = 1000;
/// The lowest rating.
pub const MIN: u32 = 400;
/// The highest rating.
pub const MAX: u32 = 2800;

/// The seeds `pos`'s mover captures with each of the step's moves by the
/// move itself (the last-four award included).
fn immediate_gains(pos: &Position, first: &Step) -> Vec<i32> {
    let mover = pos.to_move();
    first
        .moves
        .iter()
        .map(|&(m, _)| {
            let mut child = *pos;
            match child.play(m) {
                Ok(_) => child.margin(mover) - pos.margin(mover),
                Err(_) => 0,
            }
        })
        .collect()
}

/// The rating of the puzzle at `pos` whose first step is `first`, its
/// first move traced as `traced`, with `solver_moves` solver moves
/// ([module docs](self)).
pub fn rating(pos: &Position, first: &Step, traced: &TracedMove, solver_moves: usize) -> u32 {
    let gains = immediate_gains(pos, first);
    let own = first
        .moves
        .iter()
        .zip(&gains)
        .find(|((m, _), _)| *m == first.best)
        .map_or(0, |(_, &g)| g);
    let greedy = first
        .moves
        .iter()
        .zip(&gains)
        .filter(|((m, _), _)| *m != first.best)
        .map(|(_, &g)| g)
        .max()
        .unwrap_or(0);
    let margin = pos.margin(pos.to_move());
    let plausible = first
        .moves
        .iter()
        .filter(|&&(m, v)| m != first.best && Outlook::of_margin(margin + v) == first.outlook)
        .count() as i32;
    let mut r = BASE;
    r += 250 * (solver_moves.saturating_sub(1) as i32);
    r += 40 * (first.moves.len().saturating_sub(2) as i32);
    r += 25 * (traced.laps().saturating_sub(1).min(8) as i32);
    if greedy > own {
        r += 300;
    }
    if own == 0 {
        r += 100;
    }
    if first.outlook == Outlook::Draw {
        r += 150;
    }
    r += 50 * plausible;
    let r = r.clamp(MIN as i32, MAX as i32) as u32;
    (r + 5) / 10 * 10
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::certify::{certify, step};
    use hoyito_core::{Rules, Variant, MAX_TRACE_EVENTS};
    use hoyito_tablebase::Tablebase;

    #[test]
    fn ratings_are_bounded_and_grow_with_the_line() {
        let rules = Rules::new(Variant::II, 4).unwrap();
        let tb = Tablebase::solve_in_memory(rules, 16).unwrap();
        let pos = Position::from_notation(rules, "3,0,0,3/1,1,1,7 s 4-12").unwrap();
        let first = step(&tb, &pos).unwrap().expect("a step");
        let traced = pos.prepare(first.best, MAX_TRACE_EVENTS).unwrap();
        let plain = rating(&pos, &first, &traced, 1);
        assert!((MIN..=MAX).contains(&plain) && plain.is_multiple_of(10));
        // The same step seen as the start of a longer line rates higher.
        assert_eq!(rating(&pos, &first, &traced, 2), (plain + 250).min(MAX));
        let p = certify(&tb, &pos).unwrap().unwrap();
        assert_eq!(p.rating, rating(&pos, &first, &traced, p.solver_moves()));
    }
}
