//! Who has an online game open, against a real server on loopback: each
//! player's connection and the spectators are counted and sent live
//! (`presence` messages); once a player of a game with a clock of minutes
//! has been away long enough, the other may claim the win or call a draw,
//! which is stored and survives a restart; every claim out of place is
//! refused and changes nothing.

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use hoyito_server::{ServerLimits, Store};
use reqwest::StatusCode;
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

use crate::common;
use crate::common::{error_code, Api, PATIENCE};

type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// A 5+0 online game with both seats taken: (id, south's token, north's token).
async fn timed(api: &Api, clock: Value) -> (String, String, String) {
    let (id, south, created) = api
        .create(json!({ "mode": "online", "clock": clock, "rules": { "variant": "II" } }))
        .await;
    let north = api.join_invited(&created, "Jean").await;
    (id, south, north)
}

/// Opens the game's WebSocket as `token`'s player (or a spectator).
async fn watch(api: &Api, id: &str, token: Option<&str>) -> Socket {
    let url = format!("{}/api/games/{id}/ws", api.base.replace("http://", "ws://"));
    let mut req = url.into_client_request().unwrap();
    if let Some(t) = token {
        req.headers_mut()
            .insert("authorization", format!("Bearer {t}").parse().unwrap());
    }
    tokio_tungstenite::connect_async(req).await.expect("ws connect").0
}

/// Reads messages until one satisfies `f`; fails after [`PATIENCE`].
async fn until(ws: &mut Socket, f: impl Fn(&Value) -> bool) -> Value {
    loop {
        let msg = tokio::time::timeout(PATIENCE, ws.next())
            .await
            .expect("a message in time")
            .expect("an open socket")
            .expect("a message");
        match msg {
            Message::Text(t) => {
                let v: Value = serde_json::from_str(&t).unwrap();
                if f(&v) {
                    return v;
                }
            }
            Message::Ping(p) => ws.send(Message::Pong(p)).await.unwrap(),
            _ => {}
        }
    }
}

/// The presence a message carries (a `presence` message's, or a state's game's).
fn presence(m: &Value) -> &Value {
    if m["type"] == "presence" {
        &m["presence"]
    } else {
        &m["game"]["presence"]
    }
}

async fn claim(api: &Api, id: &str, token: Option<&str>, outcome: &str) -> (StatusCode, Value) {
    api.post(
        &format!("/api/games/{id}/claim"),
        token,
        json!({ "outcome": outcome }),
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_and_spectators_are_counted_live_and_claims_wait_for_a_player_who_left() {
    let api = Api::start(Store::in_memory().unwrap()).await;
    let (id, south, north) = timed(&api, json!({ "initial": 300, "increment": 0 })).await;
    let g = api.game(&id).await;
    assert_eq!(
        g["presence"],
        json!({ "connected": { "south": false, "north": false }, "spectators": 0, "claim": null })
    );

    let mut s = watch(&api, &id, Some(&south)).await;
    let first = until(&mut s, |m| m["type"] == "state").await;
    assert_eq!(
        presence(&first)["connected"],
        json!({ "south": true, "north": false }),
        "{first}"
    );
    // North is away: South may claim, but not before North has been away 60 s.
    let c = &presence(&first)["claim"];
    assert_eq!(c["by"], "south");
    assert_eq!(c["ready"], false);
    let (status, v) = claim(&api, &id, Some(&south), "win").await;
    assert_eq!(status, StatusCode::CONFLICT, "{v}");
    assert_eq!(error_code(&v), "too_early_to_claim");
    // North is the one away: North claims nothing.
    let (status, v) = claim(&api, &id, Some(&north), "win").await;
    assert_eq!(error_code(&v), "claim_unavailable", "{status} {v}");

    let mut spectator = watch(&api, &id, None).await;
    until(&mut s, |m| {
        m["type"] == "presence" && m["presence"]["spectators"] == 1
    })
    .await;
    let mut n = watch(&api, &id, Some(&north)).await;
    let both = until(&mut s, |m| presence(m)["connected"]["north"] == true).await;
    assert_eq!(presence(&both)["claim"], Value::Null, "{both}");
    let (status, v) = claim(&api, &id, Some(&south), "draw").await;
    assert_eq!(status, StatusCode::CONFLICT, "{v}");
    assert_eq!(error_code(&v), "opponent_connected");
    n.close(None).await.unwrap();
    let left = until(&mut spectator, |m| presence(m)["connected"]["north"] == false).await;
    assert_eq!(presence(&left)["claim"]["by"], "south");
    spectator.close(None).await.unwrap();
    until(&mut s, |m| {
        m["type"] == "presence" && m["presence"]["spectators"] == 0
    })
    .await;

    // Refused claims changed nothing.
    let g = api.game(&id).await;
    assert_eq!(
        (g["status"].as_str(), g["seq"].as_u64()),
        (Some("playing"), Some(0))
    );
    let (status, v) = claim(&api, &id, None, "win").await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{v}");
    let (status, v) = claim(&api, &id, Some(&south), "everything").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    assert_eq!(error_code(&v), "invalid_fields");

    // Without a clock of minutes, nobody claims: an untimed game, a correspondence one.
    for clock in [Value::Null, json!({ "days": 1 })] {
        let (other, south2, _) = timed(&api, clock).await;
        let mut ws = watch(&api, &other, Some(&south2)).await;
        let first = until(&mut ws, |m| m["type"] == "state").await;
        assert_eq!(presence(&first)["claim"], Value::Null);
        let (status, v) = claim(&api, &other, Some(&south2), "win").await;
        assert_eq!(status, StatusCode::CONFLICT, "{v}");
        assert_eq!(error_code(&v), "claim_unavailable");
    }
    api.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_claimed_win_is_stored_and_survives_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.db");
    let limits = ServerLimits {
        claim_after: Duration::from_millis(300),
        ..ServerLimits::default()
    };
    let api = Api::start_with(Store::open(&db).unwrap(), limits.clone()).await;
    let (id, south, north) = timed(&api, json!({ "initial": 300, "increment": 0 })).await;
    let mut s = watch(&api, &id, Some(&south)).await;
    // The server tells when the claim may be made (its timer), without being asked.
    until(&mut s, |m| presence(m)["claim"]["ready"] == true).await;
    let (status, v) = claim(&api, &id, Some(&north), "draw").await;
    assert_eq!(error_code(&v), "claim_unavailable", "{status} {v}");
    let (status, won) = claim(&api, &id, Some(&south), "win").await;
    assert_eq!(status, StatusCode::OK, "{won}");
    assert_eq!(
        (won["status"].as_str(), won["end"].as_str()),
        (Some("over"), Some("left"))
    );
    assert_eq!(won["abandoned"], "north");
    assert_eq!(won["history"][0]["kind"], "left");
    let over = until(&mut s, |m| m["type"] == "state" && m["game"]["status"] == "over").await;
    assert_eq!(over["game"]["presence"]["claim"], Value::Null);
    let (status, v) = claim(&api, &id, Some(&south), "win").await;
    assert_eq!((status, error_code(&v)), (StatusCode::CONFLICT, "game_over"));
    drop(s);
    api.stop().await;

    let api = Api::start_with(Store::open(&db).unwrap(), limits).await;
    let after = api.game(&id).await;
    for key in ["status", "end", "abandoned", "seq", "history"] {
        assert_eq!(after[key], won[key], "{key} after a restart");
    }
    let record = api.record(&id).await;
    assert!(
        record.contains("[Termination \"north left the game\"]"),
        "{record}"
    );
    api.stop().await;
}

/// Opens a WebSocket with `origin` and `token`; the refusal's status and
/// JSON body if refused.
async fn try_watch(
    api: &Api,
    id: &str,
    token: Option<&str>,
    origin: Option<&str>,
) -> Result<Socket, (u16, Value)> {
    let url = format!("{}/api/games/{id}/ws", api.base.replace("http://", "ws://"));
    let mut req = url.into_client_request().unwrap();
    if let Some(t) = token {
        req.headers_mut()
            .insert("authorization", format!("Bearer {t}").parse().unwrap());
    }
    if let Some(o) = origin {
        req.headers_mut().insert("origin", o.parse().unwrap());
    }
    match tokio_tungstenite::connect_async(req).await {
        Ok((ws, _)) => Ok(ws),
        Err(tokio_tungstenite::tungstenite::Error::Http(res)) => {
            let body = res.body().clone().unwrap_or_default();
            Err((
                res.status().as_u16(),
                serde_json::from_slice(&body).unwrap_or(Value::Null),
            ))
        }
        Err(e) => panic!("ws connect: {e}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sockets_of_other_sites_or_beyond_a_pages_need_are_refused_and_a_reconnecting_player_is_not_away() {
    let limits = ServerLimits {
        max_websockets_per_ip_per_game: 2,
        claim_after: Duration::from_secs(600),
        ..ServerLimits::default()
    };
    let api = Api::start_with(Store::in_memory().unwrap(), limits).await;
    let (id, south, north) = timed(&api, json!({ "initial": 300, "increment": 0 })).await;
    // A page of another site cannot open the game's sockets.
    let refused = try_watch(&api, &id, None, Some("https://evil.example")).await;
    let Err((403, body)) = refused else {
        panic!("a socket from another site was served")
    };
    assert_eq!(error_code(&body), "bad_origin");
    // The server's own pages can, up to the cap of one address on one game.
    let own = api.base.clone();
    let _s = try_watch(&api, &id, Some(&south), Some(&own))
        .await
        .expect("south's socket");
    let _spectator = try_watch(&api, &id, None, None).await.expect("a spectator");
    let refused = try_watch(&api, &id, None, None).await;
    let Err((429, body)) = refused else {
        panic!("a third socket of one address on one game was served")
    };
    assert_eq!(error_code(&body), "too_many_websockets");
    // North, away, keeps trying to reconnect (refused here by the cap): the
    // claim against north moves on with each attempt.
    let first = api.game(&id).await["presence"]["claim"]["at_ms"]
        .as_i64()
        .expect("a claim");
    common::eventually("north's attempt moves the claim on", || async {
        let refused = try_watch(&api, &id, Some(&north), None).await;
        assert!(matches!(refused, Err((429, _))), "north's socket was served");
        let at = api.game(&id).await["presence"]["claim"]["at_ms"]
            .as_i64()
            .expect("a claim");
        (at > first).then_some(())
    })
    .await;
    api.stop().await;
}
