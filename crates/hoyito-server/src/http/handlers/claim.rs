//! `POST /api/games/{id}/claim`: in an online game with a clock of minutes,
//! the player who stayed ends the game once the other has been disconnected
//! for long enough ([`crate::ServerLimits::claim_after`]): the win, or a draw. The
//! rule is the room's ([`hoyito_room::Room::check_claim`]); who is connected
//! is this node's count of the game's WebSockets
//! ([`crate::room::presence`]). Stored as a `left:<side>` or
//! `left-draw:<side>` step, so the result survives a restart.

use std::sync::atomic::Ordering;
use std::sync::Arc;

use axum::extract::State;
use axum::http::HeaderMap;
use axum::Json;
use hoyito_room::Claim;

use crate::error::ApiError;
use crate::http::extract::{ApiJson, ApiPath};
use crate::http::seat::seat;
use crate::http::wire::{ClaimOutcome, ClaimRequest};
use crate::room::view::GameView;
use crate::state::{broadcast_state, store_last_step, AppState};
use crate::store::now;

pub(crate) async fn claim(
    State(st): State<Arc<AppState>>,
    ApiPath(id): ApiPath<String>,
    headers: HeaderMap,
    ApiJson(req): ApiJson<ClaimRequest>,
) -> Result<Json<GameView>, ApiError> {
    let slot = st.slot(&id).await?;
    let mut g = slot.game.lock().await;
    let seat = seat(&g, &headers)?;
    crate::jobs::clock::flag_if_due(&st, &slot, &mut g).await?;
    let claim = match req.outcome {
        ClaimOutcome::Win => Claim::Win,
        ClaimOutcome::Draw => Claim::Draw,
    };
    let stop = g.room.check_claim_by(seat, claim, &g.host(now()))?;
    g.room.commit_stop(stop);
    store_last_step(&st, &mut g, stop.token()).await?;
    g.stop.store(true, Ordering::Relaxed);
    for timer in [g.clock_timer.take(), g.claim_timer.take()].into_iter().flatten() {
        timer.abort();
    }
    let view = g.view();
    drop(g);
    broadcast_state(&slot, &view);
    Ok(Json(view))
}
