//! What a game that is not public shows to someone who is not a player,
//! against a real server on loopback: it is never listed (`GET /api/games`,
//! the lobby), its chat is refused without a player's token, and its chat
//! messages reach only the WebSockets opened with one; a public game's
//! spectators read its chat as before.

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use hoyito_server::Store;
use reqwest::StatusCode;
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

use crate::common::{error_code, Api};

type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// An online game with both seats taken: (id, south's token, north's token).
async fn online(api: &Api, public: bool) -> (String, String, String) {
    let (id, south, created) = api
        .create(json!({ "mode": "online", "public": public, "rules": { "variant": "II" } }))
        .await;
    let body = match created["invite"].as_str() {
        Some(link) => json!({ "invite": link.split("invite=").nth(1).unwrap() }),
        None => json!({}),
    };
    let (status, joined) = api.post(&format!("/api/games/{id}/join"), None, body).await;
    assert_eq!(status, StatusCode::OK, "{joined}");
    (id, south, joined["token"].as_str().unwrap().to_string())
}

fn ids(list: &Value) -> Vec<String> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap().to_string())
        .collect()
}

/// Opens the game's WebSocket, with `protocols` offered
/// (`Sec-WebSocket-Protocol`), and reads its first `state` message.
async fn watch(api: &Api, id: &str, protocols: Option<&str>) -> Socket {
    let url = format!("{}/api/games/{id}/ws", api.base.replace("http://", "ws://"));
    let mut req = url.into_client_request().unwrap();
    if let Some(p) = protocols {
        req.headers_mut()
            .insert("sec-websocket-protocol", p.parse().unwrap());
    }
    let (mut ws, res) = tokio_tungstenite::connect_async(req).await.expect("ws connect");
    if protocols.is_some() {
        assert_eq!(res.headers()["sec-websocket-protocol"], "hoyito");
    }
    assert_eq!(next(&mut ws).await["type"], "state");
    ws
}

/// The socket's next JSON message, skipping `presence` messages (who has
/// the game open: other sockets come and go).
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

/// Sends a chat message from `token`'s seat, then a draw offer from
/// `offerer`, so that every watcher gets a `state` message after the chat.
async fn chat_then_offer(api: &Api, id: &str, token: &str, offerer: &str) {
    let (status, v) = api
        .post(
            &format!("/api/games/{id}/chat"),
            Some(token),
            json!({ "text": "hola" }),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let (status, v) = api
        .post(
            &format!("/api/games/{id}/draw"),
            Some(offerer),
            json!({ "action": "offer" }),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_that_are_not_public_are_never_listed() {
    let api = Api::start(Store::in_memory().unwrap()).await;
    let (private_id, _, _) = online(&api, false).await;
    let (public_id, _, _) = online(&api, true).await;
    let (waiting_id, _, _) = api.create(json!({ "mode": "online" })).await;
    let (hot_id, _, _) = api.create(json!({ "mode": "hotseat" })).await;
    let (engine_id, _, _) = api.create(json!({ "mode": "engine", "level": 1 })).await;
    let hidden = [&private_id, &waiting_id, &hot_id, &engine_id];

    for path in [
        "/api/games",
        "/api/games?status=playing",
        "/api/games?status=waiting",
    ] {
        let (status, v) = api.get(path).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let listed = ids(&v["games"]);
        for id in hidden {
            assert!(!listed.contains(id), "{path} lists {id}: {v}");
        }
    }
    let (_, v) = api.get("/api/games").await;
    assert_eq!(ids(&v["games"]), vec![public_id.clone()]);

    let (status, v) = api.get("/api/lobby").await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(ids(&v["playing"]), vec![public_id.clone()]);
    assert!(ids(&v["open"]).is_empty(), "{v}");

    // The browser that holds seats finds its games by their ids.
    let (_, v) = api
        .get(&format!("/api/lobby?ids={private_id},{hot_id},{engine_id}"))
        .await;
    let mut mine = ids(&v["mine"]);
    mine.sort();
    let mut expected = vec![private_id.clone(), hot_id.clone(), engine_id.clone()];
    expected.sort();
    assert_eq!(mine, expected);
    api.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_chat_of_a_game_that_is_not_public_is_for_its_players() {
    let api = Api::start(Store::in_memory().unwrap()).await;
    let (id, south, north) = online(&api, false).await;
    let (_, engine_token, engine) = api.create(json!({ "mode": "engine", "level": 1 })).await;
    let engine_id = engine["id"].as_str().unwrap();
    let mut spectator = watch(&api, &id, None).await;
    let mut spectator_offering = watch(&api, &id, Some("hoyito")).await;
    let mut player = watch(&api, &id, Some(&format!("hoyito, hoyito.bearer.{north}"))).await;
    let mut stranger = watch(&api, &id, Some(&format!("hoyito, hoyito.bearer.{engine_token}"))).await;
    chat_then_offer(&api, &id, &south, &south).await;

    let m = next(&mut player).await;
    assert_eq!(
        (m["type"].as_str(), m["message"]["text"].as_str()),
        (Some("chat"), Some("hola"))
    );
    assert_eq!(next(&mut player).await["game"]["draw_offer"], "south");
    for ws in [&mut spectator, &mut spectator_offering, &mut stranger] {
        let m = next(ws).await;
        assert_eq!(m["type"], "state", "no chat before the state: {m}");
        assert_eq!(m["game"]["draw_offer"], "south");
    }

    let chat = format!("/api/games/{id}/chat");
    for token in [
        None,
        Some("0123456789abcdef0123456789abcdef"),
        Some(engine_token.as_str()),
    ] {
        let (status, v) = api.get_with(&chat, token).await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::FORBIDDEN, "forbidden"),
            "{v}"
        );
    }
    for token in [&south, &north] {
        let (status, v) = api.get_with(&chat, Some(token)).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert_eq!(v["messages"][0]["text"], "hola");
    }
    // The game itself stays open to anyone who has its id.
    assert_eq!(api.game(&id).await["status"], "playing");
    let (status, _) = api.get(&format!("/api/games/{engine_id}")).await;
    assert_eq!(status, StatusCode::OK);
    api.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spectators_read_the_chat_of_a_public_game() {
    let api = Api::start(Store::in_memory().unwrap()).await;
    let (id, south, north) = online(&api, true).await;
    let mut spectator = watch(&api, &id, None).await;
    chat_then_offer(&api, &id, &north, &south).await;
    let m = next(&mut spectator).await;
    assert_eq!(
        (m["type"].as_str(), m["message"]["text"].as_str()),
        (Some("chat"), Some("hola"))
    );
    assert_eq!(next(&mut spectator).await["type"], "state");
    let (status, v) = api.get(&format!("/api/games/{id}/chat")).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["messages"][0]["text"], "hola");
    api.stop().await;
}
