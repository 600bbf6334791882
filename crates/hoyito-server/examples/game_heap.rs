//! The Rust heap a game held in memory costs: a server in this process (on
//! loopback, SQLite in a temporary file), `N` hot-seat games created
//! through the API, and the bytes still allocated afterwards, counted by a
//! global allocator (dhat's heap profiler). SQLite's own memory (its page cache) is not counted:
//! it is bounded, whatever the number of games; `scripts/load.sh` measures
//! the whole process.
//!
//! ```sh
//! cargo run -p hoyito-server --example game_heap -- 3000
//! ```

use hoyito_server::{spawn_local_with, ServerLimits, Store};
use serde_json::json;

/// Counts the bytes allocated and freed (dhat's heap profiler).
#[global_allocator]
static GLOBAL: dhat::Alloc = dhat::Alloc;

async fn create(http: &reqwest::Client, base: &str) {
    let res = http
        .post(format!("{base}/api/games"))
        .json(&json!({ "mode": "hotseat" }))
        .send()
        .await
        .expect("a request on loopback");
    assert_eq!(res.status(), reqwest::StatusCode::CREATED);
    res.bytes().await.expect("a body");
}

#[tokio::main]
async fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .map(|a| a.parse().expect("N: a number of games"))
        .unwrap_or(20_000);
    let dir = tempfile::tempdir().expect("a temporary directory");
    let store = Store::open(&dir.path().join("heap.db")).expect("a SQLite file");
    let limits = ServerLimits {
        create_rate: hoyito_server::Rate::OFF,
        create_quota: 0,
        ..ServerLimits::default()
    };
    let (addr, server) = spawn_local_with(store, limits).await.expect("bind on loopback");
    let base = format!("http://{addr}");
    let http = reqwest::Client::new();
    // Warm up: the first requests allocate what every later one reuses.
    for _ in 0..200 {
        create(&http, &base).await;
    }
    // The profile (allocation sites, viewable with dhat's viewer) goes to
    // the temporary directory; only the live bytes are printed.
    let profiler = dhat::Profiler::builder()
        .file_name(dir.path().join("dhat-heap.json"))
        .build();
    let start = dhat::HeapStats::get().curr_bytes as isize;
    for i in 0..n {
        create(&http, &base).await;
        if (i + 1) % 5000 == 0 {
            eprintln!("{} games", i + 1);
        }
    }
    let grown = dhat::HeapStats::get().curr_bytes as isize - start;
    drop(profiler);
    println!(
        "{n} idle games: Rust heap +{} KiB, {:.0} bytes per game",
        grown / 1024,
        grown as f64 / n as f64
    );
    println!(
        "sizes: LiveGame {} B, Meta {} B, Contest {} B, Position {} B",
        std::mem::size_of::<hoyito_server::live::LiveGame>(),
        std::mem::size_of::<hoyito_server::store::Meta>(),
        std::mem::size_of::<hoyito_core::Contest>(),
        std::mem::size_of::<hoyito_core::Position>(),
    );
    server.stop().await;
}
