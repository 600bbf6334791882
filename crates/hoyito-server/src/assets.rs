//! The browser UI: the static files of `web/`, embedded in the binary.
//!
//! Every path that is not an API path or a file below serves `index.html`,
//! so `/g/<id>`, `/rules` and `/games` are pages of the one-page app.
//! With `HOYITO_WEB_DIR` set, the files are read from that directory at
//! each request instead (for working on the UI without rebuilding).

use std::sync::Arc;

use axum::http::{header, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::Router;

use crate::api::AppState;

macro_rules! assets {
    ($($path:literal => $mime:literal),* $(,)?) => {
        /// Embedded files: URL path, content type, contents.
        pub const ASSETS: &[(&str, &str, &str)] = &[
            $(($path, $mime, include_str!(concat!("../../../web", $path)))),*
        ];
    };
}

assets! {
    "/index.html" => "text/html; charset=utf-8",
    "/app.js" => "text/javascript; charset=utf-8",
    "/api.js" => "text/javascript; charset=utf-8",
    "/router.js" => "text/javascript; charset=utf-8",
    "/ui.js" => "text/javascript; charset=utf-8",
    "/pages/new-game.js" => "text/javascript; charset=utf-8",
    "/pages/games.js" => "text/javascript; charset=utf-8",
    "/pages/rules.js" => "text/javascript; charset=utf-8",
    "/pages/not-found.js" => "text/javascript; charset=utf-8",
    "/game/view.js" => "text/javascript; charset=utf-8",
    "/game/state.js" => "text/javascript; charset=utf-8",
    "/game/render.js" => "text/javascript; charset=utf-8",
    "/game/animation.js" => "text/javascript; charset=utf-8",
    "/game/socket.js" => "text/javascript; charset=utf-8",
    "/game/input.js" => "text/javascript; charset=utf-8",
    "/game/endings.js" => "text/javascript; charset=utf-8",
    "/game/clock.js" => "text/javascript; charset=utf-8",
    "/game/alerts.js" => "text/javascript; charset=utf-8",
    "/game/chat.js" => "text/javascript; charset=utf-8",
    "/board.js" => "text/javascript; charset=utf-8",
    "/i18n.js" => "text/javascript; charset=utf-8",
    "/markdown.js" => "text/javascript; charset=utf-8",
    "/style.css" => "text/css; charset=utf-8",
    "/rules.md" => "text/markdown; charset=utf-8",
    "/favicon.svg" => "image/svg+xml",
}

/// The embedded file at `path`, if any: content type and contents.
pub fn asset(path: &str) -> Option<(&'static str, &'static str)> {
    ASSETS
        .iter()
        .find(|(p, _, _)| *p == path)
        .map(|&(_, mime, body)| (mime, body))
}

async fn serve(method: Method, uri: Uri) -> Response {
    let path = uri.path();
    if path == "/api" || path.starts_with("/api/") {
        return crate::api::api_not_found().await.into_response();
    }
    if method != Method::GET && method != Method::HEAD {
        let mut res = crate::api::method_not_allowed().await.into_response();
        res.headers_mut()
            .insert(header::ALLOW, header::HeaderValue::from_static("GET, HEAD"));
        return res;
    }
    if let Some(dir) = std::env::var_os("HOYITO_WEB_DIR") {
        // Development: serve the files from disk so that edits show without a rebuild.
        let file = if asset(path).is_some() {
            path
        } else {
            "/index.html"
        };
        if let (Some((mime, _)), Ok(body)) = (
            asset(file),
            std::fs::read(std::path::Path::new(&dir).join(file.trim_start_matches('/'))),
        ) {
            return (
                [(header::CONTENT_TYPE, mime), (header::CACHE_CONTROL, "no-cache")],
                body,
            )
                .into_response();
        }
    }
    let (mime, body) = match asset(path) {
        Some(a) => a,
        // Paths with an extension are files: a missing one is a 404.
        None if path.rsplit('/').next().is_some_and(|last| last.contains('.')) => {
            return (StatusCode::NOT_FOUND, "not found").into_response();
        }
        None => asset("/index.html").expect("index.html is embedded"),
    };
    (
        [
            (header::CONTENT_TYPE, mime),
            (header::CACHE_CONTROL, "no-cache"),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        ],
        body,
    )
        .into_response()
}

/// Serves the embedded UI for every non-API GET.
pub fn router() -> Router<Arc<AppState>> {
    Router::new().fallback(serve)
}
