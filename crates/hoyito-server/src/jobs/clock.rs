//! The server's timer of a game's clock: when the running clock runs out,
//! the game ends (the other side wins), whether or not anyone is watching;
//! and the games with a running clock loaded after a restart. The clocks
//! themselves are [`crate::room::clock`].

use std::sync::Arc;
use std::time::Duration;

use hoyito_core::Side;

use crate::error::ApiError;
use crate::room::live::LiveGame;
use crate::state::{broadcast_state, store_last_step, AppState, Slot};
use crate::store::now;
use hoyito_room::Stop;

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
    g.room.commit_stop(stop);
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
