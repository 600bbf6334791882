//! Draw offers and takeback requests: `POST /api/games/{id}/draw` and
//! `POST /api/games/{id}/takeback`, each with `offer`, `accept` or
//! `decline`. The room decides what the action does
//! ([`hoyito_room::Offers::decide`]); this stores it, then takes it in and
//! tells the watchers.
//!
//! Between people an offer waits for the other player's answer, stored in
//! the database (so it survives a restart and every server node sees it;
//! any stored step withdraws it). An accepted draw ends the game (or the
//! whole match); an accepted takeback goes back to before the asker's last
//! move (with any move of the other's after it), the asker to move, as an
//! undo does. The engine answers a draw offer at once, accepting only when
//! its own evaluation says the position is a draw or worse for it.

use std::sync::atomic::Ordering;
use std::sync::Arc;

use axum::extract::State;
use axum::http::HeaderMap;
use axum::Json;
use hoyito_core::Side;
use hoyito_room::{OfferAction, OfferKind, OfferStep, Seat, Stop};

use crate::ai;
use crate::error::ApiError;
use crate::http::client_ip::ClientIp;
use crate::http::extract::{ApiJson, ApiPath};
use crate::http::handlers::play::rewind;
use crate::http::seat::seat;
use crate::http::wire::{OfferRequest, OfferResponse};
use crate::room::live::LiveGame;
use crate::state::broadcast_state;
use crate::state::{store_last_step, AppState, Slot};

/// The longest the engine thinks about a draw offer.
const DRAW_THINK: std::time::Duration = std::time::Duration::from_millis(500);

/// `POST /api/games/{id}/draw`.
pub(crate) async fn draw(
    st: State<Arc<AppState>>,
    id: ApiPath<String>,
    client: ClientIp,
    headers: HeaderMap,
    ApiJson(req): ApiJson<OfferRequest>,
) -> Result<Json<OfferResponse>, ApiError> {
    offer(st, id, client, headers, OfferKind::Draw, req.action).await
}

/// `POST /api/games/{id}/takeback`.
pub(crate) async fn takeback(
    st: State<Arc<AppState>>,
    id: ApiPath<String>,
    client: ClientIp,
    headers: HeaderMap,
    ApiJson(req): ApiJson<OfferRequest>,
) -> Result<Json<OfferResponse>, ApiError> {
    offer(st, id, client, headers, OfferKind::Takeback, req.action).await
}

/// What the room decides `action` on an offer of `kind` does, for the
/// request's seat in `g` (after ending the game if a clock ran out).
fn decide(
    g: &LiveGame,
    headers: &HeaderMap,
    kind: OfferKind,
    action: OfferAction,
) -> Result<OfferStep, ApiError> {
    let seat = seat(g, headers)?;
    let seated = g.meta.tokens.south.is_some() && g.meta.tokens.north.is_some();
    Ok(g.offers.decide(&g.room, kind, seat, action, seated)?)
}

async fn offer(
    State(st): State<Arc<AppState>>,
    ApiPath(id): ApiPath<String>,
    ClientIp(client): ClientIp,
    headers: HeaderMap,
    kind: OfferKind,
    action: OfferAction,
) -> Result<Json<OfferResponse>, ApiError> {
    let slot = st.slot(&id).await?;
    let mut g = slot.game.lock().await;
    // Seat errors (403) come before a clock is flagged.
    seat(&g, &headers)?;
    crate::jobs::clock::flag_if_due(&st, &slot, &mut g).await?;
    let step = decide(&g, &headers, kind, action)?;
    let kind_index = usize::from(kind == OfferKind::Takeback);
    let now = crate::store::now();
    // An offer made again soon after it was declined waits (accepting the
    // other's offer never does).
    if let OfferStep::Set(Some(side)) = step {
        check_cooldown(&st, &g, kind, kind_index, side, now)?;
    }
    match step {
        OfferStep::Set(side) => {
            store_offer(&st, &mut g, kind, side).await?;
            if action == OfferAction::Decline {
                if let Seat::One(me) = seat(&g, &headers)? {
                    g.declined_at[kind_index][me.other().index()] = Some((now, g.room.seq()));
                }
            }
            let view = g.view();
            drop(g);
            broadcast_state(&slot, &view);
            Ok(Json(OfferResponse {
                accepted: false,
                game: view,
            }))
        }
        OfferStep::Draw => agree(&st, &slot, &mut g).await,
        OfferStep::TakeBack { .. } => {
            drop(g);
            // The game may change while it is rebuilt: the room decides
            // again under the lock each time.
            let game = rewind(&st, &slot, |g| match decide(g, &headers, kind, action)? {
                OfferStep::TakeBack { keep } => Ok(keep),
                _ => Err(hoyito_room::RoomError::NoOffer(kind).into()),
            })
            .await?;
            Ok(Json(OfferResponse { accepted: true, game }))
        }
        OfferStep::AskEngine => {
            // The engine's search is this client's engine job, in the one
            // queue with moves, hints and analyses.
            let held = st.reserve_deep(client)?;
            let me = g.room.position().to_move();
            let gm = &mut *g;
            gm.offers.offered_to_engine(me, &gm.room);
            let game = g.room.current().clone();
            let level = g.meta.level.max(ai::HINT_LEVEL);
            let engine = g.meta.engine_side.unwrap_or(me.other());
            let at = (g.room.epoch(), g.room.seq());
            drop(g);
            engine_answer(&st, &slot, game, level, engine, at, held).await
        }
    }
}

/// 429 `offer_cooldown` (with `Retry-After`) if `side`'s offer of `kind`
/// was declined at this step less than
/// [`crate::ServerLimits::offer_cooldown`] ago.
fn check_cooldown(
    st: &AppState,
    g: &LiveGame,
    kind: OfferKind,
    kind_index: usize,
    side: Side,
    now: i64,
) -> Result<(), ApiError> {
    let Some((at, seq)) = g.declined_at[kind_index][side.index()] else {
        return Ok(());
    };
    if seq != g.room.seq() {
        return Ok(()); // the game went on: another request
    }
    let left = st.limits.offer_cooldown.as_millis() as i64 - (now - at);
    if left <= 0 {
        return Ok(());
    }
    let what = match kind {
        OfferKind::Draw => "draw offer",
        OfferKind::Takeback => "takeback request",
    };
    let seconds = (left as u64).div_ceil(1000).max(1);
    Err(ApiError::too_many(
        "offer_cooldown",
        format!("your {what} was declined just now: you may make it again in {seconds} s"),
    )
    .retry_after(seconds))
}

/// Stores `side`'s offer of `kind` at the game's current step (or with
/// `None` clears it), then takes it in memory. Nothing changes in memory
/// if the write fails; a write refused because another node stored a step
/// meanwhile is 409 `stale` (and the game is reloaded).
async fn store_offer(
    st: &AppState,
    g: &mut LiveGame,
    kind: OfferKind,
    side: Option<Side>,
) -> Result<(), ApiError> {
    let (gid, seq) = (g.meta.id.clone(), g.room.seq());
    let rev = st.db(move |s| s.set_offer(&gid, kind, seq, side)).await?;
    g.offers.set(kind, side, &g.room, rev);
    Ok(())
}

/// Ends the game (or the whole match) in an agreed draw.
async fn agree(st: &AppState, slot: &Slot, g: &mut LiveGame) -> Result<Json<OfferResponse>, ApiError> {
    g.room.check_stop(Stop::Draw)?;
    g.room.commit_stop(Stop::Draw);
    store_last_step(st, g, Stop::Draw.token()).await?;
    g.stop.store(true, Ordering::Relaxed);
    if let Some(timer) = g.clock_timer.take() {
        timer.abort();
    }
    let view = g.view();
    broadcast_state(slot, &view);
    Ok(Json(OfferResponse {
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
    held: crate::limits::Held,
) -> Result<Json<OfferResponse>, ApiError> {
    let to_move = game.position().to_move();
    let movetime = st.engine_movetime.min(DRAW_THINK);
    let res = crate::jobs::engine::search_for_request(st, game, level, movetime, held).await?;
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
    Ok(Json(OfferResponse {
        accepted: false,
        game: g.view(),
    }))
}
