//! Clocks of online games: the time controls, each side's time left
//! (computed from the times the steps were stored, so a restarted server
//! has the same clocks), and the server's timer that ends a game whose
//! clock ran out, whether or not anyone is watching.
//!
//! A side's clock runs while it is to move, from the step before; the
//! game's first move is not timed, nor the pause between the rounds of a
//! match. With an increment, each move adds it to the mover's time left;
//! with days per move, each move has that long, and time does not carry over.

use std::sync::Arc;
use std::time::Duration;

use hoyito_core::Side;
use serde::{Deserialize, Serialize};

use crate::ending::Stop;
use crate::error::ApiError;
use crate::live::LiveGame;
use crate::state::{store_last_step, AppState, Slot};
use crate::store::now;
use crate::ws::broadcast_state;

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

    fn budget_ms(self) -> i64 {
        if self.days > 0 {
            i64::from(self.days) * DAY_MS
        } else {
            i64::from(self.initial) * 1000
        }
    }
}

/// The clock of a game as the view sends it; clients count down from it.
#[derive(Debug, Clone, Serialize)]
pub struct ClockView {
    /// The time control.
    #[serde(flatten)]
    pub spec: ClockSpec,
    /// `[south, north]` milliseconds left at `now_ms`.
    pub remaining_ms: [i64; 2],
    /// The side whose clock runs, if one does.
    pub running: Option<Side>,
    /// When the running clock runs out (ms since the epoch).
    pub deadline_ms: Option<i64>,
    /// The server's time of this view (ms since the epoch).
    pub now_ms: i64,
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
        for i in 1..self.steps.len() {
            let step = &self.steps[i];
            let (Some(side), "move") = (step.side, step.kind) else {
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
        let pos = self.position();
        let running = if self.finished() || pos.is_over() || self.steps.is_empty() {
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

/// Ends the game if its running clock has run out at `now`: stores the flag
/// step and tells the watchers. Returns the side that ran out, if one did.
/// The caller holds the game's lock.
///
/// # Errors
/// If storing the step fails (the game is then as before).
pub(crate) async fn flag_if_due(
    st: &AppState,
    slot: &Slot,
    g: &mut LiveGame,
) -> Result<Option<Side>, ApiError> {
    let Some(side) = g.flag_due(now()) else {
        return Ok(None);
    };
    let stop = Stop::Flag(side);
    g.commit_stop(stop);
    store_last_step(st, g, stop.token()).await?;
    broadcast_state(slot, &g.view());
    Ok(Some(side))
}

/// Arms the game's timer: when its running clock runs out, the game ends
/// (the other side wins), even with nobody connected. Replaces the timer
/// armed before. A failed write is tried again each second.
pub(crate) fn arm(st: Arc<AppState>, slot: Arc<Slot>, g: &mut LiveGame) {
    if let Some(old) = g.clock_timer.take() {
        old.abort();
    }
    let Some((_, at)) = g.deadline() else { return };
    let task = tokio::spawn(async move {
        let mut shutdown = st.shutdown.clone();
        let mut wait = Duration::from_millis((at - now()).max(0) as u64);
        loop {
            tokio::select! {
                () = tokio::time::sleep(wait) => {}
                _ = shutdown.changed() => return,
            }
            let mut g = slot.game.lock().await;
            match flag_if_due(&st, &slot, &mut g).await {
                Ok(_) => return,
                Err(e) => {
                    tracing::warn!(game = %g.meta.id, error = %e.message, "storing a flag fall failed");
                    wait = Duration::from_secs(1);
                }
            }
        }
    });
    g.clock_timer = Some(task.abort_handle());
}

/// Loads every stored game whose clock runs, so that their timers run
/// after a restart (a clock that ran out meanwhile ends its game at once).
pub(crate) async fn arm_stored(st: Arc<AppState>) {
    let ids = match st.db(|s| s.timed_games()).await {
        Ok(ids) => ids,
        Err(e) => {
            tracing::error!(error = %e.message, "listing the games with a clock failed");
            return;
        }
    };
    for id in ids {
        if let Err(e) = st.slot(&id).await {
            tracing::error!(game = %id, error = %e.message, "loading a game with a clock failed");
        }
    }
}
