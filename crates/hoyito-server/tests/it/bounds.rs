//! What bounds a game, against a real server on loopback: its steps (a
//! move, a new round or an import past the cap is refused, and the game can
//! still end) and the seeds of an imported record's `Position` tag.

use crate::common::{error_code, first_legal, Api};
use hoyito_server::{ServerLimits, Store};
use reqwest::StatusCode;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_has_at_most_max_steps_played_or_imported() {
    let limits = ServerLimits {
        max_steps: 4,
        ..ServerLimits::default()
    };
    let api = Api::start_with(Store::in_memory().unwrap(), limits).await;
    let (id, token, _) = api.create(json!({ "mode": "hotseat" })).await;
    for _ in 0..4 {
        let g = api.game(&id).await;
        let (status, v) = api.play(&id, &token, &first_legal(&g)).await;
        assert_eq!(status, StatusCode::OK, "{v}");
    }
    let g = api.game(&id).await;
    let (status, v) = api.play(&id, &token, &first_legal(&g)).await;
    assert_eq!(
        (status, error_code(&v)),
        (StatusCode::UNPROCESSABLE_ENTITY, "game_too_long"),
        "{v}"
    );
    assert_eq!(api.game(&id).await["seq"], 4, "nothing played");
    // The game can still end.
    let (status, v) = api
        .post(&format!("/api/games/{id}/resign"), Some(&token), json!({}))
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");

    // A longer record, played where the cap is the default, is not imported.
    let other = Api::start(Store::in_memory().unwrap()).await;
    let (long, long_token, _) = other.create(json!({ "mode": "hotseat" })).await;
    for _ in 0..6 {
        let g = other.game(&long).await;
        let (status, v) = other.play(&long, &long_token, &first_legal(&g)).await;
        assert_eq!(status, StatusCode::OK, "{v}");
    }
    let record = other.record(&long).await;
    other.stop().await;
    let (status, v) = api
        .post("/api/games/import", None, json!({ "record": record }))
        .await;
    assert_eq!(
        (status, error_code(&v)),
        (StatusCode::UNPROCESSABLE_ENTITY, "game_too_long"),
        "{v}"
    );
    let (_, health) = api.get("/api/health").await;
    assert_eq!(health["games"], 1, "nothing stored: {health}");
    api.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_imported_position_has_no_more_seeds_than_the_server_plays() {
    let api = Api::start(Store::in_memory().unwrap()).await;
    let import = |position: &str| {
        let record = format!("[Variant \"II\"]\n[Position \"{position}\"]\n\n*\n");
        let api = &api;
        async move {
            api.post("/api/games/import", None, json!({ "record": record }))
                .await
        }
    };
    // 240 seeds on a 2x6 board: 20 a hole.
    let (status, v) = import("20,20,20,20,20,20/20,20,20,20,20,20 s 0-0").await;
    assert_eq!(
        (status, error_code(&v)),
        (StatusCode::UNPROCESSABLE_ENTITY, "invalid_record"),
        "{v}"
    );
    assert!(v["error"].as_str().unwrap().contains("240 seeds"), "{v}");
    // As many as 8 a hole would make (some captured) is played.
    let (status, v) = import("8,8,8,8,8,8/8,8,8,8,8,0 s 0-8").await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    api.stop().await;
}
