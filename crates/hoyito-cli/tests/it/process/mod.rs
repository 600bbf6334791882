//! `hoyito serve` as a real process on loopback (127.0.0.1, a free port),
//! and raw HTTP/1.1 requests to it: shared by the test files that need them.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::Value;

pub const BIN: &str = env!("CARGO_BIN_EXE_hoyito");

/// How long a test waits for an event before it fails: generous, since
/// only a broken server (or a stalled machine) waits this long.
pub const PATIENCE: Duration = Duration::from_secs(30);

/// A running `hoyito serve`, killed when dropped.
pub struct Server {
    pub child: Child,
    /// `host:port`.
    pub addr: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `hoyito serve --addr 127.0.0.1:0 --db DB ARGS…` in `dir` with
/// `envs`, without rate limits; returns once it listens.
pub fn serve(dir: &Path, db: &std::ffi::OsStr, args: &[&str], envs: &[(&str, &str)]) -> Server {
    serve_to(dir, db, args, envs, Stdio::null())
}

/// [`serve`], its standard error (the log) going to `stderr`.
pub fn serve_to(
    dir: &Path,
    db: &std::ffi::OsStr,
    args: &[&str],
    envs: &[(&str, &str)],
    stderr: Stdio,
) -> Server {
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
        .args(args)
        .envs(envs.iter().copied())
        .current_dir(dir)
        .stdout(Stdio::piped())
        .stderr(stderr)
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
    Server { child, addr }
}

/// Runs `hoyito serve --addr 127.0.0.1:0 --db DB ARGS…` in `dir` with
/// `envs`, which must fail to start: its exit code and standard error.
/// Panics if it is still running after [`PATIENCE`] (it started).
pub fn fails_to_start(
    dir: &Path,
    db: &std::ffi::OsStr,
    args: &[&str],
    envs: &[(&str, &str)],
) -> (Option<i32>, String) {
    let mut child = Command::new(BIN)
        .args(["serve", "--no-default-tables", "--addr", "127.0.0.1:0", "--db"])
        .arg(db)
        .args(args)
        .envs(envs.iter().copied())
        .env("HOYITO_LOG", "off")
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start hoyito serve");
    let mut stderr = child.stderr.take().expect("stderr");
    let mut stdout = child.stdout.take().expect("stdout");
    let pid = child.id();
    let (tx, rx) = std::sync::mpsc::channel();
    let waiter = std::thread::spawn(move || {
        let mut err = String::new();
        let _ = stderr.read_to_string(&mut err);
        let mut out = String::new();
        let _ = stdout.read_to_string(&mut out);
        let _ = tx.send((child.wait().expect("wait"), out, err));
    });
    let Ok((status, out, err)) = rx.recv_timeout(PATIENCE) else {
        let _ = Command::new("kill").args(["-KILL", &pid.to_string()]).status();
        let _ = waiter.join();
        panic!("hoyito serve --db {db:?} {args:?} started instead of failing");
    };
    waiter.join().expect("the waiting thread");
    assert!(out.is_empty(), "nothing on standard output: {out:?}");
    (status.code(), err)
}

/// An answer: status, headers (names in lower case) and body.
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Answer {
    /// The value of header `name` (lower case), if there.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
    /// The body as JSON (`Value::Null` if it is not JSON).
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or(Value::Null)
    }
}

/// Sends `raw` (a whole request) on a new connection and reads the answer
/// until the server closes it, at most `limit`; `None` if the connection
/// failed or no answer came within `limit`.
pub fn exchange(addr: &str, raw: &[u8], limit: Duration) -> Option<Answer> {
    let mut s = TcpStream::connect(addr).ok()?;
    s.set_read_timeout(Some(limit)).ok()?;
    // The server may answer and close before reading all of an oversized
    // request: what it answered is read all the same.
    let _ = s.write_all(raw);
    let mut bytes = Vec::new();
    let mut chunk = [0u8; 16 * 1024];
    loop {
        match s.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => bytes.extend_from_slice(&chunk[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset && !bytes.is_empty() => break,
            Err(_) => return None,
        }
    }
    let text = String::from_utf8_lossy(&bytes);
    let (head, body) = text.split_once("\r\n\r\n")?;
    let mut lines = head.lines();
    let status = lines.next()?.get(9..12)?.parse().ok()?;
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    Some(Answer {
        status,
        headers,
        body: body.to_string(),
    })
}

/// A request `method path` with `token` as the bearer and `body` (JSON),
/// `Connection: close`, answered within `limit`.
pub fn request_within(
    addr: &str,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<&Value>,
    limit: Duration,
) -> Option<Answer> {
    let bearer = token.map(|t| format!("Bearer {t}"));
    let headers: Vec<(&str, &str)> = bearer.iter().map(|b| ("Authorization", b.as_str())).collect();
    exchange(
        addr,
        request_bytes(addr, method, path, &headers, body).as_bytes(),
        limit,
    )
}

/// The bytes of a request `method path` with `headers` and `body` (JSON),
/// `Connection: close`.
fn request_bytes(
    addr: &str,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<&Value>,
) -> String {
    let mut head = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    let body = body.map(Value::to_string).unwrap_or_default();
    if method != "GET" {
        head.push_str(&format!(
            "Content-Type: application/json\r\nContent-Length: {}\r\n",
            body.len()
        ));
    }
    head.push_str("\r\n");
    head.push_str(&body);
    head
}

/// A request `method path` with more `headers` and `body` (JSON),
/// `Connection: close`, answered within [`PATIENCE`]; panics if there is
/// no answer.
pub fn request_with(
    addr: &str,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<&Value>,
) -> Answer {
    exchange(
        addr,
        request_bytes(addr, method, path, headers, body).as_bytes(),
        PATIENCE,
    )
    .unwrap_or_else(|| panic!("no answer to {method} {path}"))
}

/// [`request_within`] [`PATIENCE`]; panics if there is no answer.
pub fn request(addr: &str, method: &str, path: &str, token: Option<&str>, body: Option<&Value>) -> Answer {
    request_within(addr, method, path, token, body, PATIENCE)
        .unwrap_or_else(|| panic!("no answer to {method} {path}"))
}

/// A fresh directory under the system's temporary directory, removed when dropped.
pub struct TempDir(pub std::path::PathBuf);

impl TempDir {
    pub fn new(what: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("hoyito-{what}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a temporary directory");
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A throwaway PostgreSQL server of a test's own (`scripts/postgres.sh`),
/// stopped when dropped.
pub struct PgCluster {
    dir: std::path::PathBuf,
    /// `postgres://hoyito@127.0.0.1:PORT/postgres`.
    pub url: String,
}

impl PgCluster {
    /// Starts one in `dir` with `options` (`--tls CERT KEY`, `--password PASSWORD`).
    pub fn start(dir: &Path, options: &[&str]) -> PgCluster {
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scripts/postgres.sh");
        let out = Command::new("bash")
            .arg(&script)
            .arg("start")
            .arg(dir)
            .args(options)
            .output()
            .expect("run scripts/postgres.sh");
        assert!(out.status.success(), "scripts/postgres.sh start: {out:?}");
        let stdout = String::from_utf8(out.stdout).unwrap();
        let url = stdout
            .trim()
            .strip_prefix("export HOYITO_TEST_POSTGRES=")
            .unwrap_or_else(|| panic!("unexpected output {stdout:?}"))
            .to_string();
        PgCluster {
            dir: dir.to_path_buf(),
            url,
        }
    }

    /// The server's port.
    pub fn port(&self) -> &str {
        let (_, rest) = self.url.rsplit_once(':').expect("host:port");
        rest.split('/').next().expect("a port")
    }

    /// The postmaster's process id and those of its children (backends
    /// and background workers).
    pub fn processes(&self) -> Vec<u32> {
        let pid_file = std::fs::read_to_string(self.dir.join("data/postmaster.pid")).expect("postmaster.pid");
        let postmaster: u32 = pid_file.lines().next().unwrap().trim().parse().unwrap();
        let mut pids = vec![postmaster];
        for entry in std::fs::read_dir("/proc").expect("/proc").flatten() {
            let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
                continue;
            };
            let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
                continue;
            };
            // pid (comm) state ppid …: the name may hold spaces and brackets.
            let ppid = stat
                .rsplit_once(')')
                .and_then(|(_, rest)| rest.split_whitespace().nth(1))
                .and_then(|p| p.parse::<u32>().ok());
            if ppid == Some(postmaster) {
                pids.push(pid);
            }
        }
        pids
    }

    /// Sends `signal` (`STOP`, `CONT`) to the postmaster, then to its
    /// children (one that ended meanwhile is passed over).
    pub fn signal(&self, signal: &str) {
        let pids = self.processes();
        let kill = |pid: u32| {
            Command::new("kill")
                .arg(format!("-{signal}"))
                .arg(pid.to_string())
                .stderr(Stdio::null())
                .status()
                .expect("run kill")
                .success()
        };
        assert!(kill(pids[0]), "kill -{signal} the postmaster {}", pids[0]);
        for &pid in &pids[1..] {
            kill(pid);
        }
    }
}

impl Drop for PgCluster {
    fn drop(&mut self) {
        // A frozen server must go on before it can stop.
        if let Ok(pid_file) = std::fs::read_to_string(self.dir.join("data/postmaster.pid")) {
            if let Some(postmaster) = pid_file.lines().next() {
                let _ = Command::new("kill").args(["-CONT", postmaster.trim()]).status();
            }
        }
        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.signal("CONT")));
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scripts/postgres.sh");
        let _ = Command::new("bash")
            .arg(script)
            .arg("stop")
            .arg(&self.dir)
            .status();
    }
}

/// Waits until the server at `addr` answers `GET /api/health` with 200
/// again (asking every 100 ms); panics after [`PATIENCE`].
pub fn wait_healthy(addr: &str) {
    let deadline = std::time::Instant::now() + PATIENCE;
    while request(addr, "GET", "/api/health", None, None).status != 200 {
        assert!(
            std::time::Instant::now() < deadline,
            "the health check says ok again"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}
