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
        pub const ASSETS: &[(&str, &str, &[u8])] = &[
            $(($path, $mime, include_bytes!(concat!("../../../web", $path)))),*
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
    "/board.js" => "text/javascript; charset=utf-8",
    "/i18n.js" => "text/javascript; charset=utf-8",
    "/markdown.js" => "text/javascript; charset=utf-8",
    "/style.css" => "text/css; charset=utf-8",
    "/rules.md" => "text/markdown; charset=utf-8",
    "/favicon.svg" => "image/svg+xml",
    // The offline, installable app: service worker (served from the root,
    // so its scope is the whole app), manifest, icons, games on this
    // device with the WebAssembly rules and engine.
    "/sw.js" => "text/javascript; charset=utf-8",
    "/manifest.webmanifest" => "application/manifest+json",
    "/icons/icon-192.png" => "image/png",
    "/icons/icon-512.png" => "image/png",
    "/icons/maskable-512.png" => "image/png",
    "/pwa.js" => "text/javascript; charset=utf-8",
    "/local/backend.js" => "text/javascript; charset=utf-8",
    "/local/game.js" => "text/javascript; charset=utf-8",
    "/local/store.js" => "text/javascript; charset=utf-8",
    "/local/engine-worker.js" => "text/javascript; charset=utf-8",
    "/wasm/hoyito_wasm.js" => "text/javascript; charset=utf-8",
    "/wasm/hoyito_wasm_bg.wasm" => "application/wasm",
}

/// The file listing every embedded file, which the service worker caches
/// when it installs (so nothing needs listing twice).
pub const PRECACHE_PATH: &str = "/precache.json";

/// The JSON of [`PRECACHE_PATH`]: `{"version": …, "files": [paths]}`, the
/// version a hash of every file's contents (it changes with any file).
pub fn precache_json() -> String {
    // FNV-1a over paths and contents: a fingerprint, not a security measure.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for (path, _, body) in ASSETS {
        for &b in path.as_bytes().iter().chain(body.iter()) {
            h = (h ^ b as u64).wrapping_mul(0x0100_0000_01b3);
        }
    }
    let files: Vec<&str> = std::iter::once("/")
        .chain(ASSETS.iter().map(|(p, _, _)| *p).filter(|p| *p != "/sw.js"))
        .collect();
    serde_json::json!({ "version": format!("{h:016x}"), "files": files }).to_string()
}

/// Writes the app as static files under `dir` (every embedded file, and
/// [`PRECACHE_PATH`]): any static host can serve it for games on the
/// device, offline included; features that need the server say so.
/// Returns the number of files written.
///
/// # Errors
/// If a directory or file cannot be written.
pub fn export_site(dir: &std::path::Path) -> std::io::Result<usize> {
    let write = |path: &str, body: &[u8]| -> std::io::Result<()> {
        let file = dir.join(path.trim_start_matches('/'));
        if let Some(parent) = file.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(&file, body)
    };
    for (path, _, body) in ASSETS {
        write(path, body)?;
    }
    write(PRECACHE_PATH, precache_json().as_bytes())?;
    Ok(ASSETS.len() + 1)
}

/// The embedded file at `path`, if any: content type and contents.
pub fn asset(path: &str) -> Option<(&'static str, &'static [u8])> {
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
    if path == PRECACHE_PATH {
        return (
            [
                (header::CONTENT_TYPE, "application/json"),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            precache_json(),
        )
            .into_response();
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_offline_app_is_embedded_with_its_content_types() {
        assert_eq!(asset("/wasm/hoyito_wasm_bg.wasm").unwrap().0, "application/wasm");
        assert_eq!(
            asset("/manifest.webmanifest").unwrap().0,
            "application/manifest+json"
        );
        assert!(asset("/sw.js").unwrap().0.starts_with("text/javascript"));
        assert_eq!(&asset("/wasm/hoyito_wasm_bg.wasm").unwrap().1[..4], b"\0asm");
    }

    #[test]
    fn the_precache_list_names_every_file_but_the_service_worker() {
        let v: serde_json::Value = serde_json::from_str(&precache_json()).unwrap();
        let files: Vec<&str> = v["files"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f.as_str().unwrap())
            .collect();
        assert_eq!(files[0], "/");
        assert_eq!(files.len(), ASSETS.len());
        assert!(!files.contains(&"/sw.js"));
        assert!(ASSETS.iter().all(|(p, _, _)| *p == "/sw.js" || files.contains(p)));
        assert_eq!(v["version"].as_str().unwrap().len(), 16);
    }
}
