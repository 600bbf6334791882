//! Draw offers: `POST /api/games/{id}/draw` with `offer`, `accept` or
//! `decline`. Between people the offer waits for the other player's answer,
//! stored in the database (so it survives a restart and every server node
//! sees it; any stored step withdraws it); the engine answers at once,
//! accepting only when its own evaluation says the position is a draw or
//! worse for it.

use std::sync::atomic::Ordering;
use std::sync::Arc;

use axum::extract::State;
use axum::http::HeaderMap;
use axum::Json;
use hoyito_core::Side;

use crate::ai;
use crate::auth::Seat;
use crate::error::ApiError;
use crate::http::extract::{ApiJson, ApiPath};
use crate::http::seat::seat;
use crate::http::wire::{DrawAction, DrawRequest, DrawResponse};
use crate::room::live::{side_index as idx, LiveGame};
use crate::state::broadcast_state;
use crate::state::{store_last_step, AppState, Slot};
use crate::store::{DrawOffer, Mode, OfferKind};
use hoyito_room::Stop;

/// The longest the engine thinks about a draw offer.
const DRAW_THINK: std::time::Duration = std::time::Duration::from_millis(500);

pub(crate) async fn draw(
    State(st): State<Arc<AppState>>,
    ApiPath(id): ApiPath<String>,
    headers: HeaderMap,
    ApiJson(req): ApiJson<DrawRequest>,
) -> Result<Json<DrawResponse>, ApiError> {
    let slot = st.slot(&id).await?;
    let mut g = slot.game.lock().await;
    let seat = seat(&g, &headers)?;
    crate::jobs::clock::flag_if_due(&st, &slot, &mut g).await?;
    let me = match (g.meta.mode, seat) {
        (Mode::Hotseat, _) | (_, Seat::Both) => {
            return Err(ApiError::conflict(
                "draw_unavailable",
                "both sides play at this device: there is nobody to offer a draw to",
            ))
        }
        (_, Seat::One(side)) => side,
    };
    g.room.check_resign()?;
    if g.room.position().is_over() {
        return Err(ApiError::conflict(
            "round_over",
            "this round is over: offer a draw while a round is played",
        ));
    }
    let offered_to_me = g.pending_draw() == Some(me.other());
    match req.action {
        DrawAction::Accept | DrawAction::Offer if offered_to_me => agree(&st, &slot, &mut g).await,
        DrawAction::Decline if offered_to_me => {
            store_offer(&st, &mut g, OfferKind::Draw, None).await?;
            let view = g.view();
            drop(g);
            broadcast_state(&slot, &view);
            Ok(Json(DrawResponse {
                accepted: false,
                game: view,
            }))
        }
        DrawAction::Accept | DrawAction::Decline => Err(ApiError::conflict(
            "no_draw_offer",
            "the other player has not offered a draw",
        )),
        DrawAction::Offer => {
            if g.pending_draw() == Some(me) || g.draw_offered_at[idx(me)] == Some(g.room.seq()) {
                return Err(ApiError::conflict(
                    "draw_offered",
                    "you offered a draw at this move already: offer again after a move",
                ));
            }
            if g.meta.mode == Mode::Engine && g.room.position().to_move() != me {
                return Err(ApiError::conflict(
                    "not_your_turn",
                    "offer the computer a draw on your move",
                ));
            }
            let seq = g.room.seq();
            if g.meta.mode == Mode::Engine {
                g.draw_offered_at[idx(me)] = Some(seq);
                let game = g.room.current().clone();
                let level = g.meta.level.max(ai::HINT_LEVEL);
                let engine = g.meta.engine_side.unwrap_or(me.other());
                let epoch = g.room.epoch();
                drop(g);
                return engine_answer(&st, &slot, game, level, engine, (epoch, seq)).await;
            }
            store_offer(&st, &mut g, OfferKind::Draw, Some(me)).await?;
            g.draw_offered_at[idx(me)] = Some(seq);
            let view = g.view();
            drop(g);
            broadcast_state(&slot, &view);
            Ok(Json(DrawResponse {
                accepted: false,
                game: view,
            }))
        }
    }
}

/// Stores `side`'s offer of `kind` (a draw offer, a takeback request) at
/// the game's current step (or with `None` clears it), then takes it in
/// memory. Nothing changes in memory if the write fails; a write refused
/// because another node stored a step meanwhile is 409 `stale` (and the
/// game is reloaded).
pub(crate) async fn store_offer(
    st: &AppState,
    g: &mut LiveGame,
    kind: OfferKind,
    side: Option<Side>,
) -> Result<(), ApiError> {
    let (gid, seq) = (g.meta.id.clone(), g.room.seq());
    let rev = st.db(move |s| s.set_offer(&gid, kind, seq, side)).await?;
    let offer = side.map(|side| DrawOffer { side, seq });
    match kind {
        OfferKind::Draw => g.draw_offer = offer,
        OfferKind::Takeback => g.takeback_offer = offer,
    }
    g.draw_rev = g.draw_rev.max(rev);
    Ok(())
}

/// Ends the game (or the whole match) in an agreed draw.
async fn agree(st: &AppState, slot: &Slot, g: &mut LiveGame) -> Result<Json<DrawResponse>, ApiError> {
    g.room.check_stop(Stop::Draw)?;
    g.room.commit_stop(Stop::Draw);
    store_last_step(st, g, Stop::Draw.token()).await?;
    g.stop.store(true, Ordering::Relaxed);
    if let Some(timer) = g.clock_timer.take() {
        timer.abort();
    }
    let view = g.view();
    broadcast_state(slot, &view);
    Ok(Json(DrawResponse {
        accepted: true,
        game: view,
    }))
}

/// The engine's answer to a draw offer made at step `at` (epoch, seq): it
/// searches the position briefly and accepts if its score (the margin it
/// expects, in seeds) is zero or less.
async fn engine_answer(
    st: &Arc<AppState>,
    slot: &Arc<Slot>,
    game: hoyito_core::Game,
    level: u8,
    engine: Side,
    at: (u64, u64),
) -> Result<Json<DrawResponse>, ApiError> {
    let to_move = game.position().to_move();
    let movetime = st.engine_movetime.min(DRAW_THINK);
    let res = crate::jobs::engine::search_for_request(st, game, level, movetime, None).await?;
    let Some((_, score)) = res else {
        return Err(ApiError::conflict("game_over", "the game is over"));
    };
    let for_engine = if to_move == engine { score } else { -score };
    let mut g = slot.game.lock().await;
    if (g.room.epoch(), g.room.seq()) != at {
        return Err(ApiError::conflict(
            "stale",
            "the game went on while the computer considered the offer: offer again",
        ));
    }
    if for_engine <= 0 {
        return agree(st, slot, &mut g).await;
    }
    Ok(Json(DrawResponse {
        accepted: false,
        game: g.view(),
    }))
}
