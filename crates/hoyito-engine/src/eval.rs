//! Static evaluation, in internal units of [`SCALE`] per seed.

use hoyito_core::{Position, Repetition};

/// Internal units per seed: scores are kept in hundredths of a seed so the
/// positional terms can be finer than one seed.
pub const SCALE: i32 = 100;

/// Internal units to seeds, rounded to nearest.
pub(crate) fn to_seeds(v: i32) -> i32 {
    (v as f64 / SCALE as f64).round() as i32
}

/// Weights of the positional terms, in internal units.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EvalWeights {
    /// Per seed in the mover's row minus per seed in the opponent's row.
    pub row_seed: i32,
    /// Per non-empty open hole of the mover minus the opponent's.
    pub mobility: i32,
    /// Per hole holding exactly 3 seeds in the opponent's row (a casa the
    /// mover may make) minus those in the mover's row.
    pub threat: i32,
    /// Bonus for having the move.
    pub tempo: i32,
    /// Quiescence plies at the horizon: captures (and game-ending moves)
    /// only, with stand-pat on the static value (0: none).
    pub quiescence: i32,
}

impl EvalWeights {
    /// The default, full-strength weights.
    pub const DEFAULT: EvalWeights = EvalWeights {
        row_seed: 10,
        mobility: 0,
        threat: 0,
        tempo: 0,
        quiescence: 0,
    };
    /// Captured margin only (the greedy levels).
    pub const MATERIAL: EvalWeights = EvalWeights {
        row_seed: 0,
        mobility: 0,
        threat: 0,
        tempo: 0,
        quiescence: 0,
    };
}

impl Default for EvalWeights {
    fn default() -> Self {
        EvalWeights::DEFAULT
    }
}

/// The static value of a position that is not over, from the view of the
/// side to move: captured margin (reserves included) plus positional terms.
#[inline]
pub fn evaluate(pos: &Position, w: &EvalWeights) -> i32 {
    let me = pos.to_move();
    let mut v = pos.margin(me) * SCALE + w.tempo;
    if w.row_seed == 0 && w.mobility == 0 && w.threat == 0 {
        return v;
    }
    let (mine, theirs) = (pos.row(me), pos.row(me.other()));
    let board = pos.board();
    let mut row = 0i32;
    let mut mob = 0i32;
    let mut threat = 0i32;
    for &s in &board[mine] {
        row += s as i32;
        mob += (s != 0) as i32;
        threat -= (s == 3) as i32;
    }
    for &s in &board[theirs] {
        row -= s as i32;
        mob -= (s != 0) as i32;
        threat += (s == 3) as i32;
    }
    v += w.row_seed * row + w.mobility * mob + w.threat * threat;
    v
}

/// The final margin, from the view of `side` in internal units, if the game
/// ended now by repetition: the seeds in play are shared by the rules.
#[inline]
pub fn split_value(pos: &Position, side: hoyito_core::Side) -> i32 {
    let m = pos.margin(side);
    match pos.rules().repetition() {
        // Even shares leave the margin as it is.
        Repetition::Even => m * SCALE,
        Repetition::OwnRow => (m + pos.row_seeds(side) as i32 - pos.row_seeds(side.other()) as i32) * SCALE,
    }
}
