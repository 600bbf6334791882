//! Capacity figures of a running `hoyito serve`, on loopback only
//! (docs/PERFORMANCE.md; `scripts/load.sh` runs them all).
//!
//! ```text
//! capacity --url http://127.0.0.1:PORT --pid PID idle-games N
//! capacity --url http://127.0.0.1:PORT --pid PID sockets N
//! capacity --url http://127.0.0.1:PORT idle-conns N
//! capacity --url http://127.0.0.1:PORT engine-fairness N
//! capacity --url http://127.0.0.1:PORT --pid PID long-game N
//! capacity --url http://127.0.0.1:PORT --pid PID unread-sockets N
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
//! - `long-game N`: plays one 2×12 hot-seat game of Hoyito II (matches
//!   follow on) until the server refuses a move (its step cap) or N steps,
//!   then prints the full view's size, the record's, and the server's
//!   memory per such game (`N/100` more games of that length imported).
//! - `unread-sockets N`: opens N WebSockets on a long game (from
//!   127.0.3.x, 2 per address) that never read, with small receive
//!   buffers, then fetches and plays until the server has had to write to
//!   each; prints the memory held per socket, then waits for the server to
//!   close them (its write timeout) and prints how many it closed and when.

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

/// Creates a game with `body` and plays it on (a random legal move each
/// step, the next round when one ends) for up to `n` steps: its id and steps.
async fn long_game(http: &reqwest::Client, url: &str, body: Value, n: usize) -> (String, usize) {
    let created = create(http, url, body).await;
    let id = created["id"].as_str().unwrap().to_string();
    let token = created["token"].as_str().unwrap();
    let steps = play_on(http, url, &id, token, n).await;
    (id, steps)
}

/// Plays up to `n` more steps of game `id` (the first legal move, or the
/// next round) until the server refuses one; returns how many were played.
async fn play_on(http: &reqwest::Client, url: &str, id: &str, token: &str, n: usize) -> usize {
    let mut played = 0;
    let mut game: Value = http
        .get(format!("{url}/api/games/{id}?history_from=999999"))
        .send()
        .await
        .expect("view")
        .json()
        .await
        .expect("JSON");
    while played < n {
        let res = if let Some(mv) = game["legal"]
            .as_array()
            .and_then(|l| l.last())
            .and_then(|m| m.as_str())
        {
            http.post(format!("{url}/api/games/{id}/moves"))
                .bearer_auth(token)
                .json(&json!({ "move": mv }))
                .send()
                .await
        } else if game["can_next_round"] == true {
            http.post(format!("{url}/api/games/{id}/next-round"))
                .bearer_auth(token)
                .json(&json!({}))
                .send()
                .await
        } else {
            break;
        }
        .expect("request");
        if res.status() != 200 {
            break;
        }
        let v: Value = res.json().await.expect("JSON");
        game = if v["game"].is_object() {
            v["game"].clone()
        } else {
            v
        };
        played += 1;
    }
    played
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
        Some("long-game") => {
            let pid = pid.expect("--pid");
            let body = json!({"mode": "hotseat", "match": true, "rules": {"variant": "II", "holes": 12}});
            let before = rss_kib(pid);
            let (id, steps) = long_game(&local, &url, body.clone(), n).await;
            let view = local
                .get(format!("{url}/api/games/{id}"))
                .send()
                .await
                .expect("view")
                .bytes()
                .await
                .expect("view body");
            let record = local
                .get(format!("{url}/api/games/{id}/record"))
                .send()
                .await
                .expect("record")
                .text()
                .await
                .expect("record body");
            let copies = (n / 100).max(1);
            for _ in 0..copies {
                let res = local
                    .post(format!("{url}/api/games/import"))
                    .json(&json!({ "record": record }))
                    .send()
                    .await
                    .expect("import");
                assert_eq!(
                    res.status(),
                    201,
                    "import: {}",
                    res.text().await.unwrap_or_default()
                );
            }
            let after = rss_kib(pid);
            println!(
                "a game of {steps} steps: full view {} bytes, record {} bytes; RSS {before} KiB -> {after} KiB \
                 with {} such games in memory, {:.0} KiB per game",
                view.len(),
                record.len(),
                copies + 1,
                after.saturating_sub(before) as f64 / (copies + 1) as f64
            );
        }
        Some("unread-sockets") => {
            let pid = pid.expect("--pid");
            let body = json!({"mode": "hotseat", "match": true, "rules": {"variant": "II", "holes": 12}});
            let (id, token, steps) = {
                let created = create(&local, &url, body.clone()).await;
                let id = created["id"].as_str().unwrap().to_string();
                let token = created["token"].as_str().unwrap().to_string();
                let steps = play_on(&local, &url, &id, &token, 2000).await;
                (id, token, steps)
            };
            let before = rss_kib(pid);
            let mut held = Vec::with_capacity(n);
            for k in 0..n {
                let from: IpAddr = [127, 0, 3, 1 + (k / 2) as u8].into();
                let socket = TcpSocket::new_v4().expect("socket");
                socket.set_recv_buffer_size(4096).expect("SO_RCVBUF");
                socket.bind(SocketAddr::new(from, 0)).expect("bind");
                let stream = socket.connect(addr).await.expect("connect");
                let req = format!("ws://{addr}/api/games/{id}/ws");
                let (ws, _) = tokio_tungstenite::client_async(req, stream)
                    .await
                    .expect("a WebSocket");
                held.push(ws); // never read
            }
            // Each socket got the full state; moves follow (each also a
            // message to every socket).
            let more = play_on(&local, &url, &id, &token, 200).await;
            tokio::time::sleep(Duration::from_secs(1)).await;
            let after = rss_kib(pid);
            println!(
                "{n} WebSockets that never read, on a game of {} steps: RSS {before} KiB -> {after} KiB, {:.0} KiB per socket",
                steps + more,
                after.saturating_sub(before) as f64 / n as f64
            );
            let start = Instant::now();
            loop {
                let v: Value = local
                    .get(format!("{url}/api/games/{id}?history_from=999999"))
                    .send()
                    .await
                    .expect("view")
                    .json()
                    .await
                    .expect("JSON");
                let open = v["presence"]["spectators"].as_u64().unwrap_or(0);
                if open == 0 || start.elapsed() > Duration::from_secs(120) {
                    println!(
                        "{} of {n} closed by the server after {:.1} s; RSS then {} KiB",
                        n as u64 - open,
                        start.elapsed().as_secs_f64(),
                        rss_kib(pid)
                    );
                    break;
                }
                let _ = play_on(&local, &url, &id, &token, 5).await;
                tokio::time::sleep(Duration::from_millis(500)).await;
            }
            drop(held);
        }
        _ => {
            eprintln!("usage: capacity --url URL [--pid PID] idle-games|sockets|idle-conns|engine-fairness N")
        }
    }
}
