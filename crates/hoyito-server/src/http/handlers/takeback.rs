//! Takeback requests: `POST /api/games/{id}/takeback` with `offer`,
//! `accept` or `decline`, in online games. A player asks to take back
//! their last move; the request waits for the other player's answer,
//! stored in the database like a draw offer (so it survives a restart and
//! every server node sees it; any stored step withdraws it). Accepted, the
//! game goes back to before the asker's last move (with any move of the
//! other's after it), the asker to move, as an undo does.

use std::sync::Arc;

use axum::extract::State;
use axum::http::HeaderMap;
use axum::Json;
use hoyito_core::Side;

use crate::auth::Seat;
use crate::error::ApiError;
use crate::http::extract::{ApiJson, ApiPath};
use crate::http::handlers::draw::store_offer;
use crate::http::handlers::play::rewind;
use crate::http::seat::seat;
use crate::http::wire::{DrawAction, DrawRequest, DrawResponse};
use crate::room::live::LiveGame;
use crate::state::broadcast_state;
use crate::state::AppState;
use crate::store::{Mode, OfferKind};

pub(crate) async fn takeback(
    State(st): State<Arc<AppState>>,
    ApiPath(id): ApiPath<String>,
    headers: HeaderMap,
    ApiJson(req): ApiJson<DrawRequest>,
) -> Result<Json<DrawResponse>, ApiError> {
    let slot = st.slot(&id).await?;
    let mut g = slot.game.lock().await;
    let me = seated(&g, &headers)?;
    crate::jobs::clock::flag_if_due(&st, &slot, &mut g).await?;
    check_open(&g)?;
    let asked_of_me = g.pending_takeback() == Some(me.other());
    match req.action {
        DrawAction::Accept if asked_of_me => {
            drop(g);
            let game = rewind(&st, &slot, |g| {
                let me = seated(g, &headers)?;
                if g.pending_takeback() != Some(me.other()) {
                    return Err(no_request());
                }
                Ok(g.room.takeback_target(me.other())?)
            })
            .await?;
            Ok(Json(DrawResponse { accepted: true, game }))
        }
        DrawAction::Decline if asked_of_me => {
            store_offer(&st, &mut g, OfferKind::Takeback, None).await?;
            let view = g.view();
            drop(g);
            broadcast_state(&slot, &view);
            Ok(Json(DrawResponse {
                accepted: false,
                game: view,
            }))
        }
        DrawAction::Accept | DrawAction::Decline => Err(no_request()),
        DrawAction::Offer => {
            match g.pending_takeback() {
                Some(side) if side == me => {
                    return Err(ApiError::conflict(
                        "takeback_offered",
                        "you asked to take back your move already: wait for the other player's answer",
                    ))
                }
                Some(_) => {
                    return Err(ApiError::conflict(
                        "takeback_offered",
                        "the other player asked to take back their move: accept or decline it first",
                    ))
                }
                None => {}
            }
            g.room.takeback_target(me)?;
            store_offer(&st, &mut g, OfferKind::Takeback, Some(me)).await?;
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

/// The side of the request's seat in an online game.
///
/// # Errors
/// 403 for a spectator; 409 `takeback_unavailable` in a game that is not
/// online.
fn seated(g: &LiveGame, headers: &HeaderMap) -> Result<Side, ApiError> {
    let seat = seat(g, headers)?;
    match (g.meta.mode, seat) {
        (Mode::Online, Seat::One(side)) => Ok(side),
        _ => Err(ApiError::conflict(
            "takeback_unavailable",
            "takeback requests are only for online games: use undo",
        )),
    }
}

/// Checks that a takeback can be asked for or answered now: the game goes
/// on (409 `game_over`), the round is being played (409 `round_over`), the
/// other player is there (409 `waiting_for_opponent`).
fn check_open(g: &LiveGame) -> Result<(), ApiError> {
    g.room.check_resign()?;
    if g.room.position().is_over() {
        return Err(ApiError::conflict(
            "round_over",
            "this round is over: a move can be taken back only while a round is played",
        ));
    }
    if g.meta.tokens.south.is_none() || g.meta.tokens.north.is_none() {
        return Err(ApiError::conflict(
            "waiting_for_opponent",
            "the other player has not joined yet: there is nobody to ask",
        ));
    }
    Ok(())
}

fn no_request() -> ApiError {
    ApiError::conflict(
        "no_takeback_offer",
        "the other player has not asked to take back a move",
    )
}
