//! A PostgreSQL server that stops answering (its postmaster and backends
//! frozen with SIGSTOP, as in a network partition that leaves connections
//! open) turns requests into 503 `storage_unavailable` with `Retry-After`
//! within seconds, and `GET /api/health` into 503 `degraded`, instead of
//! holding them; once it goes on (SIGCONT), the node serves again by
//! itself, and nothing refused meanwhile was stored. `hoyito serve` is a
//! real process on loopback; the PostgreSQL server is the test's own
//! (`scripts/postgres.sh`), so that freezing it stops no other test.

use std::time::Duration;

use crate::process::{request, request_within, serve, wait_healthy, PgCluster, TempDir};
use serde_json::{json, Value};

/// How long the client waits for an answer while the database is frozen:
/// the server must answer well before (it answers within seconds: its
/// pool's wait, a connection's check and the call's limit).
const CLIENT_LIMIT: Duration = Duration::from_secs(20);

fn first_legal(game: &Value) -> String {
    game["legal"][0].as_str().expect("a legal move").to_string()
}

#[test]
#[ignore = "starts its own PostgreSQL (scripts/postgres.sh): run by scripts/test.sh"]
fn a_frozen_postgresql_is_503_within_seconds_and_the_node_recovers() {
    let dir = TempDir::new("pg-frozen");
    let pg = PgCluster::start(&dir.0.join("pg"), &[]);
    let server = serve(&dir.0, pg.url.as_ref(), &[], &[("HOYITO_LOG", "off")]);
    let addr = server.addr.as_str();
    let created = request(
        addr,
        "POST",
        "/api/games",
        None,
        Some(&json!({ "mode": "hotseat" })),
    );
    assert_eq!(created.status, 201, "{created:?}");
    let v = created.json();
    let (id, token) = (v["id"].as_str().unwrap(), v["token"].as_str().unwrap());
    let moves = format!("/api/games/{id}/moves");
    let played = request(
        addr,
        "POST",
        &moves,
        Some(token),
        Some(&json!({ "move": first_legal(&v["game"]) })),
    );
    assert_eq!(played.status, 200, "{played:?}");
    let next = first_legal(&played.json()["game"]);

    pg.signal("STOP");
    let asked = std::time::Instant::now();
    let refused = request_within(
        addr,
        "POST",
        &moves,
        Some(token),
        Some(&json!({ "move": next })),
        CLIENT_LIMIT,
    )
    .expect("a move is answered before the client gives up");
    eprintln!("a move answered {} after {:?}", refused.status, asked.elapsed());
    assert_eq!(refused.status, 503, "{refused:?}");
    assert_eq!(refused.header("retry-after"), Some("3"), "{refused:?}");
    assert_eq!(refused.json()["code"], "storage_unavailable", "{refused:?}");
    let asked = std::time::Instant::now();
    let health = request_within(addr, "GET", "/api/health", None, None, CLIENT_LIMIT)
        .expect("the health check answers before the client gives up");
    eprintln!(
        "the health check answered {} after {:?}",
        health.status,
        asked.elapsed()
    );
    assert_eq!(health.status, 503, "{health:?}");
    assert!(health.header("retry-after").is_some(), "{health:?}");
    assert_eq!(
        (health.json()["ok"].as_bool(), health.json()["storage"].as_str()),
        (Some(false), Some("degraded")),
        "{health:?}"
    );
    // A game in memory is still shown.
    let shown = request_within(addr, "GET", &format!("/api/games/{id}"), None, None, CLIENT_LIMIT)
        .expect("a game in memory is shown");
    assert_eq!(
        (shown.status, &shown.json()["seq"]),
        (200, &json!(1)),
        "{shown:?}"
    );

    pg.signal("CONT");
    wait_healthy(addr);
    // What was refused while the database was frozen was not stored: a
    // second node reads the game from the database as acknowledged.
    let other = serve(&dir.0, pg.url.as_ref(), &[], &[("HOYITO_LOG", "off")]);
    let stored = request(&other.addr, "GET", &format!("/api/games/{id}"), None, None);
    assert_eq!(stored.json()["seq"], 1, "{stored:?}");
    let played = request(addr, "POST", &moves, Some(token), Some(&json!({ "move": next })));
    assert_eq!(
        played.status, 200,
        "the move is made once the database answers: {played:?}"
    );
}
