//! Takeback requests in online games against a real server on loopback:
//! asked and accepted (the position, the step count and the side to move go
//! back, the watchers are told), declined, withdrawn by a move of either
//! side, kept across a restart, and refused (engine and hot-seat games, a
//! spectator, no request to answer, asked twice, nothing to take back, the
//! game over) without anything stored; in a timed game the clocks of the
//! kept steps.

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use hoyito_server::Store;
use reqwest::StatusCode;
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;

use crate::common::{error_code, first_legal, Api};

type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// An online game with both seats taken: (id, south's token, north's token).
async fn online(api: &Api) -> (String, String, String) {
    let body = json!({ "mode": "online", "rules": { "variant": "II" }, "name": "Ana" });
    let (id, south, created) = api.create(body).await;
    let north = api.join_invited(&created, "Jean").await;
    (id, south, north)
}

async fn takeback(api: &Api, id: &str, token: Option<&str>, action: &str) -> (StatusCode, Value) {
    api.post(
        &format!("/api/games/{id}/takeback"),
        token,
        json!({ "action": action }),
    )
    .await
}

/// Plays the first legal move for whoever is to move until `side` is to
/// move after at least one move; returns the game then.
async fn play_until(api: &Api, id: &str, tokens: &(String, String), side: &str) -> Value {
    let mut moved = false;
    loop {
        let g = api.game(id).await;
        if moved && g["state"]["to_move"] == side {
            return g;
        }
        let t = if g["state"]["to_move"] == "south" {
            &tokens.0
        } else {
            &tokens.1
        };
        let (status, v) = api.play(id, t, &first_legal(&g)).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        moved = true;
    }
}

/// What a refused request must leave as it was: the step count, the undo
/// count, the position and the request waiting.
fn unchanged(g: &Value) -> Value {
    json!([g["seq"], g["epoch"], g["state"], g["takeback_offer"]])
}

/// Opens the game's WebSocket and reads its first `state` message.
async fn watch(api: &Api, id: &str) -> Socket {
    let url = format!("{}/api/games/{id}/ws", api.base.replace("http://", "ws://"));
    let (mut ws, _) = tokio_tungstenite::connect_async(url).await.expect("ws connect");
    assert_eq!(next(&mut ws).await["type"], "state");
    ws
}

/// The socket's next JSON message, skipping `presence` messages.
async fn next(ws: &mut Socket) -> Value {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(10), ws.next())
            .await
            .expect("a message in time")
            .expect("an open socket")
            .expect("a message");
        match msg {
            Message::Text(t) => {
                let v: Value = serde_json::from_str(&t).unwrap();
                if v["type"] != "presence" {
                    return v;
                }
            }
            Message::Ping(p) => ws.send(Message::Pong(p)).await.unwrap(),
            other => panic!("unexpected {other:?}"),
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_accepted_takeback_goes_back_to_before_the_askers_last_move() {
    let api = Api::start(Store::in_memory().unwrap()).await;
    let (id, south, north) = online(&api).await;
    let tokens = (south.clone(), north.clone());
    let start = api.game(&id).await;
    assert_eq!(start["takeback_offer"], Value::Null);
    // South moves, then North: South's takeback on their own move takes
    // North's reply back too.
    let after_south = play_until(&api, &id, &tokens, "north").await;
    let g = play_until(&api, &id, &tokens, "south").await;
    assert!(g["seq"].as_u64() > after_south["seq"].as_u64());
    let mut spectator = watch(&api, &id).await;

    let (status, v) = takeback(&api, &id, Some(&south), "offer").await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(
        (v["accepted"].as_bool(), v["game"]["takeback_offer"].as_str()),
        (Some(false), Some("south"))
    );
    let m = next(&mut spectator).await;
    assert_eq!(
        (m["type"].as_str(), m["game"]["takeback_offer"].as_str()),
        (Some("state"), Some("south"))
    );
    assert_eq!(api.game(&id).await["takeback_offer"], "south");

    let (status, v) = takeback(&api, &id, Some(&north), "accept").await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let back = &v["game"];
    assert_eq!(v["accepted"], true);
    assert_eq!(
        (
            back["seq"].as_u64(),
            back["epoch"].as_u64(),
            &back["takeback_offer"]
        ),
        (Some(0), Some(1), &Value::Null),
        "{back}"
    );
    assert_eq!(back["state"], start["state"], "the start position, South to move");
    assert_eq!(back["state"]["to_move"], "south");
    assert_eq!(back["history"].as_array().unwrap().len(), 0);
    let m = next(&mut spectator).await;
    assert_eq!(
        (m["type"].as_str(), m["game"]["seq"].as_u64()),
        (Some("state"), Some(0))
    );
    assert_eq!(api.game(&id).await["state"], start["state"]);

    // North's takeback, asked on South's move, takes back only North's moves.
    let after_south = play_until(&api, &id, &tokens, "north").await;
    play_until(&api, &id, &tokens, "south").await;
    let (status, v) = takeback(&api, &id, Some(&north), "offer").await;
    assert_eq!(
        (status, v["game"]["takeback_offer"].as_str()),
        (StatusCode::OK, Some("north")),
        "{v}"
    );
    // Asking while the other's request waits is refused.
    let (status, v) = takeback(&api, &id, Some(&south), "offer").await;
    assert_eq!(
        (status, error_code(&v)),
        (StatusCode::CONFLICT, "takeback_offered")
    );
    let (status, v) = takeback(&api, &id, Some(&south), "accept").await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(
        (
            &v["game"]["seq"],
            &v["game"]["state"],
            v["game"]["epoch"].as_u64()
        ),
        (&after_south["seq"], &after_south["state"], Some(2))
    );
    api.stop().await;
}

/// Game `id`'s stored takeback columns and offer changes.
fn stored(db: &std::path::Path, id: &str) -> (Option<String>, Option<i64>, i64) {
    let conn = rusqlite::Connection::open(db).unwrap();
    conn.query_row(
        "SELECT takeback_offer, takeback_offer_seq, draw_rev FROM games WHERE id = ?1",
        [id],
        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
    )
    .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_declined_takeback_is_cleared_and_a_move_withdraws_one() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.db");
    let api = Api::start(Store::open(&db).unwrap()).await;
    let (id, south, north) = online(&api).await;
    let tokens = (south.clone(), north.clone());
    let g = play_until(&api, &id, &tokens, "north").await;
    let seq = g["seq"].as_i64().unwrap();

    // Asked, declined: cleared and stored so.
    let (status, v) = takeback(&api, &id, Some(&south), "offer").await;
    assert_eq!(
        (status, v["game"]["takeback_offer"].as_str()),
        (StatusCode::OK, Some("south")),
        "{v}"
    );
    assert_eq!(stored(&db, &id), (Some("south".into()), Some(seq), 1));
    let (status, v) = takeback(&api, &id, Some(&north), "decline").await;
    assert_eq!(
        (status, v["accepted"].as_bool(), &v["game"]["takeback_offer"]),
        (StatusCode::OK, Some(false), &Value::Null),
        "{v}"
    );
    assert_eq!(v["game"]["seq"].as_i64(), Some(seq), "nothing taken back");
    assert_eq!(stored(&db, &id), (None, None, 2));
    let (status, v) = takeback(&api, &id, Some(&north), "accept").await;
    assert_eq!(
        (status, error_code(&v)),
        (StatusCode::CONFLICT, "no_takeback_offer")
    );

    // Asked again at once, it waits for the cool-down (429, Retry-After)...
    let (status, v) = takeback(&api, &id, Some(&south), "offer").await;
    assert_eq!(
        (status, error_code(&v)),
        (StatusCode::TOO_MANY_REQUESTS, "offer_cooldown"),
        "{v}"
    );
    assert_eq!(stored(&db, &id), (None, None, 2), "nothing stored");
    // ...which this node keeps: after a restart it may be asked again, and
    // it survives another restart.
    api.stop().await;
    let api = Api::start(Store::open(&db).unwrap()).await;
    let (status, _) = takeback(&api, &id, Some(&south), "offer").await;
    assert_eq!(status, StatusCode::OK);
    api.stop().await;
    let api = Api::start(Store::open(&db).unwrap()).await;
    let g = api.game(&id).await;
    assert_eq!(g["takeback_offer"], "south", "{g}");

    // A move by the other player withdraws it, also as stored.
    let (status, v) = api.play(&id, &north, &first_legal(&g)).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["game"]["takeback_offer"], Value::Null, "{v}");
    let (status, v) = takeback(&api, &id, Some(&north), "accept").await;
    assert_eq!(
        (status, error_code(&v)),
        (StatusCode::CONFLICT, "no_takeback_offer")
    );
    let g = play_until(&api, &id, &tokens, "south").await;

    // A move by the asker withdraws it too.
    let (status, v) = takeback(&api, &id, Some(&south), "offer").await;
    assert_eq!(
        (status, v["game"]["takeback_offer"].as_str()),
        (StatusCode::OK, Some("south")),
        "{v}"
    );
    let (status, v) = api.play(&id, &south, &first_legal(&g)).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["game"]["takeback_offer"], Value::Null, "{v}");
    api.stop().await;
    let api = Api::start(Store::open(&db).unwrap()).await;
    assert_eq!(api.game(&id).await["takeback_offer"], Value::Null);
    let (status, v) = takeback(&api, &id, Some(&north), "decline").await;
    assert_eq!(
        (status, error_code(&v)),
        (StatusCode::CONFLICT, "no_takeback_offer")
    );

    // An accepted takeback clears the stored request with the steps.
    let (status, _) = takeback(&api, &id, Some(&south), "offer").await;
    assert_eq!(status, StatusCode::OK);
    let (status, v) = takeback(&api, &id, Some(&north), "accept").await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let (offer, offer_seq, _) = stored(&db, &id);
    assert_eq!((offer, offer_seq), (None, None));
    api.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_takeback_requests_are_refused_and_change_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.db");
    // Refusals, not rates: this test makes many requests at once.
    let limits = hoyito_server::ServerLimits {
        offer_rate: hoyito_server::Rate::OFF,
        ..hoyito_server::ServerLimits::default()
    };
    let api = Api::start_with(Store::open(&db).unwrap(), limits).await;

    // Engine and hot-seat games have undo instead.
    let (eid, etoken, _) = api.create(json!({ "mode": "engine", "level": 1 })).await;
    let g = api.game(&eid).await;
    let (status, v) = api.play(&eid, &etoken, &first_legal(&g)).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let g = api
        .wait_for(&eid, |g| {
            g["thinking"] == false && g["state"]["to_move"] == "south"
        })
        .await;
    let (hid, htoken, _) = api.create(json!({ "mode": "hotseat" })).await;
    let h = api.game(&hid).await;
    let (status, v) = api.play(&hid, &htoken, &first_legal(&h)).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    for (gid, token) in [(&eid, &etoken), (&hid, &htoken)] {
        let before = unchanged(&api.game(gid).await);
        for action in ["offer", "accept", "decline"] {
            let (status, v) = takeback(&api, gid, Some(token), action).await;
            assert_eq!(
                (status, error_code(&v)),
                (StatusCode::CONFLICT, "takeback_unavailable"),
                "{action}: {v}"
            );
            assert!(v["error"].as_str().unwrap().contains("online games"), "{v}");
        }
        assert_eq!(unchanged(&api.game(gid).await), before);
        assert_eq!(stored(&db, gid), (None, None, 0));
    }
    drop(g);

    let (id, south, north) = online(&api).await;
    // Nothing to take back yet.
    let (status, v) = takeback(&api, &id, Some(&south), "offer").await;
    assert_eq!(
        (status, error_code(&v)),
        (StatusCode::CONFLICT, "nothing_to_undo"),
        "{v}"
    );
    let tokens = (south.clone(), north.clone());
    play_until(&api, &id, &tokens, "north").await;
    let (status, v) = takeback(&api, &id, Some(&north), "offer").await;
    assert_eq!(
        (status, error_code(&v)),
        (StatusCode::CONFLICT, "nothing_to_undo"),
        "{v}"
    );
    let before = unchanged(&api.game(&id).await);
    for (token, body, status, code) in [
        (
            None,
            json!({ "action": "offer" }),
            StatusCode::FORBIDDEN,
            "forbidden",
        ),
        (
            Some("0123456789abcdef0123456789abcdef"),
            json!({ "action": "offer" }),
            StatusCode::FORBIDDEN,
            "forbidden",
        ),
        (
            Some(north.as_str()),
            json!({ "action": "accept" }),
            StatusCode::CONFLICT,
            "no_takeback_offer",
        ),
        (
            Some(north.as_str()),
            json!({ "action": "decline" }),
            StatusCode::CONFLICT,
            "no_takeback_offer",
        ),
        (
            Some(south.as_str()),
            json!({ "action": "maybe" }),
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid_fields",
        ),
        (
            Some(south.as_str()),
            json!({ "action": "offer", "seq": 1 }),
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid_fields",
        ),
    ] {
        let (got, v) = api
            .post(&format!("/api/games/{id}/takeback"), token, body.clone())
            .await;
        assert_eq!((got, error_code(&v)), (status, code), "{body}: {v}");
    }
    assert_eq!(unchanged(&api.game(&id).await), before);
    assert_eq!(stored(&db, &id), (None, None, 0), "nothing stored");

    // Asked once: asking twice, answering one's own request, and a
    // spectator answering are refused.
    let (status, _) = takeback(&api, &id, Some(&south), "offer").await;
    assert_eq!(status, StatusCode::OK);
    let before = unchanged(&api.game(&id).await);
    let rev = stored(&db, &id);
    for (token, action, status, code) in [
        (
            Some(south.as_str()),
            "offer",
            StatusCode::CONFLICT,
            "takeback_offered",
        ),
        (
            Some(south.as_str()),
            "accept",
            StatusCode::CONFLICT,
            "no_takeback_offer",
        ),
        (
            Some(south.as_str()),
            "decline",
            StatusCode::CONFLICT,
            "no_takeback_offer",
        ),
        (None, "accept", StatusCode::FORBIDDEN, "forbidden"),
    ] {
        let (got, v) = takeback(&api, &id, token, action).await;
        assert_eq!((got, error_code(&v)), (status, code), "{action}: {v}");
    }
    assert_eq!(unchanged(&api.game(&id).await), before);
    assert_eq!(stored(&db, &id), rev, "nothing stored");

    // Once the game is over, there is nothing to ask or answer.
    let (status, v) = api
        .post(&format!("/api/games/{id}/resign"), Some(&north), json!({}))
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["takeback_offer"], Value::Null, "a stored step withdraws it");
    for (token, action) in [(&south, "offer"), (&north, "accept")] {
        let (got, v) = takeback(&api, &id, Some(token), action).await;
        assert_eq!(
            (got, error_code(&v)),
            (StatusCode::CONFLICT, "game_over"),
            "{action}: {v}"
        );
    }

    // A game waiting for its second player has nobody to ask.
    let (wid, wtoken, _) = api.create(json!({ "mode": "online" })).await;
    let g = api.game(&wid).await;
    let (status, v) = api.play(&wid, &wtoken, &first_legal(&g)).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let (got, v) = takeback(&api, &wid, Some(&wtoken), "offer").await;
    assert_eq!(
        (got, error_code(&v)),
        (StatusCode::CONFLICT, "waiting_for_opponent"),
        "{v}"
    );
    assert_eq!(stored(&db, &wid), (None, None, 0));
    api.stop().await;
}

/// In a timed game an accepted takeback keeps the clocks of the kept steps:
/// the side not to move has the time it had at the step the game goes back
/// to, and the side to move's clock runs from that step (not from the
/// takeback), as the stored step times say; a restart shows the same clock.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_takeback_in_a_timed_game_keeps_the_clocks_of_the_kept_steps() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.db");
    let api = Api::start(Store::open(&db).unwrap()).await;
    let body = json!({
        "mode": "online", "rules": { "variant": "II" }, "name": "Ana",
        "clock": { "initial": 180, "increment": 2 },
    });
    let (id, south, created) = api.create(body).await;
    let north = api.join_invited(&created, "Jean").await;
    // Each view as it stood at each step count, then two moves of each side.
    let mut views = vec![api.game(&id).await];
    let mut turns = 0;
    let mut last = "south".to_string();
    while turns < 4 {
        let g = views.last().unwrap().clone();
        let side = g["state"]["to_move"].as_str().unwrap().to_string();
        let token = if side == "south" { &south } else { &north };
        let (status, v) = api.play(&id, token, &first_legal(&g)).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let now = v["game"].clone();
        assert_eq!(now["seq"].as_u64(), Some(views.len() as u64));
        if now["state"]["to_move"] != side.as_str() {
            turns += 1;
        }
        last = side;
        views.push(now);
    }
    assert_eq!(last, "north", "the last move was North's");
    assert_eq!(views.last().unwrap()["clock"]["running"], "south");
    // The moves were played 30 s earlier than they were, as the store
    // tells a restarted server: the clocks ran from then.
    api.stop().await;
    const AGO: i64 = 30_000;
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.execute(
        "UPDATE moves SET at_ms = at_ms - ?2 WHERE game_id = ?1",
        rusqlite::params![id, AGO],
    )
    .unwrap();
    drop(conn);
    let api = Api::start(Store::open(&db).unwrap()).await;

    let (status, v) = takeback(&api, &id, Some(&south), "offer").await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let (status, v) = takeback(&api, &id, Some(&north), "accept").await;
    assert_eq!(
        (status, v["accepted"].as_bool()),
        (StatusCode::OK, Some(true)),
        "{v}"
    );
    let back = v["game"].clone();
    let kept = back["seq"].as_u64().unwrap() as usize;
    assert!(
        kept + 2 < views.len(),
        "South's move and North's reply taken back: {back}"
    );
    let then = &views[kept];
    assert_eq!(back["state"], then["state"]);
    assert_eq!(back["state"]["to_move"], "south");
    let clock = |g: &Value| {
        let c = &g["clock"];
        (
            c["running"].clone(),
            c["deadline_ms"].as_i64(),
            c["remaining_ms"][1].clone(),
        )
    };
    let aged = |g: &Value| {
        let (running, deadline, north) = clock(g);
        (running, deadline.map(|d| d - AGO), north)
    };
    assert_eq!(back["clock"]["running"], "south", "{back}");
    assert_eq!(
        clock(&back),
        aged(then),
        "South's clock runs from the kept step, North has the time it had then"
    );
    api.stop().await;

    let api = Api::start(Store::open(&db).unwrap()).await;
    let g = api.game(&id).await;
    assert_eq!(
        (g["seq"].as_u64(), clock(&g)),
        (Some(kept as u64), aged(then)),
        "the same clock after a restart"
    );
    api.stop().await;
}
