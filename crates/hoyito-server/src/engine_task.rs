//! The engine's side of an engine game: a task that searches and plays
//! while the engine is to move.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use crate::ai;
use crate::limits::Held;
use crate::live::{prepare_move, LiveGame};
use crate::state::{commit_stored, AppState, Slot};
use crate::ws::broadcast_move;

/// The first wait before storing the engine's move again after a failure.
const RETRY_FIRST: Duration = Duration::from_millis(100);
/// The longest wait between two tries (the wait doubles from [`RETRY_FIRST`]).
const RETRY_MAX: Duration = Duration::from_secs(2);

/// Lets the engine play while it is to move in an engine game: searches on
/// a blocking thread (bounded by the engine permits: levels up to
/// [`crate::state::QUICK_LEVEL_MAX`] have their own, so they never wait
/// behind deep searches), then stores, applies
/// and broadcasts its move, unless the game changed meanwhile. A move that
/// fails to store is tried again (with a growing wait) until it is stored
/// or an undo changes the game, so an engine game never stalls.
pub(crate) fn kick_engine(state: Arc<AppState>, slot: Arc<Slot>) {
    kick_engine_for(state, slot, None);
}

/// [`kick_engine`] for a client's move: `held` (the client's engine job,
/// see [`AppState::reserve_engine`]) is released once the engine's reply
/// is played.
pub(crate) fn kick_engine_for(state: Arc<AppState>, slot: Arc<Slot>, held: Option<Held>) {
    tokio::spawn(async move {
        let mut held = held;
        loop {
            let (game, level, epoch, seq, stop, input) = {
                let mut g = slot.game.lock().await;
                if !g.engine_to_move() || g.thinking {
                    return;
                }
                let Ok(input) = g.move_input() else {
                    return;
                };
                g.thinking = true;
                g.stop = Arc::new(AtomicBool::new(false));
                (
                    g.current().clone(),
                    g.meta.level,
                    g.epoch,
                    g.seq(),
                    g.stop.clone(),
                    input,
                )
            };
            // Deep searches are counted in the engine queue; quick ones
            // have their own permits and are not.
            let ticket = (level > crate::state::QUICK_LEVEL_MAX).then(|| state.engine_job());
            let Ok(permit) = state.permits_for_level(level).clone().acquire_owned().await else {
                slot.game.lock().await.thinking = false;
                return;
            };
            let movetime = state.engine_movetime;
            // Only level 10 plays perfectly.
            let tablebases = state.tablebases.clone().filter(|_| level == 10);
            let choice = tokio::task::spawn_blocking(move || {
                let (_permit, _ticket) = (permit, ticket);
                let (token, _) = ai::choose(&game, level, tablebases.as_deref(), movetime, &stop)?;
                // The rules work of the move, off the game's lock too.
                prepare_move(input, &token, LiveGame::TRACE_LIMIT, true).ok()
            })
            .await;
            let mut g = slot.game.lock().await;
            if g.epoch != epoch || g.seq() != seq {
                g.thinking = false;
                continue; // an undo came in: think again if the engine is still to move
            }
            let Ok(Some(prepared)) = choice else {
                g.thinking = false;
                return;
            };
            // The game stays the engine's, thinking, until its move is
            // stored: a failed write is retried, never dropped.
            let mut delay = RETRY_FIRST;
            let event = loop {
                match commit_stored(&state, &mut g, prepared.clone()).await {
                    Ok(event) => break Some(event),
                    Err(e) => {
                        tracing::warn!(
                            game = %g.meta.id,
                            error = %e.message,
                            retry_in_ms = delay.as_millis() as u64,
                            "storing the engine's move failed"
                        );
                        drop(g);
                        tokio::time::sleep(delay).await;
                        delay = (delay * 2).min(RETRY_MAX);
                        g = slot.game.lock().await;
                        if g.epoch != epoch || g.seq() != seq {
                            break None; // an undo came in meanwhile
                        }
                    }
                }
            };
            g.thinking = false;
            if let Some(event) = event {
                let view = g.view_since(event.seq - 1);
                broadcast_move(&slot, &event, &view);
            }
            drop(g);
            held.take();
        }
    });
}
