//! The engine's side of an engine game: a task that searches and plays
//! while the engine is to move.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use crate::ai;
use crate::limits::Held;
use crate::room::live::LiveGame;
use crate::state::broadcast_move;
use crate::state::{commit_stored, AppState, Slot};
use hoyito_room::prepare_move;

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
                if !g.room.engine_to_move()
                    || g.thinking
                    || crate::room::live::check_room_for_step(g.room.seq(), state.limits.max_steps).is_err()
                {
                    return;
                }
                let Ok(input) = g.room.move_input() else {
                    return;
                };
                g.thinking = true;
                g.stop = Arc::new(AtomicBool::new(false));
                (
                    g.room.current().clone(),
                    g.meta.level,
                    g.room.epoch(),
                    g.room.seq(),
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
            if g.room.epoch() != epoch || g.room.seq() != seq {
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
                        if g.room.epoch() != epoch || g.room.seq() != seq {
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

/// How long a request waits for an engine permit before it is answered
/// 503 `engine_busy` (its search then never starts).
pub(crate) const REQUEST_QUEUE_WAIT: Duration = Duration::from_secs(10);

/// A short search of `game` for a request that waits for it (a hint, the
/// engine's answer to a draw offer), run as a job off the request path: it
/// counts in the engine queue (503 when full), waits for an engine permit
/// (at most [`REQUEST_QUEUE_WAIT`]), and runs on a blocking thread for at
/// most `movetime`, holding `held` (the client's share of engine jobs, see
/// [`AppState::reserve_deep`]) until it ends, even if the request is gone.
/// `None` if the game is over.
///
/// # Errors
/// 503 `engine_busy` when the queue is full or no permit came in time;
/// 500 if the engine is gone.
pub(crate) async fn search_for_request(
    st: &AppState,
    game: hoyito_core::Game,
    level: u8,
    movetime: Duration,
    held: Held,
) -> Result<Option<(String, i32)>, crate::error::ApiError> {
    use crate::error::ApiError;
    let ticket = st.try_engine_job()?;
    let busy =
        || ApiError::unavailable("engine_busy", "the engine is busy; try again shortly").retry_after(2);
    let permit = tokio::time::timeout(REQUEST_QUEUE_WAIT, st.engine_permits.clone().acquire_owned())
        .await
        .map_err(|_| busy())?
        .map_err(|_| ApiError::internal("engine unavailable"))?;
    let tablebases = st.tablebases.clone();
    // The job holds its permit, ticket and share until the search ends.
    let job = tokio::task::spawn_blocking(move || {
        let (_permit, _ticket, _held) = (permit, ticket, held);
        ai::choose(
            &game,
            level,
            tablebases.as_deref(),
            movetime,
            &AtomicBool::new(false),
        )
    });
    job.await
        .map_err(|e| ApiError::internal(format!("engine task failed: {e}")))
}
