//! ServerLimits per client IP against a real server on loopback: connections,
//! WebSockets, and the rates of creations, moves, hints and chat (429 with a JSON
//! error and `Retry-After`, nothing changed).

use crate::common;
use crate::common::{error_code, eventually, first_legal, Api};
use hoyito_server::{Rate, ServerLimits, Store};
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Reads a response's head (up to the blank line) from `conn`.
async fn read_head(conn: &mut TcpStream) -> String {
    let mut got = Vec::new();
    let mut byte = [0u8; 1];
    while !got.ends_with(b"\r\n\r\n") {
        let n = tokio::time::timeout(common::PATIENCE, conn.read(&mut byte))
            .await
            .expect("an answer")
            .unwrap();
        assert_eq!(n, 1, "closed after {:?}", String::from_utf8_lossy(&got));
        got.push(byte[0]);
    }
    String::from_utf8_lossy(&got).into_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_over_the_per_ip_cap_are_refused_with_a_json_429() {
    let limits = ServerLimits {
        max_connections_per_ip: 3,
        ..ServerLimits::default()
    };
    let api = Api::start_with(Store::in_memory().unwrap(), limits).await;
    let addr = api.base.trim_start_matches("http://").to_string();
    let mut held = Vec::new();
    for _ in 0..3 {
        let mut conn = TcpStream::connect(&addr).await.unwrap();
        // An answered request: the server took this connection in (and
        // keeps it open, idle).
        conn.write_all(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")
            .await
            .unwrap();
        let head = read_head(&mut conn).await;
        assert!(head.starts_with("HTTP/1.1 200"), "{head}");
        held.push(conn);
    }
    let mut extra = TcpStream::connect(&addr).await.unwrap();
    let _ = extra
        .write_all(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")
        .await;
    let mut got = Vec::new();
    tokio::time::timeout(common::PATIENCE, extra.read_to_end(&mut got))
        .await
        .expect("the extra connection is answered and closed")
        .unwrap();
    let text = String::from_utf8_lossy(&got);
    assert!(text.starts_with("HTTP/1.1 429"), "{text}");
    assert!(text.to_ascii_lowercase().contains("retry-after: 5"), "{text}");
    let body: serde_json::Value = serde_json::from_str(text.split("\r\n\r\n").nth(1).unwrap()).unwrap();
    assert_eq!(error_code(&body), "too_many_connections");
    // A freed slot takes a new connection again, once the server has seen
    // the close.
    held.pop();
    // (Until then a new connection is refused, and may be reset unread.)
    eventually("a new connection served after one closed", || async {
        let url = format!("{}/api/health", api.base);
        let res = api.http.get(url).send().await.ok()?;
        match res.status().as_u16() {
            200 => Some(()),
            429 => None,
            other => panic!("{other}: {:?}", res.text().await),
        }
    })
    .await;
    drop(held);
    api.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn creations_moves_and_hints_over_their_rates_get_429_and_change_nothing() {
    let limits = ServerLimits {
        create_rate: Rate::per_minute(6, 3),
        move_rate: Rate::per_minute(6, 2),
        hint_rate: Rate::per_minute(6, 1),
        ..ServerLimits::default()
    };
    let api = Api::start_with(Store::in_memory().unwrap(), limits).await;
    let mut created = Vec::new();
    for _ in 0..3 {
        created.push(api.create(json!({"mode": "hotseat"})).await);
    }
    let res = api
        .http
        .post(format!("{}/api/games", api.base))
        .json(&json!({"mode": "hotseat"}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 429);
    let retry: u64 = res.headers()["retry-after"].to_str().unwrap().parse().unwrap();
    assert!((1..=10).contains(&retry), "{retry}");
    let body: serde_json::Value = res.json().await.unwrap();
    assert_eq!(error_code(&body), "rate_limited");
    let (_, health) = api.get("/api/health").await;
    assert_eq!(health["games"], 3, "{health}");

    // Moves: two pass, the third is refused and not played.
    let (id, token, _) = &created[0];
    for _ in 0..2 {
        let g = api.game(id).await;
        let (status, v) = api.play(id, token, &first_legal(&g)).await;
        assert_eq!(status, 200, "{v}");
    }
    let g = api.game(id).await;
    let (status, v) = api.play(id, token, &first_legal(&g)).await;
    assert_eq!((status.as_u16(), error_code(&v)), (429, "rate_limited"), "{v}");
    assert_eq!(api.game(id).await["seq"], 2);

    // Hints: one, then 429.
    let (id, token, _) = &created[1];
    let (status, v) = api
        .post(&format!("/api/games/{id}/hint"), Some(token), json!({}))
        .await;
    assert_eq!(status, 200, "{v}");
    let (status, v) = api
        .post(&format!("/api/games/{id}/hint"), Some(token), json!({}))
        .await;
    assert_eq!((status.as_u16(), error_code(&v)), (429, "rate_limited"), "{v}");
    api.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chat_from_one_address_is_limited_across_games() {
    // The per-player flood limit is 5 in 10 s; the address's limit is lower
    // here, so it is the one that answers, across two games.
    let limits = ServerLimits {
        chat_rate: Rate::per_minute(6, 3),
        ..ServerLimits::default()
    };
    let api = Api::start_with(Store::in_memory().unwrap(), limits).await;
    let mut sent = 0;
    let mut games = Vec::new();
    for _ in 0..2 {
        let (id, south, created) = api.create(json!({"mode": "online"})).await;
        let invite = created["invite"]
            .as_str()
            .unwrap()
            .split("invite=")
            .nth(1)
            .unwrap()
            .to_string();
        let (status, v) = api
            .post(
                &format!("/api/games/{id}/join"),
                None,
                json!({ "invite": invite }),
            )
            .await;
        assert_eq!(status, 200, "{v}");
        games.push((id, south));
    }
    let mut refused = None;
    for (id, south) in games.iter().cycle().take(4) {
        let (status, v) = api
            .post(
                &format!("/api/games/{id}/chat"),
                Some(south),
                json!({ "text": "hola" }),
            )
            .await;
        if status == 201 {
            sent += 1;
        } else {
            refused = Some((status.as_u16(), error_code(&v).to_string()));
            break;
        }
    }
    assert_eq!(sent, 3);
    assert_eq!(refused, Some((429, "rate_limited".to_string())));
    let mut stored = 0;
    for (id, south) in &games {
        let (_, v) = api.get_with(&format!("/api/games/{id}/chat"), Some(south)).await;
        stored += v["messages"].as_array().unwrap().len();
    }
    assert_eq!(stored, 3, "the refused message is not stored");
    api.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn websockets_over_the_per_ip_cap_are_refused() {
    let limits = ServerLimits {
        max_websockets_per_ip: 1,
        ..ServerLimits::default()
    };
    let api = Api::start_with(Store::in_memory().unwrap(), limits).await;
    let (id, _, _) = api.create(json!({"mode": "hotseat"})).await;
    let url = format!("{}/api/games/{id}/ws", api.base.replace("http://", "ws://"));
    let (_first, _) = tokio_tungstenite::connect_async(&url)
        .await
        .expect("the first WebSocket");
    match tokio_tungstenite::connect_async(&url).await {
        Err(tokio_tungstenite::tungstenite::Error::Http(res)) => {
            assert_eq!(res.status(), 429);
            let body: serde_json::Value = serde_json::from_slice(res.body().as_deref().unwrap()).unwrap();
            assert_eq!(error_code(&body), "too_many_websockets");
        }
        other => panic!("a second WebSocket from the same address: {other:?}"),
    }
    api.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_address_holds_a_bounded_share_of_deep_engine_searches() {
    let limits = ServerLimits {
        engine_jobs_per_ip: 2,
        ..ServerLimits::default()
    };
    let api = Api::start_with(Store::in_memory().unwrap(), limits).await;
    let mut deep = Vec::new();
    for _ in 0..3 {
        deep.push(
            api.create(json!({"mode": "engine", "level": 10, "side": "south"}))
                .await,
        );
    }
    // Two level-10 replies are searched for this address...
    for (id, token, v) in &deep[..2] {
        let (status, v) = api.play(id, token, &first_legal(&v["game"])).await;
        assert_eq!(status, 200, "{v}");
    }
    // ...a third move that would need one is refused, and not played.
    let (id, token, v) = &deep[2];
    let (status, body) = api.play(id, token, &first_legal(&v["game"])).await;
    assert_eq!(
        (status.as_u16(), error_code(&body)),
        (429, "too_many_engine_jobs"),
        "{body}"
    );
    assert_eq!(api.game(id).await["seq"], 0);
    // A level-1 game still gets its reply at once.
    let (quick, qtoken, qv) = api
        .create(json!({"mode": "engine", "level": 1, "side": "south"}))
        .await;
    let (status, v) = api.play(&quick, &qtoken, &first_legal(&qv["game"])).await;
    assert_eq!(status, 200, "{v}");
    api.wait_for(&quick, |g| g["seq"].as_u64() >= Some(2)).await;
    // It did not wait behind them: they are still searching.
    for (id, _, _) in &deep[..2] {
        let g = api.game(id).await;
        assert_eq!(
            (g["seq"].as_u64(), g["thinking"].as_bool()),
            (Some(1), Some(true)),
            "a level-10 reply came before the level-1 one: {g}"
        );
    }
    // Once the engine answered, the address may ask again.
    for (id, _, _) in &deep[..2] {
        api.wait_for(id, |g| g["seq"].as_u64() >= Some(2) && g["thinking"] == false)
            .await;
    }
    let (status, v) = api.play(id, token, &first_legal(&v["game"])).await;
    assert_eq!(status, 200, "{v}");
    api.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn offers_joins_and_open_seats_are_limited_per_address() {
    let limits = ServerLimits {
        offer_rate: Rate::per_minute(6, 4),
        join_rate: Rate::per_minute(6, 3),
        open_seats_per_ip: 2,
        ..ServerLimits::default()
    };
    let api = Api::start_with(Store::in_memory().unwrap(), limits).await;
    // Public games, waiting in the lobby.
    let mut open = Vec::new();
    for _ in 0..4 {
        let (id, token, _) = api
            .create(json!({ "mode": "online", "public": true, "name": "Ana" }))
            .await;
        open.push((id, token));
    }
    // One address takes two seats from the lobby, then no more.
    let join = |id: String| {
        let api = &api;
        async move {
            api.post(&format!("/api/games/{id}/join"), None, json!({ "name": "Bo" }))
                .await
        }
    };
    let mut seats = Vec::new();
    for (id, _) in &open[..2] {
        let (status, v) = join(id.clone()).await;
        assert_eq!(status, 200, "{v}");
        seats.push(v["token"].as_str().unwrap().to_string());
    }
    let (status, v) = join(open[2].0.clone()).await;
    assert_eq!((status.as_u16(), error_code(&v)), (429, "too_many_seats"), "{v}");
    let (_, g) = api.get(&format!("/api/games/{}", open[2].0)).await;
    assert_eq!(g["status"], "waiting", "the seat stays free: {g}");
    // Joins count in their own rate: the fourth in a burst of three is refused.
    let (status, v) = join(open[3].0.clone()).await;
    assert_eq!((status.as_u16(), error_code(&v)), (429, "rate_limited"), "{v}");

    // Takeback offer-and-decline cycles: the same request waits after a
    // decline, and offers and answers count in the offers' rate.
    let (id, south) = &open[0];
    let north = &seats[0];
    let g = api.game(id).await;
    let (status, v) = api.play(id, south, &first_legal(&g)).await;
    assert_eq!(status, 200, "{v}");
    let takeback = |token: String, action: &'static str| {
        let api = &api;
        let id = id.clone();
        async move {
            api.post(
                &format!("/api/games/{id}/takeback"),
                Some(&token),
                json!({ "action": action }),
            )
            .await
        }
    };
    let (status, v) = takeback(south.clone(), "offer").await;
    assert_eq!(status, 200, "{v}");
    let (status, v) = takeback(north.clone(), "decline").await;
    assert_eq!(status, 200, "{v}");
    let (status, v) = takeback(south.clone(), "offer").await;
    assert_eq!((status.as_u16(), error_code(&v)), (429, "offer_cooldown"), "{v}");
    assert_eq!(api.game(id).await["takeback_offer"], serde_json::Value::Null);
    // Four requests in the burst are spent: the fifth is over the rate.
    let (status, v) = takeback(north.clone(), "accept").await;
    assert_eq!(
        (status.as_u16(), error_code(&v)),
        (409, "no_takeback_offer"),
        "{v}"
    );
    let (status, v) = takeback(south.clone(), "offer").await;
    assert_eq!((status.as_u16(), error_code(&v)), (429, "rate_limited"), "{v}");
    assert_eq!(api.game(id).await["seq"], 1, "nothing changed");
    api.stop().await;
}
