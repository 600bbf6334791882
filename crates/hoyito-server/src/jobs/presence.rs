//! Telling a game's watchers who has it open: a `presence` message when a
//! socket opens or closes, and a timer that sends one more when the claim
//! against a player who left may be made (the rule is the room's,
//! [`hoyito_room::Room::claim_window`]; the counts are
//! [`crate::room::presence`]).

use std::sync::Arc;
use std::time::Duration;

use crate::room::live::LiveGame;
use crate::state::{broadcast_presence, AppState, Slot};
use crate::store::now;

/// Sends the game's presence to its watchers and (re)arms the timer that
/// sends it again when a claim becomes possible. The caller holds the
/// game's lock.
pub(crate) fn changed(st: &Arc<AppState>, slot: &Arc<Slot>, g: &mut LiveGame) {
    let now = now();
    broadcast_presence(slot, &g.presence_view(now));
    arm(st, slot, g, now);
}

/// Arms the timer that tells the watchers when a claim may be made, if one
/// will; replaces the timer armed before.
pub(crate) fn arm(st: &Arc<AppState>, slot: &Arc<Slot>, g: &mut LiveGame, at: i64) {
    if let Some(old) = g.claim_timer.take() {
        old.abort();
    }
    let Some((_, wait)) = g.claim_window(at).filter(|&(_, wait)| wait > 0) else {
        return;
    };
    let (st, slot) = (st.clone(), slot.clone());
    let task = tokio::spawn(async move {
        let mut shutdown = st.shutdown.clone();
        tokio::select! {
            () = tokio::time::sleep(Duration::from_millis(wait)) => {}
            _ = shutdown.changed() => return,
        }
        let mut g = slot.game.lock().await;
        g.claim_timer = None;
        let at = now();
        broadcast_presence(&slot, &g.presence_view(at));
        arm(&st, &slot, &mut g, at);
    });
    g.claim_timer = Some(task.abort_handle());
}
