//! The WebSocket of a game: its state on connect, then every change.

use std::sync::Arc;

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::response::Response;
use serde::Serialize;
use tokio::sync::{broadcast, watch};

use crate::error::ApiError;
use crate::state::{AppState, Slot};
use crate::view::{GameView, MoveEvent};

#[derive(Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
enum WsMessage<'a> {
    State {
        game: &'a GameView,
    },
    Move {
        r#move: &'a MoveEvent,
        game: &'a GameView,
    },
}

pub(crate) fn broadcast_state(slot: &Slot, game: &GameView) {
    let msg = serde_json::to_string(&WsMessage::State { game }).expect("serialise");
    let _ = slot.tx.send(msg.into());
}

pub(crate) fn broadcast_move(slot: &Slot, ev: &MoveEvent, game: &GameView) {
    let msg = serde_json::to_string(&WsMessage::Move { r#move: ev, game }).expect("serialise");
    let _ = slot.tx.send(msg.into());
}

pub(crate) async fn ws(
    State(st): State<Arc<AppState>>,
    Path(id): Path<String>,
    upgrade: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    let slot = st.slot(&id).await?;
    let shutdown = st.shutdown.clone();
    Ok(upgrade.on_upgrade(move |socket| ws_session(socket, slot, shutdown)))
}

async fn ws_session(mut socket: WebSocket, slot: Arc<Slot>, mut shutdown: watch::Receiver<bool>) {
    let mut rx = slot.tx.subscribe();
    let snapshot =
        |view: &GameView| serde_json::to_string(&WsMessage::State { game: view }).expect("serialise");
    let first = snapshot(&slot.game.lock().await.view());
    if socket.send(Message::Text(first.into())).await.is_err() {
        return;
    }
    loop {
        tokio::select! {
            msg = rx.recv() => {
                let text: String = match msg {
                    Ok(m) => m.to_string(),
                    Err(broadcast::error::RecvError::Lagged(_)) => snapshot(&slot.game.lock().await.view()),
                    Err(broadcast::error::RecvError::Closed) => break,
                };
                if socket.send(Message::Text(text.into())).await.is_err() {
                    break;
                }
            }
            incoming = socket.recv() => {
                match incoming {
                    Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
                    Some(Ok(Message::Text(t))) if t.as_str() == "ping" => {
                        if socket.send(Message::Text("pong".into())).await.is_err() {
                            break;
                        }
                    }
                    Some(Ok(_)) => {}
                }
            }
            _ = shutdown.changed() => {
                let _ = socket.send(Message::Close(None)).await;
                break;
            }
        }
    }
}
