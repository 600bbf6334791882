//! What `hoyito serve` (a real process on loopback) puts around its
//! answers: `Cache-Control: no-store` on every API answer, those carrying
//! seat tokens and private chat first, and the API's JSON errors for
//! request heads the HTTP parser refuses itself (too many headers, too
//! long a URL, unreadable).

use crate::process::{exchange, request, serve, TempDir, PATIENCE};
use serde_json::json;

#[test]
fn answers_with_tokens_or_private_chat_are_never_cached() {
    let dir = TempDir::new("no-store");
    let server = serve(&dir.0, dir.0.join("games.db").as_os_str(), &[], &[]);
    let addr = server.addr.as_str();
    let no_store = |what: &str, a: &crate::process::Answer| {
        assert_eq!(a.header("cache-control"), Some("no-store"), "{what}: {a:?}");
    };

    let created = request(
        addr,
        "POST",
        "/api/games",
        None,
        Some(&json!({ "mode": "online", "name": "Ana" })),
    );
    assert_eq!(created.status, 201, "{created:?}");
    no_store("a new game", &created);
    let v = created.json();
    let (id, south) = (v["id"].as_str().unwrap(), v["token"].as_str().unwrap());
    let invite = v["invite"].as_str().unwrap().split("invite=").nth(1).unwrap();
    let joined = request(
        addr,
        "POST",
        &format!("/api/games/{id}/join"),
        None,
        Some(&json!({ "invite": invite, "name": "Jean" })),
    );
    assert_eq!(joined.status, 200, "{joined:?}");
    no_store("a join", &joined);
    let north = joined.json()["token"].as_str().unwrap().to_string();

    let said = request(
        addr,
        "POST",
        &format!("/api/games/{id}/chat"),
        Some(south),
        Some(&json!({ "text": "hola" })),
    );
    assert_eq!(said.status, 201, "{said:?}");
    no_store("a chat message", &said);
    let chat = request(addr, "GET", &format!("/api/games/{id}/chat"), Some(&north), None);
    assert_eq!(chat.status, 200, "{chat:?}");
    no_store("the chat of a private game", &chat);

    let resigned = request(
        addr,
        "POST",
        &format!("/api/games/{id}/resign"),
        Some(south),
        None,
    );
    assert_eq!(resigned.status, 200, "{resigned:?}");
    let rematch = request(
        addr,
        "POST",
        &format!("/api/games/{id}/rematch"),
        Some(south),
        None,
    );
    assert_eq!(rematch.status, 201, "{rematch:?}");
    no_store("a rematch", &rematch);

    let record = request(addr, "GET", &format!("/api/games/{id}/record"), None, None);
    let imported = request(
        addr,
        "POST",
        "/api/games/import",
        None,
        Some(&json!({ "record": record.body, "mode": "hotseat" })),
    );
    assert_eq!(imported.status, 201, "{imported:?}");
    no_store("an import", &imported);

    // Errors and plain views too: every API answer.
    no_store(
        "a game view",
        &request(addr, "GET", &format!("/api/games/{id}"), None, None),
    );
    no_store(
        "an error",
        &request(addr, "GET", "/api/games/nothing", None, None),
    );
    // The pages keep their own caching.
    let page = request(addr, "GET", "/", None, None);
    assert_eq!(page.header("cache-control"), Some("no-cache"), "{page:?}");
}

#[test]
fn heads_the_parser_refuses_are_answered_with_the_apis_json_errors() {
    let dir = TempDir::new("parser-errors");
    let server = serve(&dir.0, dir.0.join("games.db").as_os_str(), &[], &[]);
    let addr = server.addr.as_str();
    let headers = |n: usize| -> String { (0..n).map(|i| format!("X-H{i}: v\r\n")).collect() };
    let cases = [
        // Over the router's limit (64 headers): its own answer.
        (
            format!(
                "GET /api/health HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n{}\r\n",
                headers(70)
            ),
            431,
            "the request has 72 headers",
        ),
        // Over the parser's (128 headers): the parser's answer, in JSON.
        (
            format!(
                "GET /api/health HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n{}\r\n",
                headers(200)
            ),
            431,
            "the request's head is over 64 KiB or 128 headers",
        ),
        (
            format!(
                "GET /api/health HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nX-Big: {}\r\n\r\n",
                "v".repeat(200 * 1024)
            ),
            431,
            "the request's head is over 64 KiB or 128 headers",
        ),
        (
            format!(
                "GET /{} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n",
                "a".repeat(70 * 1024)
            ),
            414,
            "the URL is over 64 KiB",
        ),
        (
            format!("G@T / HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"),
            400,
            "the request is not HTTP/1.1",
        ),
    ];
    for (raw, status, message) in cases {
        let what = format!("{}…", &raw[..raw.len().min(40)]);
        let a = exchange(addr, raw.as_bytes(), PATIENCE).unwrap_or_else(|| panic!("{what}: no answer"));
        assert_eq!(a.status, status, "{what}: {a:?}");
        assert_eq!(
            a.header("content-type"),
            Some("application/json"),
            "{what}: {a:?}"
        );
        assert_eq!(
            a.header("x-content-type-options"),
            Some("nosniff"),
            "{what}: {a:?}"
        );
        let v = a.json();
        let code = match status {
            431 => "headers_too_large",
            414 => "uri_too_long",
            _ => "bad_request",
        };
        assert_eq!(v["code"], code, "{what}: {a:?}");
        assert_eq!(v["status"], status, "{what}: {a:?}");
        assert!(
            v["error"].as_str().is_some_and(|e| e.starts_with(message)),
            "{what}: {a:?}"
        );
    }
    // The server goes on serving.
    assert_eq!(request(addr, "GET", "/api/health", None, None).status, 200);
}
