//! A closed output pipe (`hoyito … | head -1`) ends a command quietly:
//! exit status 0, nothing on stderr (no panic, no backtrace).
//!
//! The read end of the pipe is closed before the command writes anything
//! (and, for a long output, after one line was read), so every write after
//! that fails with a broken pipe, whatever the pipe's buffer size.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_hoyito");

/// Runs `hoyito ARGS`, reads `lines` lines of its output, closes the pipe,
/// and checks that it exited quietly.
fn closed_after(args: &[&str], lines: usize) {
    let err = closed_after_stderr(args, lines);
    assert!(err.is_empty(), "{args:?} wrote to stderr: {err}");
}

/// As [`closed_after`] for a command that reports progress on stderr:
/// it exits with success and never panics. Returns its stderr.
fn closed_after_stderr(args: &[&str], lines: usize) -> String {
    let mut child = Command::new(BIN)
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .env("RUST_BACKTRACE", "1")
        .spawn()
        .expect("start hoyito");
    let mut out = BufReader::new(child.stdout.take().expect("stdout"));
    for _ in 0..lines {
        let mut line = String::new();
        out.read_line(&mut line).expect("read a line");
        assert!(!line.is_empty(), "{args:?}: the output ended early");
    }
    drop(out);
    let done = child.wait_with_output().expect("wait for hoyito");
    let err = String::from_utf8_lossy(&done.stderr);
    assert!(!err.contains("panicked"), "{args:?} panicked: {err}");
    assert!(done.status.success(), "{args:?}: {:?} {err}", done.status);
    err.into_owned()
}

#[test]
fn perft_divide_into_a_closed_pipe() {
    closed_after(&["perft", "--depth", "3", "--divide"], 0);
    closed_after(&["perft", "--depth", "1"], 0);
}

#[test]
fn replay_into_a_closed_pipe() {
    // A whole game (always the first legal move), one JSON line per ply.
    let mut game = hoyito_core::Game::new(hoyito_core::Rules::standard(hoyito_core::Variant::I));
    while !game.is_over() {
        let m = game.position().legal_moves()[0];
        game.play(m).unwrap();
    }
    let moves = game.tokens().join(" ");
    assert!(game.tokens().len() > 2, "{moves}");
    closed_after(&["replay", "--json", "--moves", &moves], 0);
    closed_after(&["replay", "--json", "--moves", &moves], 1);
}

#[test]
fn tablebase_probe_into_a_closed_pipe() {
    let dir = std::env::temp_dir().join(format!("hoyito-pipe-tb-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let d = dir.to_str().unwrap();
    let rules = ["--variant", "II", "--holes", "4"];
    let build = Command::new(BIN)
        .args(["tablebase", "build"])
        .args(rules)
        .args(["--max-seeds", "8", "--dir", d, "--quiet"])
        .output()
        .unwrap();
    assert!(
        build.status.success(),
        "{}",
        String::from_utf8_lossy(&build.stderr)
    );
    let probe = [
        "tablebase",
        "probe",
        "--variant",
        "II",
        "--holes",
        "4",
        "--dir",
        d,
        "1,0,3,0/0,2,0,2 s 20-4",
    ];
    closed_after(&probe, 0);
    closed_after(&probe, 1);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn analyze_bench_and_selfplay_into_a_closed_pipe() {
    let analyze = ["analyze", "--variant", "II", "--depth", "4"];
    closed_after(&analyze, 0);
    closed_after(&analyze, 1);
    closed_after(&["bench", "--seconds", "0.2"], 0);
    // Without a terminal, selfplay reports each game on stderr.
    let selfplay = ["selfplay", "--a", "random", "--b", "random", "--games", "2"];
    let err = closed_after_stderr(&selfplay, 0);
    assert!(err.contains("game 2/2"), "{err}");
}
