//! `hoyito ugi` driven as a GUI would drive it: the golden exchanges of
//! `tests/it/golden/ugi/*.txt` (also printed in docs/PROTOCOL.md), plus the
//! timing-dependent behaviour (stop, isready during a search, quit, end of
//! input) and hostile input.
//!
//! Golden files: `$ hoyito ugi [ARGS]` first, then `> ` lines sent to the
//! engine and `< ` lines expected back; `#` lines are comments. After each
//! `> ` line the test reads exactly the `< ` lines that follow it, so the
//! exchange is deterministic even though the search runs on a thread. The
//! volatile fields `nps` and `time` of `info` lines and the version in
//! `id name` are masked. Regenerate the golden files and the exchanges in
//! docs/PROTOCOL.md with `UPDATE_GOLDEN=1 cargo test -p hoyito-cli --test
//! it ugi::golden_exchanges` (a test checks that the two agree).

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::Duration;

use hoyito_core::{Game, Rules, Variant};

const BIN: &str = env!("CARGO_BIN_EXE_hoyito");
/// Generous: a CI machine may be slow, and the binary is a debug build.
const TIMEOUT: Duration = Duration::from_secs(60);

/// A running `hoyito ugi`.
struct Ugi {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Ugi {
    fn start(args: &[&str]) -> Ugi {
        let mut child = Command::new(BIN)
            .arg("ugi")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start hoyito ugi");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Ugi {
            stdin: child.stdin.take(),
            child,
            lines: rx,
        }
    }

    fn send(&mut self, line: &str) {
        self.send_bytes(format!("{line}\n").as_bytes());
    }

    fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("write to engine");
        stdin.flush().expect("flush");
    }

    /// The next line, failing the test after [`TIMEOUT`].
    fn recv(&self) -> String {
        match self.lines.recv_timeout(TIMEOUT) {
            Ok(l) => l,
            Err(RecvTimeoutError::Timeout) => panic!("no output from the engine for {TIMEOUT:?}"),
            Err(RecvTimeoutError::Disconnected) => panic!("the engine closed its output"),
        }
    }

    /// Lines until one starts with `prefix` (included).
    fn recv_until(&self, prefix: &str) -> Vec<String> {
        self.recv_until_any(&[prefix])
    }

    /// Lines until one starts with one of `prefixes` (included).
    fn recv_until_any(&self, prefixes: &[&str]) -> Vec<String> {
        let mut out = Vec::new();
        loop {
            let l = self.recv();
            let done = prefixes.iter().any(|p| l.starts_with(p));
            out.push(l);
            if done {
                return out;
            }
        }
    }

    /// The lines the engine prints in answer to what was sent so far: sends
    /// a command unknown to it as a marker and returns the lines before its
    /// error line (commands are answered in order).
    fn recv_answered(&mut self) -> Vec<String> {
        const MARKER: &str = "hoyito-test-marker";
        self.send(MARKER);
        let mut lines = self.recv_until(&format!("info string error: unknown command \"{MARKER}\""));
        lines.pop();
        lines
    }

    /// Every line until the engine closes its output (it exited), failing
    /// the test if it stays silent for [`TIMEOUT`].
    fn recv_to_end(&self) -> Vec<String> {
        let mut out = Vec::new();
        loop {
            match self.lines.recv_timeout(TIMEOUT) {
                Ok(l) => out.push(l),
                Err(RecvTimeoutError::Timeout) => panic!("no output from the engine for {TIMEOUT:?}"),
                Err(RecvTimeoutError::Disconnected) => return out,
            }
        }
    }

    /// Closes stdin and returns the remaining output and whether the process
    /// exited with 0. The engine's output closes when it exits: that is the
    /// event waited for (silence for [`TIMEOUT`] fails the test, and the
    /// engine is killed when the test's `Ugi` is dropped).
    fn close(mut self) -> (Vec<String>, bool) {
        drop(self.stdin.take());
        let rest = self.recv_to_end();
        let status = self.child.wait().expect("wait");
        (rest, status.success())
    }
}

impl Drop for Ugi {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Masks the volatile parts of an output line.
fn mask(line: &str) -> String {
    if let Some(rest) = line.strip_prefix("id name Hoyito ") {
        let _ = rest;
        return "id name Hoyito *".into();
    }
    if !line.starts_with("info ") || line.starts_with("info string") {
        return line.to_string();
    }
    let mut words: Vec<&str> = line.split(' ').collect();
    for i in 1..words.len() {
        if matches!(words[i - 1], "nps" | "time") {
            words[i] = "*";
        }
    }
    words.join(" ")
}

/// A golden exchange.
struct Golden {
    path: PathBuf,
    /// The whole text, to rewrite in place.
    text: String,
    args: Vec<String>,
    /// Each input line with the output lines expected after it.
    steps: Vec<(String, Vec<String>)>,
}

fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/it/golden/ugi")
}

fn read_golden(path: &Path) -> Golden {
    let text = std::fs::read_to_string(path).expect("read golden file");
    let mut args = None;
    let mut steps: Vec<(String, Vec<String>)> = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(a) = line.strip_prefix("$ hoyito ugi") {
            args = Some(a.split_whitespace().map(String::from).collect());
        } else if let Some(input) = line.strip_prefix("> ") {
            steps.push((input.to_string(), Vec::new()));
        } else if let Some(output) = line.strip_prefix("< ") {
            steps
                .last_mut()
                .unwrap_or_else(|| panic!("{}:{}: output before any input", path.display(), n + 1))
                .1
                .push(output.to_string());
        } else {
            panic!(
                "{}:{}: a line must start with $, >, < or #",
                path.display(),
                n + 1
            );
        }
    }
    Golden {
        path: path.to_path_buf(),
        text,
        args: args.unwrap_or_else(|| panic!("{}: no `$ hoyito ugi` line", path.display())),
        steps,
    }
}

fn golden_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(golden_dir())
        .expect("golden dir")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    assert!(files.len() >= 4, "golden files missing: {files:?}");
    files
}

/// Runs a golden exchange; returns the differences (empty if it matches).
fn check_golden(g: &Golden) -> Vec<String> {
    let args: Vec<&str> = g.args.iter().map(String::as_str).collect();
    let mut ugi = Ugi::start(&args);
    let mut diffs = Vec::new();
    for (input, expected) in &g.steps {
        ugi.send(input);
        for want in expected {
            let got = ugi.recv();
            if mask(&got) != mask(want) {
                diffs.push(format!(
                    "after > {input}\n  expected < {want}\n  got      < {got}"
                ));
                return diffs;
            }
        }
    }
    let (rest, ok) = ugi.close();
    if !rest.is_empty() {
        diffs.push(format!("unexpected output at the end: {rest:?}"));
    }
    if !ok {
        diffs.push("the engine did not exit with status 0".into());
    }
    diffs
}

/// Reruns a golden exchange and writes what the engine answered.
fn update_golden(g: &Golden) {
    let args: Vec<&str> = g.args.iter().map(String::as_str).collect();
    let mut ugi = Ugi::start(&args);
    let mut answers = Vec::new();
    for (input, _) in &g.steps {
        ugi.send(input);
        let mut lines = Vec::new();
        let bounded_go = input.starts_with("go") && !input.contains("infinite");
        if bounded_go {
            // A search ends with bestmove; a rejected go with an error.
            lines = ugi.recv_until_any(&["bestmove", "info string error"]);
        }
        if input.trim() == "quit" {
            lines.extend(ugi.recv_to_end());
        } else {
            lines.extend(ugi.recv_answered());
        }
        answers.push(lines);
    }
    drop(ugi);
    let mut out = String::new();
    let mut step = 0;
    let mut skip_outputs = false;
    for line in g.text.lines() {
        if line.starts_with("< ") && skip_outputs {
            continue;
        }
        out.push_str(line);
        out.push('\n');
        if line.starts_with("> ") {
            for a in &answers[step] {
                out.push_str(&format!("< {a}\n"));
            }
            step += 1;
            skip_outputs = true;
        } else if !line.starts_with("< ") {
            skip_outputs = false;
        }
    }
    std::fs::write(&g.path, out).expect("write golden file");
}

fn protocol_doc() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/PROTOCOL.md")
}

/// Replaces, in docs/PROTOCOL.md, the text block after the line naming each
/// golden file (`` `01-handshake.txt`: ``) with the file's exchange.
fn update_doc() {
    let doc = std::fs::read_to_string(protocol_doc()).expect("docs/PROTOCOL.md");
    let mut out: Vec<String> = Vec::new();
    let mut lines = doc.lines().peekable();
    while let Some(line) = lines.next() {
        out.push(line.to_string());
        let name = line.strip_prefix('`').and_then(|l| l.strip_suffix("`:"));
        let Some(name) = name.filter(|n| n.ends_with(".txt")) else {
            continue;
        };
        // Copy up to the opening fence, drop the old block, write the new one.
        for l in lines.by_ref() {
            out.push(l.to_string());
            if l.starts_with("```") {
                break;
            }
        }
        for l in lines.by_ref() {
            if l.starts_with("```") {
                break;
            }
        }
        let golden = std::fs::read_to_string(golden_dir().join(name)).expect("golden file named in the doc");
        out.extend(
            golden
                .lines()
                .filter(|l| !l.is_empty() && !l.starts_with('#'))
                .map(String::from),
        );
        out.push("```".into());
    }
    std::fs::write(protocol_doc(), out.join("\n") + "\n").expect("write docs/PROTOCOL.md");
}

#[test]
fn golden_exchanges() {
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    let mut failures = Vec::new();
    if update {
        for path in golden_files() {
            update_golden(&read_golden(&path));
        }
        update_doc();
        return;
    }
    for path in golden_files() {
        let g = read_golden(&path);
        let diffs = check_golden(&g);
        if !diffs.is_empty() {
            failures.push(format!("{}:\n{}", path.display(), diffs.join("\n")));
        }
    }
    assert!(
        failures.is_empty(),
        "golden exchanges differ:\n{}",
        failures.join("\n\n")
    );
}

/// Every golden exchange is printed, line for line, in docs/PROTOCOL.md.
#[test]
fn protocol_doc_shows_the_golden_exchanges() {
    let doc = std::fs::read_to_string(protocol_doc()).expect("docs/PROTOCOL.md");
    let doc_lines: Vec<&str> = doc.lines().collect();
    for path in golden_files() {
        let text = std::fs::read_to_string(&path).expect("golden");
        let block: Vec<&str> = text
            .lines()
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .collect();
        let found = doc_lines
            .windows(block.len())
            .any(|w| w.iter().zip(&block).all(|(a, b)| mask(a.trim_end()) == mask(b)));
        assert!(
            found,
            "docs/PROTOCOL.md does not show the exchange of {} (copy it into a text block)",
            path.display()
        );
    }
}

/// The masking itself: volatile fields only.
#[test]
fn masking() {
    assert_eq!(
        mask("info depth 3 score cp 100 nodes 55 nps 6111 time 9 pv 6 2 2"),
        "info depth 3 score cp 100 nodes 55 nps * time * pv 6 2 2"
    );
    assert_eq!(mask("info string error: time 5"), "info string error: time 5");
    assert_eq!(mask("bestmove 3"), "bestmove 3");
    assert_ne!(
        mask("info depth 3 score cp 100 nodes 55 nps 1 time 9 pv 6"),
        mask("info depth 3 score cp 100 nodes 56 nps 1 time 9 pv 6")
    );
}

fn is_move_token(t: &str) -> bool {
    !t.is_empty()
        && t.chars()
            .all(|c| c.is_ascii_digit() || matches!(c, 'L' | 'R' | '+'))
}

/// `isready` is answered during a search; `stop` ends `go infinite` with one bestmove.
#[test]
fn stop_and_isready_during_infinite_search() {
    let mut ugi = Ugi::start(&[]);
    ugi.send("position startpos moves 3");
    ugi.send("go infinite");
    // The search is under way once it reports its first depth.
    let started = ugi.recv_until("info depth");
    assert!(started.iter().all(|l| !l.starts_with("bestmove")), "{started:?}");
    ugi.send("isready");
    let before_stop = ugi.recv_until("readyok");
    assert!(
        before_stop.iter().all(|l| !l.starts_with("bestmove")),
        "bestmove before stop: {before_stop:?}"
    );
    ugi.send("stop");
    let lines = ugi.recv_until("bestmove");
    let best = lines
        .last()
        .unwrap()
        .strip_prefix("bestmove ")
        .unwrap()
        .to_string();
    assert!(is_move_token(&best), "{best}");
    let mut g = Game::new(Rules::standard(Variant::I));
    g.play_token("3").unwrap();
    g.play_token(&best).expect("bestmove is legal in the position");
    // Exactly one bestmove: nothing more arrives.
    ugi.send("isready");
    assert_eq!(ugi.recv_until("readyok"), vec!["readyok"]);
    let (rest, ok) = ugi.close();
    assert!(rest.is_empty(), "{rest:?}");
    assert!(ok);
}

/// `quit` ends a running search at once and the process exits with 0.
#[test]
fn quit_during_search() {
    let mut ugi = Ugi::start(&["--variant", "II"]);
    ugi.send("go infinite");
    // The search is under way once it reports its first depth.
    ugi.recv_until("info depth");
    ugi.send("quit");
    // An infinite search ends only by `stop` or `quit`: the exit (waited
    // for at most TIMEOUT) is quit's doing.
    let (rest, ok) = ugi.close();
    assert!(ok);
    assert_eq!(rest.iter().filter(|l| l.starts_with("bestmove")).count(), 1);
}

/// At the end of input a bounded search still prints its bestmove.
#[test]
fn end_of_input_finishes_a_bounded_search() {
    let mut ugi = Ugi::start(&[]);
    ugi.send("position startpos moves 1");
    ugi.send("go depth 3");
    let (rest, ok) = ugi.close();
    assert!(ok);
    assert!(
        rest.last().is_some_and(|l| l.starts_with("bestmove ")),
        "{rest:?}"
    );
    assert_eq!(rest.iter().filter(|l| l.starts_with("info depth")).count(), 3);
}

/// Clock-based searches end by themselves with a legal move.
#[test]
fn clock_search() {
    let mut ugi = Ugi::start(&["--variant", "III"]);
    ugi.send("position startpos moves 2");
    ugi.send("go p1time 600 p2time 600 p1inc 10 p2inc 10");
    // North to move: a 30th of 600 ms plus most of the increment; the
    // search ends by itself, nothing else is sent.
    let lines = ugi.recv_until("bestmove");
    let best = lines
        .last()
        .unwrap()
        .strip_prefix("bestmove ")
        .unwrap()
        .to_string();
    let mut g = Game::new(Rules::standard(Variant::III));
    g.play_token("2").unwrap();
    g.play_token(&best).expect("legal bestmove");
}

/// Invalid UTF-8, a huge line and control bytes are answered with errors, not a crash.
#[test]
fn hostile_input() {
    let mut ugi = Ugi::start(&[]);
    ugi.send_bytes(b"\xff\xfe position \x00\x01\n");
    assert!(ugi.recv().starts_with("info string error: unknown command"));
    let huge = format!("position startpos moves {}\n", "1 ".repeat(600_000));
    ugi.send_bytes(huge.as_bytes());
    assert!(ugi.recv().contains("too long"));
    ugi.send("position startpos moves 3 0");
    let e = ugi.recv();
    assert!(e.starts_with("info string error: move "), "{e}");
    ugi.send("isready");
    assert_eq!(ugi.recv(), "readyok");
    let (_, ok) = ugi.close();
    assert!(ok);
}

/// `position … moves …` keeps the game history: a third repetition ends the game.
#[test]
fn repetition_is_tracked() {
    // Find a random Hoyito I game that ends by repetition (deterministic seed).
    let rules = Rules::standard(Variant::I);
    let mut seed = 0x1234_5678_u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let game = (0..20_000)
        .find_map(|_| {
            let mut g = Game::new(rules);
            while !g.is_over() && g.moves().len() < 400 {
                let moves = g.position().legal_moves();
                let m = moves[(next() % moves.len() as u64) as usize];
                g.play(m).unwrap();
            }
            let o = g.position().outcome()?;
            (o.reason == hoyito_core::EndReason::Repetition).then_some(g)
        })
        .expect("a random game ending by repetition");
    let tokens = game.tokens();
    let mut ugi = Ugi::start(&[]);
    ugi.send(&format!(
        "position startpos moves {}",
        tokens[..tokens.len() - 1].join(" ")
    ));
    ugi.send("query gameover");
    assert_eq!(ugi.recv(), "response false");
    ugi.send(&format!("position startpos moves {}", tokens.join(" ")));
    ugi.send("query gameover");
    assert_eq!(ugi.recv(), "response true");
    let want = match game.position().outcome().unwrap().winner {
        Some(hoyito_core::Side::South) => "response p1win",
        Some(hoyito_core::Side::North) => "response p2win",
        None => "response draw",
    };
    ugi.send("query result");
    assert_eq!(ugi.recv(), want);
    ugi.send("go depth 2");
    assert_eq!(ugi.recv(), "bestmove 0000");
    // The same final position without the history is not over.
    let last = game.positions()[tokens.len() - 1];
    let mut g = Game::from_position(last);
    g.play(*game.moves().last().unwrap()).unwrap();
    assert!(!g.is_over(), "the history is what ends the game");
}
