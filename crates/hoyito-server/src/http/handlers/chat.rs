//! Chat in online games: `POST /api/games/{id}/chat` (players only) and
//! `GET /api/games/{id}/chat` (anyone in a public game, the players only in
//! another). Messages are short plain text, stored, sent to the game's
//! WebSocket as `chat` events (to its players only, unless the game is
//! public), and limited in rate per player.

use std::sync::Arc;

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::Json;
use hoyito_core::Side;

use crate::auth::Seat;
use crate::error::ApiError;
use crate::http::extract::{ApiJson, ApiPath};
use crate::http::seat::{bearer, seat};
use crate::http::wire::{ChatRequest, ChatResponse};
use crate::room::live::LiveGame;
use crate::state::broadcast_chat;
use crate::state::AppState;
use crate::store::{ChatMessage, Mode};

/// Longest chat message, in characters (after trimming).
pub const MAX_CHAT_CHARS: usize = 200;
/// Messages a player may send within [`CHAT_WINDOW_MS`].
pub const CHAT_BURST: usize = 5;
/// The window of the flood limit, in milliseconds.
pub const CHAT_WINDOW_MS: i64 = 10_000;
/// Messages `GET …/chat` returns (the latest).
pub const CHAT_HISTORY: u32 = 100;

/// A message as given, trimmed.
///
/// # Errors
/// 422 `invalid_chat` if it is empty or holds a character
/// [`crate::room::names::check_chars`] refuses (a control character other than a
/// new line, an invisible one…); 422 `chat_too_long` past [`MAX_CHAT_CHARS`].
pub fn check_text(text: &str) -> Result<String, ApiError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(ApiError::unprocessable("invalid_chat", "the message is empty"));
    }
    if text.chars().count() > MAX_CHAT_CHARS {
        return Err(ApiError::unprocessable(
            "chat_too_long",
            format!("a message is at most {MAX_CHAT_CHARS} characters"),
        ));
    }
    crate::room::names::check_chars(text, true)
        .map_err(|f| ApiError::unprocessable("invalid_chat", format!("messages may not contain {f}")))?;
    Ok(text.to_string())
}

pub(crate) async fn post_chat(
    State(st): State<Arc<AppState>>,
    ApiPath(id): ApiPath<String>,
    headers: HeaderMap,
    ApiJson(req): ApiJson<ChatRequest>,
) -> Result<(StatusCode, Json<ChatMessage>), ApiError> {
    let slot = st.slot(&id).await?;
    let mut g = slot.game.lock().await;
    let seat = seat(&g, &headers)?;
    if g.meta.mode != Mode::Online {
        return Err(ApiError::conflict("chat_unavailable", "chat is for online games"));
    }
    let Seat::One(side) = seat else {
        return Err(ApiError::forbidden("this token holds no single seat"));
    };
    let text = check_text(&req.text)?;
    let now = crate::store::now();
    let sent = &mut g.chat_sent[if side == Side::South { 0 } else { 1 }];
    while sent.front().is_some_and(|&t| now - t >= CHAT_WINDOW_MS) {
        sent.pop_front();
    }
    if sent.len() >= CHAT_BURST {
        let wait = sent
            .front()
            .map_or(1, |&t| (CHAT_WINDOW_MS - (now - t)).max(0) / 1000 + 1);
        return Err(ApiError::too_many(
            "chat_flood",
            format!(
                "at most {CHAT_BURST} messages in {} seconds",
                CHAT_WINDOW_MS / 1000
            ),
        )
        .retry_after(wait as u64));
    }
    let gid = g.meta.id.clone();
    let message = st.db(move |s| s.add_chat(&gid, side, &text, now)).await?;
    g.chat_sent[if side == Side::South { 0 } else { 1 }].push_back(now);
    drop(g);
    broadcast_chat(&slot, &message);
    Ok((StatusCode::CREATED, Json(message)))
}

/// Whether the holder of `token` (none: a spectator) may read the chat of
/// `game`: anyone in a public game, only its players in another.
pub(crate) fn may_read_chat(game: &LiveGame, token: Option<&str>) -> bool {
    game.meta.public || game.seat_of(token).is_some()
}

pub(crate) async fn get_chat(
    State(st): State<Arc<AppState>>,
    ApiPath(id): ApiPath<String>,
    headers: HeaderMap,
) -> Result<Json<ChatResponse>, ApiError> {
    let slot = st.slot(&id).await?;
    let gid = {
        let g = slot.game.lock().await;
        if !may_read_chat(&g, bearer(&headers)) {
            return Err(ApiError::forbidden(
                "the chat of a game that is not public is for its players: send a seat's token",
            ));
        }
        g.meta.id.clone()
    };
    let messages = st.db(move |s| s.chat(&gid, CHAT_HISTORY)).await?;
    Ok(Json(ChatResponse { messages }))
}
