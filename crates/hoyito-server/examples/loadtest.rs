//! A bounded load test of the Hoyito server, on loopback only.
//!
//! ```text
//! cargo run --release -p hoyito-server --example loadtest -- \
//!     [--games 100] [--think-ms 1000] [--seconds 15] [--no-ws] [--url http://127.0.0.1:PORT]
//! ```
//!
//! `--games` hot-seat games are played at once, each by one client task
//! that makes a random legal move, waits `--think-ms`, and so on; a finished
//! game is replaced by a new one. Each game also has a WebSocket watcher
//! (unless `--no-ws`) that receives every move. Without `--url` the server
//! runs in this process on 127.0.0.1 with a SQLite file in a temporary
//! directory; with it, the target must be a loopback address. The run stops
//! after `--seconds` (and at most 5,000,000 moves). It prints the number of
//! moves, moves per second and the latency of a move round trip (POST sent
//! → response with the stored move received): p50, p90, p99, max.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures_util::StreamExt;
use rand::seq::IndexedRandom;
use rand::SeedableRng;
use serde_json::{json, Value};

const MAX_MOVES: u64 = 5_000_000;

struct Opts {
    games: usize,
    think: Duration,
    seconds: u64,
    ws: bool,
    url: Option<String>,
}

fn parse_args() -> Result<Opts, String> {
    let mut o = Opts {
        games: 100,
        think: Duration::from_millis(1000),
        seconds: 15,
        ws: true,
        url: None,
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut val = || args.next().ok_or_else(|| format!("{a} needs a value"));
        match a.as_str() {
            "--games" => o.games = val()?.parse().map_err(|e| format!("--games: {e}"))?,
            "--think-ms" => {
                o.think = Duration::from_millis(val()?.parse().map_err(|e| format!("--think-ms: {e}"))?)
            }
            "--seconds" => o.seconds = val()?.parse().map_err(|e| format!("--seconds: {e}"))?,
            "--no-ws" => o.ws = false,
            "--url" => o.url = Some(val()?),
            _ => return Err(format!("unknown argument {a}")),
        }
    }
    if o.games == 0 || o.games > 20_000 {
        return Err("--games must be 1 to 20000".into());
    }
    if o.seconds == 0 || o.seconds > 600 {
        return Err("--seconds must be 1 to 600".into());
    }
    if let Some(u) = &o.url {
        let host = u
            .trim_start_matches("http://")
            .split([':', '/'])
            .next()
            .unwrap_or("");
        if !(host == "localhost" || host.starts_with("127.")) {
            return Err("--url must be a loopback address (127.x.x.x or localhost)".into());
        }
    }
    Ok(o)
}

#[derive(Default)]
struct Stats {
    latencies_us: std::sync::Mutex<Vec<u32>>,
    errors: AtomicU64,
    /// How many errors of each kind (`create 503`, `move: no answer`, …).
    error_kinds: std::sync::Mutex<std::collections::BTreeMap<String, u64>>,
    moves: AtomicU64,
    games_done: AtomicU64,
    ws_messages: AtomicU64,
}

impl Stats {
    /// Counts a failed request: `what` (create, move) and how it failed.
    fn error(&self, what: &str, res: &Result<reqwest::Response, reqwest::Error>) {
        self.errors.fetch_add(1, Ordering::Relaxed);
        let how = match res {
            Ok(r) => r.status().as_u16().to_string(),
            Err(e) if e.is_timeout() => "timed out".to_string(),
            Err(e) if e.is_connect() => {
                // The cause, once per run: the error's chain of sources.
                static SHOWN: std::sync::Once = std::sync::Once::new();
                SHOWN.call_once(|| {
                    let mut cause = String::new();
                    let mut source = std::error::Error::source(e);
                    while let Some(s) = source {
                        cause.push_str(&format!(": {s}"));
                        source = s.source();
                    }
                    eprintln!("first failed connection: {e}{cause}");
                });
                "no connection".to_string()
            }
            Err(_) => "no answer".to_string(),
        };
        *self
            .error_kinds
            .lock()
            .unwrap()
            .entry(format!("{what} {how}"))
            .or_default() += 1;
    }
}

/// The part of a move's answer the players read.
#[derive(serde::Deserialize)]
struct MoveReply {
    game: LegalMoves,
}

/// The legal moves of a game's view (none once it is over).
#[derive(serde::Deserialize)]
struct LegalMoves {
    #[serde(default)]
    legal: Vec<String>,
}

async fn player(base: String, http: reqwest::Client, opts: Arc<Opts>, stats: Arc<Stats>, deadline: Instant) {
    let mut rng = rand::rngs::StdRng::from_os_rng();
    let mut lat = Vec::new();
    'games: while Instant::now() < deadline {
        let res = http
            .post(format!("{base}/api/games"))
            .json(&json!({ "mode": "hotseat", "rules": { "variant": "II" } }))
            .send()
            .await;
        let created: Value = match res {
            Ok(r) if r.status().is_success() => match r.json().await {
                Ok(v) => v,
                Err(e) => {
                    stats.error("create", &Err(e));
                    continue;
                }
            },
            res => {
                stats.error("create", &res);
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        let id = created["id"].as_str().unwrap_or_default().to_string();
        let token = created["token"].as_str().unwrap_or_default().to_string();
        let watcher = opts.ws.then(|| {
            let url = format!("{}/api/games/{id}/ws", base.replace("http://", "ws://"));
            let stats = stats.clone();
            tokio::spawn(async move {
                if let Ok((mut ws, _)) = tokio_tungstenite::connect_async(url).await {
                    while let Some(Ok(_)) = ws.next().await {
                        stats.ws_messages.fetch_add(1, Ordering::Relaxed);
                    }
                }
            })
        });
        let mut legal: Vec<String> =
            serde_json::from_value(created["game"]["legal"].clone()).unwrap_or_default();
        loop {
            if Instant::now() >= deadline || stats.moves.load(Ordering::Relaxed) >= MAX_MOVES {
                if let Some(w) = watcher {
                    w.abort();
                }
                break 'games;
            }
            let Some(mv) = legal.choose(&mut rng).cloned() else {
                stats.games_done.fetch_add(1, Ordering::Relaxed);
                break;
            };
            tokio::time::sleep(opts.think).await;
            let t0 = Instant::now();
            let res = http
                .post(format!("{base}/api/games/{id}/moves"))
                .bearer_auth(&token)
                .json(&json!({ "move": mv }))
                .send()
                .await;
            match res {
                // Only the legal moves are read: the load generator shares
                // the cores with the server, and a whole JSON tree a move
                // cost it more than the server spent on the move.
                Ok(r) if r.status().is_success() => match r.json::<MoveReply>().await {
                    Ok(v) => {
                        lat.push(t0.elapsed().as_micros().min(u32::MAX as u128) as u32);
                        stats.moves.fetch_add(1, Ordering::Relaxed);
                        legal = v.game.legal;
                    }
                    Err(e) => {
                        stats.error("move", &Err(e));
                        break;
                    }
                },
                res => {
                    stats.error("move", &res);
                    break;
                }
            }
        }
        if let Some(w) = watcher {
            w.abort();
        }
    }
    stats.latencies_us.lock().unwrap().extend(lat);
}

fn pct(sorted: &[u32], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i] as f64 / 1000.0
}

#[tokio::main]
async fn main() {
    let opts = match parse_args() {
        Ok(o) => Arc::new(o),
        Err(e) => {
            eprintln!("loadtest: {e}");
            std::process::exit(2);
        }
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let (base, server) = match &opts.url {
        Some(u) => (u.trim_end_matches('/').to_string(), None),
        None => {
            let store = hoyito_server::Store::open(&dir.path().join("load.db")).expect("database");
            // One address plays every game: no limits per address.
            let limits = hoyito_server::ServerLimits {
                create_rate: hoyito_server::Rate::OFF,
                create_quota: 0,
                move_rate: hoyito_server::Rate::OFF,
                max_connections_per_ip: 0,
                max_websockets_per_ip: 0,
                ..hoyito_server::ServerLimits::default()
            };
            let (addr, server) = hoyito_server::spawn_local_with(store, limits)
                .await
                .expect("bind 127.0.0.1:0");
            (format!("http://{addr}"), Some(server))
        }
    };
    let http = reqwest::Client::builder()
        .pool_max_idle_per_host(opts.games.max(16))
        .timeout(Duration::from_secs(30))
        .build()
        .expect("client");
    let stats = Arc::new(Stats::default());
    let start = Instant::now();
    let deadline = start + Duration::from_secs(opts.seconds);
    let mut tasks = Vec::new();
    for k in 0..opts.games {
        // Spread the starts over the first think period.
        let delay = opts.think.mul_f64(k as f64 / opts.games as f64);
        let (base, http, opts, stats) = (base.clone(), http.clone(), opts.clone(), stats.clone());
        tasks.push(tokio::spawn(async move {
            tokio::time::sleep(delay).await;
            player(base, http, opts, stats, deadline).await;
        }));
    }
    for t in tasks {
        let _ = t.await;
    }
    let elapsed = start.elapsed().as_secs_f64();
    if let Some(s) = server {
        s.stop().await;
    }
    let mut lat = std::mem::take(&mut *stats.latencies_us.lock().unwrap());
    lat.sort_unstable();
    let moves = stats.moves.load(Ordering::Relaxed);
    println!(
        "games at once {}  think {} ms  websockets {}  duration {:.1} s",
        opts.games,
        opts.think.as_millis(),
        if opts.ws { "yes" } else { "no" },
        elapsed
    );
    println!(
        "moves {moves}  ({:.0}/s)  games finished {}  errors {}  ws messages {}",
        moves as f64 / elapsed,
        stats.games_done.load(Ordering::Relaxed),
        stats.errors.load(Ordering::Relaxed),
        stats.ws_messages.load(Ordering::Relaxed)
    );
    let kinds = std::mem::take(&mut *stats.error_kinds.lock().unwrap());
    if !kinds.is_empty() {
        let list: Vec<String> = kinds.iter().map(|(k, n)| format!("{k}: {n}")).collect();
        println!("errors by kind: {}", list.join(", "));
    }
    println!(
        "move round trip ms: p50 {:.2}  p90 {:.2}  p99 {:.2}  max {:.2}",
        pct(&lat, 0.50),
        pct(&lat, 0.90),
        pct(&lat, 0.99),
        pct(&lat, 1.0)
    );
}
