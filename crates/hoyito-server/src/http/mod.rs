//! The HTTP API: its routes, limits and health check (documented in
//! `docs/API.md`). The handlers live in `handlers`, the WebSocket in `ws`,
//! the shared state in [`crate::state`].

pub mod assets;
pub(crate) mod client_ip;
pub(crate) mod extract;
pub(crate) mod handlers;
pub mod head;
pub(crate) mod listen;
pub(crate) mod log;
pub(crate) mod metrics;
pub(crate) mod origin;
pub(crate) mod parser_reply;
pub(crate) mod quota;
pub(crate) mod seat;
pub(crate) mod session;
pub(crate) mod unique_keys;
pub(crate) mod wire;
mod wire_accounts;
pub(crate) mod write_timeout;
pub(crate) mod ws;

use std::sync::Arc;

use axum::extract::{DefaultBodyLimit, State};
use axum::http::StatusCode;
use axum::routing::{delete, get, post};
use axum::{Extension, Json, Router};

use crate::error::ApiError;
use crate::http::extract::BodyTimeout;
use crate::http::handlers::{
    account, analysis, chat, claim, games, lobby, offer, passkeys, play, players, rematch,
};
use crate::state::AppState;

/// Largest JSON body accepted by the API (except record import).
pub const MAX_BODY: usize = 16 * 1024;
/// Largest body accepted by record import.
pub const MAX_IMPORT_BODY: usize = 1024 * 1024;

/// `GET /api/health`: 200 `{"ok": true, "storage": "ok", "games": N}`
/// once a test write to the database succeeded within a few seconds (and,
/// with SQLite, its disk has room) and no request met a storage fault in
/// the last seconds; 503 `{"ok": false, "storage": "degraded", "error",
/// "code", "status"}` (`storage_unavailable` or `storage_full`, with
/// `Retry-After`) otherwise ([`AppState::storage_health`]).
async fn health(State(st): State<Arc<AppState>>) -> axum::response::Response {
    use axum::response::IntoResponse;
    match st.storage_health().await {
        Ok(games) => Json(serde_json::json!({ "ok": true, "storage": "ok", "games": games })).into_response(),
        Err(e) => {
            let e = if e.status == StatusCode::SERVICE_UNAVAILABLE {
                e
            } else {
                ApiError::storage_unavailable(&e.message)
            };
            tracing::error!(code = e.code, error = %e.message, "health check: the storage is degraded");
            let body = serde_json::json!({
                "ok": false,
                "storage": "degraded",
                "error": e.message,
                "code": e.code,
                "status": e.status.as_u16(),
            });
            let mut res = (e.status, Json(body)).into_response();
            if let Some(seconds) = e.retry_after {
                res.headers_mut()
                    .insert(axum::http::header::RETRY_AFTER, seconds.into());
            }
            res
        }
    }
}

/// The router: the JSON API under `/api`, the WebSocket, and the embedded UI.
pub fn router(state: Arc<AppState>) -> Router {
    let rated = |limit: &Arc<crate::limits::RateLimit>| {
        axum::middleware::from_fn_with_state(limit.clone(), crate::http::client_ip::enforce)
    };
    let quota = crate::http::quota::DailyQuota::new(state.limits.create_quota);
    let daily = || axum::middleware::from_fn_with_state(quota.clone(), crate::http::quota::enforce);
    let api = Router::new()
        .route("/health", get(health))
        .route(
            "/games",
            post(games::create)
                .route_layer(daily())
                .route_layer(rated(&state.rates.create))
                .get(games::list),
        )
        .route(
            "/games/import",
            post(games::import)
                .route_layer(daily())
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
        .route(
            "/games/{id}/draw",
            post(offer::draw).route_layer(rated(&state.rates.offers)),
        )
        .route(
            "/games/{id}/takeback",
            post(offer::takeback).route_layer(rated(&state.rates.offers)),
        )
        .route("/games/{id}/claim", post(claim::claim))
        .route(
            "/games/{id}/chat",
            post(chat::post_chat)
                .route_layer(rated(&state.rates.chat))
                .get(chat::get_chat),
        )
        .route("/lobby", get(lobby::lobby))
        .route("/puzzles/next", get(handlers::puzzles::next))
        .route("/puzzles/daily", get(handlers::puzzles::daily))
        .route("/puzzles/streak", get(handlers::puzzles::streak))
        .route("/puzzles/rating", get(handlers::puzzles::account_rating))
        .route("/puzzles/{id}", get(handlers::puzzles::get))
        .route("/puzzles/{id}/attempt", post(handlers::puzzles::attempt))
        .route(
            "/tablebase",
            get(handlers::tablebase::probe).route_layer(rated(&state.rates.hints)),
        )
        .route("/tables", get(handlers::tables::manifest))
        .route("/tables/{set}/{file}", get(handlers::tables::file))
        .route(
            "/games/{id}/join",
            post(play::join).route_layer(rated(&state.rates.joins)),
        )
        .route(
            "/games/{id}/rematch",
            post(rematch::rematch)
                .route_layer(daily())
                .route_layer(rated(&state.rates.create))
                .route_layer(rated(&state.rates.offers)),
        )
        .route(
            "/games/{id}/hint",
            post(play::hint).route_layer(rated(&state.rates.hints)),
        )
        .route("/games/{id}/record", get(games::record))
        .route("/games/{id}/ws", get(crate::http::ws::ws))
        .route("/games/{id}/analysis", get(analysis::get).post(analysis::start))
        .route(
            "/account",
            post(account::sign_up)
                .delete(account::delete)
                .route_layer(rated(&state.rates.sign_ins))
                .get(account::who_am_i),
        )
        .route(
            "/account/recover",
            post(account::recover).route_layer(rated(&state.rates.sign_ins)),
        )
        .route("/account/games", get(account::games))
        .route("/account/export", get(account::export))
        .route(
            "/session",
            post(account::sign_in)
                .route_layer(rated(&state.rates.sign_ins))
                .delete(account::sign_out),
        )
        .route("/sessions", delete(account::sign_out_everywhere))
        .route(
            "/passkeys/register/start",
            post(passkeys::register_start).route_layer(rated(&state.rates.sign_ins)),
        )
        .route(
            "/passkeys/register/finish",
            post(passkeys::register_finish).route_layer(rated(&state.rates.sign_ins)),
        )
        .route(
            "/session/passkey/start",
            post(passkeys::sign_in_start).route_layer(rated(&state.rates.sign_ins)),
        )
        .route(
            "/session/passkey/finish",
            post(passkeys::sign_in_finish).route_layer(rated(&state.rates.sign_ins)),
        )
        .route("/account/passkeys", get(passkeys::list))
        .route("/account/passkeys/{id}", delete(passkeys::remove))
        .route("/games/{id}/seat", post(account::take_seat))
        .route("/players/{name}", get(players::show))
        .route("/players/{name}/history", get(players::history))
        .route("/players/{name}/games", get(players::games))
        .route("/leaderboard", get(players::leaderboard))
        .route_layer(axum::middleware::from_fn_with_state(
            state.clone(),
            crate::http::metrics::track,
        ))
        .fallback(handlers::api_not_found)
        .method_not_allowed_fallback(handlers::method_not_allowed)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(axum::middleware::map_response(no_store));
    let body_timeout = BodyTimeout(state.limits.body_read_timeout);
    let mut root = Router::new();
    if state.limits.metrics {
        root = root.route("/metrics", get(crate::http::metrics::metrics));
    }
    root.nest("/api", api)
        .layer(axum::middleware::from_fn(crate::http::log::log_request))
        .layer(Extension(body_timeout))
        .merge(crate::http::assets::router())
        .layer(axum::middleware::from_fn(crate::http::head::enforce))
        .layer(axum::middleware::from_fn(safety_headers))
        .with_state(state)
}

/// Gives every API answer `Cache-Control: no-store`: answers carry seat
/// tokens (a new game, a join, a rematch, an import), invite links and the
/// chat of games that are not public, which no browser or proxy cache may
/// keep; the others change with every move and are never worth keeping.
async fn no_store(mut res: axum::response::Response) -> axum::response::Response {
    use axum::http::{header, HeaderValue};
    res.headers_mut()
        .entry(header::CACHE_CONTROL)
        .or_insert(HeaderValue::from_static("no-store"));
    res
}

/// `Referrer-Policy` of every answer: the app never needs the referrer.
pub const REFERRER_POLICY: &str = "no-referrer";

/// Gives every answer (JSON, errors, files, WebSocket refusals) the headers
/// that keep a browser from sending the page's URL elsewhere
/// ([`REFERRER_POLICY`]) and from reading an answer as another type than
/// its `Content-Type` (`X-Content-Type-Options: nosniff`), unless the
/// answer has its own.
async fn safety_headers(
    req: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    use axum::http::{header, HeaderValue};
    let mut res = next.run(req).await;
    let headers = res.headers_mut();
    headers
        .entry(header::REFERRER_POLICY)
        .or_insert(HeaderValue::from_static(REFERRER_POLICY));
    headers
        .entry(header::X_CONTENT_TYPE_OPTIONS)
        .or_insert(HeaderValue::from_static("nosniff"));
    res
}
