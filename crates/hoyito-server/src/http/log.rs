//! Request logs with `tracing`: one event per request, in a span carrying a
//! request id and the game id, with the status and the latency. Only the
//! path is logged, never the query string (invite links carry secrets
//! there) nor a header (seat tokens travel in `Authorization`).

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use axum::extract::Request;
use axum::http::HeaderValue;
use axum::middleware::Next;
use axum::response::Response;
use tracing::Instrument;

static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// The game id in an API path `/api/games/{id}/…`, if any.
fn game_of(path: &str) -> &str {
    path.strip_prefix("/api/games/")
        .and_then(|rest| rest.split('/').next())
        .filter(|id| *id != "import")
        .unwrap_or("")
}

/// Middleware: runs the request in a span `request{id, method, path, game}`,
/// logs its status and latency, and answers with an `x-request-id` header.
pub(crate) async fn log_request(req: Request, next: Next) -> Response {
    let id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
    let path = req.uri().path().to_string();
    let span = tracing::info_span!(
        "request",
        id,
        method = %req.method(),
        path = %path,
        game = game_of(&path),
    );
    let start = Instant::now();
    let mut res = next.run(req).instrument(span.clone()).await;
    let status = res.status().as_u16();
    let latency_ms = start.elapsed().as_secs_f64() * 1000.0;
    span.in_scope(|| {
        if status >= 500 {
            tracing::warn!(status, latency_ms, "answered");
        } else {
            tracing::info!(status, latency_ms, "answered");
        }
    });
    res.headers_mut().insert("x-request-id", HeaderValue::from(id));
    res
}

/// Sends the server's logs to standard error, unless the program set up
/// its own subscriber. `HOYITO_LOG=warn` (or `error`, `debug`, `off`)
/// changes the level (default `info`).
pub fn init() {
    let level = match std::env::var("HOYITO_LOG").as_deref() {
        Ok("off") => return,
        Ok("error") => tracing::Level::ERROR,
        Ok("warn") => tracing::Level::WARN,
        Ok("debug") => tracing::Level::DEBUG,
        Ok("trace") => tracing::Level::TRACE,
        _ => tracing::Level::INFO,
    };
    // The WebAuthn library's own logs (its ceremonies' details) only when
    // they warn.
    let quiet = tracing::level_filters::LevelFilter::from_level(level.min(tracing::Level::WARN));
    let filter = tracing_subscriber::filter::Targets::new()
        .with_default(level)
        .with_target("webauthn_rs", quiet)
        .with_target("webauthn_rs_core", quiet)
        .with_target("webauthn_rs_proto", quiet);
    use tracing_subscriber::layer::SubscriberExt;
    use tracing_subscriber::util::SubscriberInitExt;
    let _ = tracing_subscriber::fmt()
        .with_max_level(level)
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .finish()
        .with(filter)
        .try_init();
}

#[cfg(test)]
mod tests {
    use super::game_of;

    #[test]
    fn the_game_id_is_read_from_game_paths_only() {
        assert_eq!(game_of("/api/games/abc/moves"), "abc");
        assert_eq!(game_of("/api/games/abc"), "abc");
        assert_eq!(game_of("/api/games/import"), "");
        assert_eq!(game_of("/api/health"), "");
    }
}
