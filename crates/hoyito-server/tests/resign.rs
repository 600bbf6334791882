//! Resigning (`POST /api/games/{id}/resign`) against a real server on
//! loopback: it ends a game or a whole match, only a seated player may do
//! it, only while the game goes on, and it survives a restart.

use hoyito_server::Store;
use reqwest::StatusCode;
use serde_json::{json, Value};

mod common;
use common::Api;

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

    async fn listed(&self, id: &str) -> Value {
        let res = self
            .http
            .get(format!("{}/api/games", self.base))
            .send()
            .await
            .expect("request");
        let list: Value = res.json().await.expect("a JSON body");
        list["games"]
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
    // The engine does not play on.
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
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
    // The seated player still can, even before anyone joined.
    let (status, g) = api.resign(&id, Some(&token)).await;
    assert_eq!(status, StatusCode::OK, "{g}");
    assert_eq!(g["resigned"], "south");
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
