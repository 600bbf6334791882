//! Timeouts and caps against a real server on loopback (127.0.0.1, a free
//! port), with short limits so that each test takes a few seconds.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use hoyito_server::{spawn_local_with, Limits, Store};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;

fn short_limits() -> Limits {
    Limits {
        header_read_timeout: Duration::from_millis(500),
        body_read_timeout: Duration::from_millis(500),
        ws_ping_interval: Duration::from_millis(300),
        ws_idle_timeout: Duration::from_millis(900),
        ..Limits::default()
    }
}

/// Reads until the server closes the connection; returns what it sent and
/// how long that took, or panics after `limit`.
async fn read_until_closed(stream: &mut TcpStream, limit: Duration) -> (String, Duration) {
    let start = Instant::now();
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        match tokio::time::timeout_at((start + limit).into(), stream.read(&mut buf)).await {
            Err(_) => panic!(
                "the server kept the connection open for {limit:?}; it sent {:?}",
                String::from_utf8_lossy(&got)
            ),
            Ok(Ok(0)) | Ok(Err(_)) => return (String::from_utf8_lossy(&got).into_owned(), start.elapsed()),
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
        let (sent, took) = read_until_closed(stream, Duration::from_secs(3)).await;
        assert!(took < Duration::from_secs(3), "{name}");
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
    let (sent, _) = read_until_closed(&mut slow, Duration::from_secs(3)).await;
    assert!(sent.starts_with("HTTP/1.1 408"), "{sent}");
    assert!(sent.contains("\"code\":\"body_timeout\""), "{sent}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_beyond_the_cap_wait_and_health_answers_once_one_closes() {
    let limits = Limits {
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
    let mut buf = [0u8; 64];
    let early = tokio::time::timeout(Duration::from_millis(200), fifth.read(&mut buf)).await;
    assert!(early.is_err(), "the fifth connection was served beyond the cap");
    // ...and is served once the idle ones time out.
    let (sent, _) = read_until_closed(&mut fifth, Duration::from_secs(3)).await;
    assert!(sent.starts_with("HTTP/1.1 200"), "{sent}");
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
    let closed = tokio::time::timeout(Duration::from_secs(3), async {
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
        match tokio::time::timeout(Duration::from_secs(3), good.next()).await {
            Ok(Some(Ok(Message::Text(t)))) => break t,
            Ok(Some(Ok(_))) => {}
            other => panic!("the good socket broke: {other:?}"),
        }
    };
    assert_eq!(pong.as_str(), "pong");
    assert_eq!(health(addr).await, reqwest::StatusCode::OK);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_websocket_that_never_answers_pings_is_closed() {
    let (addr, server) = spawn_local_with(Store::in_memory().unwrap(), short_limits())
        .await
        .unwrap();
    let url = game_ws(addr).await;
    // Answers pings only while it reads: read for a while, then stop.
    let (mut ws, _) = tokio_tungstenite::connect_async(&url).await.unwrap();
    let mut pings = 0;
    let until = Instant::now() + Duration::from_millis(1500);
    while let Ok(Some(Ok(m))) = tokio::time::timeout_at(until.into(), ws.next()).await {
        pings += usize::from(matches!(m, Message::Ping(_)));
    }
    assert!(pings >= 2, "the server sent {pings} pings in 1.5 s");
    // A raw client that completes the handshake and then stays silent.
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
    let (sent, took) = read_until_closed(&mut raw, Duration::from_secs(4)).await;
    assert!(sent.starts_with("HTTP/1.1 101"), "{sent}");
    assert!(took >= Duration::from_millis(800), "closed after {took:?}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shutdown_finishes_within_its_deadline_despite_half_sent_requests() {
    let limits = Limits {
        header_read_timeout: Duration::from_secs(60),
        body_read_timeout: Duration::from_secs(60),
        shutdown_grace: Duration::from_millis(800),
        ..Limits::default()
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
    // Let the server take both requests in.
    tokio::time::sleep(Duration::from_millis(200)).await;
    let start = Instant::now();
    tokio::time::timeout(Duration::from_secs(5), server.stop())
        .await
        .expect("the server stops despite the half-sent requests");
    assert!(start.elapsed() < Duration::from_secs(3), "{:?}", start.elapsed());
    for stream in [&mut half_head, &mut half_body] {
        read_until_closed(stream, Duration::from_secs(2)).await;
    }
}
