//! The API reads and answers every request the same way, against a real
//! server on loopback (127.0.0.1, a free port): duplicated JSON keys, move
//! token suffixes, query limits, oversized heads and the headers of every
//! answer.

use hoyito_server::Store;
use reqwest::StatusCode;
use serde_json::json;

use crate::common::{error_code, Api};

/// How many games are stored.
async fn stored_games(api: &Api) -> u64 {
    let (status, health) = api.get("/api/health").await;
    assert_eq!(status, StatusCode::OK, "{health}");
    health["games"].as_u64().unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_duplicated_json_key_is_refused_at_any_depth_and_nothing_is_stored() {
    let api = Api::start(Store::in_memory().unwrap()).await;
    for (body, key) in [
        (r#"{"mode": "online", "mode": "engine"}"#, "mode"),
        (
            r#"{"mode": "hotseat", "rules": {"variant": "I", "variant": "II"}}"#,
            "variant",
        ),
        (r#"{"mode": "online", "clock": {"days": 1, "days": 2}}"#, "days"),
    ] {
        let (status, v) = api.post_raw("/api/games", None, body.into()).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}: {v}");
        assert_eq!(error_code(&v), "invalid_fields", "{v}");
        let message = v["error"].as_str().unwrap();
        assert!(
            message.contains(&format!("duplicate key `{key}`")),
            "{body}: {message}"
        );
    }
    assert_eq!(stored_games(&api).await, 0);

    // A move body too: the move is not played.
    let (id, token, _) = api.create(json!({ "mode": "hotseat" })).await;
    let (status, v) = api
        .post_raw(
            &format!("/api/games/{id}/moves"),
            Some(&token),
            br#"{"move": "1", "move": "2"}"#.to_vec(),
        )
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    assert!(
        v["error"].as_str().unwrap().contains("duplicate key `move`"),
        "{v}"
    );
    assert_eq!(api.game(&id).await["seq"], 0);
    // The same key in two different objects is fine.
    let (status, v) = api
        .post_raw(
            "/api/games",
            None,
            br#"{"mode": "hotseat", "rules": {"variant": "II"}, "clock": null}"#.to_vec(),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    api.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_direction_suffix_is_refused_where_the_direction_is_fixed() {
    let api = Api::start(Store::in_memory().unwrap()).await;
    let (id, token, _) = api.create(json!({ "mode": "hotseat" })).await;
    for bad in ["1L", "1R", " 2l ", "3r"] {
        let (status, v) = api.play(&id, &token, bad).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{bad}: {v}");
        assert_eq!(error_code(&v), "bad_move", "{v}");
        let message = v["error"].as_str().unwrap();
        let hole = &bad.trim()[..1];
        assert!(message.contains(&format!("{:?}", bad.trim())), "{message}");
        assert!(message.contains(&format!("expected \"{hole}\"")), "{message}");
    }
    assert_eq!(api.game(&id).await["seq"], 0, "nothing was played");
    let (status, v) = api.play(&id, &token, "1").await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["move"]["token"], "1");

    // Where the direction is a choice, the suffix is the choice.
    let (id, token, _) = api
        .create(json!({ "mode": "hotseat", "rules": { "direction": "per_move" } }))
        .await;
    let (status, v) = api.play(&id, &token, "1R").await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["move"]["token"], "1R");
    // With per_player, a later move may repeat the player's choice.
    let (id, token, _) = api
        .create(json!({ "mode": "hotseat", "rules": { "direction": "per_player" } }))
        .await;
    for mv in ["1R", "1L", "2R"] {
        let (status, v) = api.play(&id, &token, mv).await;
        assert_eq!(status, StatusCode::OK, "{mv}: {v}");
    }
    api.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn listings_refuse_a_limit_out_of_range_alike() {
    let api = Api::start(Store::in_memory().unwrap()).await;
    for (path, max) in [
        ("/api/games?limit=0", 500),
        ("/api/games?limit=501", 500),
        ("/api/lobby?limit=0", 50),
        ("/api/lobby?limit=51", 50),
    ] {
        let (status, v) = api.get(path).await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::BAD_REQUEST, "bad_request"),
            "{path}: {v}"
        );
        let message = v["error"].as_str().unwrap();
        assert!(
            message.contains(&format!("must be 1 to {max}")),
            "{path}: {message}"
        );
    }
    for path in [
        "/api/games?limit=1",
        "/api/games?limit=500",
        "/api/games",
        "/api/lobby?limit=50",
    ] {
        let (status, v) = api.get(path).await;
        assert_eq!(status, StatusCode::OK, "{path}: {v}");
    }
    api.stop().await;
}

/// Sends `head` (a request head without its final blank line) on a new
/// connection, with `Connection: close`, and returns the whole answer:
/// its status, its head (lower case) and its body.
async fn raw(addr: &str, head: &str) -> (u16, String, String) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    let request = format!("{head}\r\nConnection: close\r\n\r\n");
    // The server may answer and close before reading all of a long head.
    let _ = stream.write_all(request.as_bytes()).await;
    let mut got = Vec::new();
    let read = tokio::time::timeout(std::time::Duration::from_secs(10), async {
        let mut buf = [0u8; 4096];
        loop {
            match stream.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(n) => got.extend_from_slice(&buf[..n]),
            }
        }
    });
    read.await
        .expect("the server closes the connection after answering");
    let text = String::from_utf8_lossy(&got).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    (status, head.to_ascii_lowercase(), body.to_string())
}

fn json_error(status: u16, head: &str, body: &str, code: &str) {
    assert!(
        head.contains("content-type: application/json"),
        "{status}: {head}"
    );
    let v: serde_json::Value = serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {body:?}"));
    assert_eq!(v["status"], status, "{v}");
    assert_eq!(error_code(&v), code, "{v}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_long_url_and_many_or_large_headers_get_json_errors() {
    use hoyito_server::head::{MAX_HEADERS, MAX_HEADER_BYTES, MAX_URI};
    let api = Api::start(Store::in_memory().unwrap()).await;
    let addr = api.base.trim_start_matches("http://").to_string();
    let host = format!("Host: {addr}");

    let long = format!("GET /api/health?pad={} HTTP/1.1\r\n{host}", "a".repeat(MAX_URI));
    let (status, head, body) = raw(&addr, &long).await;
    assert_eq!(status, 414, "{head}");
    json_error(414, &head, &body, "uri_too_long");
    assert!(body.contains(&format!("at most {MAX_URI}")), "{body}");

    let many: String = (0..MAX_HEADERS).map(|i| format!("\r\nX-Pad-{i}: {i}")).collect();
    let (status, head, body) = raw(&addr, &format!("GET /api/health HTTP/1.1\r\n{host}{many}")).await;
    assert_eq!(status, 431, "{head}");
    json_error(431, &head, &body, "headers_too_large");

    let large = format!(
        "GET /api/games HTTP/1.1\r\n{host}\r\nX-Pad: {}",
        "b".repeat(MAX_HEADER_BYTES)
    );
    let (status, head, body) = raw(&addr, &large).await;
    assert_eq!(status, 431, "{head}");
    json_error(431, &head, &body, "headers_too_large");

    // Beyond what the parser holds of a head: refused by the parser, with
    // the same JSON error.
    let huge = format!(
        "GET /api/health HTTP/1.1\r\n{host}\r\nX-Pad: {}",
        "c".repeat(100 * 1024)
    );
    let (status, head, body) = raw(&addr, &huge).await;
    assert_eq!(status, 431, "{head}");
    json_error(431, &head, &body, "headers_too_large");

    // Within the limits: answered.
    let fine: String = (0..MAX_HEADERS - 2)
        .map(|i| format!("\r\nX-Pad-{i}: {i}"))
        .collect();
    let (status, head, _) = raw(&addr, &format!("GET /api/health HTTP/1.1\r\n{host}{fine}")).await;
    assert_eq!(status, 200, "{head}");
    api.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_answer_says_no_referrer_and_nosniff() {
    let limits = hoyito_server::ServerLimits {
        max_connections_per_ip: 2,
        ..hoyito_server::ServerLimits::default()
    };
    let api = Api::start_with(Store::in_memory().unwrap(), limits).await;
    let addr = api.base.trim_start_matches("http://").to_string();
    let host = format!("Host: {addr}");
    let (id, _, _) = api.create(json!({ "mode": "hotseat" })).await;
    let check = |what: &str, status: u16, head: &str| {
        assert!(
            head.contains("\r\nreferrer-policy: no-referrer"),
            "{what} ({status}): {head}"
        );
        assert!(
            head.contains("\r\nx-content-type-options: nosniff"),
            "{what} ({status}): {head}"
        );
        assert_eq!(head.matches("referrer-policy").count(), 1, "{what}: {head}");
    };
    for (what, request, expected) in [
        ("JSON", "GET /api/health HTTP/1.1".to_string(), 200),
        ("game", format!("GET /api/games/{id} HTTP/1.1"), 200),
        ("no such game", "GET /api/games/nosuchgame HTTP/1.1".into(), 404),
        ("no such endpoint", "GET /api/nothing HTTP/1.1".into(), 404),
        ("wrong method", "DELETE /api/health HTTP/1.1".into(), 405),
        ("bad query", "GET /api/games?limit=0 HTTP/1.1".into(), 400),
        (
            "no body",
            "POST /api/games HTTP/1.1\r\nContent-Type: text/plain\r\nContent-Length: 0".into(),
            415,
        ),
        (
            "WebSocket without upgrade",
            format!("GET /api/games/{id}/ws HTTP/1.1"),
            400,
        ),
        (
            "WebSocket of no game",
            "GET /api/games/nosuchgame/ws HTTP/1.1".into(),
            404,
        ),
        (
            "long URL",
            format!("GET /api/health?{} HTTP/1.1", "a".repeat(10_000)),
            414,
        ),
        ("page", "GET / HTTP/1.1".into(), 200),
    ] {
        let (status, head, _) = raw(&addr, &format!("{request}\r\n{host}")).await;
        assert_eq!(status, expected, "{what}: {head}");
        check(what, status, &head);
    }
    // A connection over the per-address cap, answered before any request is read.
    let held: Vec<_> =
        futures_util::future::join_all((0..2).map(|_| tokio::net::TcpStream::connect(&addr))).await;
    let (status, head, _) = raw(&addr, &format!("GET /api/health HTTP/1.1\r\n{host}")).await;
    assert_eq!(status, 429, "{head}");
    check("too many connections", status, &head);
    drop(held);
    api.stop().await;
}
