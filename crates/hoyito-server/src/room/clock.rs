//! The clock of a room: each side's time left (computed from the times the
//! steps were stored, so a restarted server has the same clocks), the
//! running clock's deadline and the clock's view, and the check of a time
//! control ([`ClockSpec`], in [`crate::clock_spec`]). The timer that ends a
//! game whose clock ran out is [`crate::jobs::clock`].
//!
//! A side's clock runs while it is to move, from the step before; the
//! game's first move is not timed, nor the pause between the rounds of a
//! match. With an increment, each move adds it to the mover's time left;
//! with days per move, each move has that long, and time does not carry over.

use hoyito_core::Side;

use crate::clock_spec::{ClockSpec, MAX_DAYS, MAX_INCREMENT, MAX_INITIAL_MINUTES};
use crate::error::ApiError;
use crate::room::live::LiveGame;
use crate::room::view::ClockView;

impl ClockSpec {
    /// Checks a time control.
    ///
    /// # Errors
    /// 422 `invalid_clock` unless it is either 1 to 180 minutes (given in
    /// seconds) with an increment of 0 to 60 seconds, or 1 to 14 days per move.
    pub fn check(self) -> Result<ClockSpec, ApiError> {
        let bad = |m: String| ApiError::unprocessable("invalid_clock", m);
        if self.days > 0 {
            if self.initial > 0 || self.increment > 0 {
                return Err(bad(
                    "a clock has days per move, or initial time and an increment, not both".into(),
                ));
            }
            if self.days > MAX_DAYS {
                return Err(bad(format!("at most {MAX_DAYS} days per move")));
            }
        } else if !(60..=MAX_INITIAL_MINUTES * 60).contains(&self.initial) {
            return Err(bad(format!(
                "initial time must be 60 to {} seconds",
                MAX_INITIAL_MINUTES * 60
            )));
        } else if self.increment > MAX_INCREMENT {
            return Err(bad(format!("the increment is at most {MAX_INCREMENT} seconds")));
        }
        Ok(self)
    }
}

/// Each side's time left at the last step, and the side whose clock runs
/// from it with the time it started.
type ClockState = ([i64; 2], Option<(Side, i64)>);

impl LiveGame {
    /// Each side's time left at the last step, and the side whose clock
    /// runs from it with the time it started; `None` without a clock.
    fn clock_state(&self) -> Option<ClockState> {
        let spec = self.meta.clock?;
        let budget = spec.budget_ms();
        let mut left = [budget; 2];
        let idx = |s: Side| if s == Side::South { 0 } else { 1 };
        for i in 1..self.room.steps().len() {
            let step = &self.room.steps()[i];
            let (Some(side), hoyito_room::StepKind::Move) = (step.side, step.kind) else {
                continue;
            };
            let (Some(Some(t0)), Some(Some(t1))) = (self.times.get(i - 1), self.times.get(i)) else {
                continue;
            };
            let k = idx(side);
            if spec.days > 0 {
                left[k] = budget;
            } else {
                left[k] = left[k] - (t1 - t0) + i64::from(spec.increment) * 1000;
            }
        }
        let pos = self.room.position();
        let running = if self.room.finished() || pos.is_over() || self.room.steps().is_empty() {
            None
        } else {
            self.times.last().copied().flatten().map(|t| (pos.to_move(), t))
        };
        if let (Some((side, _)), true) = (running, spec.days > 0) {
            left[idx(side)] = budget;
        }
        Some((left, running))
    }

    /// The running clock's deadline: the side and when its time runs out.
    pub fn deadline(&self) -> Option<(Side, i64)> {
        let (left, running) = self.clock_state()?;
        let (side, since) = running?;
        Some((side, since + left[if side == Side::South { 0 } else { 1 }]))
    }

    /// The side whose time has run out at `now`, if one has (and the game goes on).
    pub fn flag_due(&self, now: i64) -> Option<Side> {
        self.deadline().filter(|&(_, at)| now >= at).map(|(side, _)| side)
    }

    /// The clock as the view sends it, at `now`.
    pub fn clock_view(&self, now: i64) -> Option<ClockView> {
        let spec = self.meta.clock?;
        let (mut left, running) = self.clock_state()?;
        let mut deadline = None;
        if let Some((side, since)) = running {
            let k = if side == Side::South { 0 } else { 1 };
            deadline = Some(since + left[k]);
            left[k] = (left[k] - (now - since)).max(0);
        }
        Some(ClockView {
            spec,
            remaining_ms: left,
            running: running.map(|(s, _)| s),
            deadline_ms: deadline,
            now_ms: now,
        })
    }
}
