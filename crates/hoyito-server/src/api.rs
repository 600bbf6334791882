//! The HTTP API: its routes, limits and health check (documented in
//! `docs/API.md`). The handlers live in `handlers`, the WebSocket in `ws`,
//! the shared state in [`crate::state`].

use std::sync::Arc;

use axum::extract::{DefaultBodyLimit, State};
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Extension, Json, Router};

use crate::error::{ApiError, BodyTimeout};
pub use crate::handlers::games::MAX_SEEDS_PER_HOLE;
use crate::handlers::{analysis, chat, draw, games, lobby, play};
pub use crate::state::{AppState, Slot, IDLE_EVICT_MS};
pub use crate::wire::*;

/// Largest JSON body accepted by the API (except record import).
pub const MAX_BODY: usize = 16 * 1024;
/// Largest body accepted by record import.
pub const MAX_IMPORT_BODY: usize = 1024 * 1024;

/// `GET /api/health`: 200 `{"ok": true, "games": N}` once a test write to
/// the database succeeded, 503 `storage_unavailable` otherwise.
async fn health(State(st): State<Arc<AppState>>) -> Result<Json<serde_json::Value>, ApiError> {
    let unavailable = |e: ApiError| {
        tracing::error!(error = %e.message, "health check: the database cannot be written");
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "storage_unavailable",
            "the database cannot be written",
        )
    };
    st.db(|s| s.check_writable()).await.map_err(unavailable)?;
    let games = st.db(|s| s.count()).await.map_err(unavailable)?;
    Ok(Json(serde_json::json!({ "ok": true, "games": games })))
}

/// 404 `not_found` for a path that is no API endpoint.
pub(crate) async fn api_not_found() -> ApiError {
    ApiError::new(StatusCode::NOT_FOUND, "not_found", "no such API endpoint")
}

/// 405 `method_not_allowed` for a method a path does not take.
pub(crate) async fn method_not_allowed() -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "method_not_allowed",
        "this path does not take this method",
    )
}

/// The router: the JSON API under `/api`, the WebSocket, and the embedded UI.
pub fn router(state: Arc<AppState>) -> Router {
    let rated = |limit: &Arc<crate::limits::RateLimit>| {
        axum::middleware::from_fn_with_state(limit.clone(), crate::limits::enforce)
    };
    let api = Router::new()
        .route("/health", get(health))
        .route(
            "/games",
            post(games::create)
                .route_layer(rated(&state.rates.create))
                .get(games::list),
        )
        .route(
            "/games/import",
            post(games::import)
                .route_layer(rated(&state.rates.create))
                .layer(DefaultBodyLimit::max(MAX_IMPORT_BODY)),
        )
        .route("/games/{id}", get(games::get_game))
        .route(
            "/games/{id}/moves",
            post(play::post_move).route_layer(rated(&state.rates.moves)),
        )
        .route("/games/{id}/undo", post(play::undo))
        .route("/games/{id}/next-round", post(play::next_round))
        .route("/games/{id}/resign", post(play::resign))
        .route("/games/{id}/abort", post(play::abort))
        .route("/games/{id}/draw", post(draw::draw))
        .route(
            "/games/{id}/chat",
            post(chat::post_chat)
                .route_layer(rated(&state.rates.chat))
                .get(chat::get_chat),
        )
        .route("/lobby", get(lobby::lobby))
        .route("/games/{id}/join", post(play::join))
        .route(
            "/games/{id}/hint",
            post(play::hint).route_layer(rated(&state.rates.hints)),
        )
        .route("/games/{id}/record", get(games::record))
        .route("/games/{id}/ws", get(crate::ws::ws))
        .route("/games/{id}/analysis", get(analysis::get).post(analysis::start))
        .route_layer(axum::middleware::from_fn_with_state(
            state.clone(),
            crate::metrics::track,
        ))
        .fallback(api_not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(MAX_BODY));
    let body_timeout = BodyTimeout(state.limits.body_read_timeout);
    let mut root = Router::new();
    if state.limits.metrics {
        root = root.route("/metrics", get(crate::metrics::metrics));
    }
    root.nest("/api", api)
        .layer(axum::middleware::from_fn(crate::log::log_request))
        .layer(Extension(body_timeout))
        .merge(crate::assets::router())
        .with_state(state)
}
