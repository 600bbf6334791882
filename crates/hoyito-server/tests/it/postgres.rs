//! PostgreSQL: the storage calls answer as SQLite's do, a step that does
//! not follow the last stored one is refused (`storage`), older databases
//! are migrated and shared with nodes of the version before (`schema`),
//! and two server nodes on one database share their games live (a move on
//! one reaches a watcher of the other; simultaneous moves store one) and
//! their passkey ceremonies (started on one, finished on the other).
//!
//! These tests need a PostgreSQL server whose user may create databases:
//! `HOYITO_TEST_POSTGRES=postgres://user@127.0.0.1:PORT/postgres`.
//! `scripts/test.sh` starts one (`scripts/postgres.sh`) and runs them with
//! `cargo test -p hoyito-server --test it -- --ignored postgres::`.

#[path = "common/pg_proxy.rs"]
mod pg_proxy;
mod schema;
mod storage;

use std::path::Path;
use std::sync::atomic::{AtomicU32, Ordering};

use crate::common::{eventually, first_legal, Api, PATIENCE};
use futures_util::StreamExt;
use hoyito_core::{ByPlayer, Rules};
use hoyito_server::store::{Meta, Mode, Summary};
use hoyito_server::Store;
use reqwest::StatusCode;
use serde_json::{json, Value};

/// A new, empty database on the test server: its URL.
fn fresh_db() -> String {
    static N: AtomicU32 = AtomicU32::new(0);
    let admin = std::env::var("HOYITO_TEST_POSTGRES").expect(
        "HOYITO_TEST_POSTGRES: the URL of a PostgreSQL server whose user may create databases \
         (bash scripts/postgres.sh start DIR prints one)",
    );
    let name = format!(
        "hoyito_test_{}_{}_{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed),
        hoyito_server::store::now()
    );
    let mut client =
        postgres::Client::connect(&admin, postgres::NoTls).expect("connect to HOYITO_TEST_POSTGRES");
    client
        .batch_execute(&format!("CREATE DATABASE {name}"))
        .expect("create a test database");
    let (base, _) = admin.rsplit_once('/').expect("a URL with a database");
    format!("{base}/{name}")
}

/// Opens `url` off the async executor (the PostgreSQL client blocks).
async fn open(url: &str) -> Store {
    let url = url.to_string();
    tokio::task::spawn_blocking(move || Store::open(Path::new(&url)).expect("open PostgreSQL"))
        .await
        .unwrap()
}

fn meta(id: &str, mode: Mode, public: bool) -> Meta {
    Meta {
        id: id.to_string(),
        created_ms: 1_700_000_000_000,
        mode,
        rules: Rules::default(),
        is_match: false,
        level: 3,
        engine_side: None,
        start: None,
        tokens: ByPlayer::new(Some("hash-s".into()), None),
        invite: Some("hash-i".into()),
        names: ByPlayer::new(Some("Ana".into()), None),
        clock: None,
        public,
        rated: false,
        rating_range: None,
    }
}

fn summary(status: &'static str, seq: u64) -> Summary {
    Summary {
        status,
        seq,
        result: None,
        score: [seq as u32, 0],
        to_move: Some("south"),
    }
}

/// The next WebSocket message whose game has `seq` steps, within [`PATIENCE`].
async fn next_with_seq<S>(ws: &mut S, seq: u64) -> Value
where
    S: futures_util::Stream<
            Item = Result<tokio_tungstenite::tungstenite::Message, tokio_tungstenite::tungstenite::Error>,
        > + Unpin,
{
    let deadline = tokio::time::Instant::now() + PATIENCE;
    loop {
        let msg = tokio::time::timeout_at(deadline, ws.next())
            .await
            .unwrap_or_else(|_| panic!("no message with seq {seq} within {PATIENCE:?}"))
            .expect("the socket is open")
            .expect("a message");
        let tokio_tungstenite::tungstenite::Message::Text(text) = msg else {
            continue;
        };
        let v: Value = serde_json::from_str(&text).unwrap();
        if v["game"]["seq"] == seq {
            return v;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: HOYITO_TEST_POSTGRES (scripts/test.sh runs it)"]
async fn two_nodes_share_a_game_live() {
    let url = tokio::task::spawn_blocking(fresh_db).await.unwrap();
    let a = Api::start(open(&url).await).await;
    let b = Api::start(open(&url).await).await;
    // Created on a, joined on b.
    let (id, south, created) = a.create(json!({ "mode": "online" })).await;
    let invite = created["invite"]
        .as_str()
        .unwrap()
        .split("invite=")
        .nth(1)
        .unwrap()
        .to_string();
    let (status, joined) = b
        .post(
            &format!("/api/games/{id}/join"),
            None,
            json!({ "invite": invite }),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{joined}");
    let north = joined["token"].as_str().unwrap().to_string();
    // A watcher on each node: a spectator on a, north's socket on b (the
    // chat of a game that is not public goes to its players only).
    let ws_url = |api: &Api| format!("{}/api/games/{id}/ws", api.base.replace("http://", "ws://"));
    let (mut on_a, _) = tokio_tungstenite::connect_async(ws_url(&a)).await.unwrap();
    let mut as_north =
        tokio_tungstenite::tungstenite::client::IntoClientRequest::into_client_request(ws_url(&b)).unwrap();
    let protocols = format!("hoyito, hoyito.bearer.{north}");
    as_north
        .headers_mut()
        .insert("sec-websocket-protocol", protocols.parse().unwrap());
    let (mut on_b, _) = tokio_tungstenite::connect_async(as_north).await.unwrap();
    // Node a learns of the join (the game is playing there too).
    a.wait_for(&id, |g| g["status"] == "playing").await;
    // Moves alternate between the nodes (whoever is to move); each node's
    // watchers see every one.
    let mut played = Vec::new();
    for seq in 1..=8u64 {
        let (api, node) = if seq % 2 == 1 { (&a, "a") } else { (&b, "b") };
        // The mover's node knows the last move (it reached it live).
        let g = api.wait_for(&id, |g| g["seq"] == seq - 1).await;
        if g["status"] != "playing" {
            break;
        }
        let token = if g["state"]["to_move"] == "south" {
            &south
        } else {
            &north
        };
        let mv = first_legal(&g);
        let (status, v) = api.play(&id, token, &mv).await;
        assert_eq!(status, StatusCode::OK, "move {seq} on node {node}: {v}");
        played.push(mv);
        let seen_a = next_with_seq(&mut on_a, seq).await;
        let seen_b = next_with_seq(&mut on_b, seq).await;
        assert_eq!(seen_a["game"]["state"], seen_b["game"]["state"], "move {seq}");
    }
    assert!(played.len() >= 2, "moves were played on both nodes");
    // Both nodes hold the same game, and the database has every move once.
    let (ga, gb) = (a.game(&id).await, b.game(&id).await);
    assert_eq!(ga["history"], gb["history"]);
    assert_eq!(ga["seq"].as_u64().unwrap() as usize, played.len());
    // Chat crosses nodes too.
    let (status, v) = a
        .post(
            &format!("/api/games/{id}/chat"),
            Some(&south),
            json!({ "text": "hola" }),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let deadline = tokio::time::Instant::now() + PATIENCE;
    loop {
        let msg = tokio::time::timeout_at(deadline, on_b.next())
            .await
            .expect("the chat message reaches node b's watcher")
            .unwrap()
            .unwrap();
        if let tokio_tungstenite::tungstenite::Message::Text(t) = msg {
            let v: Value = serde_json::from_str(&t).unwrap();
            if v["type"] == "chat" {
                assert_eq!(v["message"]["text"], "hola");
                break;
            }
        }
    }
    a.stop().await;
    b.stop().await;
}

/// The next WebSocket message whose game satisfies `f`, within [`PATIENCE`].
async fn next_where<S>(ws: &mut S, what: &str, f: impl Fn(&Value) -> bool) -> Value
where
    S: futures_util::Stream<
            Item = Result<tokio_tungstenite::tungstenite::Message, tokio_tungstenite::tungstenite::Error>,
        > + Unpin,
{
    let deadline = tokio::time::Instant::now() + PATIENCE;
    let mut seen = Vec::new();
    loop {
        let msg = tokio::time::timeout_at(deadline, ws.next())
            .await
            .unwrap_or_else(|_| panic!("no message with {what} within {PATIENCE:?}: {seen:?}"))
            .expect("the socket is open")
            .expect("a message");
        let tokio_tungstenite::tungstenite::Message::Text(text) = msg else {
            continue;
        };
        let v: Value = serde_json::from_str(&text).unwrap();
        // Only messages with the game (not presence, say, whose missing
        // `game` would pass for one without a draw offer).
        if v["game"].is_object() && f(&v["game"]) {
            return v;
        }
        seen.push(format!(
            "{} seq {} offer {}",
            v["type"], v["game"]["seq"], v["game"]["draw_offer"]
        ));
    }
}

/// An online game created on `a` and joined on `b`: (id, south, north).
async fn online_on_two(a: &Api, b: &Api) -> (String, String, String) {
    let (id, south, created) = a.create(json!({ "mode": "online" })).await;
    let invite = created["invite"]
        .as_str()
        .unwrap()
        .split("invite=")
        .nth(1)
        .unwrap()
        .to_string();
    let (status, joined) = b
        .post(
            &format!("/api/games/{id}/join"),
            None,
            json!({ "invite": invite }),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{joined}");
    a.wait_for(&id, |g| g["status"] == "playing").await;
    (id, south, joined["token"].as_str().unwrap().to_string())
}

async fn draw(api: &Api, id: &str, token: &str, action: &str) -> (StatusCode, Value) {
    api.post(
        &format!("/api/games/{id}/draw"),
        Some(token),
        json!({ "action": action }),
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: HOYITO_TEST_POSTGRES (scripts/test.sh runs it)"]
async fn a_draw_offer_made_on_one_node_is_seen_and_answered_on_the_other() {
    let url = tokio::task::spawn_blocking(fresh_db).await.unwrap();
    let a = Api::start(open(&url).await).await;
    let b = Api::start(open(&url).await).await;
    let (id, south, north) = online_on_two(&a, &b).await;
    let ws_url = |api: &Api, id: &str| format!("{}/api/games/{id}/ws", api.base.replace("http://", "ws://"));
    let (mut on_b, _) = tokio_tungstenite::connect_async(ws_url(&b, &id)).await.unwrap();
    // Offered on a: node b's watcher and view show it, and north accepts there.
    let (status, v) = draw(&a, &id, &south, "offer").await;
    assert_eq!(
        (status, v["game"]["draw_offer"].as_str()),
        (StatusCode::OK, Some("south")),
        "{v}"
    );
    next_where(&mut on_b, "south's draw offer", |g| g["draw_offer"] == "south").await;
    assert_eq!(b.game(&id).await["draw_offer"], "south");
    // South cannot offer again on b either: the offer waits.
    let (status, v) = draw(&b, &id, &south, "offer").await;
    assert_eq!(
        (status, v["code"].as_str()),
        (StatusCode::CONFLICT, Some("draw_offered")),
        "{v}"
    );
    let (status, v) = draw(&b, &id, &north, "accept").await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(
        (v["accepted"].as_bool(), v["game"]["end"].as_str()),
        (Some(true), Some("draw"))
    );
    let g = a.wait_for(&id, |g| g["end"] == "draw").await;
    assert_eq!(g["draw_offer"], Value::Null);

    // Declined on b: withdrawn on a too; a move on b withdraws an offer made on a.
    let (id, south, north) = online_on_two(&a, &b).await;
    let (mut on_a, _) = tokio_tungstenite::connect_async(ws_url(&a, &id)).await.unwrap();
    let (status, v) = draw(&a, &id, &north, "offer").await;
    assert_eq!(status, StatusCode::OK, "{v}");
    b.wait_for(&id, |g| g["draw_offer"] == "north").await;
    let (status, v) = draw(&b, &id, &south, "decline").await;
    assert_eq!(
        (status, &v["game"]["draw_offer"]),
        (StatusCode::OK, &Value::Null),
        "{v}"
    );
    // (Its first messages show the game before the offer, then with it.)
    next_where(&mut on_a, "north's draw offer", |g| g["draw_offer"] == "north").await;
    next_where(&mut on_a, "the declined offer gone", |g| {
        g["draw_offer"].is_null()
    })
    .await;
    assert_eq!(a.game(&id).await["draw_offer"], Value::Null);
    let (status, v) = draw(&a, &id, &south, "accept").await;
    assert_eq!(
        (status, v["code"].as_str()),
        (StatusCode::CONFLICT, Some("no_draw_offer")),
        "{v}"
    );
    let (status, v) = draw(&a, &id, &south, "offer").await;
    assert_eq!(
        (status, v["game"]["draw_offer"].as_str()),
        (StatusCode::OK, Some("south")),
        "{v}"
    );
    let g = b.wait_for(&id, |g| g["draw_offer"] == "south").await;
    let (status, v) = b.play(&id, &south, &first_legal(&g)).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let g = a
        .wait_for(&id, |g| g["seq"] == 1 && g["draw_offer"].is_null())
        .await;
    assert_eq!(g["status"], "playing");
    let (status, v) = draw(&a, &id, &north, "accept").await;
    assert_eq!(
        (status, v["code"].as_str()),
        (StatusCode::CONFLICT, Some("no_draw_offer")),
        "{v}"
    );
    a.stop().await;
    b.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: HOYITO_TEST_POSTGRES (scripts/test.sh runs it)"]
async fn simultaneous_moves_on_two_nodes_store_one() {
    let url = tokio::task::spawn_blocking(fresh_db).await.unwrap();
    let a = Api::start(open(&url).await).await;
    let b = Api::start(open(&url).await).await;
    for round in 0..10 {
        // A hot-seat game: one token moves on both nodes.
        let (id, token, created) = a.create(json!({ "mode": "hotseat" })).await;
        b.game(&id).await; // node b holds it in memory too
        let _ = created;
        let legal: Vec<String> = a.game(&id).await["legal"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap().to_string())
            .collect();
        let (m1, m2) = (legal[0].clone(), legal[legal.len() - 1].clone());
        let (ra, rb) = tokio::join!(a.play(&id, &token, &m1), b.play(&id, &token, &m2));
        let ok = [&ra, &rb].iter().filter(|r| r.0 == StatusCode::OK).count();
        assert!(ok >= 1, "round {round}: {ra:?} {rb:?}");
        for r in [&ra, &rb] {
            assert!(
                r.0 == StatusCode::OK || r.0 == StatusCode::CONFLICT,
                "round {round}: a refused move is 409, not {}: {}",
                r.0,
                r.1
            );
        }
        // Exactly the acknowledged moves are stored, in order.
        let wanted = ok as u64;
        let g = a.wait_for(&id, |g| g["seq"] == wanted).await;
        let gb = b.wait_for(&id, |g| g["seq"] == wanted).await;
        assert_eq!(g["history"], gb["history"], "round {round}");
        if ok == 1 {
            let winner = if ra.0 == StatusCode::OK { &m1 } else { &m2 };
            assert_eq!(
                g["history"][0]["token"].as_str(),
                Some(winner.as_str()),
                "round {round}"
            );
        }
    }
    a.stop().await;
    b.stop().await;
}

/// A POST's status, `Retry-After` and body.
async fn post_with_retry(
    api: &Api,
    path: &str,
    token: &str,
    body: Value,
) -> (StatusCode, Option<String>, Value) {
    let res = api
        .http
        .post(format!("{}{path}", api.base))
        .bearer_auth(token)
        .json(&body)
        .send()
        .await
        .expect("an answer");
    let retry = res
        .headers()
        .get("retry-after")
        .map(|v| v.to_str().unwrap().to_string());
    (res.status(), retry, res.json().await.expect("a JSON body"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: HOYITO_TEST_POSTGRES (scripts/test.sh runs it)"]
async fn while_the_database_is_unreachable_moves_and_health_answer_503_with_retry_after() {
    let url = tokio::task::spawn_blocking(fresh_db).await.unwrap();
    let target: std::net::SocketAddr = url
        .split_once('@')
        .and_then(|(_, rest)| rest.split_once('/'))
        .map(|(host, _)| host.parse().expect("host:port"))
        .expect("a URL with a host");
    let mut proxy = pg_proxy::Proxy::start(target).await;
    let api = Api::start(open(&proxy.url(&url)).await).await;
    let (id, token, created) = api.create(json!({ "mode": "hotseat" })).await;
    let path = format!("/api/games/{id}/moves");
    let (status, _, v) = post_with_retry(
        &api,
        &path,
        &token,
        json!({ "move": first_legal(&created["game"]) }),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");

    proxy.cut().await;
    let game = api.game(&id).await; // in memory: still served
    let (status, retry, v) =
        post_with_retry(&api, &path, &token, json!({ "move": first_legal(&game) })).await;
    assert_eq!(
        (status, v["code"].as_str()),
        (StatusCode::SERVICE_UNAVAILABLE, Some("storage_unavailable")),
        "{v}"
    );
    assert_eq!(retry.as_deref(), Some("3"));
    assert!(v["error"].as_str().unwrap().contains("try again"), "{v}");
    assert_eq!(api.game(&id).await["seq"], 1, "the refused move was not played");
    let res = api
        .http
        .get(format!("{}/api/health", api.base))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(
        res.headers().get("retry-after").map(|v| v.to_str().unwrap()),
        Some("3")
    );
    let v: Value = res.json().await.unwrap();
    assert_eq!(v["code"], "storage_unavailable", "{v}");

    // Back: the node reconnects by itself, and the move is stored.
    proxy.open().await;
    eventually("the node to reach the database again", || async {
        (api.get("/api/health").await.0 == StatusCode::OK).then_some(())
    })
    .await;
    let (status, _, v) = post_with_retry(&api, &path, &token, json!({ "move": first_legal(&game) })).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(api.game(&id).await["seq"], 2);
    api.stop().await;
}

async fn takeback(api: &Api, id: &str, token: &str, action: &str) -> (StatusCode, Value) {
    api.post(
        &format!("/api/games/{id}/takeback"),
        Some(token),
        json!({ "action": action }),
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: HOYITO_TEST_POSTGRES (scripts/test.sh runs it)"]
async fn a_takeback_asked_on_one_node_is_seen_and_accepted_on_the_other() {
    let url = tokio::task::spawn_blocking(fresh_db).await.unwrap();
    let a = Api::start(open(&url).await).await;
    let b = Api::start(open(&url).await).await;
    let (id, south, north) = online_on_two(&a, &b).await;
    let start = a.game(&id).await;
    let mut g = start.clone();
    while g["seq"] == 0 || g["state"]["to_move"] == "south" {
        let (status, v) = a.play(&id, &south, &first_legal(&g)).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        g = v["game"].clone();
    }
    let seq = g["seq"].clone();
    b.wait_for(&id, |g| g["seq"] == seq).await;
    let (status, v) = takeback(&a, &id, &south, "offer").await;
    assert_eq!(
        (status, v["game"]["takeback_offer"].as_str()),
        (StatusCode::OK, Some("south")),
        "{v}"
    );
    b.wait_for(&id, |g| g["takeback_offer"] == "south").await;
    let (status, v) = takeback(&b, &id, &north, "accept").await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(
        (&v["game"]["seq"], &v["game"]["state"]),
        (&json!(0), &start["state"])
    );
    let g = a.wait_for(&id, |g| g["epoch"] == 1).await;
    assert_eq!(
        (&g["seq"], &g["state"], &g["takeback_offer"]),
        (&json!(0), &start["state"], &Value::Null)
    );
}

/// The session cookie of an answer (`name=value`), if it sets one.
fn session_of(res: &reqwest::Response) -> Option<String> {
    let set = res.headers().get("set-cookie")?.to_str().ok()?;
    set.split(';').next().map(str::to_string)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: HOYITO_TEST_POSTGRES (scripts/test.sh runs it)"]
async fn a_session_made_on_one_node_is_known_and_ended_on_the_other() {
    let url = tokio::task::spawn_blocking(fresh_db).await.unwrap();
    let a = Api::start(open(&url).await).await;
    let b = Api::start(open(&url).await).await;
    let credentials = json!({ "username": "Ana", "password": "tambor-lluvia-semilla-42" });
    // Signed up on a.
    let res = a
        .http
        .post(format!("{}/api/account", a.base))
        .json(&credentials)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::CREATED);
    let first = session_of(&res).expect("a session cookie");
    // Signed in on b too.
    let res = b
        .http
        .post(format!("{}/api/session", b.base))
        .json(&credentials)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    let second = session_of(&res).expect("a session cookie");
    let who = |api: &Api, cookie: String| {
        let req = api
            .http
            .get(format!("{}/api/account", api.base))
            .header("cookie", cookie);
        async move { req.send().await.unwrap().json::<Value>().await.unwrap()["account"]["username"].clone() }
    };
    // Each node knows the other's session.
    assert_eq!(who(&b, first.clone()).await, "Ana");
    assert_eq!(who(&a, second.clone()).await, "Ana");
    // A game made on b with a's session is the account's on a, and its seat
    // is handed over on a.
    let res = b
        .http
        .post(format!("{}/api/games", b.base))
        .header("cookie", &first)
        .json(&json!({ "mode": "online" }))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::CREATED);
    let id = res.json::<Value>().await.unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    let listed: Value = a
        .http
        .get(format!("{}/api/account/games", a.base))
        .header("cookie", &second)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(listed["games"][0]["id"], id.as_str(), "{listed}");
    let res = a
        .http
        .post(format!("{}/api/games/{id}/seat", a.base))
        .header("cookie", &second)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    let token = res.json::<Value>().await.unwrap()["token"]
        .as_str()
        .unwrap()
        .to_string();
    // Node b takes the new token (the change was announced).
    let resign = format!("/api/games/{id}/abort");
    let (status, v) = eventually("node b takes the seat's new token", || async {
        let (status, v) = b.post(&resign, Some(&token), json!({})).await;
        (status != StatusCode::FORBIDDEN).then_some((status, v))
    })
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    // Signing out everywhere on a ends b's session at once.
    let res = a
        .http
        .delete(format!("{}/api/sessions", a.base))
        .header("cookie", &second)
        .send()
        .await
        .unwrap();
    assert_eq!(res.json::<Value>().await.unwrap()["ended"], 2);
    assert_eq!(who(&b, first).await, Value::Null);
    a.stop().await;
    b.stop().await;
}

/// A passkey ceremony started on one node is finished on the other (its
/// state is in the database): a sign-up through both, then a sign-in the
/// other way round, behind a proxy that passes the site's Host on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: HOYITO_TEST_POSTGRES (scripts/test.sh runs it)"]
async fn a_passkey_ceremony_started_on_one_node_finishes_on_the_other() {
    use crate::common::passkey::{Page, SoftKey};
    let url = tokio::task::spawn_blocking(fresh_db).await.unwrap();
    let a = Api::start(open(&url).await).await;
    let b = Api::start(open(&url).await).await;
    let mut page = Page::at(&a.base, "hoyito.localhost");
    let mut key = SoftKey::new();
    let (status, start) = page
        .call(
            "POST",
            "/api/passkeys/register/start",
            Some(json!({ "username": "Pia" })),
        )
        .await;
    assert_eq!(status, 200, "{start}");
    let credential = key.register(&start["options"], &page.origin);
    page.base = b.base.clone();
    let (status, up) = page
        .call(
            "POST",
            "/api/passkeys/register/finish",
            Some(json!({ "ceremony": start["ceremony"], "credential": credential })),
        )
        .await;
    assert_eq!(status, 201, "{up}");
    assert_eq!(up["account"]["passkeys"], 1);
    page.call("DELETE", "/api/session", None).await;
    let (status, start) = page
        .call("POST", "/api/session/passkey/start", Some(json!({})))
        .await;
    assert_eq!(status, 200, "{start}");
    let answer = key.sign_in(&start["options"], &page.origin);
    page.base = a.base.clone();
    let (status, body) = page
        .call(
            "POST",
            "/api/session/passkey/finish",
            Some(json!({ "ceremony": start["ceremony"], "credential": answer.clone() })),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["account"]["username"], "Pia");
    // Used once, on whichever node.
    page.base = b.base.clone();
    let (status, body) = page
        .call(
            "POST",
            "/api/session/passkey/finish",
            Some(json!({ "ceremony": start["ceremony"], "credential": answer })),
        )
        .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (StatusCode::BAD_REQUEST, Some("challenge_expired"))
    );
    let (_, me) = page.call("GET", "/api/account", None).await;
    assert_eq!(
        me["account"]["username"], "Pia",
        "the session is known to both nodes"
    );
    a.stop().await;
    b.stop().await;
}
