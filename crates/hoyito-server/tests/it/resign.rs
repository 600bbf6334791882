//! Resigning (`POST /api/games/{id}/resign`) against a real server on
//! loopback: it ends a game or a whole match, only a seated player may do
//! it, only while the game goes on, and it survives a restart.

use hoyito_server::Store;
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::common::Api;

impl Api {
    async fn play_first(&self, id: &str, token: &str) -> (StatusCode, Value) {
        let g = self.game(id).await;
        let mv = g["legal"][0].as_str().expect("a legal move").to_string();
        self.post(
            &format!("/api/games/{id}/moves"),
            Some(token),
            json!({ "move": mv }),
        )
        .await
    }

    async fn resign(&self, id: &str, token: Option<&str>) -> (StatusCode, Value) {
        self.post(&format!("/api/games/{id}/resign"), token, json!({}))
            .await
    }

    async fn resign_round(&self, id: &str, token: Option<&str>) -> (StatusCode, Value) {
        self.post(
            &format!("/api/games/{id}/resign"),
            token,
            json!({ "scope": "round" }),
        )
        .await
    }

    async fn listed(&self, id: &str) -> Value {
        let res = self
            .http
            .get(format!("{}/api/lobby?ids={id}", self.base))
            .send()
            .await
            .expect("request");
        let list: Value = res.json().await.expect("a JSON body");
        list["mine"]
            .as_array()
            .expect("a list of games")
            .iter()
            .find(|g| g["id"] == id)
            .expect("the game is listed")
            .clone()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resigning_ends_a_hotseat_game_with_the_player_to_move_losing() {
    let api = Api::start(Store::in_memory().unwrap()).await;
    let (id, token, _) = api
        .create(json!({ "mode": "hotseat", "rules": { "variant": "I" } }))
        .await;
    let (status, v) = api.play_first(&id, &token).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let mover = v["game"]["state"]["to_move"].as_str().unwrap().to_string();
    let other = if mover == "south" { "north" } else { "south" };

    let (status, g) = api.resign(&id, Some(&token)).await;
    assert_eq!(status, StatusCode::OK, "{g}");
    assert_eq!(g["status"], "over");
    assert_eq!(g["end"], "resign");
    assert_eq!(g["resigned"], mover);
    assert_eq!(g["seq"], 2);
    assert_eq!(g["legal"], json!([]));
    let last = &g["history"][1];
    assert_eq!(last["kind"], "resign");
    assert_eq!(last["side"], mover);
    assert_eq!(last["token"], format!("resign:{mover}"));
    let listed = api.listed(&id).await;
    assert_eq!(listed["status"], "over");
    assert_eq!(listed["result"], other);

    // Nothing goes on after it.
    let (status, v) = api
        .post(
            &format!("/api/games/{id}/moves"),
            Some(&token),
            json!({ "move": "1" }),
        )
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{v}");
    assert_eq!(v["code"], "game_over");
    let (status, v) = api
        .post(&format!("/api/games/{id}/undo"), Some(&token), json!({}))
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{v}");
    assert_eq!(v["code"], "game_over");
    let (status, v) = api.resign(&id, Some(&token)).await;
    assert_eq!(status, StatusCode::CONFLICT, "{v}");
    assert_eq!(v["code"], "game_over");
    assert_eq!(api.game(&id).await["seq"], 2);
    api.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resigning_ends_a_whole_match_against_the_engine() {
    let api = Api::start(Store::in_memory().unwrap()).await;
    let (id, token, _) = api
        .create(json!({ "mode": "engine", "match": true, "level": 1, "side": "south", "rules": { "variant": "I" } }))
        .await;
    let (status, g) = api.resign(&id, Some(&token)).await;
    assert_eq!(status, StatusCode::OK, "{g}");
    assert_eq!(g["status"], "over");
    assert_eq!(g["end"], "resign");
    assert_eq!(g["resigned"], "south");
    assert_eq!(g["match_result"]["winner"], "north");
    assert_eq!(g["match_result"]["rounds"], 1);
    assert_eq!(g["can_next_round"], false);
    // The engine does not play on. An engine kicked by the resignation would
    // have moved by the time the engine of a game created after it has (same
    // level, same engine permits): that move is the event waited for.
    let (control, _, _) = api
        .create(json!({ "mode": "engine", "match": true, "level": 1, "side": "north", "rules": { "variant": "I" } }))
        .await;
    api.wait_for(&control, |g| {
        g["seq"].as_u64() >= Some(1) && g["thinking"] == false
    })
    .await;
    let after = api.game(&id).await;
    assert_eq!(after["seq"], g["seq"]);
    assert_eq!(after["thinking"], false);
    let (status, v) = api
        .post(&format!("/api/games/{id}/next-round"), Some(&token), json!({}))
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{v}");
    api.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_spectator_cannot_resign_and_changes_nothing() {
    let api = Api::start(Store::in_memory().unwrap()).await;
    let (id, token, _) = api
        .create(json!({ "mode": "online", "side": "south", "rules": { "variant": "I" } }))
        .await;
    let before = api.game(&id).await;
    for bad in [None, Some("not-a-seat-token")] {
        let (status, v) = api.resign(&id, bad).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{v}");
        assert_eq!(v["code"], "forbidden");
    }
    let after = api.game(&id).await;
    assert_eq!(after["seq"], before["seq"]);
    assert_eq!(after["status"], before["status"]);
    assert_eq!(after["end"], Value::Null);
    // Before anyone joined there is nobody to win: the seated player
    // aborts instead (the view says so), and a resignation changes nothing.
    assert_eq!(before["may"]["south"]["resign"], false, "{before}");
    assert_eq!(before["may"]["south"]["abort"], true, "{before}");
    let (status, v) = api.resign(&id, Some(&token)).await;
    assert_eq!(status, StatusCode::CONFLICT, "{v}");
    assert_eq!(v["code"], "waiting_for_opponent");
    assert_eq!(api.game(&id).await["seq"], before["seq"]);
    let (status, v) = api.resign(&id, Some("nope")).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{v}");
    api.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resigning_a_game_played_to_its_end_is_a_conflict() {
    let api = Api::start(Store::in_memory().unwrap()).await;
    let (id, token, _) = api
        .create(json!({ "mode": "hotseat", "rules": { "variant": "I", "holes": 4 } }))
        .await;
    for _ in 0..500 {
        if api.game(&id).await["status"] == "over" {
            break;
        }
        let (status, v) = api.play_first(&id, &token).await;
        assert_eq!(status, StatusCode::OK, "{v}");
    }
    let g = api.game(&id).await;
    assert_eq!(g["status"], "over", "the game ends");
    assert_eq!(g["end"], "play");
    let (status, v) = api.resign(&id, Some(&token)).await;
    assert_eq!(status, StatusCode::CONFLICT, "{v}");
    assert_eq!(v["code"], "game_over");
    assert_eq!(api.game(&id).await["seq"], g["seq"]);
    api.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_resignation_survives_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.db");
    let api = Api::start(Store::open(&db).unwrap()).await;
    let (id, token, _) = api
        .create(json!({ "mode": "hotseat", "match": true, "rules": { "variant": "I" } }))
        .await;
    for _ in 0..2 {
        let (status, v) = api.play_first(&id, &token).await;
        assert_eq!(status, StatusCode::OK, "{v}");
    }
    let (status, before) = api.resign(&id, Some(&token)).await;
    assert_eq!(status, StatusCode::OK, "{before}");
    api.stop().await;

    let api = Api::start(Store::open(&db).unwrap()).await;
    let after = api.game(&id).await;
    for key in [
        "seq",
        "status",
        "end",
        "resigned",
        "match_result",
        "legal",
        "history",
        "state",
    ] {
        assert_eq!(after[key], before[key], "{key} after restart");
    }
    assert_eq!(after["end"], "resign");
    let (status, v) = api
        .post(
            &format!("/api/games/{id}/moves"),
            Some(&token),
            json!({ "move": "1" }),
        )
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{v}");
    assert_eq!(v["code"], "game_over");
    api.stop().await;
}

/// The seeds still in play in a game view.
fn in_play(g: &Value) -> u64 {
    g["state"]["board"]
        .as_array()
        .expect("a board")
        .iter()
        .map(|c| c.as_u64().unwrap())
        .sum()
}

fn captured(g: &Value, side: &str) -> u64 {
    g["state"]["captured"][if side == "south" { 0 } else { 1 }]
        .as_u64()
        .unwrap()
}

/// Plays first legal moves in a hot-seat match until the player to move has
/// captured at least 4 seeds (so they can resign the round and play on).
async fn until_mover_has_captured(api: &Api, id: &str, token: &str) -> Value {
    for _ in 0..200 {
        let g = api.game(id).await;
        let mover = g["state"]["to_move"].as_str().unwrap().to_string();
        if captured(&g, &mover) >= 4 {
            return g;
        }
        let (status, v) = api.play_first(id, token).await;
        assert_eq!(status, StatusCode::OK, "{v}");
    }
    panic!("no capture by the player to move in 200 moves");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resigning_a_round_gives_its_seeds_away_and_the_match_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.db");
    let api = Api::start(Store::open(&db).unwrap()).await;
    let (id, token, _) = api
        .create(json!({ "mode": "hotseat", "match": true, "rules": { "variant": "I" } }))
        .await;
    let before = until_mover_has_captured(&api, &id, &token).await;
    let mover = before["state"]["to_move"].as_str().unwrap().to_string();
    let other = if mover == "south" { "north" } else { "south" };
    let (status, g) = api.resign_round(&id, Some(&token)).await;
    assert_eq!(status, StatusCode::OK, "{g}");
    // The round is over and counted; the match is not.
    assert_eq!(g["end"], Value::Null, "{g}");
    assert_eq!(g["resigned"], Value::Null);
    assert_eq!(g["match_result"], Value::Null);
    assert_eq!(g["can_next_round"], true);
    assert_eq!(g["seq"], before["seq"].as_u64().unwrap() + 1);
    assert_eq!(in_play(&g), 0);
    assert_eq!(captured(&g, &mover), captured(&before, &mover));
    assert_eq!(
        captured(&g, other),
        captured(&before, other) + in_play(&before),
        "the seeds in play go to the other side"
    );
    assert_eq!(g["rounds"][0]["reason"], "conceded");
    let last = g["history"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(last["kind"], "concede");
    assert_eq!(last["side"], mover.as_str());
    assert_eq!(last["token"], format!("concede:{mover}"));
    // Resigning the round again is a conflict and stores nothing.
    let (status, v) = api.resign_round(&id, Some(&token)).await;
    assert_eq!(status, StatusCode::CONFLICT, "{v}");
    assert_eq!(v["code"], "round_over");
    assert_eq!(api.game(&id).await["seq"], g["seq"]);
    api.stop().await;

    // It survives a restart, the record carries it, and the match goes on.
    let api = Api::start(Store::open(&db).unwrap()).await;
    let after = api.game(&id).await;
    for key in ["seq", "state", "history", "rounds", "can_next_round"] {
        assert_eq!(after[key], g[key], "{key} after restart");
    }
    let record = api.record(&id).await;
    assert!(record.contains(&format!("concede:{mover}")), "{record}");
    let (status, imported) = api
        .post("/api/games/import", None, json!({ "record": record }))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{imported}");
    let copy = api.game(imported["id"].as_str().unwrap()).await;
    assert_eq!(copy["state"], g["state"]);
    assert_eq!(copy["history"], g["history"]);
    let (status, v) = api
        .post(&format!("/api/games/{id}/next-round"), Some(&token), json!({}))
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["round"], 2);
    let (status, v) = api.play_first(&id, &token).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    api.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resigning_round_one_at_the_start_loses_the_match() {
    // South resigns round 1 before capturing anything: North takes all 48
    // seeds, and South, left with fewer than 4, loses the match (§5).
    let api = Api::start(Store::in_memory().unwrap()).await;
    let (id, token, _) = api
        .create(json!({ "mode": "engine", "match": true, "level": 1, "side": "south", "rules": { "variant": "I" } }))
        .await;
    let (status, g) = api.resign_round(&id, Some(&token)).await;
    assert_eq!(status, StatusCode::OK, "{g}");
    assert_eq!(g["status"], "over");
    assert_eq!(g["end"], "play");
    assert_eq!(g["match_result"]["winner"], "north");
    assert_eq!(g["state"]["captured"], json!([0, 48]));
    assert_eq!(g["can_next_round"], false);
    api.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_round_resignations_change_nothing() {
    let api = Api::start(Store::in_memory().unwrap()).await;
    let (game, game_token, _) = api
        .create(json!({ "mode": "hotseat", "rules": { "variant": "I" } }))
        .await;
    let (status, v) = api.resign_round(&game, Some(&game_token)).await;
    assert_eq!(status, StatusCode::CONFLICT, "{v}");
    assert_eq!(v["code"], "not_a_match");
    let (id, token, _) = api
        .create(json!({ "mode": "online", "match": true, "side": "south", "rules": { "variant": "I" } }))
        .await;
    for (body, code) in [
        (json!({ "scope": "rounds" }), "invalid_fields"),
        (json!({ "scope": 1 }), "invalid_fields"),
        (json!({ "scope": "round", "side": "north" }), "invalid_fields"),
    ] {
        let (status, v) = api
            .post(&format!("/api/games/{id}/resign"), Some(&token), body.clone())
            .await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}: {v}");
        assert_eq!(v["code"], code);
    }
    let (status, v) = api.resign_round(&id, None).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{v}");
    for g in [api.game(&id).await, api.game(&game).await] {
        assert_eq!(g["seq"], 0, "{g}");
        assert_eq!(g["end"], Value::Null, "{g}");
    }
    // Without a body, resigning ends the whole game, as it always did.
    let res = api
        .http
        .post(format!("{}/api/games/{game}/resign", api.base))
        .bearer_auth(&game_token)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    let g: Value = res.json().await.unwrap();
    assert_eq!(g["end"], "resign", "{g}");
    api.stop().await;
}
