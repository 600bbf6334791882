//! `GET /metrics` of a real server on loopback: Prometheus text with the
//! moves stored, request latency by route, open WebSockets, the engine
//! queue and the games in memory; and no metrics when turned off.

use crate::common::{first_legal, Api, PATIENCE};
use futures_util::StreamExt;
use hoyito_server::{ServerLimits, Store};
use serde_json::json;
use tokio_tungstenite::tungstenite::Message;

async fn scrape(api: &Api) -> (reqwest::StatusCode, String, String) {
    let res = api
        .http
        .get(format!("{}/metrics", api.base))
        .send()
        .await
        .unwrap();
    let status = res.status();
    let ctype = res.headers()["content-type"].to_str().unwrap().to_string();
    (status, ctype, res.text().await.unwrap())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_count_moves_requests_and_sockets() {
    let api = Api::start(Store::in_memory().unwrap()).await;
    let (id, token, v) = api.create(json!({"mode": "hotseat"})).await;
    let (status, _) = api.play(&id, &token, &first_legal(&v["game"])).await;
    assert_eq!(status, 200);
    let url = format!("{}/api/games/{id}/ws", api.base.replace("http://", "ws://"));
    let (mut socket, _) = tokio_tungstenite::connect_async(&url).await.unwrap();
    // The server counts the socket open before it sends the game's state.
    let first = tokio::time::timeout(PATIENCE, socket.next())
        .await
        .expect("the game's state on the socket");
    assert!(matches!(first, Some(Ok(Message::Text(_)))), "{first:?}");
    let (status, ctype, text) = scrape(&api).await;
    assert_eq!(status, 200);
    assert!(ctype.starts_with("text/plain; version=0.0.4"), "{ctype}");
    for line in [
        "hoyito_moves_total 1",
        "hoyito_websockets_open 1",
        "hoyito_engine_queue_depth 0",
        "hoyito_games_in_memory 1",
        "hoyito_db_errors_total 0",
        "hoyito_rate_limited_total 0",
        "hoyito_http_requests_total{route=\"/api/games/{id}/moves\",status=\"200\"} 1",
        "hoyito_http_requests_total{route=\"/api/games\",status=\"201\"} 1",
        "hoyito_http_request_duration_seconds_count{route=\"/api/games/{id}/moves\"} 1",
    ] {
        assert!(text.lines().any(|l| l == line), "no line {line:?} in\n{text}");
    }
    api.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_can_be_turned_off() {
    let limits = ServerLimits {
        metrics: false,
        ..ServerLimits::default()
    };
    let api = Api::start_with(Store::in_memory().unwrap(), limits).await;
    let (_, _, text) = scrape(&api).await;
    assert!(!text.contains("hoyito_moves_total"), "{text}");
    api.stop().await;
}
