//! The reliability suite, short form: `hoyito serve` as a real process on
//! loopback, killed with SIGKILL while clients play (no acknowledged move
//! may be lost or doubled), and a battery of bad requests after which the
//! stored games, read back by a restarted server, are exactly as before.
//! Slow clients (slowloris), oversized WebSocket messages and races have
//! their own tests in the server crate (`tests/limits.rs`, `tests/api.rs`).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use serde_json::{json, Value};

const BIN: &str = env!("CARGO_BIN_EXE_hoyito");
/// How long a test waits for an event before it fails (only a broken
/// server, or a stalled machine, waits this long).
const PATIENCE: Duration = Duration::from_secs(30);

/// Starts `hoyito serve` on a free port over `dir/games.db`, without rate
/// limits (the clients here play as fast as they can from one address).
fn serve(dir: &Path) -> (Child, String) {
    serve_db(dir, dir.join("games.db").as_os_str())
}

/// [`serve`] over database `db` (a file or a PostgreSQL URL).
fn serve_db(dir: &Path, db: &std::ffi::OsStr) -> (Child, String) {
    let mut child = Command::new(BIN)
        .args([
            "serve",
            "--no-default-tables",
            "--addr",
            "127.0.0.1:0",
            "--create-rate",
            "0",
            "--move-rate",
            "0",
            "--db",
        ])
        .arg(db)
        .current_dir(dir)
        .env("HOYITO_LOG", "off")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start hoyito serve");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut line)
        .expect("the listening line");
    let addr = line
        .trim()
        .strip_prefix("listening on http://")
        .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
        .to_string();
    (child, addr)
}

/// One HTTP/1.1 request on a fresh connection: the status and the body as
/// JSON (`Value::Null` if it is not JSON); `None` if the connection failed.
fn http(
    addr: &str,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<&[u8]>,
) -> Option<(u16, Value)> {
    let mut s = TcpStream::connect(addr).ok()?;
    s.set_read_timeout(Some(Duration::from_secs(10))).ok()?;
    let mut head = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    if let Some(t) = token {
        head.push_str(&format!("Authorization: Bearer {t}\r\n"));
    }
    let body = body.unwrap_or_default();
    if method != "GET" {
        head.push_str(&format!(
            "Content-Type: application/json\r\nContent-Length: {}\r\n",
            body.len()
        ));
    }
    head.push_str("\r\n");
    s.write_all(head.as_bytes()).ok()?;
    s.write_all(body).ok()?;
    let mut answer = Vec::new();
    s.read_to_end(&mut answer).ok()?;
    let text = String::from_utf8_lossy(&answer);
    let status = text.get(9..12)?.parse().ok()?;
    let body = text.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    Some((status, serde_json::from_str(body).unwrap_or(Value::Null)))
}

fn post(addr: &str, path: &str, token: Option<&str>, body: Value) -> Option<(u16, Value)> {
    http(addr, "POST", path, token, Some(body.to_string().as_bytes()))
}

fn game(addr: &str, id: &str) -> Value {
    let (status, v) = http(addr, "GET", &format!("/api/games/{id}"), None, None).expect("the server answers");
    assert_eq!(status, 200, "{v}");
    v
}

/// A player that makes moves in its own hot-seat games until `stop`, and
/// returns every move acknowledged: (game id, step number, token). Each
/// acknowledgement is also told to `acks` as it comes.
fn play(
    addr: String,
    stop: Arc<AtomicBool>,
    acks: std::sync::mpsc::Sender<()>,
    games: &mut Vec<(String, String)>,
) -> Vec<(String, u64, String)> {
    let mut acked = Vec::new();
    while !stop.load(Ordering::Relaxed) {
        let (id, token) = games.last().cloned().expect("a game");
        let Some((_, view)) = http(&addr, "GET", &format!("/api/games/{id}"), None, None) else {
            return acked;
        };
        let Some(mv) = view["legal"].get(0).and_then(Value::as_str).map(str::to_string) else {
            // Over: on to a new game.
            match post(
                &addr,
                "/api/games",
                None,
                json!({"mode": "hotseat", "rules": {"variant": "II"}}),
            ) {
                Some((201, v)) => {
                    games.push((
                        v["id"].as_str().unwrap().into(),
                        v["token"].as_str().unwrap().into(),
                    ));
                    continue;
                }
                _ => return acked,
            }
        };
        match post(
            &addr,
            &format!("/api/games/{id}/moves"),
            Some(&token),
            json!({ "move": mv }),
        ) {
            Some((200, v)) => {
                acked.push((
                    id,
                    v["move"]["seq"].as_u64().unwrap(),
                    v["move"]["token"].as_str().unwrap().into(),
                ));
                let _ = acks.send(());
            }
            Some((status, v)) => panic!("move refused: {status} {v}"),
            None => return acked, // killed mid-request: not acknowledged
        }
    }
    acked
}

#[test]
fn no_acknowledged_move_is_lost_across_kill_9_rounds() {
    let dir = tempfile_dir("kill9");
    let db = dir.join("games.db");
    kill_9_rounds(&dir, db.as_os_str());
}

/// The same rounds with the games in PostgreSQL (`HOYITO_TEST_POSTGRES`,
/// a server whose user may create databases; `scripts/test.sh` starts one).
#[test]
#[ignore = "needs PostgreSQL: HOYITO_TEST_POSTGRES (scripts/test.sh runs it)"]
fn no_acknowledged_move_is_lost_across_kill_9_rounds_on_postgres() {
    let admin = std::env::var("HOYITO_TEST_POSTGRES").expect("HOYITO_TEST_POSTGRES: a PostgreSQL URL");
    let name = format!("hoyito_kill9_{}", std::process::id());
    let created = Command::new("psql")
        .args([admin.as_str(), "-q", "-c", &format!("CREATE DATABASE {name}")])
        .status()
        .expect("psql (Debian's postgresql-client)");
    assert!(created.success(), "CREATE DATABASE {name}");
    let (base, _) = admin.rsplit_once('/').expect("a URL with a database");
    let dir = tempfile_dir("kill9-pg");
    kill_9_rounds(&dir, std::ffi::OsStr::new(&format!("{base}/{name}")));
}

/// Every acknowledged move `(game, seq, token)` is stored at its place
/// (each game fetched once).
fn check_acked(addr: &str, acked: &[(String, u64, String)], when: &str) {
    let mut by_game: std::collections::BTreeMap<&str, Vec<(u64, &str)>> = Default::default();
    for (id, seq, token) in acked {
        by_game.entry(id).or_default().push((*seq, token));
    }
    for (id, steps) in by_game {
        let v = game(addr, id);
        for (seq, token) in steps {
            let step = &v["history"][(seq - 1) as usize];
            assert_eq!(
                (step["seq"].as_u64(), step["token"].as_str()),
                (Some(seq), Some(token)),
                "{when}: game {id}"
            );
        }
    }
}

/// Rounds of four players moving in their own hot-seat games while the
/// server is killed with SIGKILL, after a random number of acknowledged
/// moves (the kill lands while the players' next requests are in flight);
/// then every acknowledged move must be found, once, in order. Six rounds,
/// or `HOYITO_KILL_ROUNDS`; the kill points are drawn from
/// `HOYITO_KILL_SEED` if set (printed otherwise, to replay a failure).
fn kill_9_rounds(dir: &Path, db: &std::ffi::OsStr) {
    use rand::{Rng, SeedableRng};
    let rounds: u64 = std::env::var("HOYITO_KILL_ROUNDS")
        .ok()
        .map(|r| r.parse().expect("HOYITO_KILL_ROUNDS: a number of rounds"))
        .unwrap_or(6);
    let seed: u64 = std::env::var("HOYITO_KILL_SEED")
        .ok()
        .map(|s| s.parse().expect("HOYITO_KILL_SEED: a number"))
        .unwrap_or_else(rand::random);
    eprintln!("kill -9: HOYITO_KILL_SEED={seed}");
    let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
    let players = 4;
    let mut games: Vec<Vec<(String, String)>> = vec![Vec::new(); players];
    let mut acked_all: Vec<(String, u64, String)> = Vec::new();
    for round in 0..rounds {
        let (mut child, addr) = serve_db(dir, db);
        for g in games.iter_mut().filter(|g| g.is_empty()) {
            let (status, v) = post(
                &addr,
                "/api/games",
                None,
                json!({"mode": "hotseat", "rules": {"variant": "II"}}),
            )
            .unwrap();
            assert_eq!(status, 201, "{v}");
            g.push((
                v["id"].as_str().unwrap().into(),
                v["token"].as_str().unwrap().into(),
            ));
        }
        // Everything acknowledged before this round is still there.
        check_acked(&addr, &acked_all, &format!("round {round}"));
        let stop = Arc::new(AtomicBool::new(false));
        let (acks_tx, acks) = std::sync::mpsc::channel();
        let handles: Vec<_> = games
            .drain(..)
            .map(|mut g| {
                let (addr, stop, acks_tx) = (addr.clone(), stop.clone(), acks_tx.clone());
                std::thread::spawn(move || {
                    let acked = play(addr, stop, acks_tx, &mut g);
                    (g, acked)
                })
            })
            .collect();
        drop(acks_tx);
        // The kill point: after this many acknowledged moves in the round.
        let kill_after = rng.random_range(50..=400);
        for n in 0..kill_after {
            acks.recv_timeout(PATIENCE).unwrap_or_else(|e| {
                panic!("round {round}: {n} of {kill_after} moves acknowledged, then {e}")
            });
        }
        child.kill().expect("SIGKILL"); // std's kill is SIGKILL on Unix
        child.wait().unwrap();
        stop.store(true, Ordering::Relaxed);
        for h in handles {
            let (g, acked) = h.join().unwrap();
            games.push(g);
            acked_all.extend(acked);
        }
    }
    assert!(
        acked_all.len() > 50,
        "only {} moves acknowledged",
        acked_all.len()
    );
    // A last check after the last kill: every move, once, in order.
    let (mut child, addr) = serve_db(dir, db);
    check_acked(&addr, &acked_all, "after the last kill");
    for g in &games {
        for (id, _) in g {
            let v = game(&addr, id);
            let seqs: Vec<u64> = v["history"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s["seq"].as_u64().unwrap())
                .collect();
            assert_eq!(
                seqs,
                (1..=seqs.len() as u64).collect::<Vec<_>>(),
                "game {id}: steps doubled or missing"
            );
        }
    }
    eprintln!(
        "kill -9: {rounds} rounds, {} acknowledged moves, none lost or doubled",
        acked_all.len()
    );
    let _ = child.kill();
    let _ = child.wait();
    let _ = std::fs::remove_dir_all(dir);
}

fn tempfile_dir(what: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("hoyito-reliability-{what}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The games `ids` as listed and with their full views, as a restarted
/// server reads them from the database.
fn snapshot(addr: &str, ids: &[&str]) -> Vec<Value> {
    let path = format!("/api/lobby?ids={}", ids.join(","));
    let (status, list) = http(addr, "GET", &path, None, None).unwrap();
    assert_eq!(status, 200);
    assert_eq!(list["mine"].as_array().unwrap().len(), ids.len(), "{list}");
    let mut out = vec![list.clone()];
    for g in list["mine"].as_array().unwrap() {
        out.push(game(addr, g["id"].as_str().unwrap()));
    }
    out
}

#[test]
fn a_battery_of_bad_requests_changes_nothing_stored() {
    let dir = tempfile_dir("bad");
    let (mut child, addr) = serve(&dir);
    let (_, hot) = post(&addr, "/api/games", None, json!({"mode": "hotseat"})).unwrap();
    let (_, online) = post(&addr, "/api/games", None, json!({"mode": "online"})).unwrap();
    let (_, engine) = post(&addr, "/api/games", None, json!({"mode": "engine", "level": 2})).unwrap();
    let (id, token) = (hot["id"].as_str().unwrap(), hot["token"].as_str().unwrap());
    let first = hot["game"]["legal"][0].as_str().unwrap();
    let (status, _) = post(
        &addr,
        &format!("/api/games/{id}/moves"),
        Some(token),
        json!({ "move": first }),
    )
    .unwrap();
    assert_eq!(status, 200);
    let oid = online["id"].as_str().unwrap();
    let eid = engine["id"].as_str().unwrap();
    let etoken = engine["token"].as_str().unwrap();
    // The engine game settles: its player is to move, the engine not thinking
    // (if the engine moved first, its move is stored).
    let seat = engine["seat"].as_str().expect("the player's seat").to_string();
    let deadline = std::time::Instant::now() + PATIENCE;
    loop {
        let g = game(&addr, eid);
        if g["thinking"] == false && g["state"]["to_move"] == seat.as_str() {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the engine game never settled: {g}"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let (mut child, addr) = serve(&dir);
    let before = snapshot(&addr, &[id, oid, eid]);

    let moves = format!("/api/games/{id}/moves");
    let big = vec![b'x'; 64 * 1024];
    let battery: Vec<(&str, String, Option<&str>, Vec<u8>)> = vec![
        ("POST", moves.clone(), Some(token), b"{".to_vec()),
        ("POST", moves.clone(), Some(token), b"[]".to_vec()),
        ("POST", moves.clone(), Some(token), b"null".to_vec()),
        (
            "POST",
            moves.clone(),
            Some(token),
            br#"{"move": 3, "x": 1}"#.to_vec(),
        ),
        ("POST", moves.clone(), Some(token), br#"{"move": "99"}"#.to_vec()),
        ("POST", moves.clone(), Some(token), br#"{"move": ""}"#.to_vec()),
        (
            "POST",
            moves.clone(),
            Some(token),
            br#"{"move": "1", "seq": 0}"#.to_vec(),
        ),
        (
            "POST",
            moves.clone(),
            Some("0123456789abcdef0123456789abcdef"),
            br#"{"move": "1"}"#.to_vec(),
        ),
        ("POST", moves.clone(), None, br#"{"move": "1"}"#.to_vec()),
        ("POST", moves.clone(), Some(token), big.clone()),
        (
            "POST",
            "/api/games".into(),
            None,
            br#"{"mode": "chess"}"#.to_vec(),
        ),
        (
            "POST",
            "/api/games".into(),
            None,
            br#"{"rules": {"seed": 6}}"#.to_vec(),
        ),
        (
            "POST",
            "/api/games".into(),
            None,
            br#"{"rules": {"holes": 13}}"#.to_vec(),
        ),
        (
            "POST",
            "/api/games".into(),
            None,
            br#"{"rules": {"seeds": 99}}"#.to_vec(),
        ),
        ("POST", "/api/games".into(), None, br#"{"level": 11}"#.to_vec()),
        ("POST", "/api/games".into(), None, br#"["online"]"#.to_vec()),
        (
            "POST",
            "/api/games/import".into(),
            None,
            br#"{"record": "not a record"}"#.to_vec(),
        ),
        (
            "POST",
            "/api/games/import".into(),
            None,
            br#"{"record": "1 2 3 4 5 6 7 8 9 99"}"#.to_vec(),
        ),
        (
            "POST",
            format!("/api/games/{oid}/join"),
            None,
            br#"{"invite": "wrong"}"#.to_vec(),
        ),
        (
            "POST",
            format!("/api/games/{oid}/moves"),
            None,
            br#"{"move": "1"}"#.to_vec(),
        ),
        (
            "POST",
            format!("/api/games/{eid}/moves"),
            Some(etoken),
            br#"{"move": "zz"}"#.to_vec(),
        ),
        (
            "POST",
            format!("/api/games/{id}/join"),
            None,
            br#"{"invite": "x"}"#.to_vec(),
        ),
        ("POST", format!("/api/games/{id}/undo"), None, b"{}".to_vec()),
        (
            "POST",
            format!("/api/games/{id}/resign"),
            Some("nope"),
            b"{}".to_vec(),
        ),
        (
            "POST",
            format!("/api/games/{id}/next-round"),
            Some(token),
            b"{}".to_vec(),
        ),
        ("POST", format!("/api/games/{oid}/hint"), None, b"{}".to_vec()),
        (
            "POST",
            "/api/games/nosuchgame/moves".into(),
            Some(token),
            br#"{"move": "1"}"#.to_vec(),
        ),
        ("GET", "/api/games/%FF".into(), None, Vec::new()),
        ("GET", "/api/games?limit=lots".into(), None, Vec::new()),
        ("GET", "/api/games?status=sleeping".into(), None, Vec::new()),
        ("GET", format!("/api/games/{id}/ws"), None, Vec::new()),
        ("PUT", moves.clone(), Some(token), br#"{"move": "1"}"#.to_vec()),
        ("DELETE", format!("/api/games/{id}"), Some(token), Vec::new()),
        ("GET", "/api/nothing".into(), None, Vec::new()),
    ];
    for (method, path, tok, body) in &battery {
        let (status, v) = http(
            &addr,
            method,
            path,
            *tok,
            if method == &"GET" { None } else { Some(body) },
        )
        .unwrap_or_else(|| panic!("{method} {path}: no answer"));
        assert!((400..500).contains(&status), "{method} {path}: {status} {v}");
        assert!(
            v["code"].as_str().is_some_and(|c| !c.is_empty()),
            "{method} {path}: {status} not a JSON error: {v}"
        );
    }
    // Read back by a fresh server: nothing changed.
    child.kill().unwrap();
    child.wait().unwrap();
    let (mut child, addr) = serve(&dir);
    assert_eq!(snapshot(&addr, &[id, oid, eid]), before);
    let _ = child.kill();
    let _ = child.wait();
    let _ = std::fs::remove_dir_all(&dir);
}
