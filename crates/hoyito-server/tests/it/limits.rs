//! Timeouts and caps against a real server on loopback (127.0.0.1, a free
//! port), with short limits so that each test takes a few seconds. The tests
//! wait for what a limit does (a close, an answer), never for a fixed time;
//! [`PATIENCE`] only bounds a test whose server is broken.

use std::net::SocketAddr;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use hoyito_server::{spawn_local_with, ServerLimits, Store};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;

/// How long a test waits for an event before it fails: far beyond the short
/// limits, and below the default ones.
const PATIENCE: Duration = Duration::from_secs(8);

fn short_limits() -> ServerLimits {
    ServerLimits {
        header_read_timeout: Duration::from_millis(500),
        body_read_timeout: Duration::from_millis(500),
        ws_ping_interval: Duration::from_millis(300),
        ws_idle_timeout: Duration::from_millis(900),
        ..ServerLimits::default()
    }
}

/// Reads until the server closes the connection; returns what it sent, or
/// panics after [`PATIENCE`].
async fn read_until_closed(stream: &mut TcpStream) -> String {
    String::from_utf8_lossy(&read_bytes_until_closed(stream).await).into_owned()
}

/// [`read_until_closed`], as bytes.
async fn read_bytes_until_closed(stream: &mut TcpStream) -> Vec<u8> {
    let deadline = tokio::time::Instant::now() + PATIENCE;
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        match tokio::time::timeout_at(deadline, stream.read(&mut buf)).await {
            Err(_) => panic!(
                "the server kept the connection open for {PATIENCE:?}; it sent {:?}",
                String::from_utf8_lossy(&got)
            ),
            Ok(Ok(0)) | Ok(Err(_)) => return got,
            Ok(Ok(n)) => got.extend_from_slice(&buf[..n]),
        }
    }
}

async fn health(addr: SocketAddr) -> reqwest::StatusCode {
    reqwest::Client::new()
        .get(format!("http://{addr}/api/health"))
        .timeout(Duration::from_secs(5))
        .send()
        .await
        .expect("health answers")
        .status()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn half_sent_headers_and_idle_connections_are_closed() {
    let (addr, server) = spawn_local_with(Store::in_memory().unwrap(), short_limits())
        .await
        .unwrap();
    // Half a request head, never finished.
    let mut half = TcpStream::connect(addr).await.unwrap();
    half.write_all(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        .await
        .unwrap();
    // A connection that never sends anything.
    let mut silent = TcpStream::connect(addr).await.unwrap();
    // A keep-alive connection left idle after one answered request.
    let mut idle = TcpStream::connect(addr).await.unwrap();
    idle.write_all(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        .await
        .unwrap();
    for (name, stream) in [("half", &mut half), ("silent", &mut silent), ("idle", &mut idle)] {
        let sent = read_until_closed(stream).await;
        if name == "idle" {
            assert!(sent.starts_with("HTTP/1.1 200"), "{sent}");
        }
    }
    assert_eq!(health(addr).await, reqwest::StatusCode::OK);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unfinished_body_is_refused_in_time() {
    let (addr, server) = spawn_local_with(Store::in_memory().unwrap(), short_limits())
        .await
        .unwrap();
    let mut slow = TcpStream::connect(addr).await.unwrap();
    slow.write_all(
        b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n\
          Content-Length: 100\r\n\r\n{\"mode\":",
    )
    .await
    .unwrap();
    let sent = read_until_closed(&mut slow).await;
    assert!(sent.starts_with("HTTP/1.1 408"), "{sent}");
    assert!(sent.contains("\"code\":\"body_timeout\""), "{sent}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_beyond_the_cap_wait_and_health_answers_once_one_closes() {
    let limits = ServerLimits {
        max_connections: 4,
        ..short_limits()
    };
    let (addr, server) = spawn_local_with(Store::in_memory().unwrap(), limits)
        .await
        .unwrap();
    let mut held = Vec::new();
    for _ in 0..4 {
        held.push(TcpStream::connect(addr).await.unwrap());
    }
    // A fifth connection is not served while four are open...
    let mut fifth = TcpStream::connect(addr).await.unwrap();
    fifth
        .write_all(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        .await
        .unwrap();
    // ...and is served once the idle ones time out: by the time its answer
    // arrives, the server has closed one of the four (it closes a
    // connection before it frees its slot).
    let sent = read_until_closed(&mut fifth).await;
    assert!(sent.starts_with("HTTP/1.1 200"), "{sent}");
    let mut buf = [0u8; 64];
    let closed = held
        .iter()
        .filter(|c| !matches!(c.try_read(&mut buf), Err(e) if e.kind() == std::io::ErrorKind::WouldBlock))
        .count();
    assert!(closed >= 1, "the fifth connection was served beyond the cap");
    drop(held);
    server.stop().await;
}

async fn game_ws(addr: SocketAddr) -> String {
    let res: serde_json::Value = reqwest::Client::new()
        .post(format!("http://{addr}/api/games"))
        .json(&serde_json::json!({ "mode": "hotseat" }))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    format!("ws://{addr}/api/games/{}/ws", res["id"].as_str().unwrap())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_oversized_websocket_message_closes_that_socket_only() {
    let (addr, server) = spawn_local_with(Store::in_memory().unwrap(), short_limits())
        .await
        .unwrap();
    let url = game_ws(addr).await;
    let (mut good, _) = tokio_tungstenite::connect_async(&url).await.unwrap();
    let (mut bad, _) = tokio_tungstenite::connect_async(&url).await.unwrap();
    good.next().await.unwrap().unwrap();
    bad.next().await.unwrap().unwrap();
    // 64 KiB where the protocol reads `ping`.
    let _ = bad.send(Message::Text("x".repeat(64 * 1024).into())).await;
    let closed = tokio::time::timeout(PATIENCE, async {
        loop {
            match bad.next().await {
                None | Some(Err(_)) | Some(Ok(Message::Close(_))) => break,
                Some(Ok(_)) => {}
            }
        }
    })
    .await;
    assert!(closed.is_ok(), "the oversized message did not close its socket");
    // The other socket and the server carry on.
    good.send(Message::Text("ping".into())).await.unwrap();
    let pong = loop {
        match tokio::time::timeout(PATIENCE, good.next()).await {
            // Who has the game open changed: the other socket closed.
            Ok(Some(Ok(Message::Text(t)))) if t.starts_with(r#"{"type":"presence""#) => {}
            Ok(Some(Ok(Message::Text(t)))) => break t,
            Ok(Some(Ok(_))) => {}
            other => panic!("the good socket broke: {other:?}"),
        }
    };
    assert_eq!(pong.as_str(), "pong");
    assert_eq!(health(addr).await, reqwest::StatusCode::OK);
    server.stop().await;
}

/// How many ping frames are in `frames`, frames from the server (unmasked).
fn count_pings(mut frames: &[u8]) -> usize {
    let mut pings = 0;
    while frames.len() >= 2 {
        let (op, len7) = (frames[0] & 0x0f, usize::from(frames[1] & 0x7f));
        let (len, head) = match len7 {
            126 if frames.len() >= 4 => (usize::from(u16::from_be_bytes([frames[2], frames[3]])), 4),
            127 if frames.len() >= 10 => (
                usize::try_from(u64::from_be_bytes(frames[2..10].try_into().unwrap())).unwrap(),
                10,
            ),
            126 | 127 => break,
            n => (n, 2),
        };
        if frames.len() < head + len {
            break;
        }
        pings += usize::from(op == 0x9);
        frames = &frames[head + len..];
    }
    pings
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_websocket_that_never_answers_pings_is_closed() {
    let limits = ServerLimits {
        ws_ping_interval: Duration::from_millis(100),
        ..short_limits()
    };
    let (addr, server) = spawn_local_with(Store::in_memory().unwrap(), limits)
        .await
        .unwrap();
    let url = game_ws(addr).await;
    // A client that reads all the time, and so answers every ping: its
    // pings (true) and its end (false) go to `events`.
    let (mut ws, _) = tokio_tungstenite::connect_async(&url).await.unwrap();
    let (events_tx, mut events) = tokio::sync::mpsc::unbounded_channel();
    let reader = tokio::spawn(async move {
        loop {
            match ws.next().await {
                Some(Ok(Message::Ping(_))) => {
                    if events_tx.send(true).is_err() {
                        return;
                    }
                }
                Some(Ok(_)) => {}
                None | Some(Err(_)) => {
                    let _ = events_tx.send(false);
                    return;
                }
            }
        }
    });
    // A raw client that completes the handshake, then reads but never answers.
    let mut raw = TcpStream::connect(addr).await.unwrap();
    let path = url.split_once(&addr.to_string()).unwrap().1;
    raw.write_all(
        format!(
            "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\
             Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
        )
        .as_bytes(),
    )
    .await
    .unwrap();
    let sent = read_bytes_until_closed(&mut raw).await;
    let head_end = sent
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("an answer to the handshake");
    let head = String::from_utf8_lossy(&sent[..head_end]);
    assert!(head.starts_with("HTTP/1.1 101"), "{head}");
    // Closed for its silence, not at once: it was pinged first.
    let pings = count_pings(&sent[head_end + 4..]);
    assert!(pings >= 2, "closed after {pings} pings");
    // The client that answers, open since before the silent one, is still
    // open after the silent one was closed, and still pinged.
    while let Ok(event) = events.try_recv() {
        assert!(event, "the client that answers pings was closed");
    }
    let next = tokio::time::timeout(PATIENCE, events.recv())
        .await
        .expect("a ping for the client that answers");
    assert_eq!(next, Some(true), "the client that answers pings was closed");
    reader.abort();
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shutdown_finishes_within_its_deadline_despite_half_sent_requests() {
    // Requests that would wait an hour for their head or body.
    let limits = ServerLimits {
        header_read_timeout: Duration::from_secs(3600),
        body_read_timeout: Duration::from_secs(3600),
        shutdown_grace: Duration::from_millis(800),
        ..ServerLimits::default()
    };
    let (addr, server) = spawn_local_with(Store::in_memory().unwrap(), limits)
        .await
        .unwrap();
    let mut half_head = TcpStream::connect(addr).await.unwrap();
    half_head
        .write_all(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        .await
        .unwrap();
    let mut half_body = TcpStream::connect(addr).await.unwrap();
    half_body
        .write_all(
            b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n\
              Content-Length: 100\r\n\r\n{",
        )
        .await
        .unwrap();
    // The server took both connections in: it accepts in turn, and answers
    // a connection opened after them.
    assert_eq!(health(addr).await, reqwest::StatusCode::OK);
    // Shutdown ends them after its grace, not after their timeouts.
    tokio::time::timeout(PATIENCE, server.stop())
        .await
        .expect("the server stops despite the half-sent requests");
    for stream in [&mut half_head, &mut half_body] {
        read_until_closed(stream).await;
    }
}
