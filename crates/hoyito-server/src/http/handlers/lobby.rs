//! The lobby: `GET /api/lobby` lists the public online games waiting for a
//! second player, the games being played, and the games whose ids the
//! browser names (those whose seats it holds), a bounded page of each.

use std::sync::Arc;

use axum::extract::State;
use axum::Json;

use crate::error::ApiError;
use crate::http::extract::ApiQuery;
use crate::http::wire::{LobbyQuery, LobbyResponse};
use crate::state::AppState;
use crate::store::LobbyKind;

/// Most games per list.
pub const MAX_LOBBY_PAGE: u32 = 50;
/// Largest offset.
pub const MAX_LOBBY_OFFSET: u32 = 10_000;
/// Most ids asked for at once.
pub const MAX_LOBBY_IDS: usize = 100;

pub(crate) async fn lobby(
    State(st): State<Arc<AppState>>,
    ApiQuery(q): ApiQuery<LobbyQuery>,
) -> Result<Json<LobbyResponse>, ApiError> {
    if let Some(v) = &q.variant {
        if !["I", "II", "III"].contains(&v.as_str()) {
            return Err(ApiError::bad_request("variant must be I, II or III"));
        }
    }
    let limit = super::page_limit(q.limit, 20, MAX_LOBBY_PAGE)?;
    let offset = q.offset.unwrap_or(0);
    if offset > MAX_LOBBY_OFFSET {
        return Err(ApiError::bad_request(format!(
            "offset must be at most {MAX_LOBBY_OFFSET}"
        )));
    }
    let ids: Vec<String> = match &q.ids {
        None => Vec::new(),
        Some(s) => s
            .split(',')
            .filter(|i| !i.is_empty())
            .map(str::to_string)
            .collect(),
    };
    if ids.len() > MAX_LOBBY_IDS {
        return Err(ApiError::bad_request(format!("at most {MAX_LOBBY_IDS} ids")));
    }
    if ids
        .iter()
        .any(|i| i.len() > 64 || !i.bytes().all(|b| b.is_ascii_alphanumeric()))
    {
        return Err(ApiError::bad_request(
            "ids are letters and digits, comma-separated",
        ));
    }
    let variant = q.variant.clone();
    let (open, playing, mine) = st
        .db(move |s| {
            Ok((
                s.lobby(LobbyKind::Open, variant.as_deref(), limit, offset)?,
                s.lobby(LobbyKind::Playing, variant.as_deref(), limit, offset)?,
                if ids.is_empty() {
                    Vec::new()
                } else {
                    s.games_by_id(&ids)?
                },
            ))
        })
        .await?;
    Ok(Json(LobbyResponse { open, playing, mine }))
}
