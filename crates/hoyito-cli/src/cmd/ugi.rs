//! `hoyito ugi`: the engine over the UGI protocol (UCI generalised to any
//! two-player game) on stdin/stdout. See `docs/PROTOCOL.md`.
//!
//! The main thread reads commands; a `go` runs the search on its own
//! thread, so `stop`, `isready` and `quit` are answered during a search.
//! Bad input is answered with one `info string error: …` line and ignored.

mod parse;

use std::io::{BufRead, Write};
use std::process::ExitCode;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use hoyito_core::{CaptureSide, DirectionRule, Game, Position, Repetition, Rules, Side, Variant};
use hoyito_engine::{time_for_move, Engine, EngineKind, Info, Limits, DEFAULT_HASH_MB};

use self::parse::{Command, GoArgs, Query};
use super::common::RulesArgs;

/// Engine protocol (UGI) on stdin/stdout.
#[derive(clap::Args)]
pub struct Args {
    /// Initial rules (the GUI can change them with `setoption`).
    #[command(flatten)]
    rules: RulesArgs,
}

/// Strongest level (the `Level` option's maximum and default).
const MAX_LEVEL: u8 = 10;
/// Largest transposition table accepted, in MiB.
const MAX_HASH_MB: usize = 65536;

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let rules = args.rules.rules()?;
    let mut session = Session::new(rules, Out::stdout());
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut buf = Vec::new();
    loop {
        let Some(too_long) = read_line(&mut input, &mut buf) else {
            session.finish(false);
            break;
        };
        if let Some(len) = too_long {
            session.out.error(&format!(
                "line of {len} bytes or more is too long: at most {}",
                parse::MAX_LINE
            ));
            continue;
        }
        // Bytes, not `lines()`: invalid UTF-8 must not end the session.
        let line = String::from_utf8_lossy(&buf);
        if session.handle(&line) == Flow::Quit {
            session.finish(true);
            break;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Reads one line into `buf`, at most [`parse::MAX_LINE`] bytes kept: the
/// rest of a longer line is read and dropped. `None` at the end of input (or
/// on a read error); `Some(Some(len))` for a line that was too long.
fn read_line(input: &mut impl BufRead, buf: &mut Vec<u8>) -> Option<Option<usize>> {
    buf.clear();
    let limit = parse::MAX_LINE as u64 + 1;
    let n = std::io::Read::take(&mut *input, limit)
        .read_until(b'\n', buf)
        .ok()?;
    if n == 0 {
        return None;
    }
    if buf.len() as u64 == limit && buf.last() != Some(&b'\n') {
        let mut dropped = buf.len();
        loop {
            buf.clear();
            match std::io::Read::take(&mut *input, 1 << 16).read_until(b'\n', buf) {
                Ok(0) | Err(_) => break,
                Ok(k) => {
                    dropped += k;
                    if buf.last() == Some(&b'\n') {
                        break;
                    }
                }
            }
        }
        return Some(Some(dropped));
    }
    Some(None)
}

/// Whole lines to stdout, shared by the reader and the search thread.
#[derive(Clone)]
struct Out(Arc<Mutex<Box<dyn Write + Send>>>);

impl Out {
    fn stdout() -> Out {
        Out(Arc::new(Mutex::new(Box::new(std::io::stdout()))))
    }

    /// Writes one line and flushes. A closed pipe is ignored: the GUI is gone.
    fn line(&self, s: &str) {
        let mut w = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let _ = writeln!(w, "{s}");
        let _ = w.flush();
    }

    fn error(&self, msg: &str) {
        self.line(&format!("info string error: {msg}"));
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Flow {
    Continue,
    Quit,
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

/// The protocol state: options, the game, the engine or its running search.
struct Session {
    out: Out,
    rules: Rules,
    game: Game,
    level: u8,
    kind: KindOpt,
    hash_mb: usize,
    /// `TablebaseDir`: endgame tablebases the engine probes (checked when set).
    tablebases: Option<std::path::PathBuf>,
    /// The idle engine; `None` while a search owns it or before the first `go`.
    engine: Option<Engine>,
    /// Engine options changed since the engine was built.
    rebuild: bool,
    /// `uginewgame` (or a rules change) since the last search.
    new_game: bool,
    running: Option<Running>,
}

impl Session {
    fn new(rules: Rules, out: Out) -> Session {
        Session {
            out,
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

    fn handle(&mut self, line: &str) -> Flow {
        let cmd = match parse::parse(line) {
            Ok(Some(cmd)) => cmd,
            Ok(None) => return Flow::Continue,
            Err(e) => {
                self.out.error(&e);
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

    /// Ends the session: on `quit` a search is stopped; at the end of input
    /// a bounded search may finish (so piped scripts get their `bestmove`),
    /// an unbounded one is stopped.
    fn finish(&mut self, quit: bool) {
        if let Some(r) = self.running.take() {
            if quit || r.unbounded {
                r.stop.store(true, Ordering::Relaxed);
            }
            let _ = r.handle.join();
        }
    }

    fn ugi(&self) {
        let spec = self.rules.spec();
        let combo = |name: &str, default: &str, vars: &[&str]| {
            let vars: String = vars.iter().map(|v| format!(" var {v}")).collect();
            format!("option name {name} type combo default {default}{vars}")
        };
        let check = |name: &str, b: bool| format!("option name {name} type check default {b}");
        let lines = [
            format!("id name Hoyito {}", env!("CARGO_PKG_VERSION")),
            "id author the Hoyito developers".to_string(),
            combo("Variant", spec.variant.name(), &["I", "II", "III"]),
            format!("option name Holes type spin default {} min 4 max 12", spec.holes),
            format!("option name Seeds type spin default {} min 1 max 30", spec.seeds),
            check("SkipOrigin", spec.skip_origin),
            combo(
                "Direction",
                spec.direction.name(),
                &["fixed", "per_player", "per_move"],
            ),
            check("TwoHoleOpening", spec.two_hole_opening),
            combo("Repetition", spec.repetition.name(), &["even", "own_row"]),
            combo("CaptureSide", spec.capture_side.name(), &["any", "opponent"]),
            format!(
                "option name Level type spin default {} min 1 max {MAX_LEVEL}",
                self.level
            ),
            combo("EngineType", self.kind.name(), &["alphabeta", "mcts"]),
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
        ];
        for l in lines {
            self.out.line(&l);
        }
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        let mut spec = self.rules.spec();
        let bad = |expected: &str| format!("option {name} value {value:?} is invalid: expected {expected}");
        let boolean = || match value.to_ascii_lowercase().as_str() {
            "true" => Ok(true),
            "false" => Ok(false),
            _ => Err(bad("true or false")),
        };
        let number = |lo: u64, hi: u64| {
            value
                .parse::<u64>()
                .ok()
                .filter(|v| (lo..=hi).contains(v))
                .ok_or_else(|| bad(&format!("a whole number from {lo} to {hi}")))
        };
        match name.to_ascii_lowercase().as_str() {
            "variant" => spec.variant = Variant::from_str(value).map_err(|e| e.to_string())?,
            "holes" => spec.holes = number(4, 12)? as u8,
            "seeds" => spec.seeds = number(1, 30)? as u8,
            "skiporigin" => spec.skip_origin = boolean()?,
            "direction" => spec.direction = DirectionRule::from_str(value).map_err(|e| e.to_string())?,
            "twoholeopening" => spec.two_hole_opening = boolean()?,
            "repetition" => spec.repetition = Repetition::from_str(value).map_err(|e| e.to_string())?,
            "captureside" => spec.capture_side = CaptureSide::from_str(value).map_err(|e| e.to_string())?,
            "level" => {
                self.level = number(1, MAX_LEVEL as u64)? as u8;
                self.rebuild = true;
                return Ok(());
            }
            "enginetype" => {
                self.kind = match value.to_ascii_lowercase().replace(['-', '_'], "").as_str() {
                    "alphabeta" => KindOpt::AlphaBeta,
                    "mcts" => KindOpt::Mcts,
                    _ => return Err(bad("alphabeta or mcts")),
                };
                self.rebuild = true;
                return Ok(());
            }
            "hash" => {
                self.hash_mb = number(1, MAX_HASH_MB as u64)? as usize;
                self.rebuild = true;
                return Ok(());
            }
            "tablebasedir" => {
                self.rebuild = true;
                if value == "<empty>" {
                    self.tablebases = None;
                    return Ok(());
                }
                // Checked now, against the current rules, so a bad path is
                // reported here rather than silently ignored at `go`.
                let dir = std::path::PathBuf::from(value);
                let layers = Engine::with_level(1)
                    .load_tablebases(self.rules, &dir)
                    .map_err(|e| {
                        format!("option TablebaseDir not changed: cannot use the tablebases in {value}: {e}")
                    })?;
                self.out.line(&format!(
                    "info string tablebases in {value}: layers of {} seeds",
                    layers.iter().map(u32::to_string).collect::<Vec<_>>().join(", ")
                ));
                self.tablebases = Some(dir);
                return Ok(());
            }
            _ => {
                return Err(format!(
                    "unknown option {name:?}: expected Variant, Holes, Seeds, SkipOrigin, Direction, \
                     TwoHoleOpening, Repetition, CaptureSide, Level, EngineType, Hash or TablebaseDir"
                ))
            }
        }
        let rules = Rules::try_from(spec).map_err(|e| format!("option {name} not changed: {e}"))?;
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
            Query::Result => match pos.outcome() {
                None => "none".to_string(),
                Some(o) => match o.winner {
                    Some(Side::South) => "p1win".to_string(),
                    Some(Side::North) => "p2win".to_string(),
                    None => "draw".to_string(),
                },
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
        let mut engine = match self.engine.take() {
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
        };
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

/// The engine limits of a `go`: the clock of the side to move gives a move
/// time (the smaller one wins if `movetime` is given too).
fn limits_for(g: &GoArgs, to_move: Side) -> Limits {
    let mut limits = Limits::default();
    if g.infinite {
        return limits;
    }
    limits.depth = g.depth;
    limits.nodes = g.nodes;
    limits.movetime = g.movetime;
    let (time, inc) = match to_move {
        Side::South => (g.p1time, g.p1inc),
        Side::North => (g.p2time, g.p2inc),
    };
    if let Some(remaining) = time {
        let t = time_for_move(remaining, inc.unwrap_or_default());
        limits.movetime = Some(limits.movetime.map_or(t, |m| m.min(t)));
    }
    limits
}

/// A game from `startpos` or a notation, then the moves; any error leaves nothing changed.
fn build_game(rules: Rules, notation: Option<&str>, moves: &[String]) -> Result<Game, String> {
    let start = match notation {
        None => Position::new(rules),
        Some(text) => Position::from_notation(rules, text).map_err(|e| format!("{e} (rules: {rules})"))?,
    };
    let mut game = Game::from_position(start);
    for (i, token) in moves.iter().enumerate() {
        if game.is_over() {
            return Err(format!(
                "move {} ({token:?}) comes after the end of the game",
                i + 1
            ));
        }
        let before = *game.position();
        let legal = || super::common::legal_tokens(&before);
        let m = before
            .parse_move(token)
            .map_err(|e| format!("move {} ({token:?}): {e}; legal moves were: {}", i + 1, legal()))?;
        if let Err(e) = game.play(m) {
            return Err(format!(
                "move {} ({token:?}) is illegal: {}; legal moves were: {}",
                i + 1,
                super::play::explain(&before, e),
                legal()
            ));
        }
    }
    Ok(game)
}

/// `info depth … score cp … nodes … nps … time … pv …`, the PV as tokens.
/// The engine scores in seeds (final margin, side to move's view); `cp` is
/// hundredths of a seed, as UCI's centipawns are hundredths of a pawn.
fn info_line(root: &Position, info: &Info) -> String {
    let mut line = format!(
        "info depth {} score cp {} nodes {} nps {} time {}",
        info.depth,
        info.score.saturating_mul(100),
        info.nodes,
        info.nps,
        info.time_ms
    );
    let pv = pv_tokens(root, &info.pv);
    if !pv.is_empty() {
        line.push_str(" pv ");
        line.push_str(&pv.join(" "));
    }
    line
}

/// The tokens of a principal variation, each written in the position it is
/// played in; stops at the first move that is not legal (never expected).
fn pv_tokens(root: &Position, pv: &[hoyito_core::Move]) -> Vec<String> {
    let mut pos = *root;
    let mut out = Vec::with_capacity(pv.len());
    for &m in pv {
        let token = pos.move_token(m).to_string();
        if pos.play(m).is_err() {
            break;
        }
        out.push(token);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Output captured in memory.
    #[derive(Clone, Default)]
    struct Buf(Arc<Mutex<Vec<u8>>>);

    impl Write for Buf {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    impl Buf {
        /// The lines written since the last call.
        fn take(&self) -> Vec<String> {
            let bytes = std::mem::take(&mut *self.0.lock().unwrap());
            String::from_utf8(bytes)
                .unwrap()
                .lines()
                .map(String::from)
                .collect()
        }
    }

    /// `go depth 1` on `pos`: the info and bestmove lines.
    fn go_depth_1(s: &mut Session, buf: &Buf, pos: &str) -> Vec<String> {
        s.handle(&format!("position {pos}"));
        s.handle("go depth 1");
        s.finish(false);
        // Mask the volatile nps and time.
        buf.take()
            .into_iter()
            .map(|l| {
                let mut w: Vec<&str> = l.split(' ').collect();
                for i in 1..w.len() {
                    if matches!(w[i - 1], "nps" | "time") {
                        w[i] = "*";
                    }
                }
                w.join(" ")
            })
            .collect()
    }

    /// `setoption name TablebaseDir`: a bad directory is an error that
    /// changes nothing; good tables (2×4 Hoyito II up to 8 seeds, built here)
    /// are reported, shown by `ugi`, and make a depth-1 search score the
    /// position exactly, as the table says; `<empty>` removes them.
    #[test]
    fn tablebase_dir_option() {
        let rules = Rules::try_from(hoyito_core::RulesSpec {
            variant: Variant::II,
            holes: 4,
            ..hoyito_core::RulesSpec::default()
        })
        .unwrap();
        let dir = std::env::temp_dir().join(format!("hoyito-ugi-tb-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let tb = hoyito_tablebase::Tablebase::build(rules, &dir, 8, Default::default(), |_| {}).unwrap();
        let pos = "1,0,3,0/0,2,0,2 s 20-4";
        let exact = tb
            .final_margin(&Position::from_notation(rules, pos).unwrap())
            .unwrap();
        assert_eq!(exact, 8);

        let buf = Buf::default();
        let mut s = Session::new(rules, Out(Arc::new(Mutex::new(Box::new(buf.clone())))));
        // Without tables, depth 1 does not see the exact value.
        let plain = go_depth_1(&mut s, &buf, pos);
        assert!(!plain[0].contains("score cp 800 "), "{plain:?}");

        s.handle("setoption name TablebaseDir value /nonexistent/hoyito-tables");
        let out = buf.take();
        assert_eq!(out.len(), 1);
        assert!(
            out[0].starts_with(
                "info string error: option TablebaseDir not changed: cannot use the tablebases in /nonexistent/hoyito-tables"
            ),
            "{out:?}"
        );
        assert!(s.tablebases.is_none());

        s.handle(&format!("setoption name TablebaseDir value {}", dir.display()));
        assert_eq!(
            buf.take(),
            [format!(
                "info string tablebases in {}: layers of 4, 8 seeds",
                dir.display()
            )]
        );
        s.handle("ugi");
        let shown = format!("option name TablebaseDir type string default {}", dir.display());
        assert!(buf.take().contains(&shown));
        let with = go_depth_1(&mut s, &buf, pos);
        assert!(with[0].starts_with("info depth 1 score cp 800 "), "{with:?}");

        s.handle("setoption name TablebaseDir value <empty>");
        assert_eq!(go_depth_1(&mut s, &buf, pos), plain);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
