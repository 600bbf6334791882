//! `GET /metrics`, and the middleware that counts the API's requests
//! ([`crate::metrics::Metrics`] holds the metrics).

use std::sync::Arc;
use std::time::Instant;

use axum::extract::{MatchedPath, Request, State};
use axum::http::{header, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use prometheus::Encoder;

use crate::state::AppState;

/// Middleware (on the API's routes): counts each request and its latency
/// under its route pattern (`/api/games/{id}/moves`).
pub(crate) async fn track(State(st): State<Arc<AppState>>, req: Request, next: Next) -> Response {
    let route = req
        .extensions()
        .get::<MatchedPath>()
        .map_or_else(|| "other".to_string(), |p| p.as_str().to_string());
    let start = Instant::now();
    let res = next.run(req).await;
    let m = &st.metrics;
    m.latency
        .with_label_values(&[route.as_str()])
        .observe(start.elapsed().as_secs_f64());
    m.requests
        .with_label_values(&[route.as_str(), res.status().as_str()])
        .inc();
    res
}

/// `GET /metrics`: every metric in the Prometheus text format.
pub(crate) async fn metrics(State(st): State<Arc<AppState>>) -> Response {
    let m = &st.metrics;
    m.engine_queue.set(st.engine_queue_depth() as i64);
    m.games.set(st.games_in_memory() as i64);
    let refused = st.rates.refused();
    m.rate_limited
        .inc_by(refused.saturating_sub(m.rate_limited.get()));
    let mut out = Vec::new();
    if let Err(e) = prometheus::TextEncoder::new().encode(&m.registry.gather(), &mut out) {
        return crate::ApiError::internal(format!("encoding metrics: {e}")).into_response();
    }
    (
        StatusCode::OK,
        [(header::CONTENT_TYPE, prometheus::TEXT_FORMAT)],
        out,
    )
        .into_response()
}
