//! [`ClockSpec`]: the time control of a game, as a request gives it, the
//! database stores it and the view sends it; checked by
//! [`ClockSpec::check`] (in [`crate::room::clock`], with the clocks).

use serde::{Deserialize, Serialize};

/// A time control: `initial` seconds plus `increment` per move, or `days`
/// per move (correspondence).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClockSpec {
    /// Seconds on each clock at the start (0 with `days`).
    #[serde(default)]
    pub initial: u32,
    /// Seconds added to the mover's clock after each move.
    #[serde(default)]
    pub increment: u32,
    /// Days per move, for correspondence play (0 for a running clock).
    #[serde(default)]
    pub days: u32,
}

/// Most minutes on a clock at the start.
pub const MAX_INITIAL_MINUTES: u32 = 180;
/// Most seconds of increment.
pub const MAX_INCREMENT: u32 = 60;
/// Most days per move.
pub const MAX_DAYS: u32 = 14;

const DAY_MS: i64 = 24 * 60 * 60 * 1000;

impl ClockSpec {
    /// Each side's time for the game (or, with days per move, for a move).
    pub(crate) fn budget_ms(self) -> i64 {
        if self.days > 0 {
            i64::from(self.days) * DAY_MS
        } else {
            i64::from(self.initial) * 1000
        }
    }
}
