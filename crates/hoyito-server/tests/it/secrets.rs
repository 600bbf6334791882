//! Seat tokens and invite secrets: stored only as hashes (older databases
//! are migrated), checked whatever the case of the `Bearer` scheme.

use hoyito_server::auth::hash_secret;
use hoyito_server::{spawn_local, Store};
use serde_json::{json, Value};

async fn post(base: &str, path: &str, auth: Option<&str>, body: Value) -> (u16, Value) {
    let mut req = reqwest::Client::new().post(format!("{base}{path}")).json(&body);
    if let Some(a) = auth {
        req = req.header("authorization", a);
    }
    let res = req.send().await.expect("request");
    (res.status().as_u16(), res.json().await.expect("JSON"))
}

fn column(db: &std::path::Path, sql: &str) -> Vec<Option<String>> {
    let conn = rusqlite::Connection::open(db).unwrap();
    let mut st = conn.prepare(sql).unwrap();
    let rows = st.query_map([], |r| r.get(0)).unwrap();
    rows.collect::<Result<_, _>>().unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tokens_and_invites_are_stored_hashed_and_any_scheme_case_works() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.db");
    let (addr, server) = spawn_local(Store::open(&db).unwrap()).await.unwrap();
    let base = format!("http://{addr}");
    let (status, created) = post(&base, "/api/games", None, json!({ "mode": "online" })).await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap();
    let token = created["token"].as_str().unwrap();
    let invite = created["invite"]
        .as_str()
        .unwrap()
        .rsplit_once("invite=")
        .unwrap()
        .1;
    assert_eq!(
        column(&db, "SELECT south_token FROM games"),
        [Some(hash_secret(token))]
    );
    assert_eq!(
        column(&db, "SELECT invite FROM games"),
        [Some(hash_secret(invite))]
    );
    // The invite's hash is not the invite.
    let (status, v) = post(
        &base,
        &format!("/api/games/{id}/join"),
        None,
        json!({ "invite": hash_secret(invite) }),
    )
    .await;
    assert_eq!(status, 403, "{v}");
    let (status, joined) = post(
        &base,
        &format!("/api/games/{id}/join"),
        None,
        json!({ "invite": invite }),
    )
    .await;
    assert_eq!(status, 200, "{joined}");
    let north = joined["token"].as_str().unwrap();
    assert_eq!(
        column(&db, "SELECT north_token FROM games"),
        [Some(hash_secret(north))]
    );
    assert_eq!(column(&db, "SELECT invite FROM games"), [None]);
    // Nor is a token's hash a token.
    let mv = format!("/api/games/{id}/moves");
    let (status, v) = post(
        &base,
        &mv,
        Some(&format!("Bearer {}", hash_secret(token))),
        json!({ "move": "1" }),
    )
    .await;
    assert_eq!(status, 403, "{v}");
    // The scheme is case-insensitive.
    let (status, v) = post(
        &base,
        &mv,
        Some(&format!("bearer {token}")),
        json!({ "move": "1" }),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    let (status, v) = post(
        &base,
        &mv,
        Some(&format!("BEARER {north}")),
        json!({ "move": "1" }),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_with_plain_tokens_is_migrated() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.db");
    let (addr, server) = spawn_local(Store::open(&db).unwrap()).await.unwrap();
    let base = format!("http://{addr}");
    let (_, created) = post(&base, "/api/games", None, json!({ "mode": "online" })).await;
    let id = created["id"].as_str().unwrap().to_string();
    server.stop().await;
    // Make it a database as the first schema wrote it: plain secrets, no
    // version number, no health table.
    let (token, invite) = (
        "0123456789abcdef0123456789abcdef",
        "fedcba9876543210fedcba9876543210",
    );
    {
        let conn = rusqlite::Connection::open(&db).unwrap();
        conn.execute(
            "UPDATE games SET south_token = ?1, invite = ?2",
            rusqlite::params![token, invite],
        )
        .unwrap();
        conn.execute_batch("DROP TABLE health; PRAGMA user_version = 0;")
            .unwrap();
    }
    let (addr, server) = spawn_local(Store::open(&db).unwrap()).await.unwrap();
    let base = format!("http://{addr}");
    assert_eq!(
        column(&db, "SELECT south_token FROM games"),
        [Some(hash_secret(token))]
    );
    assert_eq!(
        column(&db, "SELECT invite FROM games"),
        [Some(hash_secret(invite))]
    );
    let version = column(&db, "SELECT CAST(user_version AS TEXT) FROM pragma_user_version");
    assert_eq!(version, [Some(hoyito_server::store::SCHEMA_VERSION.to_string())]);
    // The old secrets still work.
    let (status, v) = post(
        &base,
        &format!("/api/games/{id}/join"),
        None,
        json!({ "invite": invite }),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    let (status, v) = post(
        &base,
        &format!("/api/games/{id}/moves"),
        Some(&format!("Bearer {token}")),
        json!({ "move": "1" }),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    server.stop().await;
    // A database from a newer schema is refused.
    rusqlite::Connection::open(&db)
        .unwrap()
        .execute_batch("PRAGMA user_version = 99;")
        .unwrap();
    let err = Store::open(&db).unwrap_err().to_string();
    assert!(err.contains("schema version 99"), "{err}");
}
