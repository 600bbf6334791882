//! The WebSocket of a game: its state on connect, then every change. Chat
//! messages of a game that is not public go only to sockets opened with a
//! player's token ([`ws_token`]).

use std::sync::Arc;
use std::time::Duration;

use tokio::time::Instant;

use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use tokio::sync::{broadcast, watch};

use crate::error::ApiError;
use crate::http::client_ip::ClientIp;
use crate::http::extract::ApiPath;
use crate::http::listen::WS_MAX_MESSAGE;
use crate::room::view::GameView;
use crate::state::slot::{WsMessage, CHAT_PREFIX};
use crate::state::{AppState, Slot};

/// The subprotocol the browser offers (with [`BEARER_PROTOCOL`]) and the
/// server picks.
const PROTOCOL: &str = "hoyito";

/// A browser cannot set `Authorization` on a WebSocket: it offers the
/// subprotocol `hoyito.bearer.<token>` instead (never in the URL, which
/// proxies log).
const BEARER_PROTOCOL: &str = "hoyito.bearer.";

/// The seat token a WebSocket upgrade carries: `Authorization: Bearer`, or
/// a [`BEARER_PROTOCOL`] subprotocol.
fn ws_token(headers: &HeaderMap, upgrade: &WebSocketUpgrade) -> Option<String> {
    if let Some(t) = crate::http::seat::bearer(headers) {
        return Some(t.to_string());
    }
    upgrade
        .requested_protocols()
        .filter_map(|p| p.to_str().ok())
        .flat_map(|p| p.split(','))
        .find_map(|p| p.trim().strip_prefix(BEARER_PROTOCOL).map(str::to_string))
        .filter(|t| !t.is_empty())
}

/// `GET /api/games/{id}/ws`: upgrades to the game's WebSocket. An unknown
/// game is a 404 and a request that is not a WebSocket upgrade a 400 or 426,
/// as JSON; beyond [`crate::ServerLimits::max_websockets`] open sockets, a 503.
pub(crate) async fn ws(
    State(st): State<Arc<AppState>>,
    ApiPath(id): ApiPath<String>,
    ClientIp(client): ClientIp,
    headers: HeaderMap,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    let slot = st.slot(&id).await?;
    check_origin(&headers, &st.limits.allowed_origins)?;
    let upgrade = upgrade.map_err(|e| ApiError::new(e.status(), "not_websocket", e.body_text()))?;
    let token = ws_token(&headers, &upgrade);
    let (reads_chat, seat) = {
        let mut g = slot.game.lock().await;
        let reads = crate::http::handlers::chat::may_read_chat(&g, token.as_deref());
        let seat = g.seat_of(token.as_deref());
        // A player whose page tries to reconnect is not away, even if this
        // socket is refused below.
        if seat.is_some() {
            let was = g.presence_view(crate::store::now()).claim;
            g.presence.attempt(seat, crate::store::now());
            if g.presence_view(crate::store::now()).claim != was {
                crate::jobs::presence::changed(&st, &slot, &mut g);
            }
        }
        (reads, seat)
    };
    let per_game = st.ws_per_ip_game.try_take((client, id.clone())).ok_or_else(|| {
        ApiError::too_many(
            "too_many_websockets",
            "too many open WebSockets on this game from your address: close some first",
        )
        .retry_after(5)
    })?;
    let per_ip = st.ws_per_ip.try_take(client).ok_or_else(|| {
        ApiError::too_many(
            "too_many_websockets",
            "too many open WebSockets from your address: close some first",
        )
        .retry_after(5)
    })?;
    let permit = st.ws_slots.clone().try_acquire_owned().map_err(|_| {
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "too_many_websockets",
            "the server holds as many WebSockets as it may: try again later",
        )
    })?;
    let open = st.metrics.websockets.clone();
    let watcher = Socket {
        st: st.clone(),
        seat,
        slot,
        shutdown: st.shutdown.clone(),
        ping_every: st.limits.ws_ping_interval,
        idle_timeout: st.limits.ws_idle_timeout,
        reads_chat,
    };
    Ok(upgrade
        .protocols([PROTOCOL])
        .max_message_size(WS_MAX_MESSAGE)
        .max_frame_size(WS_MAX_MESSAGE)
        .read_buffer_size(WS_READ_BUFFER)
        .write_buffer_size(WS_WRITE_BUFFER)
        .max_write_buffer_size(WS_MAX_WRITE_BUFFER)
        .on_upgrade(move |socket| async move {
            open.inc();
            watcher.run(socket).await;
            open.dec();
            drop((permit, per_ip, per_game));
        }))
}

/// 403 `bad_origin` unless the upgrade's `Origin` (if any: browsers always
/// send one) is the server's own (its host is the request's `Host`) or one
/// of `allowed`: a page of another site cannot open sockets from its
/// visitors' browsers.
fn check_origin(headers: &HeaderMap, allowed: &[String]) -> Result<(), ApiError> {
    let Some(origin) = super::origin::of(headers) else {
        return Ok(());
    };
    let same = super::origin::own(headers, origin);
    let listed = super::origin::listed(origin, allowed);
    if same || listed {
        return Ok(());
    }
    Err(ApiError::new(
        StatusCode::FORBIDDEN,
        "bad_origin",
        format!("WebSockets are not served to pages of {origin:?}"),
    ))
}

/// A `state` message of `view`.
fn snapshot(view: &GameView) -> String {
    serde_json::to_string(&WsMessage::State { game: view }).expect("serialise")
}

/// The read buffer of a WebSocket (tungstenite's default is 128 KiB): the
/// client only ever sends `ping`.
const WS_READ_BUFFER: usize = 4 * 1024;
/// Bytes buffered before a write goes out (messages larger are written at once).
const WS_WRITE_BUFFER: usize = 16 * 1024;

/// The most bytes a WebSocket buffers for its client beyond the kernel's
/// send buffer (its largest message, a full view of a game at
/// [`crate::ServerLimits::max_steps`], fits): each send first waits for the
/// one before to be written, within [`crate::ServerLimits::write_timeout`].
const WS_MAX_WRITE_BUFFER: usize = 2 * 1024 * 1024;

/// One open WebSocket.
struct Socket {
    st: Arc<AppState>,
    /// The seat of the socket's token (none: a spectator), counted in the
    /// game's presence while the socket is open.
    seat: Option<hoyito_room::Seat>,
    slot: Arc<Slot>,
    shutdown: watch::Receiver<bool>,
    ping_every: Duration,
    idle_timeout: Duration,
    /// Whether chat messages go to this socket ([`crate::http::handlers::chat::may_read_chat`]).
    reads_chat: bool,
}

impl Socket {
    /// Sends the game's state, then every change, answers `ping` with
    /// `pong`, pings the client, and closes on shutdown, on a client silent
    /// for the idle timeout, or on a send that does not complete in it.
    async fn run(mut self, mut socket: WebSocket) {
        // The others hear of this socket; it hears of itself in its first
        // state, and of every change after it: subscribed under the game's
        // lock, after the state's view, it misses nothing that view lacks.
        let (mut rx, first) = {
            let mut g = self.slot.game.lock().await;
            g.presence.join(self.seat);
            crate::jobs::presence::changed(&self.st, &self.slot, &mut g);
            (self.slot.subscribe(), snapshot(&g.view()))
        };
        if self.send(&mut socket, Message::Text(first.into())).await {
            self.serve(&mut socket, &mut rx).await;
        }
        let mut g = self.slot.game.lock().await;
        g.presence.leave(self.seat, crate::store::now());
        crate::jobs::presence::changed(&self.st, &self.slot, &mut g);
    }

    /// After the first state: every change, `pong` for `ping`, pings, until
    /// the socket closes or the server shuts down.
    async fn serve(&mut self, socket: &mut WebSocket, rx: &mut broadcast::Receiver<Arc<str>>) {
        let mut last_heard = Instant::now();
        let mut ping = tokio::time::interval_at(Instant::now() + self.ping_every, self.ping_every);
        ping.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                msg = rx.recv() => {
                    let text: String = match msg {
                        Ok(m) if !self.reads_chat && m.starts_with(CHAT_PREFIX) => continue,
                        Ok(m) => m.to_string(),
                        Err(broadcast::error::RecvError::Lagged(_)) => {
                            snapshot(&self.slot.game.lock().await.view())
                        }
                        Err(broadcast::error::RecvError::Closed) => break,
                    };
                    if !self.send(socket, Message::Text(text.into())).await {
                        break;
                    }
                }
                incoming = socket.recv() => {
                    last_heard = Instant::now();
                    match incoming {
                        // Errors include a message or frame over the size limit.
                        Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
                        Some(Ok(Message::Text(t))) if t.as_str() == "ping" => {
                            if !self.send(socket, Message::Text("pong".into())).await {
                                break;
                            }
                        }
                        Some(Ok(_)) => {}
                    }
                }
                _ = ping.tick() => {
                    if last_heard.elapsed() >= self.idle_timeout
                        || !self.send(socket, Message::Ping(Default::default())).await
                    {
                        break;
                    }
                }
                _ = self.shutdown.changed() => {
                    let _ = self.send(socket, Message::Close(None)).await;
                    break;
                }
            }
        }
    }

    /// Sends a message; false if the socket failed or the send did not
    /// complete within the idle timeout (a client that does not read).
    async fn send(&self, socket: &mut WebSocket, msg: Message) -> bool {
        matches!(
            tokio::time::timeout(self.idle_timeout, socket.send(msg)).await,
            Ok(Ok(()))
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sockets_are_served_to_the_servers_own_pages_and_listed_origins() {
        let headers = |origin: Option<&str>| {
            let mut h = HeaderMap::new();
            h.insert(axum::http::header::HOST, "play.example:8080".parse().unwrap());
            if let Some(o) = origin {
                h.insert(axum::http::header::ORIGIN, o.parse().unwrap());
            }
            h
        };
        let listed = vec!["https://hoyito.example".to_string()];
        for ok in [
            None,
            Some("http://play.example:8080"),
            Some("https://PLAY.example:8080"),
        ] {
            assert!(check_origin(&headers(ok), &[]).is_ok(), "{ok:?}");
        }
        assert!(check_origin(&headers(Some("https://hoyito.example")), &listed).is_ok());
        for bad in [
            "https://evil.example",
            "http://play.example",
            "null",
            "http://play.example:8080.evil.example",
        ] {
            let e = check_origin(&headers(Some(bad)), &listed).unwrap_err();
            assert_eq!((e.status, e.code), (StatusCode::FORBIDDEN, "bad_origin"), "{bad}");
        }
    }

    #[test]
    fn chat_messages_are_known_by_their_start() {
        let message = crate::store::ChatMessage {
            seq: 1,
            side: hoyito_core::Side::South,
            text: "hola".into(),
            at_ms: 0,
        };
        let text = serde_json::to_string(&WsMessage::Chat { message: &message }).unwrap();
        assert!(text.starts_with(CHAT_PREFIX), "{text}");
    }
}
