//! A UGI [`Session`] driven over in-memory buffers, without the binary:
//! the golden exchanges of `hoyito-cli/tests/it/golden/ugi/*.txt` replayed
//! through the library, and the end of a session.
//!
//! The golden files are those the CLI's own tests replay against the
//! `hoyito ugi` binary (their format is described there): `$ hoyito ugi
//! [ARGS]`, then `> ` lines sent and `< ` lines expected back. After each
//! `> ` line the test waits for exactly the `< ` lines that follow it, as
//! the search answers on its own thread. The volatile `nps`, `time` and
//! version are masked.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

use hoyito_engine::hoyito_core::{Rules, RulesSpec, Variant};
use hoyito_engine::ugi::{Ending, Flow, Session};

/// Generous: a CI machine may be slow.
const TIMEOUT: Duration = Duration::from_secs(60);

/// Output captured in memory, readable while the session writes; every
/// write wakes the readers waiting for lines ([`Buf::wait_for`]).
#[derive(Clone, Default)]
struct Buf(Arc<(Mutex<Vec<u8>>, Condvar)>);

impl Write for Buf {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0 .0.lock().unwrap().extend_from_slice(b);
        self.0 .1.notify_all();
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Buf {
    /// The complete lines written so far.
    fn lines(&self) -> Vec<String> {
        lines_of(&self.0 .0.lock().unwrap())
    }

    /// Waits until at least `n` lines were written, woken by each write;
    /// fails after [`TIMEOUT`] without one.
    fn wait_for(&self, n: usize) -> Vec<String> {
        let (bytes, written) = &*self.0;
        let (bytes, timeout) = written
            .wait_timeout_while(bytes.lock().unwrap(), TIMEOUT, |b| lines_of(b).len() < n)
            .unwrap();
        let lines = lines_of(&bytes);
        assert!(
            !timeout.timed_out() || lines.len() >= n,
            "waited {TIMEOUT:?} for {n} lines, got {lines:?}"
        );
        lines
    }
}

/// The complete lines of `bytes`.
fn lines_of(bytes: &[u8]) -> Vec<String> {
    let text = std::str::from_utf8(bytes).expect("UTF-8 output");
    text.split_inclusive('\n')
        .filter(|l| l.ends_with('\n'))
        .map(|l| l.trim_end_matches('\n').to_string())
        .collect()
}

/// Masks the volatile parts of an output line.
fn mask(line: &str) -> String {
    if line.starts_with("id name Hoyito ") {
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

fn golden_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../hoyito-cli/tests/it/golden/ugi");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    assert!(files.len() >= 7, "golden files missing: {files:?}");
    files
}

/// The rules of a `$ hoyito ugi [ARGS]` line (the golden files give at
/// most `--variant`).
fn rules_of(args: &str) -> Rules {
    let words: Vec<&str> = args.split_whitespace().collect();
    let variant = match words.as_slice() {
        [] => Variant::I,
        ["--variant", v] => v.parse().expect("a variant"),
        _ => panic!("arguments {args:?}: only --variant is understood here"),
    };
    Rules::try_from(RulesSpec {
        variant,
        ..RulesSpec::default()
    })
    .expect("standard rules")
}

/// Replays one golden file through a session; the differences, if any.
fn replay(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).expect("golden file");
    let mut session = None;
    let out = Buf::default();
    let mut expected = 0;
    let mut flow = Flow::Continue;
    let mut last_input = String::new();
    let mut diffs = Vec::new();
    for line in text.lines() {
        if let Some(args) = line.strip_prefix("$ hoyito ugi") {
            session = Some(Session::new(rules_of(args), out.clone()));
        } else if let Some(input) = line.strip_prefix("> ") {
            let s = session.as_mut().expect("a `$ hoyito ugi` line first");
            flow = s.handle(input);
            last_input = input.to_string();
        } else if let Some(want) = line.strip_prefix("< ") {
            expected += 1;
            let got = out.wait_for(expected)[expected - 1].clone();
            if mask(&got) != mask(want) {
                diffs.push(format!(
                    "after > {last_input}\n  expected < {want}\n  got      < {got}"
                ));
                return diffs;
            }
        }
    }
    let mut session = session.expect("a session");
    session.finish(if flow == Flow::Quit {
        Ending::Quit
    } else {
        Ending::EndOfInput
    });
    let rest = &out.lines()[expected..];
    if !rest.is_empty() {
        diffs.push(format!("unexpected output at the end: {rest:?}"));
    }
    diffs
}

#[test]
fn golden_exchanges_through_the_library() {
    let failures: Vec<String> = golden_files()
        .iter()
        .filter_map(|path| {
            let diffs = replay(path);
            (!diffs.is_empty()).then(|| format!("{}:\n{}", path.display(), diffs.join("\n")))
        })
        .collect();
    assert!(
        failures.is_empty(),
        "golden exchanges differ:\n{}",
        failures.join("\n\n")
    );
}

/// [`Session::run`] reads to `quit`: what follows is not read, and a
/// bounded search still running is stopped, with one `bestmove`.
#[test]
fn run_stops_at_quit() {
    let input = "isready\nposition startpos moves 1\nquery p1turn\ngo infinite\nquit\nisready\n";
    let out = Session::new(Rules::standard(Variant::II), Vec::new()).run(input.as_bytes());
    let out = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[..2], ["readyok", "response false"], "{out}");
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("bestmove ")).count(),
        1,
        "{out}"
    );
    assert!(lines.last().unwrap().starts_with("bestmove "), "{out}");
    assert_eq!(lines.iter().filter(|l| **l == "readyok").count(), 1, "{out}");
}

/// At the end of the input a bounded search finishes (every depth, then
/// the bestmove); bad lines and blank ones in between change nothing.
#[test]
fn run_finishes_a_bounded_search_at_the_end() {
    let input = b"\n  \nposition startpos moves 1\nfly\n\xff\ngo depth 3\n";
    let out = Session::new(Rules::standard(Variant::I), Vec::new()).run(&input[..]);
    let out = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines[0].starts_with("info string error: unknown command \"fly\""),
        "{out}"
    );
    assert!(
        lines[1].starts_with("info string error: unknown command \"\u{fffd}\""),
        "{out}"
    );
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("info depth")).count(),
        3,
        "{out}"
    );
    assert!(lines.last().unwrap().starts_with("bestmove "), "{out}");
}

/// An output that fails (the GUI closed the pipe) does not end or crash the session.
#[test]
fn failing_output_is_ignored() {
    struct Closed;
    impl Write for Closed {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
            Err(std::io::ErrorKind::BrokenPipe.into())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Err(std::io::ErrorKind::BrokenPipe.into())
        }
    }
    let input = "ugi\nisready\ngo depth 2\nquit\n";
    Session::new(Rules::standard(Variant::I), Closed).run(input.as_bytes());
}
