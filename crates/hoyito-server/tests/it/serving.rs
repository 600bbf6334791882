//! The embedded UI as a real server on loopback sends it: brotli or gzip to
//! clients that accept them, an ETag answered with 304 when it matches, a
//! favicon cached for a day, and the app for its pages' addresses (a game's,
//! a player's).

use hoyito_server::Store;
use reqwest::StatusCode;

use crate::common::Api;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn files_are_compressed_revalidated_and_the_favicon_cached() {
    let api = Api::start(Store::in_memory().unwrap()).await;
    let get = |path: &str, headers: &[(&str, &str)]| {
        let mut req = api.http.get(format!("{}{path}", api.base));
        for (k, v) in headers {
            req = req.header(*k, *v);
        }
        req.send()
    };
    let plain = get("/game/render.js", &[]).await.unwrap();
    assert_eq!(plain.status(), StatusCode::OK);
    assert!(plain.headers().get("content-encoding").is_none());
    let etag = plain.headers()["etag"].to_str().unwrap().to_string();
    let text = plain.text().await.unwrap();
    assert!(text.contains("export function renderAll"));

    let zipped = get("/game/render.js", &[("accept-encoding", "gzip, deflate")])
        .await
        .unwrap();
    assert_eq!(zipped.headers()["content-encoding"], "gzip");
    assert_eq!(zipped.headers()["vary"], "accept-encoding");
    let body = zipped.bytes().await.unwrap();
    assert!(
        body.len() * 2 < text.len(),
        "{} bytes gzipped of {}",
        body.len(),
        text.len()
    );
    let mut unzipped = String::new();
    std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(&body[..]), &mut unzipped).unwrap();
    assert_eq!(unzipped, text);

    // Brotli where the client takes it (browsers do): smaller still.
    let br = get("/game/render.js", &[("accept-encoding", "gzip, deflate, br")])
        .await
        .unwrap();
    assert_eq!(br.headers()["content-encoding"], "br");
    let br = br.bytes().await.unwrap();
    assert!(
        br.len() < body.len(),
        "brotli {} bytes, gzip {}",
        br.len(),
        body.len()
    );
    let mut unbr = Vec::new();
    brotli::BrotliDecompress(&mut &br[..], &mut unbr).unwrap();
    assert_eq!(String::from_utf8(unbr).unwrap(), text);
    let refused = get("/game/render.js", &[("accept-encoding", "br;q=0, gzip")])
        .await
        .unwrap();
    assert_eq!(refused.headers()["content-encoding"], "gzip");

    let again = get("/game/render.js", &[("if-none-match", &etag)]).await.unwrap();
    assert_eq!(again.status(), StatusCode::NOT_MODIFIED);
    assert!(again.bytes().await.unwrap().is_empty());
    let other = get("/game/render.js", &[("if-none-match", "\"stale\"")])
        .await
        .unwrap();
    assert_eq!(other.status(), StatusCode::OK);
    // Pages are the index with its own tag; the favicon is cached.
    let page = get("/games", &[]).await.unwrap();
    assert_eq!(page.headers()["cache-control"], "no-cache");
    // A game's page and a player's page are the app too, whatever the
    // username (a dot, a space, a letter out of ASCII); a missing file is not.
    for path in [
        "/g/abc123",
        "/@/Ana",
        "/@/ana.b",
        "/@/Ana%20P%C3%A9rez",
        "/leaderboard",
    ] {
        let res = get(path, &[]).await.unwrap();
        assert_eq!(res.status(), StatusCode::OK, "{path}");
        assert!(
            res.headers()["content-type"]
                .to_str()
                .unwrap()
                .starts_with("text/html"),
            "{path}"
        );
        assert!(res.headers().contains_key("content-security-policy"), "{path}");
    }
    assert_eq!(
        get("/missing.js", &[]).await.unwrap().status(),
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        get("/g/abc.js", &[]).await.unwrap().status(),
        StatusCode::NOT_FOUND
    );
    let icon = get("/favicon.svg", &[]).await.unwrap();
    assert_eq!(icon.headers()["cache-control"], "public, max-age=86400");

    // The page loads its script from the build's fingerprint: immutable,
    // and so are the modules it imports relative to it.
    let html = page.text().await.unwrap();
    let at = html.find("src=\"/v/").expect("a fingerprinted script") + 5;
    let script = &html[at..at + html[at..].find('"').unwrap()];
    assert!(script.ends_with("/app.js"), "{script}");
    let build = script.trim_end_matches("/app.js");
    for path in [script.to_string(), format!("{build}/game/view.js")] {
        let res = get(&path, &[]).await.unwrap();
        assert_eq!(res.status(), StatusCode::OK, "{path}");
        assert_eq!(
            res.headers()["cache-control"],
            "public, max-age=31536000, immutable",
            "{path}"
        );
    }
    assert!(html.contains(&format!("href=\"{build}/style.css\"")));
    // An old build's path is served fresh, not cached for ever.
    let old = get("/v/0123456789abcdef/app.js", &[]).await.unwrap();
    assert_eq!(old.status(), StatusCode::OK);
    assert_eq!(old.headers()["cache-control"], "no-cache");
    api.stop().await;
}
