//! The engine over the UGI protocol (UCI generalised to any two-player
//! game), as `hoyito ugi` speaks it on stdin/stdout. See `docs/PROTOCOL.md`.
//!
//! A [`Session`] reads command lines from any [`BufRead`] and writes its
//! answers, whole lines, to any [`Write`]. A `go` runs the search on its own
//! thread, so `stop`, `isready` and `quit` are answered during a search.
//! Bad input is answered with one `info string error: …` line and ignored.
//!
//! ```
//! use hoyito_engine::hoyito_core::{Rules, Variant};
//! use hoyito_engine::ugi::Session;
//!
//! let input = "position startpos moves 3\nquery p1turn\nquit\n";
//! let out = Session::new(Rules::standard(Variant::I), Vec::new()).run(input.as_bytes());
//! assert_eq!(String::from_utf8(out).unwrap(), "response false\n");
//! ```

mod lines;
pub mod parse;

use std::io::{BufRead, Read, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use hoyito_core::{Game, GameResult, Rules, RulesOption, Side, RULES_OPTIONS};

use self::lines::{build_game, check_tablebases, combo, info_line, limits_for, ENGINE_OPTIONS};
pub use self::lines::{explain_illegal, legal_tokens, rules_option_line};
use self::parse::{Command, GoArgs, Query};
use crate::{Engine, EngineKind, Info, Limits, DEFAULT_HASH_MB};

/// Strongest level (the `Level` option's maximum and default).
pub const MAX_LEVEL: u8 = 10;
/// Largest transposition table accepted by the `Hash` option, in MiB.
pub const MAX_HASH_MB: usize = 65536;

/// What the session does after a command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    /// Read the next command.
    Continue,
    /// `quit` was received: end the session.
    Quit,
}

/// How a session ends (see [`Session::finish`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// `quit`: a running search is stopped at once.
    Quit,
    /// The end of the input: a bounded search may finish (so piped scripts
    /// get their `bestmove`), an unbounded one is stopped.
    EndOfInput,
}

/// One line of input, as [`read_line`] returns it.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Line {
    /// The end of the input (or a read error: the GUI is gone).
    End,
    /// A line longer than [`parse::MAX_LINE`] bytes, read and dropped.
    TooLong {
        /// Its length in bytes, at least `MAX_LINE + 1`.
        bytes: usize,
    },
    /// A line (invalid UTF-8 replaced, so it cannot end the session).
    Text(String),
}

/// Reads one line, keeping at most [`parse::MAX_LINE`] bytes: the rest of a
/// longer line is read and dropped.
fn read_line(input: &mut impl BufRead, buf: &mut Vec<u8>) -> Line {
    buf.clear();
    let limit = parse::MAX_LINE as u64 + 1;
    let n = match (&mut *input).take(limit).read_until(b'\n', buf) {
        Ok(n) => n,
        Err(_) => return Line::End,
    };
    if n == 0 {
        return Line::End;
    }
    if buf.len() as u64 == limit && buf.last() != Some(&b'\n') {
        let mut bytes = buf.len();
        loop {
            buf.clear();
            match (&mut *input).take(1 << 16).read_until(b'\n', buf) {
                Ok(0) | Err(_) => break,
                Ok(k) => {
                    bytes += k;
                    if buf.last() == Some(&b'\n') {
                        break;
                    }
                }
            }
        }
        return Line::TooLong { bytes };
    }
    Line::Text(String::from_utf8_lossy(buf).into_owned())
}

/// Whole lines to the output, shared by the reader and the search thread.
struct Out<W>(Arc<Mutex<W>>);

impl<W> Clone for Out<W> {
    fn clone(&self) -> Out<W> {
        Out(Arc::clone(&self.0))
    }
}

impl<W: Write> Out<W> {
    /// Writes one line and flushes. Write errors (a closed pipe) are
    /// ignored: the GUI is gone, and the end of the input ends the session.
    fn line(&self, s: &str) {
        let mut w = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let _ = writeln!(w, "{s}");
        let _ = w.flush();
    }

    fn error(&self, msg: &str) {
        self.line(&format!("info string error: {msg}"));
    }
}

/// `EngineType` option values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum KindOpt {
    AlphaBeta,
    Mcts,
}

impl KindOpt {
    fn name(self) -> &'static str {
        match self {
            KindOpt::AlphaBeta => "alphabeta",
            KindOpt::Mcts => "mcts",
        }
    }
    fn kind(self) -> EngineKind {
        match self {
            KindOpt::AlphaBeta => EngineKind::AlphaBeta,
            KindOpt::Mcts => EngineKind::Mcts,
        }
    }
}

/// A search running on its thread.
struct Running {
    handle: JoinHandle<Engine>,
    stop: Arc<AtomicBool>,
    /// No limit was given (`go infinite` or a bare `go`): only `stop` ends it.
    unbounded: bool,
}

/// A UGI session: the options, the game, and the engine or its running
/// search; answers go to the output given to [`Session::new`].
///
/// Feed it lines with [`Session::handle`] and end it with
/// [`Session::finish`], or let [`Session::run`] do both over a reader.
/// Dropping a session stops its search.
pub struct Session<W: Write + Send + 'static> {
    out: Out<W>,
    rules: Rules,
    game: Game,
    level: u8,
    kind: KindOpt,
    hash_mb: usize,
    /// `TablebaseDir`: endgame tablebases the engine probes (checked when set).
    tablebases: Option<PathBuf>,
    /// The idle engine; `None` while a search owns it or before the first `go`.
    engine: Option<Engine>,
    /// Engine options changed since the engine was built.
    rebuild: bool,
    /// `uginewgame` (or a rules change) since the last search.
    new_game: bool,
    running: Option<Running>,
}

impl<W: Write + Send + 'static> Session<W> {
    /// A session playing `rules` (the GUI can change them with
    /// `setoption`) at full strength, writing its answers to `output`.
    pub fn new(rules: Rules, output: W) -> Session<W> {
        Session {
            out: Out(Arc::new(Mutex::new(output))),
            rules,
            game: Game::new(rules),
            level: MAX_LEVEL,
            kind: KindOpt::AlphaBeta,
            hash_mb: DEFAULT_HASH_MB,
            tablebases: None,
            engine: None,
            rebuild: true,
            new_game: true,
            running: None,
        }
    }

    /// Runs the session over `input` until `quit` or the end of the input
    /// (then [`Session::finish`]), and returns the output. A read error
    /// counts as the end of the input.
    pub fn run(mut self, mut input: impl BufRead) -> W {
        let mut buf = Vec::new();
        let ending = loop {
            match read_line(&mut input, &mut buf) {
                Line::End => break Ending::EndOfInput,
                Line::TooLong { bytes } => self.out.error(&format!(
                    "line of {bytes} bytes or more is too long: at most {}",
                    parse::MAX_LINE
                )),
                Line::Text(line) => {
                    if self.handle(&line) == Flow::Quit {
                        break Ending::Quit;
                    }
                }
            }
        };
        self.finish(ending);
        let output = Arc::clone(&self.out.0);
        // The search thread has ended: the session holds the only other
        // reference to the output.
        drop(self);
        match Arc::try_unwrap(output) {
            Ok(m) => m.into_inner().unwrap_or_else(|e| e.into_inner()),
            Err(_) => unreachable!("the search thread has ended"),
        }
    }

    /// Handles one input line: a command, or a blank line (ignored). Bad
    /// input is answered with one `info string error: …` line.
    pub fn handle(&mut self, line: &str) -> Flow {
        let cmd = match parse::parse(line) {
            Ok(Some(cmd)) => cmd,
            Ok(None) => return Flow::Continue,
            Err(e) => {
                self.out.error(&e.to_string());
                return Flow::Continue;
            }
        };
        match cmd {
            Command::Ugi => self.ugi(),
            Command::IsReady => self.out.line("readyok"),
            Command::SetOption { name, value } => {
                if let Err(e) = self.set_option(&name, &value) {
                    self.out.error(&e);
                }
            }
            Command::NewGame => {
                self.game = Game::new(self.rules);
                self.new_game = true;
            }
            Command::Position { notation, moves } => {
                match build_game(self.rules, notation.as_deref(), &moves) {
                    Ok(game) => self.game = game,
                    Err(e) => self.out.error(&format!("{e}; the position is unchanged")),
                }
            }
            Command::Go(g) => self.go(g),
            Command::Stop => {
                if let Some(r) = &self.running {
                    r.stop.store(true, Ordering::Relaxed);
                }
            }
            Command::Quit => return Flow::Quit,
            Command::Query(q) => self.query(q),
        }
        Flow::Continue
    }

    /// Ends the session's search, if one is running, as `ending` says, and
    /// waits for its thread (and its `bestmove`).
    pub fn finish(&mut self, ending: Ending) {
        if let Some(r) = self.running.take() {
            if ending == Ending::Quit || r.unbounded {
                r.stop.store(true, Ordering::Relaxed);
            }
            let _ = r.handle.join();
        }
    }

    fn ugi(&self) {
        let spec = self.rules.spec();
        let mut lines = vec![
            format!("id name Hoyito {}", env!("CARGO_PKG_VERSION")),
            "id author the Hoyito developers".to_string(),
        ];
        // The rules options, from the core's table, with the session's values.
        lines.extend(spec.values().map(|(o, v)| rules_option_line(o, v)));
        lines.extend([
            format!(
                "option name Level type spin default {} min 1 max {MAX_LEVEL}",
                self.level
            ),
            combo("EngineType", self.kind.name(), ["alphabeta", "mcts"]),
            format!(
                "option name Hash type spin default {} min 1 max {MAX_HASH_MB}",
                self.hash_mb
            ),
            format!(
                "option name TablebaseDir type string default {}",
                self.tablebases
                    .as_ref()
                    .map_or_else(|| "<empty>".to_string(), |d| d.display().to_string())
            ),
            "ugiok".to_string(),
        ]);
        for l in lines {
            self.out.line(&l);
        }
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        if let Some(option) = RulesOption::find(name) {
            return self.set_rules_option(option, value);
        }
        let bad = |expected: &str| format!("bad value {value:?} for {name}: expected {expected}");
        let number = |lo: u64, hi: u64| {
            value
                .trim()
                .parse::<u64>()
                .ok()
                .filter(|v| (lo..=hi).contains(v))
                .ok_or_else(|| bad(&format!("a whole number from {lo} to {hi}")))
        };
        match name.to_ascii_lowercase().as_str() {
            "level" => {
                self.level = number(1, MAX_LEVEL as u64)? as u8;
                self.rebuild = true;
                Ok(())
            }
            "enginetype" => {
                self.kind = match value.to_ascii_lowercase().replace(['-', '_'], "").as_str() {
                    "alphabeta" => KindOpt::AlphaBeta,
                    "mcts" => KindOpt::Mcts,
                    _ => return Err(bad("alphabeta or mcts")),
                };
                self.rebuild = true;
                Ok(())
            }
            "hash" => {
                self.hash_mb = number(1, MAX_HASH_MB as u64)? as usize;
                self.rebuild = true;
                Ok(())
            }
            "tablebasedir" => {
                self.rebuild = true;
                if value == "<empty>" {
                    self.tablebases = None;
                    return Ok(());
                }
                // Checked now, against the current rules, so a bad path is
                // reported here rather than silently ignored at `go`.
                let dir = PathBuf::from(value);
                let layers = check_tablebases(self.rules, &dir).map_err(|e| {
                    format!("option TablebaseDir not changed: cannot use the tablebases in {value}: {e}")
                })?;
                self.out.line(&format!(
                    "info string tablebases in {value}: layers of {} seeds",
                    layers.iter().map(u32::to_string).collect::<Vec<_>>().join(", ")
                ));
                self.tablebases = Some(dir);
                Ok(())
            }
            _ => {
                let names: Vec<&str> = RULES_OPTIONS
                    .iter()
                    .map(|o| o.tag)
                    .chain(ENGINE_OPTIONS)
                    .collect();
                Err(format!(
                    "unknown option {name:?}: expected one of {}",
                    names.join(", ")
                ))
            }
        }
    }

    /// `setoption` of a rules option: the core's parsing and error text; a
    /// change starts a new game.
    fn set_rules_option(&mut self, option: &RulesOption, value: &str) -> Result<(), String> {
        let mut spec = self.rules.spec();
        spec.set_option(option.id, value).map_err(|e| e.to_string())?;
        let rules = Rules::try_from(spec).map_err(|e| format!("option {} not changed: {e}", option.tag))?;
        // A rules change starts a new game from the new start position
        // (and, with tablebases, reloads the tables of the new rules).
        self.rules = rules;
        self.game = Game::new(rules);
        self.new_game = true;
        self.rebuild |= self.tablebases.is_some();
        Ok(())
    }

    fn query(&self, q: Query) {
        let pos = self.game.position();
        let answer = match q {
            Query::GameOver => pos.is_over().to_string(),
            Query::P1Turn => (!pos.is_over() && pos.to_move() == Side::South).to_string(),
            Query::Result => match pos.outcome().map(|o| o.result()) {
                None => "none".to_string(),
                Some(GameResult::Win(Side::South)) => "p1win".to_string(),
                Some(GameResult::Win(Side::North)) => "p2win".to_string(),
                Some(GameResult::Draw) => "draw".to_string(),
            },
        };
        self.out.line(&format!("response {answer}"));
    }

    /// Takes the engine back from the last search, waiting for it if it is
    /// bounded (a script may send the next `go` before the `bestmove`).
    /// `false` if an unbounded search is still running.
    fn reclaim(&mut self) -> bool {
        match self.running.take() {
            None => true,
            Some(r) if r.unbounded && !r.handle.is_finished() => {
                self.running = Some(r);
                false
            }
            Some(r) => {
                if let Ok(engine) = r.handle.join() {
                    self.engine = Some(engine);
                }
                true
            }
        }
    }

    /// The engine for the next search: the idle one, or a new one if an
    /// option changed.
    fn take_engine(&mut self) -> Engine {
        match self.engine.take() {
            Some(e) if !self.rebuild => e,
            _ => {
                let mut e = if self.level >= MAX_LEVEL {
                    Engine::new(self.kind.kind())
                } else {
                    Engine::with_level(self.level)
                };
                if self.hash_mb != DEFAULT_HASH_MB {
                    e.set_hash_mb(self.hash_mb);
                }
                #[cfg(feature = "tablebase-files")]
                if let Some(dir) = &self.tablebases {
                    // Rules the tables do not cover are simply searched.
                    if let Err(err) = e.load_tablebases(self.rules, dir) {
                        self.out.line(&format!(
                            "info string tablebases in {} not used for these rules: {err}",
                            dir.display()
                        ));
                    }
                }
                self.rebuild = false;
                self.new_game = false;
                e
            }
        }
    }

    fn go(&mut self, g: GoArgs) {
        if !self.reclaim() {
            self.out
                .error("go ignored: a search without limits is running; send stop first");
            return;
        }
        let root = *self.game.position();
        if root.is_over() || root.legal_moves().is_empty() {
            self.out.line("bestmove 0000");
            return;
        }
        let mut engine = self.take_engine();
        if self.new_game {
            engine.new_game();
            self.new_game = false;
        }
        let limits = limits_for(&g, root.to_move());
        let stop = Arc::new(AtomicBool::new(false));
        let game = self.game.clone();
        let out = self.out.clone();
        let flag = Arc::clone(&stop);
        let infinite = g.infinite;
        let unbounded = limits == Limits::default();
        let handle = std::thread::Builder::new().name("search".into()).spawn(move || {
            let mut on_info = |info: &Info| out.line(&info_line(&root, info));
            let result = engine.search(&game, limits, &flag, &mut on_info);
            // UGI: after `go infinite` the bestmove waits for `stop`.
            while infinite && !flag.load(Ordering::Relaxed) {
                std::thread::park_timeout(Duration::from_millis(5));
            }
            let legal = root.legal_moves();
            let best = result
                .best
                .filter(|m| legal.contains(m))
                .or_else(|| legal.first().copied());
            let token = best.map_or_else(|| "0000".to_string(), |m| root.move_token(m).to_string());
            out.line(&format!("bestmove {token}"));
            engine
        });
        match handle {
            Ok(handle) => {
                self.running = Some(Running {
                    handle,
                    stop,
                    unbounded,
                })
            }
            Err(e) => {
                self.out.error(&format!("cannot start the search thread: {e}"));
                self.out.line("bestmove 0000");
            }
        }
    }
}

impl<W: Write + Send + 'static> Drop for Session<W> {
    fn drop(&mut self) {
        self.finish(Ending::Quit);
    }
}

/// A `combo` option line: its name, default and values.
#[cfg(test)]
mod tests;
