//! Integer actions and numeric observations for learning environments.
//!
//! Actions number every move token the rules can produce, from the mover's
//! point of view: with `D` directions (1 for `direction = "fixed"`, else 2:
//! counter-clockwise `L` first) and `n` holes per row,
//!
//! - `d·n + k` is the one-hole move from the mover's hole `k + 1` in
//!   direction `d` (`"k+1"`, or `"k+1L"` / `"k+1R"` where the direction is
//!   a choice);
//! - with the two-hole opening, `D·n + d·n² + a·n + b` is the pair
//!   `"a+1" + "b+1"` (`"2+5"`) in direction `d`.
//!
//! Observations are `4n + 3` numbers: the board (`2n` hole counts in hole
//! index order, closed holes 0), the closed holes (`2n` flags), South's and
//! North's captured seeds, and the side to move (0 South, 1 North).

use hoyito_core::{Direction, DirectionRule, Move, Position, Rules, Side};
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// Number of directions the action space distinguishes.
fn directions(rules: &Rules) -> usize {
    if rules.direction() == DirectionRule::Fixed {
        1
    } else {
        2
    }
}

/// Size of the action space of `rules`.
pub(crate) fn count(rules: &Rules) -> usize {
    let n = rules.holes();
    let d = directions(rules);
    d * n + if rules.two_hole_opening() { d * n * n } else { 0 }
}

/// Length of an observation under `rules`.
pub(crate) fn obs_len(rules: &Rules) -> usize {
    4 * rules.holes() + 3
}

fn dir_index(rules: &Rules, dir: Direction) -> usize {
    if directions(rules) == 1 {
        0
    } else {
        match dir {
            Direction::Ccw => 0,
            Direction::Cw => 1,
        }
    }
}

/// The action of a move of the side to move of `pos`.
pub(crate) fn encode(pos: &Position, m: Move) -> usize {
    let rules = pos.rules();
    let n = rules.holes();
    let start = pos.row(pos.to_move()).start;
    let d = dir_index(rules, m.direction());
    let k = m.hole() - start;
    match m.second() {
        None => d * n + k,
        Some(b) => directions(rules) * n + d * n * n + k * n + (b - start),
    }
}

/// The move an action stands for in `pos` (whether legal or not), or `None`
/// if the action is outside the action space.
pub(crate) fn decode(pos: &Position, action: i64) -> Option<Move> {
    let rules = pos.rules();
    let a = usize::try_from(action).ok().filter(|&a| a < count(rules))?;
    let n = rules.holes();
    let dn = directions(rules);
    let start = pos.row(pos.to_move()).start;
    let dir_of = |d: usize| {
        if dn == 1 {
            pos.chosen_directions()[pos.to_move()].unwrap_or(Direction::Ccw)
        } else if d == 0 {
            Direction::Ccw
        } else {
            Direction::Cw
        }
    };
    if a < dn * n {
        Move::try_single(start + a % n, dir_of(a / n))
    } else {
        let r = a - dn * n;
        let d = r / (n * n);
        let (x, y) = (r % (n * n) / n, r % n);
        Move::try_pair(start + x, start + y, dir_of(d))
    }
}

/// Writes the legal-action mask of `pos` (zeros once it is over).
pub(crate) fn write_mask(pos: &Position, mask: &mut [i8]) {
    mask.fill(0);
    if pos.is_over() {
        return;
    }
    for m in pos.legal_moves() {
        mask[encode(pos, m)] = 1;
    }
}

/// Whose point of view an observation takes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Perspective {
    /// South's row first, South's captures first (the board as it is).
    Absolute,
    /// The mover's row first and the mover's captures first, so that a
    /// policy sees every position as the player to move (a finished game,
    /// with no one to move, as South).
    Mover,
}

impl Perspective {
    pub(crate) fn named(name: &str) -> PyResult<Perspective> {
        match name {
            "absolute" => Ok(Perspective::Absolute),
            "mover" => Ok(Perspective::Mover),
            other => Err(crate::errors::HoyitoError::new_err(format!(
                "unknown perspective {:?}: expected \"absolute\" or \"mover\"",
                hoyito_core::error::echo(other)
            ))),
        }
    }
}

/// Writes the observation of `pos` from `view`.
pub(crate) fn write_obs(pos: &Position, out: &mut [f32], view: Perspective) {
    let len = pos.rules().board_len();
    let n = len / 2;
    // Under the mover's view with North to move, North's row comes first.
    let flip = view == Perspective::Mover && !pos.is_over() && pos.to_move() == Side::North;
    let hole = |i: usize| if flip { (i + n) % len } else { i };
    let (board, rest) = out.split_at_mut(len);
    for (i, o) in board.iter_mut().enumerate() {
        *o = f32::from(pos.board()[hole(i)]);
    }
    let (closed, tail) = rest.split_at_mut(len);
    for (i, c) in closed.iter_mut().enumerate() {
        *c = if pos.is_closed(hole(i)) { 1.0 } else { 0.0 };
    }
    let cap = pos.captured();
    let (first, second) = if flip {
        (cap.north, cap.south)
    } else {
        (cap.south, cap.north)
    };
    tail[0] = f32::from(first);
    tail[1] = f32::from(second);
    tail[2] = if !pos.is_over() && pos.to_move() == Side::North {
        1.0
    } else {
        0.0
    };
}

/// action_count(**rules) -> int
///
/// The size of the integer action space under these rules (see
/// `docs/PYTHON.md`, "Actions and observations").
#[pyfunction]
#[pyo3(signature = (**rules))]
pub(crate) fn action_count(rules: Option<&Bound<'_, PyDict>>) -> PyResult<usize> {
    Ok(count(&crate::rules::from_kwargs(rules)?))
}

/// observation_size(**rules) -> int
///
/// The length of an observation vector under these rules: `4 * holes + 3`.
#[pyfunction]
#[pyo3(signature = (**rules))]
pub(crate) fn observation_size(rules: Option<&Bound<'_, PyDict>>) -> PyResult<usize> {
    Ok(obs_len(&crate::rules::from_kwargs(rules)?))
}
