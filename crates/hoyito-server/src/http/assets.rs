//! The browser UI: the static files of `web/`, embedded in the binary.
//!
//! Every path that is not an API path or a file below serves `index.html`,
//! so `/g/<id>`, `/@/<player>`, `/leaderboard`, `/rules`, `/games`,
//! `/analysis` and `/puzzles` are pages of the one-page app. A path whose
//! last part has a dot is a file (a missing one is a 404), except a
//! player's page: a username may have a dot (`/@/ana.b`).
//! With `HOYITO_WEB_DIR` set, the files are read from that directory at
//! each request instead (for working on the UI without rebuilding).
//!
//! Each embedded file has an `ETag` (a hash of its contents): a request with
//! a matching `If-None-Match` gets an empty 304. Files that compress are
//! sent brotli- or gzip-compressed (compressed once, on first use), brotli
//! to clients that accept it, else gzip. Pages revalidate (`no-cache`); the favicon is cached for a day.
//!
//! The page loads its script and style sheet from a fingerprinted path,
//! `/v/<build>/app.js`, where `<build>` is a hash of every embedded file:
//! files under the current fingerprint never change, so they are cached as
//! `immutable` for a year (the modules' relative imports stay under it). A
//! new build has a new fingerprint; an old one is served fresh with
//! `no-cache`.

use std::sync::Arc;

use axum::http::{header, HeaderMap, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::Router;

use crate::state::AppState;

macro_rules! assets {
    ($($path:literal => $mime:literal),* $(,)?) => {
        /// Embedded files: URL path, content type, contents.
        pub const ASSETS: &[(&str, &str, &[u8])] = &[
            $(($path, $mime, include_bytes!(concat!("../../../../web", $path)))),*
        ];
    };
}

assets! {
    "/index.html" => "text/html; charset=utf-8",
    "/app.js" => "text/javascript; charset=utf-8",
    "/api.js" => "text/javascript; charset=utf-8",
    "/router.js" => "text/javascript; charset=utf-8",
    "/nav.js" => "text/javascript; charset=utf-8",
    "/ui.js" => "text/javascript; charset=utf-8",
    "/html.js" => "text/javascript; charset=utf-8",
    "/pages/new-game.js" => "text/javascript; charset=utf-8",
    "/pages/games.js" => "text/javascript; charset=utf-8",
    "/pages/rules.js" => "text/javascript; charset=utf-8",
    "/pages/not-found.js" => "text/javascript; charset=utf-8",
    "/pages/how-to-play.js" => "text/javascript; charset=utf-8",
    "/pages/board.js" => "text/javascript; charset=utf-8",
    "/pages/offline-tables.js" => "text/javascript; charset=utf-8",
    "/pages/puzzle.js" => "text/javascript; charset=utf-8",
    "/pages/puzzle-play.js" => "text/javascript; charset=utf-8",
    "/pages/streak.js" => "text/javascript; charset=utf-8",
    "/pages/mistakes.js" => "text/javascript; charset=utf-8",
    "/game/view.js" => "text/javascript; charset=utf-8",
    "/game/state.js" => "text/javascript; charset=utf-8",
    "/game/render.js" => "text/javascript; charset=utf-8",
    "/game/animation.js" => "text/javascript; charset=utf-8",
    "/game/pace.js" => "text/javascript; charset=utf-8",
    "/game/socket.js" => "text/javascript; charset=utf-8",
    "/game/input.js" => "text/javascript; charset=utf-8",
    "/game/analysis.js" => "text/javascript; charset=utf-8",
    "/game/mistakes.js" => "text/javascript; charset=utf-8",
    "/game/graph.js" => "text/javascript; charset=utf-8",
    "/game/analysis.css" => "text/css; charset=utf-8",
    "/game/endings.js" => "text/javascript; charset=utf-8",
    "/game/clock.js" => "text/javascript; charset=utf-8",
    "/game/alerts.js" => "text/javascript; charset=utf-8",
    "/game/sounds.js" => "text/javascript; charset=utf-8",
    "/game/chat.js" => "text/javascript; charset=utf-8",
    "/game/presence.js" => "text/javascript; charset=utf-8",
    "/game/join.js" => "text/javascript; charset=utf-8",
    "/game/preview.js" => "text/javascript; charset=utf-8",
    "/game/share.js" => "text/javascript; charset=utf-8",
    "/board.js" => "text/javascript; charset=utf-8",
    "/sowing.js" => "text/javascript; charset=utf-8",
    "/i18n.js" => "text/javascript; charset=utf-8",
    "/i18n/en.js" => "text/javascript; charset=utf-8",
    "/i18n/es.js" => "text/javascript; charset=utf-8",
    "/i18n/ht.js" => "text/javascript; charset=utf-8",
    "/markdown.js" => "text/javascript; charset=utf-8",
    "/style.css" => "text/css; charset=utf-8",
    "/rules.md" => "text/markdown; charset=utf-8",
    "/rules.es.md" => "text/markdown; charset=utf-8",
    "/rules.ht.md" => "text/markdown; charset=utf-8",
    "/THIRD-PARTY.md" => "text/markdown; charset=utf-8",
    "/LICENSE-MIT" => "text/plain; charset=utf-8",
    "/LICENSE-APACHE" => "text/plain; charset=utf-8",
    "/pages/about.js" => "text/javascript; charset=utf-8",
    "/pages/account.js" => "text/javascript; charset=utf-8",
    "/passkeys.js" => "text/javascript; charset=utf-8",
    "/pages/player.js" => "text/javascript; charset=utf-8",
    "/pages/player-games.js" => "text/javascript; charset=utf-8",
    "/pages/pager.js" => "text/javascript; charset=utf-8",
    "/pages/leaderboard.js" => "text/javascript; charset=utf-8",
    "/pages/rating-chart.js" => "text/javascript; charset=utf-8",
    "/ratings.js" => "text/javascript; charset=utf-8",
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
    "/local/puzzles.js" => "text/javascript; charset=utf-8",
    "/local/tables.js" => "text/javascript; charset=utf-8",
    "/wasm/hoyito_wasm.js" => "text/javascript; charset=utf-8",
    "/wasm/hoyito_wasm_bg.wasm" => "application/wasm",
}

/// The Content-Security-Policy of every page (every HTML reply): scripts,
/// styles, workers and connections only from the site itself (WebAssembly
/// may be compiled, `'wasm-unsafe-eval'`; no inline script, style or event
/// handler runs), images also as `data:` URLs (the tab icon's badge), no
/// plugins, no `<base>`, never inside a frame; and Trusted Types required,
/// so that the page's only way to write HTML is `web/html.js`, whose
/// templates escape every value.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; \
     style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; \
     worker-src 'self'; manifest-src 'self'; media-src 'self'; object-src 'none'; \
     base-uri 'none'; form-action 'self'; frame-ancestors 'none'; \
     require-trusted-types-for 'script'; trusted-types hoyito 'allow-duplicates'";

/// The headers every page (HTML reply) carries besides its content type:
/// the policy, no referrer, no framing, no type sniffing.
fn page_headers() -> [(header::HeaderName, &'static str); 4] {
    [
        (header::CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY),
        (header::REFERRER_POLICY, "no-referrer"),
        (header::X_FRAME_OPTIONS, "DENY"),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
    ]
}

/// `index.html` for a static host, which sends no headers of ours: the
/// policy as a `<meta>` element (where `frame-ancestors` has no effect, so
/// it is left out).
fn static_index_html() -> String {
    let policy: Vec<&str> = CONTENT_SECURITY_POLICY
        .split(';')
        .map(str::trim)
        .filter(|d| !d.starts_with("frame-ancestors"))
        .collect();
    let (_, raw) = asset("/index.html").expect("index.html is embedded");
    let raw = std::str::from_utf8(raw).expect("index.html is UTF-8");
    raw.replacen(
        "<meta charset=\"utf-8\">",
        &format!(
            "<meta charset=\"utf-8\">\n<meta http-equiv=\"Content-Security-Policy\" content=\"{}\">",
            policy.join("; ")
        ),
        1,
    )
}

/// The file listing every embedded file, which the service worker caches
/// when it installs (so nothing needs listing twice).
pub const PRECACHE_PATH: &str = "/precache.json";

/// The offline puzzle pack: a few hundred of the shipped puzzles, built
/// from the embedded set (`crate::puzzles::pack_json`); listed in
/// [`PRECACHE_PATH`], so the installed app keeps it.
pub const PUZZLE_PACK_PATH: &str = "/puzzle-pack.json";

/// The JSON of [`PRECACHE_PATH`]: `{"version": …, "files": [paths]}`, the
/// version this build's fingerprint ([`build_fingerprint`]).
pub fn precache_json() -> String {
    let files: Vec<&str> = std::iter::once("/")
        .chain(ASSETS.iter().map(|(p, _, _)| *p).filter(|p| *p != "/sw.js"))
        .chain(std::iter::once(PUZZLE_PACK_PATH))
        .collect();
    serde_json::json!({ "version": build_fingerprint(), "files": files }).to_string()
}

/// Writes the app as static files under `dir` (every embedded file,
/// [`PUZZLE_PACK_PATH`] and [`PRECACHE_PATH`]): any static host can serve
/// it for games on the device and puzzles from the pack, offline included;
/// features that need the server say so.
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
        if *path == "/index.html" {
            write(path, static_index_html().as_bytes())?;
        } else {
            write(path, body)?;
        }
    }
    write(PUZZLE_PACK_PATH, crate::puzzles::pack_json().as_bytes())?;
    write(PRECACHE_PATH, precache_json().as_bytes())?;
    Ok(ASSETS.len() + 2)
}

/// The embedded file at `path`, if any: content type and contents.
pub fn asset(path: &str) -> Option<(&'static str, &'static [u8])> {
    ASSETS
        .iter()
        .find(|(p, _, _)| *p == path)
        .map(|&(_, mime, body)| (mime, body))
}

/// An embedded file ready to send: its ETag, and its brotli and gzip forms
/// when they are smaller.
struct Prepared {
    etag: String,
    brotli: Option<Vec<u8>>,
    gzip: Option<Vec<u8>>,
}

/// Brotli's quality for the embedded files (of 11): close to the best
/// size, at a small part of the best quality's time.
const BROTLI_QUALITY: u32 = 9;

/// The fingerprint of this build's files: a hash of all of them (the
/// puzzle pack's too).
pub fn build_fingerprint() -> &'static str {
    static BUILD: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    BUILD.get_or_init(|| {
        use sha2::{Digest, Sha256};
        let mut h = Sha256::new();
        for (path, _, body) in ASSETS {
            h.update(path.as_bytes());
            h.update(body);
        }
        h.update(PUZZLE_PACK_PATH.as_bytes());
        h.update(crate::puzzles::pack_json().as_bytes());
        h.finalize()[..8].iter().map(|b| format!("{b:02x}")).collect()
    })
}

/// `index.html` with its script and style sheets under the build's fingerprint.
fn index_html() -> &'static str {
    static INDEX: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    INDEX.get_or_init(|| {
        let (_, raw) = asset("/index.html").expect("index.html is embedded");
        let raw = std::str::from_utf8(raw).expect("index.html is UTF-8");
        let v = build_fingerprint();
        raw.replace("src=\"/app.js\"", &format!("src=\"/v/{v}/app.js\""))
            .replace("href=\"/style.css\"", &format!("href=\"/v/{v}/style.css\""))
            .replace(
                "href=\"/game/analysis.css\"",
                &format!("href=\"/v/{v}/game/analysis.css\""),
            )
    })
}

/// A file's body as sent (the index with fingerprinted paths).
fn body_of(path: &str, body: &'static [u8]) -> &'static [u8] {
    if path == "/index.html" {
        index_html().as_bytes()
    } else {
        body
    }
}

/// The prepared form of every embedded file, in [`ASSETS`] order (built once).
fn prepared() -> &'static [Prepared] {
    static PREPARED: std::sync::OnceLock<Vec<Prepared>> = std::sync::OnceLock::new();
    PREPARED.get_or_init(|| {
        ASSETS
            .iter()
            .map(|&(path, _, body)| prepare(body_of(path, body)))
            .collect()
    })
}

/// The ETag and compressed forms of `body`.
fn prepare(body: &[u8]) -> Prepared {
    use sha2::{Digest, Sha256};
    use std::io::Write;
    let hash = Sha256::digest(body);
    let etag = format!(
        "\"{}\"",
        hash[..12].iter().map(|b| format!("{b:02x}")).collect::<String>()
    );
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    let gzip = gz
        .write_all(body)
        .and_then(|()| gz.finish())
        .ok()
        .filter(|z| z.len() < body.len());
    let mut br = Vec::new();
    let params = brotli::enc::BrotliEncoderParams {
        quality: BROTLI_QUALITY as i32,
        ..Default::default()
    };
    let brotli = brotli::BrotliCompress(&mut &body[..], &mut br, &params)
        .ok()
        .map(|_| br)
        .filter(|z| z.len() < body.len());
    Prepared { etag, brotli, gzip }
}

/// The offline puzzle pack, prepared once.
fn prepared_pack() -> &'static Prepared {
    static PACK: std::sync::OnceLock<Prepared> = std::sync::OnceLock::new();
    PACK.get_or_init(|| prepare(crate::puzzles::pack_json().as_bytes()))
}

/// Whether the request accepts gzip (`Accept-Encoding`, without `gzip;q=0`).
fn accepts_gzip(headers: &HeaderMap) -> bool {
    accepts(headers, "gzip")
}

/// Whether the request accepts `coding` (`Accept-Encoding` names it or `*`,
/// without `q=0`).
fn accepts(headers: &HeaderMap, coding: &str) -> bool {
    headers
        .get_all(header::ACCEPT_ENCODING)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|e| {
            let mut parts = e.split(';').map(str::trim);
            parts
                .next()
                .is_some_and(|n| n.eq_ignore_ascii_case(coding) || n == "*")
                && !parts.any(|p| p.replace(' ', "") == "q=0")
        })
}

async fn serve(method: Method, uri: Uri, headers: HeaderMap) -> Response {
    let path = uri.path();
    if path == "/api" || path.starts_with("/api/") {
        return crate::http::handlers::api_not_found().await.into_response();
    }
    if method != Method::GET && method != Method::HEAD {
        let mut res = crate::http::handlers::method_not_allowed().await.into_response();
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
    if path == PUZZLE_PACK_PATH {
        let body = crate::puzzles::pack_json().as_bytes();
        return send(&headers, "application/json", body, prepared_pack(), "no-cache");
    }
    // A fingerprinted path: the file below it, immutable if the fingerprint is this build's.
    let (path, immutable) = match path.strip_prefix("/v/").and_then(|rest| rest.split_once('/')) {
        Some((v, file)) => (&path[path.len() - file.len() - 1..], v == build_fingerprint()),
        None => (path, false),
    };
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
            let mut res = (
                [(header::CONTENT_TYPE, mime), (header::CACHE_CONTROL, "no-cache")],
                body,
            )
                .into_response();
            if mime.starts_with("text/html") {
                add_page_headers(&mut res);
            }
            return res;
        }
    }
    let index = match ASSETS.iter().position(|(p, _, _)| *p == path) {
        Some(i) => i,
        // Paths with an extension are files: a missing one is a 404. A
        // player's page is a page whatever the username.
        None if !is_player_page(path) && path.rsplit('/').next().is_some_and(|last| last.contains('.')) => {
            return (StatusCode::NOT_FOUND, "not found").into_response();
        }
        None => ASSETS
            .iter()
            .position(|(p, _, _)| *p == "/index.html")
            .expect("index.html is embedded"),
    };
    let (file, mime, body) = ASSETS[index];
    let body = body_of(file, body);
    let cache = if immutable && file != "/index.html" {
        "public, max-age=31536000, immutable"
    } else if file == "/favicon.svg" {
        "public, max-age=86400"
    } else {
        "no-cache"
    };
    send(&headers, mime, body, &prepared()[index], cache)
}

/// The reply of a file `body` of type `mime` prepared as `ready`, cached as
/// `cache` says: 304 if the request has its ETag, else compressed if the
/// client accepts it.
fn send(
    headers: &HeaderMap,
    mime: &'static str,
    body: &'static [u8],
    ready: &Prepared,
    cache: &str,
) -> Response {
    let common = [
        (header::CACHE_CONTROL, cache.to_string()),
        (header::ETAG, ready.etag.clone()),
        (header::VARY, "accept-encoding".to_string()),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff".to_string()),
    ];
    let fresh = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|t| t.trim() == ready.etag || t.trim() == "*"));
    let mut res = if fresh {
        (StatusCode::NOT_MODIFIED, common).into_response()
    } else {
        match (&ready.brotli, &ready.gzip) {
            (Some(br), _) if accepts(headers, "br") => (
                common,
                [(header::CONTENT_TYPE, mime), (header::CONTENT_ENCODING, "br")],
                br.clone(),
            )
                .into_response(),
            (_, Some(gz)) if accepts_gzip(headers) => (
                common,
                [(header::CONTENT_TYPE, mime), (header::CONTENT_ENCODING, "gzip")],
                gz.clone(),
            )
                .into_response(),
            _ => (common, [(header::CONTENT_TYPE, mime)], body).into_response(),
        }
    };
    if mime.starts_with("text/html") {
        add_page_headers(&mut res);
    }
    res
}

/// Whether `path` is a player's page, `/@/<username>` (the username
/// percent-encoded, so one part of the path).
fn is_player_page(path: &str) -> bool {
    path.strip_prefix("/@/")
        .is_some_and(|name| !name.is_empty() && !name.contains('/'))
}

/// Adds [`page_headers`] to a page's reply.
fn add_page_headers(res: &mut Response) {
    for (name, value) in page_headers() {
        res.headers_mut()
            .insert(name, header::HeaderValue::from_static(value));
    }
}

/// Serves the embedded UI for every non-API GET.
pub fn router() -> Router<Arc<AppState>> {
    Router::new().fallback(serve)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_players_page_is_a_page_whatever_the_username() {
        assert!(is_player_page("/@/Ana"));
        assert!(is_player_page("/@/ana.b"));
        assert!(is_player_page("/@/Ana%20P%C3%A9rez"));
        assert!(!is_player_page("/@/"));
        assert!(!is_player_page("/@/a/b.js"));
        assert!(!is_player_page("/g/abc.js"));
    }

    #[test]
    fn gzip_is_accepted_unless_refused() {
        let with = |v: &str| {
            let mut h = HeaderMap::new();
            h.insert(header::ACCEPT_ENCODING, v.parse().unwrap());
            accepts_gzip(&h)
        };
        assert!(with("gzip, deflate, br"));
        assert!(with("br;q=1.0, GZIP;q=0.5"));
        assert!(!with("br"));
        assert!(!with("gzip;q=0"));
        assert!(!accepts_gzip(&HeaderMap::new()));
    }

    #[test]
    fn every_text_file_is_compressed_and_has_a_distinct_etag() {
        let ready = prepared();
        for ((path, mime, body), p) in ASSETS.iter().zip(ready) {
            if mime.starts_with("text/") && body.len() > 1024 {
                let gz = p
                    .gzip
                    .as_ref()
                    .unwrap_or_else(|| panic!("{path} is not compressed"));
                let mut out = Vec::new();
                std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(&gz[..]), &mut out).unwrap();
                assert_eq!(out, body_of(path, body), "{path}");
                let br = p
                    .brotli
                    .as_ref()
                    .unwrap_or_else(|| panic!("{path} is not compressed with brotli"));
                let mut out = Vec::new();
                brotli::BrotliDecompress(&mut &br[..], &mut out).unwrap();
                assert_eq!(out, body_of(path, body), "{path}");
                assert!(
                    br.len() <= gz.len(),
                    "{path}: brotli {} bytes, gzip {}",
                    br.len(),
                    gz.len()
                );
            }
        }
        let mut tags: Vec<&str> = ready.iter().map(|p| p.etag.as_str()).collect();
        tags.sort_unstable();
        tags.dedup();
        assert_eq!(tags.len(), ASSETS.len());
    }

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
    fn pages_carry_the_policy_and_no_script_writes_html_but_through_html_js() {
        for needed in [
            "script-src 'self' 'wasm-unsafe-eval';",
            "frame-ancestors 'none'",
            "require-trusted-types-for 'script'",
            "object-src 'none'",
        ] {
            assert!(CONTENT_SECURITY_POLICY.contains(needed), "{needed}");
        }
        assert!(!CONTENT_SECURITY_POLICY.contains("unsafe-inline"));
        assert!(!CONTENT_SECURITY_POLICY.contains("  "));
        let page = static_index_html();
        assert!(page.contains("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'self';"));
        assert!(!page.contains("frame-ancestors"));
        // Every embedded script: HTML is written only by web/html.js (whose
        // setHtml takes only its escaped templates), never by string.
        for (path, mime, body) in ASSETS {
            if !mime.starts_with("text/javascript") || *path == "/html.js" {
                continue;
            }
            let text = std::str::from_utf8(body).unwrap();
            for sink in [
                "innerHTML",
                "outerHTML",
                "insertAdjacentHTML",
                "document.write",
                "srcdoc",
            ] {
                assert!(
                    !text.contains(sink),
                    "{path} uses {sink}: build HTML with html`…` and setHtml"
                );
            }
        }
    }

    #[test]
    fn every_module_and_style_sheet_of_web_is_embedded() {
        // A file of web/ the page imports but the list above lacks would be
        // a 404 in the browser: every .js and .css outside the tests is listed.
        fn walk(dir: &std::path::Path, root: &std::path::Path, out: &mut Vec<String>) {
            for entry in std::fs::read_dir(dir).unwrap() {
                let path = entry.unwrap().path();
                let name = path.file_name().unwrap().to_string_lossy().to_string();
                if path.is_dir() {
                    if name != "tests" && name != "node_modules" {
                        walk(&path, root, out);
                    }
                } else if name.ends_with(".js") || name.ends_with(".css") {
                    out.push(format!("/{}", path.strip_prefix(root).unwrap().display()));
                }
            }
        }
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web");
        let mut files = Vec::new();
        walk(&root, &root, &mut files);
        assert!(files.len() > 30, "{files:?}");
        for f in &files {
            assert!(
                asset(f).is_some(),
                "web{f} is not embedded: add it to assets! in http/assets.rs"
            );
        }
    }

    #[test]
    fn the_licence_texts_and_the_third_party_notices_are_served() {
        let text = |p: &str| std::str::from_utf8(asset(p).unwrap().1).unwrap().to_owned();
        assert!(text("/LICENSE-MIT").starts_with("MIT License"));
        assert!(text("/LICENSE-APACHE").contains("Apache License"));
        let notices = text("/THIRD-PARTY.md");
        assert!(notices.contains("- axum ") && notices.contains("- wasm-bindgen "));
    }

    #[test]
    fn the_precache_list_names_every_file_but_the_service_worker_and_the_puzzle_pack() {
        let v: serde_json::Value = serde_json::from_str(&precache_json()).unwrap();
        let files: Vec<&str> = v["files"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f.as_str().unwrap())
            .collect();
        assert_eq!(files[0], "/");
        // Every file but the service worker, "/" and the pack.
        assert_eq!(files.len(), ASSETS.len() + 1);
        assert!(!files.contains(&"/sw.js"));
        assert!(files.contains(&PUZZLE_PACK_PATH));
        assert!(ASSETS.iter().all(|(p, _, _)| *p == "/sw.js" || files.contains(p)));
        assert_eq!(v["version"].as_str().unwrap().len(), 16);
    }
}
