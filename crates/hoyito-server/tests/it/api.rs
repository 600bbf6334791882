//! API tests against a real server on loopback (127.0.0.1, a free port).

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use hoyito_core::{Game, Record, Rules, RulesSpec, Variant};
use hoyito_server::Store;
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::common::{error_code, eventually, first_legal, metric, Api};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn create_fetch_list_and_play_with_trace() {
    let api = Api::start(Store::in_memory().unwrap()).await;
    let (id, token, created) = api
        .create(json!({ "mode": "hotseat", "rules": { "variant": "II", "holes": 6 } }))
        .await;
    assert_eq!(created["seat"], "both");
    assert_eq!(created["game"]["state"]["board"], json!(vec![4; 12]));
    assert_eq!(created["game"]["legal"], json!(["1", "2", "3", "4", "5", "6"]));

    let (status, r) = api.play(&id, &token, "3").await;
    assert_eq!(status, StatusCode::OK, "{r}");
    // The trace replayed on the board before gives the board after.
    let mut board: Vec<i64> = r["move"]["board_before"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_i64().unwrap())
        .collect();
    for e in r["move"]["trace"]["events"].as_array().unwrap() {
        let h = e[1].as_u64().unwrap() as usize;
        match e[0].as_str().unwrap() {
            "l" => board[h] = 0,
            "s" => board[h] += 1,
            "c" => board[h] -= e[2].as_i64().unwrap(),
            other => panic!("unknown event {other}"),
        }
    }
    let mut expected = Game::new(Rules::standard(Variant::II));
    expected.play_token("3").unwrap();
    let after: Vec<i64> = expected.position().board().iter().map(|&x| x as i64).collect();
    assert_eq!(board, after);
    assert_eq!(r["game"]["state"]["board"], json!(after));
    assert_eq!(r["move"]["trace"]["laps"], json!(5));

    let g = api.game(&id).await;
    assert_eq!(g["seq"], 1);
    assert_eq!(g["history"][0]["token"], "3");
    assert_eq!(g["state"]["to_move"], "north");

    let (status, list) = api.get(&format!("/api/lobby?ids={id}")).await;
    assert_eq!(status, StatusCode::OK);
    let listed = list["mine"].as_array().unwrap();
    assert!(listed.iter().any(|x| x["id"] == id.as_str() && x["seq"] == 1));
    assert!(!list.to_string().contains(&token), "the list never shows tokens");
    api.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_input_is_refused_with_json_errors_and_nothing_stored() {
    let api = Api::start(Store::in_memory().unwrap()).await;
    let (id, south, created) = api
        .create(json!({ "mode": "online", "rules": { "variant": "I" } }))
        .await;
    let invite = created["invite"].as_str().unwrap();
    let secret = invite.split("invite=").nth(1).unwrap();
    let (status, joined) = api
        .post(
            &format!("/api/games/{id}/join"),
            None,
            json!({ "invite": secret }),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{joined}");
    let north = joined["token"].as_str().unwrap().to_string();
    assert_eq!(joined["seat"], "north");

    // Wrong and missing tokens: 403.
    let (status, v) = api.play(&id, "not-a-token", "3").await;
    assert_eq!((status, error_code(&v)), (StatusCode::FORBIDDEN, "forbidden"));
    let (status, v) = api
        .post(&format!("/api/games/{id}/moves"), None, json!({ "move": "3" }))
        .await;
    assert_eq!((status, error_code(&v)), (StatusCode::FORBIDDEN, "forbidden"));
    // Out of turn: North moves while South is to move.
    let (status, v) = api.play(&id, &north, "3").await;
    assert_eq!((status, error_code(&v)), (StatusCode::CONFLICT, "not_your_turn"));
    // Illegal and unreadable moves: 422.
    let (status, v) = api.play(&id, &south, "7").await;
    assert_eq!(
        (status, error_code(&v)),
        (StatusCode::UNPROCESSABLE_ENTITY, "bad_move")
    );
    let (status, v) = api.play(&id, &south, "2+3").await;
    assert_eq!(
        (status, error_code(&v)),
        (StatusCode::UNPROCESSABLE_ENTITY, "illegal_move")
    );
    // Malformed JSON: 400; a body of the wrong shape: 422; oversized: 413.
    let (status, v) = api
        .post_raw(
            &format!("/api/games/{id}/moves"),
            Some(&south),
            b"{\"move\": ".to_vec(),
        )
        .await;
    assert_eq!(
        (status, error_code(&v)),
        (StatusCode::BAD_REQUEST, "malformed_json")
    );
    let (status, v) = api
        .post_raw(
            &format!("/api/games/{id}/moves"),
            Some(&south),
            b"{\"mv\": 3}".to_vec(),
        )
        .await;
    assert_eq!(
        (status, error_code(&v)),
        (StatusCode::UNPROCESSABLE_ENTITY, "invalid_fields")
    );
    let big = format!("{{\"move\": \"{}\"}}", "1".repeat(64 * 1024));
    let (status, v) = api
        .post_raw(&format!("/api/games/{id}/moves"), Some(&south), big.into_bytes())
        .await;
    assert_eq!(
        (status, error_code(&v)),
        (StatusCode::PAYLOAD_TOO_LARGE, "body_too_large")
    );
    // Unknown game: 404 (fetch, move, WebSocket path).
    let (status, v) = api.get("/api/games/nosuchgame").await;
    assert_eq!((status, error_code(&v)), (StatusCode::NOT_FOUND, "unknown_game"));
    let (status, v) = api.play("nosuchgame", &south, "3").await;
    assert_eq!((status, error_code(&v)), (StatusCode::NOT_FOUND, "unknown_game"));
    // Invalid rules: 422.
    let (status, v) = api
        .post("/api/games", None, json!({ "rules": { "holes": 13 } }))
        .await;
    assert_eq!(
        (status, error_code(&v)),
        (StatusCode::UNPROCESSABLE_ENTITY, "invalid_rules")
    );
    assert_eq!(
        v["error"],
        "bad value \"13\" for holes: expected a whole number from 4 to 12"
    );
    // More seeds per hole than the server plays (valid rules for the
    // library): 422, for a new game and for an imported record alike.
    let (status, v) = api
        .post("/api/games", None, json!({ "rules": { "seeds": 9 } }))
        .await;
    assert_eq!(
        (status, error_code(&v)),
        (StatusCode::UNPROCESSABLE_ENTITY, "invalid_rules")
    );
    assert!(v["error"].as_str().unwrap().contains("at most 8"), "{v}");
    let (status, v) = api
        .post(
            "/api/games/import",
            None,
            json!({ "record": "[Variant \"II\"]\n[Seeds \"10\"]\n\n1 2" }),
        )
        .await;
    assert_eq!(
        (status, error_code(&v)),
        (StatusCode::UNPROCESSABLE_ENTITY, "invalid_record")
    );
    let (status, _) = api
        .post("/api/games", None, json!({ "rules": { "seeds": 8 } }))
        .await;
    assert_eq!(status, StatusCode::CREATED);
    // Joining a full game: 409; a wrong invite: 403 is checked before (no seat left here).
    let (status, v) = api
        .post(
            &format!("/api/games/{id}/join"),
            None,
            json!({ "invite": secret }),
        )
        .await;
    assert_eq!((status, error_code(&v)), (StatusCode::CONFLICT, "seat_taken"));
    // Undo is not available online.
    let (status, v) = api
        .post(&format!("/api/games/{id}/undo"), Some(&south), json!({}))
        .await;
    assert_eq!(
        (status, error_code(&v)),
        (StatusCode::CONFLICT, "undo_unavailable")
    );

    // Nothing was stored by any of these.
    let g = api.game(&id).await;
    assert_eq!(g["seq"], 0);
    assert_eq!(g["state"]["board"], json!(vec![4; 12]));

    // A stale seq is refused; the right one is accepted.
    let (status, v) = api
        .post(
            &format!("/api/games/{id}/moves"),
            Some(&south),
            json!({ "move": "3", "seq": 5 }),
        )
        .await;
    assert_eq!((status, error_code(&v)), (StatusCode::CONFLICT, "stale"));
    let (status, _) = api
        .post(
            &format!("/api/games/{id}/moves"),
            Some(&south),
            json!({ "move": "3", "seq": 0 }),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    // Now South is out of turn, North may move.
    let (status, v) = api.play(&id, &south, "1").await;
    assert_eq!((status, error_code(&v)), (StatusCode::CONFLICT, "not_your_turn"));
    let g = api.game(&id).await;
    let (status, v) = api.play(&id, &north, &first_legal(&g)).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    api.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn wrong_invite_is_forbidden() {
    let api = Api::start(Store::in_memory().unwrap()).await;
    let (id, _, _) = api.create(json!({ "mode": "online", "side": "north" })).await;
    let (status, v) = api
        .post(
            &format!("/api/games/{id}/join"),
            None,
            json!({ "invite": "guess" }),
        )
        .await;
    assert_eq!((status, error_code(&v)), (StatusCode::FORBIDDEN, "forbidden"));
    assert_eq!(api.game(&id).await["status"], "waiting");
    api.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn engine_moves_first_and_undo_returns_to_the_human() {
    let api = Api::start(Store::in_memory().unwrap()).await;
    let (id, token, _) = api
        .create(json!({ "mode": "engine", "level": 2, "side": "north", "rules": { "variant": "I" } }))
        .await;
    // The engine (South) moves by itself.
    let g = api
        .wait_for(&id, |g| {
            g["seq"].as_u64() >= Some(1) && g["state"]["to_move"] == "north"
        })
        .await;
    assert_eq!(g["history"][0]["side"], "south");
    let seq0 = g["seq"].as_u64().unwrap();
    // Now North, the human, is to move: its move is played, then the engine
    // replies (unless the game is over).
    let (status, r) = api.play(&id, &token, &first_legal(&g)).await;
    assert_eq!(status, StatusCode::OK, "{r}");
    let g = api
        .wait_for(&id, |g| {
            g["state"]["over"] == true
                || (g["state"]["to_move"] == "north" && !g["thinking"].as_bool().unwrap())
        })
        .await;
    assert!(g["seq"].as_u64().unwrap() > seq0);
    // An undo from a view before the human's move would take back another
    // move: refused.
    let (status, v) = api
        .post(
            &format!("/api/games/{id}/undo"),
            Some(&token),
            json!({ "seq": seq0, "epoch": 0 }),
        )
        .await;
    assert_eq!((status, error_code(&v)), (StatusCode::CONFLICT, "stale"), "{v}");
    // Undo goes back to before the human's move, asked from the view the
    // move answered, before the engine's reply reached the player.
    let (status, u) = api
        .post(
            &format!("/api/games/{id}/undo"),
            Some(&token),
            json!({ "seq": r["seq"], "epoch": 0 }),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{u}");
    assert_eq!(u["seq"].as_u64(), Some(seq0));
    assert_eq!(u["epoch"], 1);
    assert_eq!(u["state"]["to_move"], "north");
    // Hint: a legal move for the human.
    let (status, h) = api
        .post(&format!("/api/games/{id}/hint"), Some(&token), json!({}))
        .await;
    assert_eq!(status, StatusCode::OK, "{h}");
    let legal: Vec<String> = serde_json::from_value(u["legal"].clone()).unwrap();
    assert!(legal.contains(&h["move"].as_str().unwrap().to_string()));
    api.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_undo_from_a_view_the_game_has_left_is_refused_and_changes_nothing() {
    let api = Api::start(Store::in_memory().unwrap()).await;
    let (id, token, _) = api
        .create(json!({ "mode": "hotseat", "rules": { "variant": "I" } }))
        .await;
    for _ in 0..2 {
        let g = api.game(&id).await;
        let (status, v) = api.play(&id, &token, &first_legal(&g)).await;
        assert_eq!(status, StatusCode::OK, "{v}");
    }
    let before = api.game(&id).await;
    assert_eq!(
        (before["seq"].as_u64(), before["epoch"].as_u64()),
        (Some(2), Some(0))
    );
    let undo = |body: Value| {
        let api = &api;
        let id = &id;
        let token = &token;
        async move {
            api.post(&format!("/api/games/{id}/undo"), Some(token), body)
                .await
        }
    };
    // The client saw step 1 (or an undo that never happened): refused.
    for body in [
        json!({ "seq": 1 }),
        json!({ "seq": 2, "epoch": 1 }),
        json!({ "epoch": 3 }),
    ] {
        let (status, v) = undo(body.clone()).await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::CONFLICT, "stale"),
            "{body}: {v}"
        );
    }
    // Strict JSON, as elsewhere.
    for body in [
        json!({ "seq": 2, "step": 2 }),
        json!({ "seq": "two" }),
        json!([2]),
    ] {
        let (status, v) = undo(body.clone()).await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::UNPROCESSABLE_ENTITY, "invalid_fields"),
            "{body}: {v}"
        );
    }
    let (status, v) = api
        .post_raw(
            &format!("/api/games/{id}/undo"),
            Some(&token),
            b"{\"seq\":".to_vec(),
        )
        .await;
    assert_eq!(
        (status, error_code(&v)),
        (StatusCode::BAD_REQUEST, "malformed_json")
    );
    assert_eq!(api.game(&id).await, before, "nothing changed");
    // The view the client saw: undone.
    let (status, v) = undo(json!({ "seq": 2, "epoch": 0 })).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!((v["seq"].as_u64(), v["epoch"].as_u64()), (Some(1), Some(1)));
    // Without a body (no content type either), as before: undone.
    let res = api
        .http
        .post(format!("{}/api/games/{id}/undo", api.base))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    let v: Value = res.json().await.unwrap();
    assert_eq!((v["seq"].as_u64(), v["epoch"].as_u64()), (Some(0), Some(2)));
    api.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn restart_resumes_every_game_from_the_database() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.db");
    let api = Api::start(Store::open(&db).unwrap()).await;
    let (single, t1, _) = api
        .create(
            json!({ "mode": "hotseat", "rules": { "variant": "III", "holes": 8, "direction": "per_move" } }),
        )
        .await;
    let (matchg, t2, _) = api
        .create(json!({ "mode": "hotseat", "match": true, "rules": { "variant": "I", "holes": 4 } }))
        .await;
    for _ in 0..5 {
        let g = api.game(&single).await;
        api.play(&single, &t1, &first_legal(&g)).await;
    }
    // Play the match's first round to its end and start round 2.
    loop {
        let g = api.game(&matchg).await;
        if g["can_next_round"] == true || g["match_result"] != Value::Null {
            break;
        }
        let (status, v) = api.play(&matchg, &t2, &first_legal(&g)).await;
        assert_eq!(status, StatusCode::OK, "{v}");
    }
    let g = api.game(&matchg).await;
    if g["can_next_round"] == true {
        let (status, v) = api
            .post(&format!("/api/games/{matchg}/next-round"), Some(&t2), json!({}))
            .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert_eq!(v["round"], 2);
    }
    let before = (api.game(&single).await, api.game(&matchg).await);
    api.stop().await;

    let api = Api::start(Store::open(&db).unwrap()).await;
    let after = (api.game(&single).await, api.game(&matchg).await);
    for (b, a) in [(&before.0, &after.0), (&before.1, &after.1)] {
        for key in ["seq", "state", "legal", "history", "rounds", "round"] {
            assert_eq!(b[key], a[key], "{key} after restart");
        }
    }
    // Play goes on after the restart.
    let (status, v) = api.play(&single, &t1, &first_legal(&after.0)).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["game"]["seq"], 6);
    api.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn websocket_sends_state_then_moves() {
    let api = Api::start(Store::in_memory().unwrap()).await;
    let (id, token, _) = api.create(json!({ "mode": "hotseat" })).await;
    let url = format!("{}/api/games/{id}/ws", api.base.replace("http://", "ws://"));
    let (mut ws, _) = tokio_tungstenite::connect_async(url).await.expect("ws connect");
    let next = |m: Option<Result<tokio_tungstenite::tungstenite::Message, _>>| -> Value {
        let text = m
            .expect("a message")
            .expect("no error")
            .into_text()
            .expect("text");
        serde_json::from_str(text.as_str()).expect("JSON")
    };
    let first = next(ws.next().await);
    assert_eq!(first["type"], "state");
    assert_eq!(first["game"]["seq"], 0);
    let (status, _) = api.play(&id, &token, "2").await;
    assert_eq!(status, StatusCode::OK);
    let m = next(
        tokio::time::timeout(Duration::from_secs(5), ws.next())
            .await
            .unwrap(),
    );
    assert_eq!(m["type"], "move");
    assert_eq!(m["move"]["token"], "2");
    assert_eq!(m["move"]["seq"], 1);
    assert_eq!(m["game"]["seq"], 1);
    assert!(!m["move"]["trace"]["events"].as_array().unwrap().is_empty());
    ws.send(tokio_tungstenite::tungstenite::Message::Text("ping".into()))
        .await
        .unwrap();
    let pong = tokio::time::timeout(Duration::from_secs(5), ws.next())
        .await
        .unwrap()
        .unwrap()
        .unwrap();
    assert_eq!(pong.into_text().unwrap().as_str(), "pong");
    api.stop().await;
}

/// A move's answer and WebSocket message carry a delta (the new step, not
/// the whole history): their size does not grow with the game, and the
/// deltas put together give the full history. `?history_from=N` pages it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn moves_carry_deltas_not_the_whole_history() {
    let api = Api::start(Store::in_memory().unwrap()).await;
    let (id, token, _) = api
        .create(json!({ "mode": "hotseat", "match": true, "rules": { "variant": "II" } }))
        .await;
    let url = format!("{}/api/games/{id}/ws", api.base.replace("http://", "ws://"));
    let (mut ws, _) = tokio_tungstenite::connect_async(url).await.expect("ws connect");
    let text_of = |m: Option<Result<tokio_tungstenite::tungstenite::Message, _>>| -> String {
        m.expect("a message")
            .expect("no error")
            .into_text()
            .expect("text")
            .to_string()
    };
    let first: Value = serde_json::from_str(&text_of(ws.next().await)).unwrap();
    assert_eq!(first["type"], "state");
    assert!(
        first["game"].get("history_from").is_none(),
        "the first message is a full view"
    );
    let mut merged: Vec<Value> = Vec::new();
    let mut sizes = Vec::new();
    for seq in 1..=40u64 {
        let g = api.game(&id).await;
        if g["can_next_round"] == true || g["legal"].as_array().unwrap().is_empty() {
            break;
        }
        let (status, v) = api.play(&id, &token, &first_legal(&g)).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert_eq!(v["game"]["history_from"], seq - 1, "{v}");
        assert_eq!(v["game"]["history"].as_array().unwrap().len(), 1);
        let raw = text_of(
            tokio::time::timeout(Duration::from_secs(5), ws.next())
                .await
                .unwrap(),
        );
        let m: Value = serde_json::from_str(&raw).unwrap();
        assert_eq!(
            (m["type"].as_str(), m["game"]["history_from"].as_u64()),
            (Some("move"), Some(seq - 1))
        );
        merged.extend(m["game"]["history"].as_array().unwrap().iter().cloned());
        sizes.push(raw.len() - m["move"].to_string().len());
    }
    assert!(sizes.len() >= 10, "{} moves", sizes.len());
    // The message without its move event: the same size at the end as at
    // the start (the board and scores vary by a few bytes).
    let (early, late) = (sizes[1], sizes[sizes.len() - 1]);
    assert!(
        late < early + 200,
        "a move's message grew from {early} to {late} bytes"
    );
    let full = api.game(&id).await;
    assert_eq!(Value::Array(merged), full["history"]);
    // Pages of the history.
    let (status, page) = api.get(&format!("/api/games/{id}?history_from=5")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(page["history_from"], 5);
    assert_eq!(
        page["history"].as_array().unwrap()[..],
        full["history"].as_array().unwrap()[5..]
    );
    let (status, v) = api.get(&format!("/api/games/{id}?history_from=x")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
    let (status, v) = api.get(&format!("/api/games/{id}?histroy_from=1")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
    api.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn record_download_and_import_round_trip() {
    let api = Api::start(Store::in_memory().unwrap()).await;
    let (id, token, _) = api
        .create(json!({ "mode": "hotseat", "rules": { "variant": "II", "two_hole_opening": true } }))
        .await;
    let g = api.game(&id).await;
    assert_eq!(g["opening_pair"], true);
    assert!(first_legal(&g).contains('+'));
    for _ in 0..4 {
        let g = api.game(&id).await;
        let (status, v) = api.play(&id, &token, &first_legal(&g)).await;
        assert_eq!(status, StatusCode::OK, "{v}");
    }
    let text = api.record(&id).await;
    let rec = Record::read(&text).expect("a valid record");
    let spec = RulesSpec {
        variant: Variant::II,
        two_hole_opening: true,
        ..RulesSpec::default()
    };
    assert_eq!(rec.rules().spec(), spec);
    assert_eq!(rec.game().unwrap().moves().len(), 4);

    let (status, imported) = api
        .post("/api/games/import", None, json!({ "record": text }))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{imported}");
    let original = api.game(&id).await;
    assert_eq!(imported["game"]["state"], original["state"]);
    assert_eq!(imported["game"]["history"], original["history"]);
    let (status, v) = api
        .post(
            "/api/games/import",
            None,
            json!({ "record": "[Variant \"IV\"]\n" }),
        )
        .await;
    assert_eq!(
        (status, error_code(&v)),
        (StatusCode::UNPROCESSABLE_ENTITY, "invalid_record")
    );
    api.stop().await;
}

/// Opens a second connection to the server's database file, as another
/// process would.
fn side_connection(db: &std::path::Path) -> rusqlite::Connection {
    let conn = rusqlite::Connection::open(db).expect("a second connection");
    conn.busy_timeout(Duration::from_secs(5)).unwrap();
    conn
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn engine_game_recovers_after_its_move_fails_to_store() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.db");
    let api = Api::start(Store::open(&db).unwrap()).await;
    // Every insert into `moves` fails until the trigger is dropped: a real
    // storage error on the engine's move, as a full disk would give.
    let side = side_connection(&db);
    side.execute_batch(
        "CREATE TRIGGER refuse_moves BEFORE INSERT ON moves
         BEGIN SELECT RAISE(ABORT, 'disk full (injected)'); END;",
    )
    .unwrap();
    let (id, token, _) = api
        .create(json!({ "mode": "engine", "level": 1, "side": "north", "rules": { "variant": "I" } }))
        .await;
    // The engine thinks from the start; a state sent before the socket
    // opens is not sent again, so the test reads the game itself.
    eventually("the engine thinking", || async {
        (api.game(&id).await["thinking"] == true).then_some(())
    })
    .await;
    // The engine's move was chosen and failed to store, then failed again
    // on each of two retries (the storage errors the server counts).
    eventually("three failed writes of the engine's move", || async {
        let text = api.metrics().await;
        (metric(&text, "hoyito_db_errors_total")? >= 3.0).then_some(())
    })
    .await;
    let g = api.game(&id).await;
    assert_eq!(g["seq"], 0, "{g}");
    assert_eq!(
        g["thinking"], true,
        "the engine must keep trying to store its move, not give up: {g}"
    );
    let (status, r) = api.play(&id, &token, "1").await;
    assert_eq!(status, StatusCode::CONFLICT, "{r}");
    // Storage works again: the engine's move is stored and play goes on.
    side.execute_batch("DROP TRIGGER refuse_moves").unwrap();
    let g = api
        .wait_for(&id, |g| g["seq"] == 1 && g["thinking"] == false)
        .await;
    assert_eq!(g["history"][0]["side"], "south");
    let (status, r) = api.play(&id, &token, &first_legal(&g)).await;
    assert_eq!(status, StatusCode::OK, "{r}");
    api.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn health_is_503_while_the_database_cannot_be_written() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.db");
    let api = Api::start(Store::open(&db).unwrap()).await;
    let (status, v) = api.get("/api/health").await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["ok"], true);
    // Every write fails (as on a full disk or a read-only file) until the
    // trigger is dropped; reads still work.
    let side = side_connection(&db);
    side.execute_batch(
        "CREATE TRIGGER refuse_all BEFORE INSERT ON health
         BEGIN SELECT RAISE(ABORT, 'disk full (injected)'); END;",
    )
    .unwrap();
    let (status, v) = api.get("/api/health").await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{v}");
    assert_eq!(error_code(&v), "storage_unavailable");
    assert!(
        !v.to_string().contains("injected"),
        "no storage detail is sent: {v}"
    );
    side.execute_batch("DROP TRIGGER refuse_all").unwrap();
    let (status, v) = api.get("/api/health").await;
    assert_eq!(status, StatusCode::OK, "{v}");
    api.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn strict_json_and_every_error_as_json() {
    let api = Api::start(Store::in_memory().unwrap()).await;
    // Bodies must be objects of the documented fields and types.
    for body in [json!([]), json!(["online"]), json!("online"), json!(3)] {
        let (status, v) = api.post("/api/games", None, body.clone()).await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::UNPROCESSABLE_ENTITY, "invalid_fields"),
            "{body}"
        );
    }
    let (status, v) = api
        .post("/api/games", None, json!({ "rules": { "seed": 6 } }))
        .await;
    assert_eq!(
        (status, error_code(&v)),
        (StatusCode::UNPROCESSABLE_ENTITY, "invalid_fields")
    );
    assert_eq!(
        v["error"],
        "unknown rules option \"seed\": expected one of variant, holes, seeds, skip_origin, \
         direction, two_hole_opening, repetition, capture_side",
        "the core's text"
    );
    for body in [
        json!({ "mode": 3 }),
        json!({ "mode": "chess" }),
        json!({ "rules": { "variant": 1 } }),
        json!({ "rules": [] }),
    ] {
        let (status, v) = api.post("/api/games", None, body.clone()).await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::UNPROCESSABLE_ENTITY, "invalid_fields"),
            "{body}"
        );
    }
    let (status, v) = api.post_raw("/api/games", None, b"{\"mode\":".to_vec()).await;
    assert_eq!(
        (status, error_code(&v)),
        (StatusCode::BAD_REQUEST, "malformed_json")
    );
    // Errors outside the handlers are JSON too.
    let (status, v) = api.get("/api/games?limit=lots").await;
    assert_eq!((status, error_code(&v)), (StatusCode::BAD_REQUEST, "bad_request"));
    let (status, v) = api.get("/api/games/%FF").await;
    assert_eq!((status, error_code(&v)), (StatusCode::BAD_REQUEST, "bad_request"));
    let (status, v) = api.get("/api/games/nosuchgame/ws").await;
    assert_eq!((status, error_code(&v)), (StatusCode::NOT_FOUND, "unknown_game"));
    let (id, _, _) = api.create(json!({})).await;
    let (status, v) = api.get(&format!("/api/games/{id}/ws")).await;
    assert!(status.is_client_error(), "{status}");
    assert_eq!(error_code(&v), "not_websocket");
    let (status, v) = api.get("/api/").await;
    assert_eq!((status, error_code(&v)), (StatusCode::NOT_FOUND, "not_found"));
    for (method, path) in [
        ("DELETE", "/api/games"),
        ("PUT", "/api/health"),
        ("PUT", "/"),
        ("DELETE", "/index.html"),
    ] {
        let res = api
            .http
            .request(method.parse().unwrap(), format!("{}{path}", api.base))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::METHOD_NOT_ALLOWED, "{method} {path}");
        let v: Value = res.json().await.expect("a JSON body");
        assert_eq!(error_code(&v), "method_not_allowed", "{method} {path}");
    }
    api.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_import_stores_nothing_and_tells_no_storage_detail() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.db");
    let api = Api::start(Store::open(&db).unwrap()).await;
    let (id, token, _) = api.create(json!({ "mode": "hotseat" })).await;
    for mv in ["1", "2"] {
        let (status, v) = api.play(&id, &token, mv).await;
        assert_eq!(status, StatusCode::OK, "{v}");
    }
    let record = api.record(&id).await;
    let side = side_connection(&db);
    side.execute_batch(
        "CREATE TRIGGER refuse_moves BEFORE INSERT ON moves
         BEGIN SELECT RAISE(ABORT, 'disk full (injected)'); END;",
    )
    .unwrap();
    let (status, v) = api
        .post("/api/games/import", None, json!({ "record": record }))
        .await;
    assert_eq!(
        (status, error_code(&v)),
        (StatusCode::INTERNAL_SERVER_ERROR, "internal")
    );
    assert!(
        !v.to_string().contains("injected"),
        "no storage detail is sent: {v}"
    );
    // The game row went with its moves: only the first game is stored.
    let games: i64 = side
        .query_row("SELECT COUNT(*) FROM games", [], |r| r.get(0))
        .unwrap();
    assert_eq!(games, 1);
    side.execute_batch("DROP TRIGGER refuse_moves").unwrap();
    let (status, v) = api
        .post("/api/games/import", None, json!({ "record": record }))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    assert_eq!(v["game"]["seq"], 2);
    api.stop().await;
}
