//! `POST /api/games/{id}/rematch`: the players of an online game that is
//! over meet again in one new game, with the same rules and clock and the
//! sides swapped.
//!
//! The rematch of a game has one id, derived from the game's
//! ([`rematch_id`]), so the two players' requests meet in the same game
//! whichever comes first and on whichever server node: the first creates it
//! (holding the asker's seat; the other seat is kept for the opponent, who
//! takes it with the same request), the second takes the other seat. The
//! old game's view tells the opponent of the offer (`rematch`).

use std::sync::Arc;

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::Json;
use hoyito_core::{ByPlayer, Side};
use sha2::{Digest, Sha256};

use crate::auth::{hash_secret, random_token, Seat};
use crate::error::ApiError;
use crate::http::extract::ApiPath;
use crate::http::seat::seat;
use crate::http::wire::SeatResponse;
use crate::room::live::LiveGame;
use crate::room::view::RematchView;
use crate::state::{broadcast_state, AppState};
use crate::store::{Meta, Mode};

/// The id of game `id`'s rematch: ten letters of the ids' alphabet drawn
/// from a hash of `id` (only the players of `id` can take its seats).
pub(crate) fn rematch_id(id: &str) -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";
    Sha256::digest(format!("hoyito rematch of {id}").as_bytes())
        .iter()
        .take(10)
        .map(|b| ALPHABET[*b as usize % ALPHABET.len()] as char)
        .collect()
}

/// The rematch of `old`: its settings, `side` (the asker's new side) held
/// by `token`'s hash, the players' names swapped, no invite (the other
/// player takes the seat through this endpoint), unlisted.
fn rematch_meta(old: &Meta, id: String, side: Side, hashed: String) -> Meta {
    let mut tokens = ByPlayer::new(None, None);
    tokens[side] = Some(hashed);
    Meta {
        id,
        created_ms: crate::store::now(),
        mode: Mode::Online,
        rules: old.rules,
        is_match: old.is_match,
        level: old.level,
        engine_side: None,
        start: None,
        tokens,
        invite: None,
        names: ByPlayer::new(old.names[Side::North].clone(), old.names[Side::South].clone()),
        clock: old.clock,
        public: false,
        rated: old.rated,
        rating_range: None,
    }
}

/// `POST /api/games/{id}/rematch` with a player's token: 201 with the
/// asker's seat in the rematch (created now, or the one the opponent
/// created). 409 `not_online` for a game on one device (start a new game
/// instead), `game_not_over` while the game goes on, `rematch_asked` if
/// the asker's seat in the rematch is taken already (asked before).
pub(crate) async fn rematch(
    State(st): State<Arc<AppState>>,
    ApiPath(id): ApiPath<String>,
    headers: HeaderMap,
) -> Result<(StatusCode, Json<SeatResponse>), ApiError> {
    // A signed-in player's seat in the rematch belongs to the account.
    let account = crate::http::session::for_write(&st, &headers).await?;
    let slot = st.slot(&id).await?;
    // The old game's lock is held throughout: two requests on this node
    // meet one after the other.
    let mut g = slot.game.lock().await;
    let seat = seat(&g, &headers)?;
    if g.meta.mode != Mode::Online {
        return Err(ApiError::conflict(
            "not_online",
            "a rematch is for online games: start a new game from the result instead",
        ));
    }
    if !g.room.finished() {
        return Err(ApiError::conflict(
            "game_not_over",
            "a rematch can be asked for once the game is over",
        ));
    }
    let Seat::One(old_side) = seat else {
        return Err(ApiError::conflict("not_online", "this token holds both seats"));
    };
    if g.meta.rated && account.is_none() {
        return Err(ApiError::new(
            StatusCode::UNAUTHORIZED,
            "signed_out",
            "the rematch of a rated game is rated: sign in first (POST /api/session)",
        ));
    }
    let side = old_side.other();
    let new_id = rematch_id(&id);
    let token = random_token();
    let hashed = hash_secret(&token);
    let created = match st.slot(&new_id).await {
        Ok(_) => false,
        Err(e) if e.status == StatusCode::NOT_FOUND => {
            let meta = rematch_meta(&g.meta, new_id.clone(), side, hashed.clone());
            let game = LiveGame::new(meta.clone(), 0)?;
            let summary = game.summary();
            st.make_room()?;
            let stored = st.db(move |s| s.insert_game(&meta, &summary)).await;
            match stored {
                Ok(()) => {
                    st.insert(new_id.clone(), game);
                    true
                }
                // Another node created it meanwhile: take the seat in it.
                Err(_) if st.slot(&new_id).await.is_ok() => false,
                Err(e) => return Err(e),
            }
        }
        Err(e) => return Err(e),
    };
    let new_slot = st.slot(&new_id).await?;
    let view = if created {
        new_slot.game.lock().await.view()
    } else {
        let mut r = new_slot.game.lock().await;
        if r.meta.tokens[side].is_some() {
            return Err(ApiError::conflict(
                "rematch_asked",
                format!("your seat in the rematch /g/{new_id} is taken: you asked for it already"),
            ));
        }
        r.meta.tokens[side] = Some(hashed.clone());
        let summary = r.summary();
        let name = r.meta.names[side].clone();
        let gid = new_id.clone();
        if let Err(e) = st
            .db(move |s| s.bind_seat(&gid, side, &hashed, name.as_deref(), &summary))
            .await
        {
            r.meta.tokens[side] = None;
            return Err(e);
        }
        let view = r.view();
        drop(r);
        broadcast_state(&new_slot, &view);
        view
    };
    // The old game tells both players (and its spectators) of the rematch.
    g.rematch = Some(RematchView {
        id: new_id.clone(),
        by: if created { old_side } else { old_side.other() },
        accepted: !created,
    });
    let old_view = g.view();
    drop(g);
    broadcast_state(&slot, &old_view);
    if let Some(account) = account {
        crate::http::session::link_seat(&st, &new_id, side.name(), &account).await;
    }
    Ok((
        StatusCode::CREATED,
        Json(SeatResponse {
            id: new_id,
            token,
            seat: side.name(),
            invite: None,
            game: view,
        }),
    ))
}

#[cfg(test)]
mod tests {
    use super::rematch_id;

    #[test]
    fn a_rematch_id_is_a_game_id_of_its_own() {
        let a = rematch_id("AbCdEfGhJk");
        assert_eq!(a.len(), 10);
        assert_eq!(a, rematch_id("AbCdEfGhJk"));
        assert_ne!(a, rematch_id("AbCdEfGhJm"));
        assert_ne!(rematch_id(&a), a, "a rematch's rematch is another game");
        assert!(!a.starts_with('l'), "never taken for a game on a device");
    }
}
