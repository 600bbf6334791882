//! The daily quota of stored games per address (`--create-quota`): past
//! it, creations and imports get 429 `daily_quota` with `Retry-After` and
//! store nothing; refused requests do not count. Against a real server on
//! loopback, with the rate per minute turned off.

use hoyito_server::{Rate, ServerLimits, Store};
use reqwest::StatusCode;
use serde_json::json;

use crate::common;
use crate::common::{error_code, Api};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_address_stores_at_most_its_daily_quota_of_games() {
    let limits = ServerLimits {
        create_quota: 3,
        create_rate: Rate::OFF,
        ..ServerLimits::default()
    };
    let api = Api::start_with(Store::in_memory().unwrap(), limits).await;
    let count = || async { api.get("/api/health").await.1["games"].as_u64().unwrap() };
    // Refused requests do not count.
    for _ in 0..5 {
        let (status, v) = api
            .post("/api/games", None, json!({ "mode": "engine", "level": 11 }))
            .await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    }
    let (id, token, _) = api.create(json!({ "mode": "hotseat" })).await;
    api.create(json!({ "mode": "online" })).await;
    let record = api.record(&id).await;
    let (status, v) = api
        .post("/api/games/import", None, json!({ "record": record }))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    assert_eq!(count().await, 3);

    // The quota is used up: creations and imports are refused.
    for (path, body) in [
        ("/api/games", json!({ "mode": "hotseat" })),
        ("/api/games/import", json!({ "record": record })),
    ] {
        let res = api
            .http
            .post(format!("{}{path}", api.base))
            .json(&body)
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::TOO_MANY_REQUESTS, "{path}");
        let retry: u64 = res.headers()["retry-after"].to_str().unwrap().parse().unwrap();
        assert!((1..=24 * 60 * 60).contains(&retry), "{retry}");
        let v: serde_json::Value = res.json().await.unwrap();
        assert_eq!(error_code(&v), "daily_quota", "{v}");
        assert!(v["error"].as_str().unwrap().contains("24 hours"), "{v}");
    }
    assert_eq!(count().await, 3, "nothing stored");
    // Playing the games stored goes on.
    let g = api.game(&id).await;
    let (status, v) = api.play(&id, &token, &common::first_legal(&g)).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    api.stop().await;

    // 0 turns the quota off.
    let limits = ServerLimits {
        create_quota: 0,
        create_rate: Rate::OFF,
        ..ServerLimits::default()
    };
    let api = Api::start_with(Store::in_memory().unwrap(), limits).await;
    for _ in 0..10 {
        api.create(json!({ "mode": "hotseat" })).await;
    }
    api.stop().await;
}
