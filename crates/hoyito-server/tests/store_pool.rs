//! Reads and the health check stay fast while a write waits for a lock
//! that another process holds on the database (a real server on loopback
//! over a SQLite file).

mod common;

use std::time::{Duration, Instant};

use common::{error_code, first_legal, Api};
use hoyito_server::{Limits, Store};
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reads_and_health_do_not_wait_behind_a_blocked_write() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.db");
    let api = Api::start_with(Store::open(&db).unwrap(), Limits::default()).await;
    let (id, token, v) = api.create(json!({"mode": "hotseat"})).await;
    let first = first_legal(&v["game"]);

    // Another process takes the write lock and holds it for 3 s.
    let (locked_tx, locked_rx) = std::sync::mpsc::channel();
    let holder = std::thread::spawn(move || {
        let conn = rusqlite::Connection::open(&db).unwrap();
        conn.execute_batch("BEGIN IMMEDIATE; UPDATE games SET level = level;")
            .unwrap();
        locked_tx.send(()).unwrap();
        std::thread::sleep(Duration::from_secs(3));
        conn.execute_batch("ROLLBACK;").unwrap();
    });
    locked_rx.recv().unwrap();

    // A move now waits for the lock...
    let mover = {
        let (base, id, token) = (api.base.clone(), id.clone(), token.clone());
        tokio::spawn(async move {
            let res = reqwest::Client::new()
                .post(format!("{base}/api/games/{id}/moves"))
                .bearer_auth(token)
                .json(&json!({ "move": first }))
                .send()
                .await
                .unwrap();
            res.status()
        })
    };
    tokio::time::sleep(Duration::from_millis(300)).await;
    // ...while reads answer at once,
    let start = Instant::now();
    let (status, listed) = api.get("/api/games").await;
    assert_eq!(status, 200, "{listed}");
    assert_eq!(listed["games"].as_array().unwrap().len(), 1);
    assert!(
        start.elapsed() < Duration::from_secs(1),
        "list took {:?}",
        start.elapsed()
    );
    // and the health check says, within a second, that the database cannot
    // be written now.
    let start = Instant::now();
    let (status, v) = api.get("/api/health").await;
    assert!(
        start.elapsed() < Duration::from_secs(1),
        "health took {:?}",
        start.elapsed()
    );
    assert_eq!((status.as_u16(), error_code(&v)), (503, "storage_unavailable"));

    // Once the lock goes, the move is stored and health is back.
    holder.join().unwrap();
    assert_eq!(mover.await.unwrap(), 200);
    assert_eq!(api.game(&id).await["seq"], 1);
    let (status, _) = api.get("/api/health").await;
    assert_eq!(status, 200);
    api.stop().await;
}
