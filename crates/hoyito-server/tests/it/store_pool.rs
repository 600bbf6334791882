//! Reads and the health check do not wait behind a write that waits for a
//! lock another process holds on the database (a real server on loopback
//! over a SQLite file): they are answered while the write still waits.

use std::io::ErrorKind;

use crate::common::{error_code, first_legal, Api, PATIENCE};
use hoyito_server::{ServerLimits, Store};
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Reads from `conn` until `got` holds `end`.
async fn read_until(conn: &mut TcpStream, got: &mut Vec<u8>, end: &[u8]) {
    let mut buf = [0u8; 1024];
    while !got.windows(end.len()).any(|w| w == end) {
        let n = tokio::time::timeout(PATIENCE, conn.read(&mut buf))
            .await
            .expect("an answer")
            .unwrap();
        assert!(n > 0, "closed after {:?}", String::from_utf8_lossy(got));
        got.extend_from_slice(&buf[..n]);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reads_and_health_do_not_wait_behind_a_blocked_write() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.db");
    let api = Api::start_with(Store::open(&db).unwrap(), ServerLimits::default()).await;
    let (id, token, v) = api.create(json!({"mode": "hotseat"})).await;
    let first = first_legal(&v["game"]);

    // Another process takes the write lock and holds it until told to let go.
    let (locked_tx, locked_rx) = std::sync::mpsc::channel();
    let (release_tx, release_rx) = std::sync::mpsc::channel::<()>();
    let holder = std::thread::spawn(move || {
        let conn = rusqlite::Connection::open(&db).unwrap();
        conn.execute_batch("BEGIN IMMEDIATE; UPDATE games SET level = level;")
            .unwrap();
        locked_tx.send(()).unwrap();
        let _ = release_rx.recv();
        conn.execute_batch("ROLLBACK;").unwrap();
    });
    locked_rx.recv().unwrap();

    // A move now waits for the lock. It asks before sending its body
    // (`Expect: 100-continue`): the server's "100 Continue" says its handler
    // is reading the move, which it then stores.
    let body = json!({ "move": first }).to_string();
    let mut mover = TcpStream::connect(api.base.trim_start_matches("http://"))
        .await
        .unwrap();
    mover
        .write_all(
            format!(
                "POST /api/games/{id}/moves HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {token}\r\n\
                 Content-Type: application/json\r\nContent-Length: {}\r\nExpect: 100-continue\r\n\r\n",
                body.len()
            )
            .as_bytes(),
        )
        .await
        .unwrap();
    let mut got = Vec::new();
    read_until(&mut mover, &mut got, b"\r\n\r\n").await;
    let head = String::from_utf8_lossy(&got);
    assert!(head.starts_with("HTTP/1.1 100"), "{head}");
    mover.write_all(body.as_bytes()).await.unwrap();

    // ...while reads are answered,
    let (status, listed) = api.get(&format!("/api/lobby?ids={id}")).await;
    assert_eq!(status, 200, "{listed}");
    assert_eq!(listed["mine"].as_array().unwrap().len(), 1);
    // and the health check says that the database cannot be written now,
    let (status, v) = api.get("/api/health").await;
    assert_eq!((status.as_u16(), error_code(&v)), (503, "storage_unavailable"));
    // both before the move is answered: the lock is still held.
    let mut buf = [0u8; 64];
    assert!(
        matches!(mover.try_read(&mut buf), Err(e) if e.kind() == ErrorKind::WouldBlock),
        "the move was answered while the lock was held"
    );

    // Once the lock goes, the move is stored and health is back.
    release_tx.send(()).unwrap();
    holder.join().unwrap();
    let mut answer = Vec::new();
    read_until(&mut mover, &mut answer, b"\r\n\r\n").await;
    let head = String::from_utf8_lossy(&answer);
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    assert_eq!(api.game(&id).await["seq"], 1);
    let (status, _) = api.get("/api/health").await;
    assert_eq!(status, 200);
    api.stop().await;
}
