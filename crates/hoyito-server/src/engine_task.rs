//! The engine's side of an engine game: a task that searches and plays
//! while the engine is to move.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use crate::ai;
use crate::live::LiveGame;
use crate::state::{commit_stored, AppState, Slot};
use crate::ws::broadcast_move;

/// Lets the engine play while it is to move in an engine game: searches on
/// a blocking thread (bounded by the engine permits), then stores, applies
/// and broadcasts its move, unless the game changed meanwhile.
pub(crate) fn kick_engine(state: Arc<AppState>, slot: Arc<Slot>) {
    tokio::spawn(async move {
        loop {
            let (game, level, epoch, seq, stop) = {
                let mut g = slot.game.lock().await;
                if !g.engine_to_move() || g.thinking {
                    return;
                }
                g.thinking = true;
                g.stop = Arc::new(AtomicBool::new(false));
                (
                    g.current().clone(),
                    g.meta.level,
                    g.epoch,
                    g.seq(),
                    g.stop.clone(),
                )
            };
            let Ok(permit) = state.engine_permits.clone().acquire_owned().await else {
                return;
            };
            let movetime = state.engine_movetime;
            // Only level 10 plays perfectly.
            let tablebases = state.tablebases.clone().filter(|_| level == 10);
            let choice = tokio::task::spawn_blocking(move || {
                let _permit = permit;
                ai::choose(&game, level, tablebases.as_deref(), movetime, &stop)
            })
            .await;
            let mut g = slot.game.lock().await;
            g.thinking = false;
            if g.epoch != epoch || g.seq() != seq {
                continue; // an undo came in: think again if the engine is still to move
            }
            let Ok(Some((token, _))) = choice else {
                return;
            };
            let Ok(prepared) = g.prepare(&token, LiveGame::TRACE_LIMIT) else {
                return;
            };
            let Ok(ev) = commit_stored(&state, &mut g, prepared).await else {
                return;
            };
            let view = g.view();
            broadcast_move(&slot, &ev, &view);
        }
    });
}
