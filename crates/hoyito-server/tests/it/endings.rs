//! Ending games, nicknames, chat, the lobby and clocks against a real
//! server on loopback: aborts, draw offers (between people, also across a
//! restart, and to the engine), record import keeping its mode and ending,
//! nicknames and chat messages checked (bad input stores nothing), the
//! lobby's lists, and a clock that runs out with nobody connected, across a
//! restart.

use hoyito_server::Store;
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::common::{error_code, eventually, first_legal, Api};

/// An online game with both seats taken: (id, south's token, north's token).
async fn online(api: &Api, extra: Value) -> (String, String, String) {
    let mut body = json!({ "mode": "online", "rules": { "variant": "II" }, "name": "Ana" });
    for (k, v) in extra.as_object().unwrap() {
        body[k] = v.clone();
    }
    let (id, south, created) = api.create(body).await;
    let north = api.join_invited(&created, "Jean").await;
    (id, south, north)
}

async fn draw(api: &Api, id: &str, token: Option<&str>, action: &str) -> (StatusCode, Value) {
    api.post(
        &format!("/api/games/{id}/draw"),
        token,
        json!({ "action": action }),
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn abort_only_before_both_players_have_moved() {
    let api = Api::start(Store::in_memory().unwrap()).await;
    let (id, south, north) = online(&api, json!({})).await;
    let g = api.game(&id).await;
    let (status, v) = api.play(&id, &south, &first_legal(&g)).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    // A spectator may not abort.
    let (status, v) = api.post(&format!("/api/games/{id}/abort"), None, json!({})).await;
    assert_eq!((status, error_code(&v)), (StatusCode::FORBIDDEN, "forbidden"));
    // North has not moved yet: North aborts.
    let (status, v) = api
        .post(&format!("/api/games/{id}/abort"), Some(&north), json!({}))
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(
        (v["status"].as_str(), v["end"].as_str(), v["aborted"].as_str()),
        (Some("over"), Some("abort"), Some("north"))
    );
    assert_eq!(v["history"][1]["kind"], "abort");

    // Once both have moved, it is too late.
    let (id, south, north) = online(&api, json!({})).await;
    let mut tokens = [south, north];
    for _ in 0..6 {
        let g = api.game(&id).await;
        let t = if g["state"]["to_move"] == "south" {
            &tokens[0]
        } else {
            &tokens[1]
        };
        let (status, v) = api.play(&id, t, &first_legal(&g)).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let history = api.game(&id).await["history"].clone();
        let moved: Vec<&str> = history
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|s| s["side"].as_str())
            .collect();
        if moved.contains(&"south") && moved.contains(&"north") {
            break;
        }
    }
    let seq = api.game(&id).await["seq"].clone();
    let (status, v) = api
        .post(&format!("/api/games/{id}/abort"), Some(&tokens[0]), json!({}))
        .await;
    assert_eq!(
        (status, error_code(&v)),
        (StatusCode::CONFLICT, "too_late_to_abort")
    );
    assert_eq!(api.game(&id).await["seq"], seq, "nothing stored");
    tokens.swap(0, 1);
    api.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn draws_are_offered_declined_and_accepted_online_and_refused_in_hotseat() {
    let api = Api::start(Store::in_memory().unwrap()).await;
    let (id, south, north) = online(&api, json!({})).await;
    let (status, v) = draw(&api, &id, None, "offer").await;
    assert_eq!((status, error_code(&v)), (StatusCode::FORBIDDEN, "forbidden"));
    let (status, v) = draw(&api, &id, Some(&north), "accept").await;
    assert_eq!((status, error_code(&v)), (StatusCode::CONFLICT, "no_draw_offer"));
    let (status, v) = draw(&api, &id, Some(&south), "offer").await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(
        (v["accepted"].as_bool(), v["game"]["draw_offer"].as_str()),
        (Some(false), Some("south"))
    );
    // One offer per move.
    let (status, v) = draw(&api, &id, Some(&south), "offer").await;
    assert_eq!((status, error_code(&v)), (StatusCode::CONFLICT, "draw_offered"));
    let (status, v) = draw(&api, &id, Some(&north), "decline").await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["game"]["draw_offer"], Value::Null);
    // A move withdraws an offer.
    let (status, v) = draw(&api, &id, Some(&north), "offer").await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let g = api.game(&id).await;
    let (status, v) = api.play(&id, &south, &first_legal(&g)).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["game"]["draw_offer"], Value::Null);
    // Offered and accepted: the game is drawn, and the record says so.
    let (_, v) = draw(&api, &id, Some(&south), "offer").await;
    assert_eq!(v["game"]["draw_offer"], "south", "{v}");
    let (status, v) = draw(&api, &id, Some(&north), "accept").await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(
        (
            v["accepted"].as_bool(),
            v["game"]["end"].as_str(),
            v["game"]["status"].as_str()
        ),
        (Some(true), Some("draw"), Some("over"))
    );
    let record = api.record(&id).await;
    assert!(record.contains("[Termination \"draw agreed\"]"), "{record}");
    assert!(record.contains("[SouthName \"Ana\"]"), "{record}");

    let (hid, htoken, _) = api.create(json!({ "mode": "hotseat" })).await;
    let (status, v) = draw(&api, &hid, Some(&htoken), "offer").await;
    assert_eq!(
        (status, error_code(&v)),
        (StatusCode::CONFLICT, "draw_unavailable")
    );
    let (status, v) = draw(&api, &hid, Some(&htoken), "maybe").await;
    assert_eq!(
        (status, error_code(&v)),
        (StatusCode::UNPROCESSABLE_ENTITY, "invalid_fields")
    );
    assert_eq!(api.game(&hid).await["seq"], 0);
    api.stop().await;
}

/// Game `id`'s stored draw columns: (offer, its step count, changes).
fn stored_draw(db: &std::path::Path, id: &str) -> (Option<String>, Option<i64>, i64) {
    let conn = rusqlite::Connection::open(db).unwrap();
    conn.query_row(
        "SELECT draw_offer, draw_offer_seq, draw_rev FROM games WHERE id = ?1",
        [id],
        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
    )
    .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_draw_offer_survives_a_restart_until_a_move_or_an_answer() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.db");
    let api = Api::start(Store::open(&db).unwrap()).await;
    let (id, south, north) = online(&api, json!({})).await;
    // Bad draw requests store nothing.
    for (token, body, status, code) in [
        (
            None,
            json!({ "action": "offer" }),
            StatusCode::FORBIDDEN,
            "forbidden",
        ),
        (
            Some(&north),
            json!({ "action": "accept" }),
            StatusCode::CONFLICT,
            "no_draw_offer",
        ),
        (
            Some(&north),
            json!({ "action": "decline" }),
            StatusCode::CONFLICT,
            "no_draw_offer",
        ),
        (
            Some(&south),
            json!({ "action": "maybe" }),
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid_fields",
        ),
        (
            Some(&south),
            json!({ "action": "offer", "seq": 0 }),
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid_fields",
        ),
    ] {
        let (got, v) = api
            .post(
                &format!("/api/games/{id}/draw"),
                token.map(String::as_str),
                body.clone(),
            )
            .await;
        assert_eq!((got, error_code(&v)), (status, code), "{body}: {v}");
    }
    assert_eq!(stored_draw(&db, &id), (None, None, 0), "nothing stored");
    let (status, v) = draw(&api, &id, Some(&south), "offer").await;
    assert_eq!(
        (status, v["game"]["draw_offer"].as_str()),
        (StatusCode::OK, Some("south")),
        "{v}"
    );
    assert_eq!(stored_draw(&db, &id), (Some("south".into()), Some(0), 1));
    api.stop().await;

    // After a restart the offer still waits: shown, one per move, and accepted.
    let api = Api::start(Store::open(&db).unwrap()).await;
    let g = api.game(&id).await;
    assert_eq!(g["draw_offer"], "south", "{g}");
    let (status, v) = draw(&api, &id, Some(&south), "offer").await;
    assert_eq!((status, error_code(&v)), (StatusCode::CONFLICT, "draw_offered"));
    let (status, v) = draw(&api, &id, Some(&north), "accept").await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(
        (
            v["accepted"].as_bool(),
            v["game"]["end"].as_str(),
            v["game"]["draw_offer"].as_str()
        ),
        (Some(true), Some("draw"), None)
    );

    // A move withdraws a stored offer, and it stays withdrawn after a restart.
    let (id, south, north) = online(&api, json!({})).await;
    let (_, v) = draw(&api, &id, Some(&south), "offer").await;
    assert_eq!(v["game"]["draw_offer"], "south", "{v}");
    api.stop().await;
    let api = Api::start(Store::open(&db).unwrap()).await;
    let g = api.game(&id).await;
    assert_eq!(g["draw_offer"], "south", "{g}");
    let (status, v) = api.play(&id, &south, &first_legal(&g)).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["game"]["draw_offer"], Value::Null, "{v}");
    api.stop().await;
    let api = Api::start(Store::open(&db).unwrap()).await;
    let g = api.game(&id).await;
    assert_eq!(
        (g["seq"].as_u64(), &g["draw_offer"]),
        (Some(1), &Value::Null),
        "{g}"
    );
    let (status, v) = draw(&api, &id, Some(&north), "accept").await;
    assert_eq!((status, error_code(&v)), (StatusCode::CONFLICT, "no_draw_offer"));

    // A declined offer stays declined after a restart.
    let (status, v) = draw(&api, &id, Some(&south), "offer").await;
    assert_eq!(
        (status, v["game"]["draw_offer"].as_str()),
        (StatusCode::OK, Some("south")),
        "{v}"
    );
    let (status, v) = draw(&api, &id, Some(&north), "decline").await;
    assert_eq!(
        (status, &v["game"]["draw_offer"]),
        (StatusCode::OK, &Value::Null),
        "{v}"
    );
    api.stop().await;
    assert_eq!(stored_draw(&db, &id).0, None);
    let api = Api::start(Store::open(&db).unwrap()).await;
    let g = api.game(&id).await;
    assert_eq!(
        (g["draw_offer"].clone(), g["status"].as_str()),
        (Value::Null, Some("playing"))
    );
    let (status, v) = draw(&api, &id, Some(&north), "accept").await;
    assert_eq!((status, error_code(&v)), (StatusCode::CONFLICT, "no_draw_offer"));
    api.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_engine_answers_a_draw_offer_at_once_by_its_evaluation() {
    let api = Api::start(Store::in_memory().unwrap()).await;
    // Whatever the engine answers, it answers at once, in the reply, and
    // the game's state agrees with the answer.
    let (id, token, _) = api
        .create(json!({ "mode": "engine", "level": 1, "rules": { "variant": "I" } }))
        .await;
    let (status, v) = draw(&api, &id, Some(&token), "offer").await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let accepted = v["accepted"].as_bool().unwrap();
    assert_eq!(v["game"]["end"].as_str() == Some("draw"), accepted, "{v}");
    if !accepted {
        assert_eq!(
            v["game"]["draw_offer"],
            Value::Null,
            "no offer waits: the engine answered"
        );
        let (status, v) = draw(&api, &id, Some(&token), "offer").await;
        assert_eq!((status, error_code(&v)), (StatusCode::CONFLICT, "draw_offered"));
    }
    api.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_imported_record_keeps_its_engine_mode_and_its_resignation() {
    let api = Api::start(Store::in_memory().unwrap()).await;
    let (id, token, _) = api
        .create(json!({ "mode": "engine", "level": 2, "side": "south", "rules": { "variant": "I" } }))
        .await;
    let g = api.game(&id).await;
    let (status, v) = api.play(&id, &token, &first_legal(&g)).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    api.wait_for(&id, |g| g["state"]["to_move"] == "south").await;
    let (status, v) = api
        .post(&format!("/api/games/{id}/resign"), Some(&token), json!({}))
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let record = api.record(&id).await;
    let (status, v) = api
        .post("/api/games/import", None, json!({ "record": record }))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let g = &v["game"];
    assert_eq!(
        (g["mode"].as_str(), g["level"].as_u64(), g["engine_side"].as_str()),
        (Some("engine"), Some(2), Some("north"))
    );
    assert_eq!(
        (g["status"].as_str(), g["end"].as_str(), g["resigned"].as_str()),
        (Some("over"), Some("resign"), Some("south"))
    );
    assert_eq!(v["seat"], "south");
    api.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nicknames_are_checked_stored_and_shown() {
    let api = Api::start(Store::in_memory().unwrap()).await;
    let count = || async { api.get("/api/health").await.1["games"].as_u64().unwrap() };
    let before = count().await;
    for bad in [
        json!("a".repeat(25)),
        json!("   "),
        json!("new\nline"),
        json!("x\u{202e}y"),
        json!(7),
    ] {
        let (status, v) = api
            .post("/api/games", None, json!({ "mode": "online", "name": bad }))
            .await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{bad}: {v}");
        assert!(
            ["invalid_name", "invalid_fields"].contains(&error_code(&v)),
            "{v}"
        );
    }
    assert_eq!(count().await, before, "nothing stored");
    let (id, _, created) = api
        .create(json!({ "mode": "online", "name": "  <b>Ana</b> " }))
        .await;
    assert_eq!(created["game"]["names"]["south"], "<b>Ana</b>");
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
            json!({ "invite": invite, "name": "é".repeat(30) }),
        )
        .await;
    assert_eq!(
        (status, error_code(&v)),
        (StatusCode::UNPROCESSABLE_ENTITY, "invalid_name")
    );
    assert_eq!(api.game(&id).await["status"], "waiting", "the seat is still free");
    let (status, v) = api
        .post(
            &format!("/api/games/{id}/join"),
            None,
            json!({ "invite": invite, "name": "Jean" }),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(
        v["game"]["names"],
        json!({ "south": "<b>Ana</b>", "north": "Jean" })
    );
    let (_, lobby) = api.get(&format!("/api/lobby?ids={id}")).await;
    assert_eq!(lobby["mine"][0]["names"], json!(["<b>Ana</b>", "Jean"]));
    // A record keeps the names, and an imported one brings them back.
    let record = api.record(&id).await;
    let (status, v) = api
        .post("/api/games/import", None, json!({ "record": record }))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    assert_eq!(
        v["game"]["names"],
        json!({ "south": "<b>Ana</b>", "north": "Jean" })
    );
    let bad = record.replace(
        "[NorthName \"Jean\"]",
        &format!("[NorthName \"{}\"]", "x".repeat(30)),
    );
    let before = count().await;
    let (status, v) = api
        .post("/api/games/import", None, json!({ "record": bad }))
        .await;
    assert_eq!(
        (status, error_code(&v)),
        (StatusCode::UNPROCESSABLE_ENTITY, "invalid_name")
    );
    assert_eq!(count().await, before, "nothing stored");
    api.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chat_is_for_players_short_and_limited_in_rate() {
    let api = Api::start(Store::in_memory().unwrap()).await;
    let (id, south, north) = online(&api, json!({})).await;
    let chat = |token: Option<String>, text: Value| {
        let api = &api;
        let id = id.clone();
        async move {
            api.post(
                &format!("/api/games/{id}/chat"),
                token.as_deref(),
                json!({ "text": text }),
            )
            .await
        }
    };
    let (status, v) = chat(None, json!("hi")).await;
    assert_eq!((status, error_code(&v)), (StatusCode::FORBIDDEN, "forbidden"));
    let (status, v) = chat(Some(south.clone()), json!("x".repeat(201))).await;
    assert_eq!(
        (status, error_code(&v)),
        (StatusCode::UNPROCESSABLE_ENTITY, "chat_too_long")
    );
    let (status, v) = chat(Some(south.clone()), json!("  ")).await;
    assert_eq!(
        (status, error_code(&v)),
        (StatusCode::UNPROCESSABLE_ENTITY, "invalid_chat")
    );
    let (status, v) = chat(Some(north.clone()), json!("<script>alert(1)</script>")).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    assert_eq!((v["seq"].as_u64(), v["side"].as_str()), (Some(1), Some("north")));
    for i in 0..5 {
        let (status, v) = chat(Some(south.clone()), json!(format!("message {i}"))).await;
        assert_eq!(status, StatusCode::CREATED, "{v}");
    }
    let (status, v) = chat(Some(south.clone()), json!("one too many")).await;
    assert_eq!(
        (status, error_code(&v)),
        (StatusCode::TOO_MANY_REQUESTS, "chat_flood")
    );
    let (status, v) = chat(Some(north.clone()), json!("north may still talk")).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let (_, v) = api.get_with(&format!("/api/games/{id}/chat"), Some(&south)).await;
    let texts: Vec<&str> = v["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["text"].as_str().unwrap())
        .collect();
    assert_eq!(texts.len(), 7);
    assert_eq!(texts[0], "<script>alert(1)</script>");
    assert!(!texts.contains(&"one too many"));
    let (hid, htoken, _) = api.create(json!({ "mode": "hotseat" })).await;
    let (status, v) = api
        .post(
            &format!("/api/games/{hid}/chat"),
            Some(&htoken),
            json!({ "text": "hi" }),
        )
        .await;
    assert_eq!(
        (status, error_code(&v)),
        (StatusCode::CONFLICT, "chat_unavailable")
    );
    api.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_lists_open_seats_and_games_being_played_by_variant() {
    let api = Api::start(Store::in_memory().unwrap()).await;
    let (open_id, _, _) = api
        .create(json!({ "mode": "online", "public": true, "rules": { "variant": "III" }, "name": "Ana" }))
        .await;
    let (private_id, _, _) = api
        .create(json!({ "mode": "online", "rules": { "variant": "III" } }))
        .await;
    let (playing_id, _, _) = online(&api, json!({ "public": true, "rules": { "variant": "I" } })).await;
    let (hotseat_id, _, _) = api
        .create(json!({ "mode": "hotseat", "rules": { "variant": "I" } }))
        .await;
    let (_, v) = api.get("/api/lobby?variant=III").await;
    let ids = |list: &Value| {
        list.as_array()
            .unwrap()
            .iter()
            .map(|g| g["id"].as_str().unwrap().to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(ids(&v["open"]), vec![open_id.clone()]);
    assert!(!ids(&v["open"]).contains(&private_id));
    assert!(!ids(&v["playing"]).contains(&playing_id), "filtered by variant");
    let (_, v) = api.get("/api/lobby?variant=I").await;
    assert_eq!(ids(&v["playing"]), vec![playing_id.clone()]);
    assert!(!ids(&v["playing"]).contains(&hotseat_id), "only public games");
    assert_eq!(v["playing"][0]["to_move"], "south");
    // Anyone takes an open seat in one click, with no invite.
    let (status, v) = api
        .post(
            &format!("/api/games/{open_id}/join"),
            None,
            json!({ "name": "Jean" }),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let (status, v) = api
        .post(&format!("/api/games/{private_id}/join"), None, json!({}))
        .await;
    assert_eq!((status, error_code(&v)), (StatusCode::FORBIDDEN, "forbidden"));
    let (_, v) = api.get("/api/lobby").await;
    assert!(ids(&v["open"]).is_empty());
    assert!(ids(&v["playing"]).contains(&open_id));
    for bad in [
        "variant=IV",
        "limit=0",
        "limit=51",
        "offset=10001",
        "limit=x",
        "ids=a;b",
    ] {
        let (status, v) = api.get(&format!("/api/lobby?{bad}")).await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::BAD_REQUEST, "bad_request"),
            "{bad}"
        );
    }
    let many = vec!["a"; 101].join(",");
    let (status, _) = api.get(&format!("/api/lobby?ids={many}")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (status, v) = api
        .post("/api/games", None, json!({ "mode": "hotseat", "public": true }))
        .await;
    assert_eq!(
        (status, error_code(&v)),
        (StatusCode::UNPROCESSABLE_ENTITY, "invalid_mode")
    );
    api.stop().await;
}

/// Moves game `id`'s stored step times `ms` into the past.
fn age_steps(db: &std::path::Path, id: &str, ms: i64) {
    let conn = rusqlite::Connection::open(db).unwrap();
    conn.execute(
        "UPDATE moves SET at_ms = at_ms - ?2 WHERE game_id = ?1",
        rusqlite::params![id, ms],
    )
    .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_clock_runs_out_with_nobody_connected_across_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.db");
    let api = Api::start(Store::open(&db).unwrap()).await;
    for bad in [
        json!({ "initial": 10 }),
        json!({ "initial": 300, "increment": 61 }),
        json!({ "days": 15 }),
        json!({ "days": 1, "initial": 60 }),
        json!({ "minutes": 5 }),
    ] {
        let (status, v) = api
            .post("/api/games", None, json!({ "mode": "online", "clock": bad }))
            .await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{bad}: {v}");
    }
    let (status, v) = api
        .post(
            "/api/games",
            None,
            json!({ "mode": "engine", "clock": { "initial": 180, "increment": 2 } }),
        )
        .await;
    assert_eq!(
        (status, error_code(&v)),
        (StatusCode::UNPROCESSABLE_ENTITY, "invalid_clock")
    );
    let (id, south, north) = online(&api, json!({ "clock": { "initial": 180, "increment": 2 } })).await;
    let g = api.game(&id).await;
    assert_eq!(g["clock"]["running"], Value::Null, "the first move is not timed");
    let (_, v) = api.play(&id, &south, &first_legal(&g)).await;
    let to_move = v["game"]["state"]["to_move"].as_str().unwrap().to_string();
    let clock = &v["game"]["clock"];
    assert_eq!(clock["running"], to_move.as_str());
    assert_eq!(
        (clock["initial"].as_u64(), clock["increment"].as_u64()),
        (Some(180), Some(2))
    );
    api.stop().await;

    // While the server is down, the player to move runs out of time but for a second.
    age_steps(&db, &id, 179_000);
    let api = Api::start(Store::open(&db).unwrap()).await;
    let g = api.game(&id).await;
    assert_eq!(g["status"], "playing", "{g}");
    assert!(g["clock"]["remaining_ms"]
        .as_array()
        .unwrap()
        .iter()
        .any(|r| r.as_i64().unwrap() <= 1000));
    // Nobody is connected; the server's timer ends the game (the lobby
    // reads the store: asking it does not end the game).
    let list = lobby_until_over(&api, &id).await;
    let other = if to_move == "south" { "north" } else { "south" };
    assert_eq!(list["mine"][0]["result"], other);
    let g = api.game(&id).await;
    assert_eq!(
        (g["end"].as_str(), g["flagged"].as_str()),
        (Some("flag"), Some(to_move.as_str()))
    );
    let token = if to_move == "south" { &south } else { &north };
    let seq = g["seq"].clone();
    let (status, v) = api.play(&id, token, "1").await;
    assert_eq!((status, error_code(&v)), (StatusCode::CONFLICT, "flag_fell"));
    assert_eq!(api.game(&id).await["seq"], seq, "nothing stored");
    api.stop().await;

    // A clock that ran out while the server was down ends its game at start.
    let api = Api::start(Store::open(&db).unwrap()).await;
    let (id, south, _) = online(&api, json!({ "clock": { "days": 1 } })).await;
    let g = api.game(&id).await;
    api.play(&id, &south, &first_legal(&g)).await;
    api.stop().await;
    age_steps(&db, &id, 2 * 24 * 3600 * 1000);
    let api = Api::start(Store::open(&db).unwrap()).await;
    lobby_until_over(&api, &id).await;
    api.stop().await;
}

/// Waits until the lobby lists game `id` as over; returns the lobby's answer.
async fn lobby_until_over(api: &Api, id: &str) -> Value {
    eventually(&format!("game {id} listed as over"), || async {
        let (status, list) = api.get(&format!("/api/lobby?ids={id}")).await;
        assert_eq!(status, StatusCode::OK, "{list}");
        (list["mine"][0]["status"] == "over").then_some(list)
    })
    .await
}
