//! `hoyito serve` as a real process on loopback (127.0.0.1, a free port).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

const BIN: &str = env!("CARGO_BIN_EXE_hoyito");

/// Starts `hoyito serve` on a free port with a database in `dir`; returns
/// the process and its `host:port`.
fn serve(dir: &std::path::Path) -> (Child, String) {
    let mut child = Command::new(BIN)
        .args(["serve", "--no-default-tables", "--addr", "127.0.0.1:0", "--db"])
        .arg(dir.join("games.db"))
        .current_dir(dir)
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

/// Answers `GET /api/health` on a new connection: the status line.
fn health(addr: &str) -> String {
    let mut conn = TcpStream::connect(addr).unwrap();
    write!(
        conn,
        "GET /api/health HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut answer = String::new();
    conn.read_to_string(&mut answer).unwrap();
    answer.lines().next().unwrap_or_default().to_string()
}

/// Waits for the process to exit (on a thread that waits for it), at most
/// `limit`; kills it if it has not.
fn wait_at_most(mut child: Child, limit: Duration) -> Option<std::process::ExitStatus> {
    let pid = child.id();
    let (tx, rx) = std::sync::mpsc::channel();
    let waiter = std::thread::spawn(move || {
        let _ = tx.send(child.wait().expect("wait"));
    });
    match rx.recv_timeout(limit) {
        Ok(status) => {
            waiter.join().unwrap();
            Some(status)
        }
        Err(_) => {
            let _ = Command::new("kill").args(["-KILL", &pid.to_string()]).status();
            waiter.join().unwrap();
            None
        }
    }
}

#[test]
fn sigterm_stops_the_server_despite_a_half_sent_request() {
    let dir = std::env::temp_dir().join(format!("hoyito-serve-term-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (child, addr) = serve(&dir);
    // A served request first: the server is up.
    let answer = health(&addr);
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    // A request whose body never finishes.
    let mut half = TcpStream::connect(&addr).unwrap();
    write!(
        half,
        "POST /api/games HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Content-Length: 100\r\n\r\n{{"
    )
    .unwrap();
    // The server took that connection in: it accepts in turn, and has
    // answered one opened after it.
    let answer = health(&addr);
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    let killed = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .expect("run kill");
    assert!(killed.success());
    // Within its shutdown grace (5 s), well before the half request's body
    // timeout (10 s) could end it.
    let status = wait_at_most(child, Duration::from_secs(9));
    let _ = std::fs::remove_dir_all(&dir);
    let status = status.expect("hoyito serve exits within its shutdown deadline after SIGTERM");
    assert!(status.success(), "{status}");
    drop(half);
}

#[test]
fn a_second_server_on_the_same_database_refuses_to_start() {
    let dir = std::env::temp_dir().join(format!("hoyito-serve-lock-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (mut first, _addr) = serve(&dir);
    let db = dir.join("games.db");
    let second = Command::new(BIN)
        .args(["serve", "--no-default-tables", "--addr", "127.0.0.1:0", "--db"])
        .arg(&db)
        .current_dir(&dir)
        .stdin(Stdio::null())
        .output();
    let _ = first.kill();
    let _ = first.wait();
    let _ = std::fs::remove_dir_all(&dir);
    let second = second.expect("run the second hoyito serve");
    assert_eq!(second.status.code(), Some(2), "{second:?}");
    assert!(second.stdout.is_empty(), "{second:?}");
    let stderr = String::from_utf8(second.stderr).unwrap();
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 1, "{stderr}");
    assert!(
        lines[0].starts_with(&format!(
            "hoyito: database {} is in use by another hoyito serve",
            db.display()
        )),
        "{stderr}"
    );
}
