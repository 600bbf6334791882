//! Capacity figures of a running `hoyito serve`, on loopback only
//! (docs/PERFORMANCE.md; `scripts/load.sh` runs them all).
//!
//! ```text
//! capacity --url http://127.0.0.1:PORT --pid PID idle-games N
//! capacity --url http://127.0.0.1:PORT --pid PID sockets N
//! capacity --url http://127.0.0.1:PORT idle-conns N
//! capacity --url http://127.0.0.1:PORT engine-fairness N
//! ```
//!
//! - `idle-games N`: creates N hot-seat games and prints the server's
//!   resident memory (VmRSS of `--pid`) before and after, per game.
//! - `sockets N`: opens N WebSockets on one game and prints the memory per
//!   open socket the same way.
//! - `idle-conns N`: opens N TCP connections that send nothing, 200 from
//!   each of many loopback addresses (127.0.2.1, …), then times 50
//!   `GET /api/health` from 127.0.0.2 (another client) while they are
//!   held: p50, p99, max.
//! - `engine-fairness N`: N level-10 engine games think at once (each
//!   from its own loopback address, 127.0.1.x), then times 5 level-1
//!   replies (move POST sent → the engine's reply stored) of another client.

use std::net::{IpAddr, SocketAddr};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tokio::net::{TcpSocket, TcpStream};

fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("the server's /proc status");
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmRSS")
}

/// A TCP connection to `addr` from the loopback address `from`.
async fn connect_from(from: IpAddr, addr: SocketAddr) -> std::io::Result<TcpStream> {
    let socket = TcpSocket::new_v4()?;
    socket.bind(SocketAddr::new(from, 0))?;
    socket.connect(addr).await
}

/// An HTTP client whose connections come from `from`.
fn client_from(from: IpAddr) -> reqwest::Client {
    reqwest::Client::builder()
        .local_address(from)
        .pool_max_idle_per_host(0)
        .timeout(Duration::from_secs(30))
        .build()
        .expect("an HTTP client")
}

async fn create(http: &reqwest::Client, url: &str, body: Value) -> Value {
    let res = http
        .post(format!("{url}/api/games"))
        .json(&body)
        .send()
        .await
        .expect("create");
    assert_eq!(
        res.status(),
        201,
        "create: {}",
        res.text().await.unwrap_or_default()
    );
    res.json().await.expect("JSON")
}

async fn play(http: &reqwest::Client, url: &str, id: &str, token: &str, mv: &str) -> Value {
    let res = http
        .post(format!("{url}/api/games/{id}/moves"))
        .bearer_auth(token)
        .json(&json!({ "move": mv }))
        .send()
        .await
        .expect("move");
    assert_eq!(
        res.status(),
        200,
        "move: {}",
        res.text().await.unwrap_or_default()
    );
    res.json().await.expect("JSON")
}

fn percentiles(mut v: Vec<Duration>) -> String {
    v.sort();
    let at = |q: f64| v[((v.len() as f64 - 1.0) * q).round() as usize];
    format!(
        "p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        at(0.5).as_secs_f64() * 1e3,
        at(0.99).as_secs_f64() * 1e3,
        at(1.0).as_secs_f64() * 1e3
    )
}

#[tokio::main]
async fn main() {
    let mut args = std::env::args().skip(1);
    let (mut url, mut pid, mut cmd, mut n) = (None, None, None, 0usize);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--url" => url = args.next(),
            "--pid" => pid = args.next().and_then(|p| p.parse::<u32>().ok()),
            _ if cmd.is_none() => cmd = Some(a),
            _ => n = a.parse().expect("N"),
        }
    }
    let url = url.expect("--url http://127.0.0.1:PORT");
    let addr: SocketAddr = url
        .trim_start_matches("http://")
        .parse()
        .expect("a loopback address");
    assert!(addr.ip().is_loopback(), "loopback only");
    let local = client_from([127, 0, 0, 1].into());
    match cmd.as_deref() {
        Some("idle-games") => {
            let pid = pid.expect("--pid");
            let before = rss_kib(pid);
            for _ in 0..n {
                create(&local, &url, json!({"mode": "hotseat"})).await;
            }
            let after = rss_kib(pid);
            println!(
                "{n} idle games: RSS {before} KiB -> {after} KiB, {:.2} KB per game",
                (after.saturating_sub(before)) as f64 * 1.024 / n as f64
            );
        }
        Some("sockets") => {
            let pid = pid.expect("--pid");
            let game = create(&local, &url, json!({"mode": "hotseat"})).await;
            let ws = format!("ws://{addr}/api/games/{}/ws", game["id"].as_str().unwrap());
            let before = rss_kib(pid);
            let mut held = Vec::with_capacity(n);
            for _ in 0..n {
                let (s, _) = tokio_tungstenite::connect_async(&ws).await.expect("a WebSocket");
                held.push(s);
            }
            tokio::time::sleep(Duration::from_secs(1)).await;
            let after = rss_kib(pid);
            println!(
                "{n} open WebSockets: RSS {before} KiB -> {after} KiB, {:.1} KiB per socket",
                (after.saturating_sub(before)) as f64 / n as f64
            );
        }
        Some("idle-conns") => {
            // Spread over many addresses (127.0.2.x–127.0.x.x, 200 each), as
            // many clients would be, so that the cap per address does not
            // close them at once.
            let mut held = Vec::with_capacity(n);
            for i in 0..n {
                let k = i / 200;
                let from: IpAddr = [127, 0, 2 + (k / 250) as u8, (k % 250 + 1) as u8].into();
                match connect_from(from, addr).await {
                    Ok(s) => held.push(s),
                    Err(e) => {
                        println!("stopped at {} connections: {e}", held.len());
                        break;
                    }
                }
            }
            tokio::time::sleep(Duration::from_millis(500)).await;
            let other = client_from([127, 0, 0, 2].into());
            let mut times = Vec::new();
            let mut failed = 0;
            for _ in 0..50 {
                let start = Instant::now();
                match other.get(format!("{url}/api/health")).send().await {
                    Ok(r) if r.status() == 200 => times.push(start.elapsed()),
                    _ => failed += 1,
                }
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            println!(
                "/api/health with {} idle connections held: {} ok, {failed} failed; {}",
                held.len(),
                times.len(),
                if times.is_empty() {
                    "-".into()
                } else {
                    percentiles(times)
                }
            );
        }
        Some("engine-fairness") => {
            let mut deep = Vec::new();
            for i in 0..n {
                let from: IpAddr = [127, 0, 1, (i % 250 + 1) as u8].into();
                let http = client_from(from);
                let g = create(
                    &http,
                    &url,
                    json!({"mode": "engine", "level": 10, "side": "south"}),
                )
                .await;
                deep.push((http, g));
            }
            // Every level-10 game moves, so that their engines think (the
            // engine queue refuses moves beyond its bound with 503).
            let (mut thinking, mut refused) = (0, 0);
            for (http, g) in &deep {
                let id = g["id"].as_str().unwrap();
                let mv = g["game"]["legal"][0].as_str().unwrap();
                let res = http
                    .post(format!("{url}/api/games/{id}/moves"))
                    .bearer_auth(g["token"].as_str().unwrap())
                    .json(&json!({ "move": mv }))
                    .send()
                    .await
                    .expect("move");
                match res.status().as_u16() {
                    200 => thinking += 1,
                    503 => refused += 1,
                    s => panic!("level-10 move: {s} {}", res.text().await.unwrap_or_default()),
                }
            }
            println!("{thinking} level-10 moves accepted (engines thinking), {refused} refused with 503 engine_busy");
            let quick = client_from([127, 0, 0, 3].into());
            let mut times = Vec::new();
            for _ in 0..5 {
                let g = create(
                    &quick,
                    &url,
                    json!({"mode": "engine", "level": 1, "side": "south"}),
                )
                .await;
                let id = g["id"].as_str().unwrap();
                let start = Instant::now();
                play(
                    &quick,
                    &url,
                    id,
                    g["token"].as_str().unwrap(),
                    g["game"]["legal"][0].as_str().unwrap(),
                )
                .await;
                loop {
                    let v: Value = quick
                        .get(format!("{url}/api/games/{id}"))
                        .send()
                        .await
                        .unwrap()
                        .json()
                        .await
                        .unwrap();
                    if v["seq"].as_u64() >= Some(2) || v["result"].is_string() {
                        break;
                    }
                    tokio::time::sleep(Duration::from_millis(5)).await;
                }
                times.push(start.elapsed());
            }
            let depth: String = quick
                .get(format!("{url}/metrics"))
                .send()
                .await
                .unwrap()
                .text()
                .await
                .unwrap()
                .lines()
                .find(|l| l.starts_with("hoyito_engine_queue_depth "))
                .unwrap_or("")
                .to_string();
            println!(
                "level-1 reply while {n} level-10 games think ({depth}): {}",
                percentiles(times)
            );
        }
        _ => {
            eprintln!("usage: capacity --url URL [--pid PID] idle-games|sockets|idle-conns|engine-fairness N")
        }
    }
}
