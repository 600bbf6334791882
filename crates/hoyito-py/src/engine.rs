//! The engine (`Game.analyze`, `Game.best_move`, `hoyito.Engine`) and the
//! tablebases (`hoyito.Tablebase`). Searches run with the GIL released.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use hoyito_core::{Game, Move, Position, Rules};
use hoyito_engine::{Engine, EngineKind, Limits, SearchResult, LEVELS};
use hoyito_tablebase::{BuildOptions, Solver, Tablebase};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::classes::game_of;
use crate::errors::{engine_err, tablebase_err};
use crate::interrupt::interruptible;
use crate::rules;

/// Largest transposition table accepted, in MiB.
const MAX_HASH_MB: i64 = 4096;
/// Deepest search accepted, in plies.
const MAX_DEPTH: i64 = 64;
/// Depth of a search given neither time nor depth, without a level depth.
const DEFAULT_DEPTH: u32 = 8;

/// Validated engine settings.
pub(crate) struct Settings {
    pub(crate) level: Option<u8>,
    kind: EngineKind,
    hash_mb: usize,
    seed: Option<u64>,
    tablebase: Option<Arc<Tables>>,
}

impl Settings {
    pub(crate) fn new(
        level: Option<i64>,
        engine: &str,
        hash_mb: i64,
        seed: Option<u64>,
        tablebase: Option<&PyTablebase>,
    ) -> PyResult<Settings> {
        let level = match level {
            None => None,
            Some(l @ 1..=10) => Some(l as u8),
            Some(l) => return Err(engine_err(format!("level {l} is not allowed: expected 1 to 10"))),
        };
        let kind = match engine.trim().to_ascii_lowercase().as_str() {
            "alphabeta" | "alpha-beta" | "ab" => EngineKind::AlphaBeta,
            "mcts" => EngineKind::Mcts,
            other => {
                return Err(engine_err(format!(
                    "unknown engine {other:?}: expected \"alphabeta\" or \"mcts\""
                )))
            }
        };
        if level.is_some() && kind == EngineKind::Mcts {
            return Err(engine_err(
                "levels are alpha-beta engines: give level or engine=\"mcts\", not both",
            ));
        }
        if !(1..=MAX_HASH_MB).contains(&hash_mb) {
            return Err(engine_err(format!(
                "hash_mb {hash_mb} is not allowed: expected 1 to {MAX_HASH_MB}"
            )));
        }
        Ok(Settings {
            level,
            kind,
            hash_mb: hash_mb as usize,
            seed,
            tablebase: tablebase.map(|t| t.tables.clone()),
        })
    }

    /// An engine with these settings for games under `rules` (the
    /// tablebase is used where it has tables of those rules).
    pub(crate) fn build(&self, py: Python<'_>, rules: &Rules) -> PyResult<Engine> {
        let mut e = match self.level {
            Some(l) => Engine::with_level(l),
            None => Engine::new(self.kind),
        };
        if self.level.is_none() || self.hash_mb != hoyito_engine::DEFAULT_HASH_MB {
            e.set_hash_mb(self.hash_mb);
        }
        e.set_seed(self.seed.unwrap_or_else(rand::random));
        if let Some(t) = &self.tablebase {
            let rules = *rules;
            let tables = t.clone();
            if let Some(tb) = py.detach(move || tables.for_rules(rules).ok()) {
                e.set_tablebase(tb);
            }
        }
        Ok(e)
    }
}

/// Search limits from `time` (seconds) and `depth` (plies).
fn limits(level: Option<u8>, time: Option<f64>, depth: Option<i64>) -> PyResult<Limits> {
    if time.is_some() && depth.is_some() {
        return Err(engine_err("give time or depth, not both"));
    }
    if let Some(t) = time {
        if !(t > 0.0 && t.is_finite() && t <= 86_400.0) {
            return Err(engine_err(format!(
                "time {t} is not allowed: expected a number of seconds above 0, at most 86400"
            )));
        }
        return Ok(Limits {
            movetime: Some(Duration::from_secs_f64(t)),
            ..Limits::default()
        });
    }
    let depth = match depth {
        Some(d @ 1..=MAX_DEPTH) => d as u32,
        Some(d) => {
            return Err(engine_err(format!(
                "depth {d} is not allowed: expected 1 to {MAX_DEPTH}"
            )))
        }
        // A level with a depth of its own searches to it; others to 8 plies.
        None => match level.and_then(|l| LEVELS[l as usize - 1].depth) {
            Some(d) => d.max(1),
            None => DEFAULT_DEPTH,
        },
    };
    Ok(Limits {
        depth: Some(depth),
        ..Limits::default()
    })
}

fn tokens(pos: &Position, line: &[Move]) -> Vec<String> {
    pos.line_tokens(line)
}

/// Analyses `game` (every move's score) with the GIL released; Ctrl-C
/// stops it with `KeyboardInterrupt`.
pub(crate) fn analyze<'py>(
    py: Python<'py>,
    engine: &mut Engine,
    level: Option<u8>,
    game: &Game,
    time: Option<f64>,
    depth: Option<i64>,
) -> PyResult<Bound<'py, PyDict>> {
    let limits = limits(level, time, depth)?;
    let g = game.clone();
    let began = Instant::now();
    let (moves, res) = interruptible(py, |stop| engine.analyze_search(&g, limits, stop))?;
    let time_ms = began.elapsed().as_millis() as u64;
    let pos = *game.position();
    let d = PyDict::new(py);
    let best = moves.first();
    d.set_item("best", best.map(|b| pos.move_token(b.0).to_string()))?;
    d.set_item("score", best.map(|b| b.1))?;
    d.set_item("pv", best.map(|b| tokens(&pos, &b.2)).unwrap_or_default())?;
    let list = PyList::empty(py);
    for (m, score, pv) in &moves {
        let item = PyDict::new(py);
        item.set_item("move", pos.move_token(*m).to_string())?;
        item.set_item("score", *score)?;
        item.set_item("pv", tokens(&pos, pv))?;
        list.append(item)?;
    }
    d.set_item("moves", list)?;
    // The depth completed: with a time limit, how far the search got.
    d.set_item("depth", (!moves.is_empty()).then_some(res.depth))?;
    d.set_item("nodes", res.nodes)?;
    d.set_item("time_ms", time_ms)?;
    Ok(d)
}

/// The engine's move choice for `game` with the GIL released; Ctrl-C
/// stops it with `KeyboardInterrupt`.
pub(crate) fn search(
    py: Python<'_>,
    engine: &mut Engine,
    level: Option<u8>,
    game: &Game,
    time: Option<f64>,
    depth: Option<i64>,
) -> PyResult<SearchResult> {
    let limits = limits(level, time, depth)?;
    let g = game.clone();
    interruptible(py, |stop| engine.search(&g, limits, stop, &mut |_| {}))
}

/// A reusable engine: keeps its transposition table between searches
/// (like a player across a game).
///
/// `level` 1..10 as in the web app (1 random, 10 full strength; None: full
/// strength); `engine` "alphabeta" or "mcts"; `seed` makes the level's
/// noise and MCTS reproducible; `tablebase` a `hoyito.Tablebase` for
/// perfect endgames. Methods take a `Game` or `Match` and release the GIL
/// while they search.
#[pyclass(name = "Engine", module = "hoyito._hoyito")]
pub struct PyEngine {
    settings: Settings,
    engines: HashMap<Rules, Engine>,
}

impl PyEngine {
    fn engine(&mut self, py: Python<'_>, rules: Rules) -> PyResult<&mut Engine> {
        if !self.engines.contains_key(&rules) {
            let e = self.settings.build(py, &rules)?;
            self.engines.insert(rules, e);
        }
        self.engines
            .get_mut(&rules)
            .ok_or_else(|| engine_err("engine missing"))
    }
}

#[pymethods]
impl PyEngine {
    #[new]
    #[pyo3(signature = (level=None, engine="alphabeta", hash_mb=16, seed=None, tablebase=None))]
    fn new(
        level: Option<i64>,
        engine: &str,
        hash_mb: i64,
        seed: Option<u64>,
        tablebase: Option<PyRef<'_, PyTablebase>>,
    ) -> PyResult<PyEngine> {
        Ok(PyEngine {
            settings: Settings::new(level, engine, hash_mb, seed, tablebase.as_deref())?,
            engines: HashMap::new(),
        })
    }

    /// The level, or None for full strength.
    #[getter]
    fn level(&self) -> Option<u8> {
        self.settings.level
    }

    /// analyze(game, time=None, depth=None) -> dict
    ///
    /// As `Game.analyze`: best move, score, pv and every move's score.
    #[pyo3(signature = (game, time=None, depth=None))]
    fn analyze<'py>(
        &mut self,
        py: Python<'py>,
        game: &Bound<'py, PyAny>,
        time: Option<f64>,
        depth: Option<i64>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let g = game_of(game)?;
        let level = self.settings.level;
        let e = self.engine(py, *g.rules())?;
        analyze(py, e, level, &g, time, depth)
    }

    /// best_move(game, time=None, depth=None) -> str | None
    ///
    /// The move this engine plays (None once the game is over).
    #[pyo3(signature = (game, time=None, depth=None))]
    fn best_move(
        &mut self,
        py: Python<'_>,
        game: &Bound<'_, PyAny>,
        time: Option<f64>,
        depth: Option<i64>,
    ) -> PyResult<Option<String>> {
        let g = game_of(game)?;
        let level = self.settings.level;
        let e = self.engine(py, *g.rules())?;
        let res = search(py, e, level, &g, time, depth)?;
        Ok(res.best.map(|m| g.position().move_token(m).to_string()))
    }

    /// search(game, time=None, depth=None) -> dict
    ///
    /// The search's result: "best", "score", "pv", "depth", "nodes",
    /// "time_ms".
    #[pyo3(signature = (game, time=None, depth=None))]
    fn search<'py>(
        &mut self,
        py: Python<'py>,
        game: &Bound<'py, PyAny>,
        time: Option<f64>,
        depth: Option<i64>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let g = game_of(game)?;
        let level = self.settings.level;
        let e = self.engine(py, *g.rules())?;
        let res = search(py, e, level, &g, time, depth)?;
        let pos = g.position();
        let d = PyDict::new(py);
        d.set_item("best", res.best.map(|m| pos.move_token(m).to_string()))?;
        d.set_item("score", res.score)?;
        d.set_item("pv", pos.line_tokens(&res.pv))?;
        d.set_item("depth", res.depth)?;
        d.set_item("nodes", res.nodes)?;
        d.set_item("time_ms", res.time_ms)?;
        Ok(d)
    }

    /// new_game()
    ///
    /// Forgets the transposition tables and move-ordering history.
    fn new_game(&mut self) {
        for e in self.engines.values_mut() {
            e.new_game();
        }
    }

    fn __repr__(&self) -> String {
        match self.settings.level {
            Some(l) => format!("<hoyito.Engine level {l}>"),
            None => format!("<hoyito.Engine {:?}>", self.settings.kind),
        }
    }
}

/// The tablebases under one directory, opened per rule set on first use.
pub(crate) struct Tables {
    dir: PathBuf,
    open: Mutex<HashMap<Rules, Arc<Tablebase>>>,
}

impl Tables {
    fn for_rules(&self, rules: Rules) -> Result<Arc<Tablebase>, hoyito_tablebase::TablebaseError> {
        // A poisoned lock only means another thread panicked while opening: the map is still valid.
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(tb) = open.get(&rules) {
            return Ok(tb.clone());
        }
        let tb = Arc::new(Tablebase::open(rules, &self.dir)?);
        open.insert(rules, tb.clone());
        Ok(tb)
    }
}

/// Endgame tablebases stored under a directory (as built by
/// `hoyito tablebase build` or `Tablebase.build`), one subdirectory per
/// rule set, opened on first use.
///
/// `probe(game)` gives the exact value of a position and of each of its
/// moves. Raises `TablebaseError` (a `ValueError`) for missing layers,
/// rules the tables do not cover, or damaged files.
#[pyclass(name = "Tablebase", module = "hoyito._hoyito")]
pub struct PyTablebase {
    tables: Arc<Tables>,
}

impl PyTablebase {
    fn at(dir: PathBuf) -> PyTablebase {
        PyTablebase {
            tables: Arc::new(Tables {
                dir,
                open: Mutex::new(HashMap::new()),
            }),
        }
    }
}

#[pymethods]
impl PyTablebase {
    #[new]
    fn new(dir: PathBuf) -> PyResult<PyTablebase> {
        if !dir.is_dir() {
            let what = if dir.exists() {
                "is not a directory"
            } else {
                "does not exist"
            };
            return Err(tablebase_err(format!(
                "{} {what}: expected the directory of a tablebase (made by Tablebase.build or `hoyito tablebase build`)",
                dir.display()
            )));
        }
        Ok(PyTablebase::at(dir))
    }

    /// Tablebase.build(dir, max_seeds, **rules) -> Tablebase
    ///
    /// Solves the layers of 4, 8, ..., max_seeds seeds in play for these
    /// rules into `dir` (reusing valid layer files), with the GIL released.
    /// Ctrl-C stops it with `KeyboardInterrupt`: the layers already solved
    /// stay, the one being solved keeps its saved state, and building again
    /// resumes it; no layer file is ever left half written.
    /// Small boards only in reasonable time (2x4, 2x5; 2x6 up to about 24
    /// seeds).
    #[staticmethod]
    #[pyo3(signature = (dir, max_seeds, **rules))]
    fn build(
        py: Python<'_>,
        dir: PathBuf,
        max_seeds: i64,
        rules: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<PyTablebase> {
        let r = rules::from_kwargs(rules)?;
        let max = match u32::try_from(max_seeds) {
            Ok(m @ 4..=127) if m % 4 == 0 => m,
            _ => {
                return Err(tablebase_err(format!(
                    "max_seeds {max_seeds} is not allowed: expected a multiple of 4 from 4 to 124"
                )))
            }
        };
        let d = dir.clone();
        // The stream solver: it stops within a block when asked, and a
        // build started again resumes where it stopped.
        let options = BuildOptions {
            progress: None,
            solver: Solver::Stream,
        };
        let tb = interruptible(py, move |stop| {
            Tablebase::build_until(r, &d, max, options, Some(stop), |_| {})
        })?
        .map_err(tablebase_err)?;
        let out = PyTablebase::at(dir);
        out.tables
            .open
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(r, Arc::new(tb));
        Ok(out)
    }

    /// The directory.
    #[getter]
    fn dir(&self) -> PathBuf {
        self.tables.dir.clone()
    }

    /// layers(**rules) -> list[int]
    ///
    /// The seed counts of the layers available for these rules.
    #[pyo3(signature = (**rules))]
    fn layers(&self, py: Python<'_>, rules: Option<&Bound<'_, PyDict>>) -> PyResult<Vec<u32>> {
        let r = rules::from_kwargs(rules)?;
        let t = self.tables.clone();
        let tb = py.detach(move || t.for_rules(r)).map_err(tablebase_err)?;
        Ok(tb.layers())
    }

    /// probe(game) -> dict
    ///
    /// The exact value of the current position of a `Game` (or a match's
    /// round): "value" (the net seeds the side to move will still gain
    /// with perfect play), "final_margin" (the final margin for the side
    /// to move, captures so far included), "best" (the tokens of the moves
    /// that keep the value) and "moves" (token -> value of each legal
    /// move). A finished game has value 0 and no moves.
    fn probe<'py>(&self, py: Python<'py>, game: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyDict>> {
        let g = game_of(game)?;
        let pos = *g.position();
        let t = self.tables.clone();
        let rules = *g.rules();
        let (value, moves) = py
            .detach(move || {
                let tb = t.for_rules(rules)?;
                if pos.is_over() {
                    return Ok((0, Vec::new()));
                }
                Ok((tb.value(&pos)?, tb.move_values(&pos)?))
            })
            .map_err(|e: hoyito_tablebase::TablebaseError| tablebase_err(e))?;
        let d = PyDict::new(py);
        d.set_item("value", value)?;
        let margin = if pos.is_over() {
            pos.margin(hoyito_core::Side::South)
        } else {
            pos.margin(pos.to_move()) + value
        };
        d.set_item("final_margin", margin)?;
        let best: Vec<String> = moves
            .iter()
            .filter(|&&(_, v)| v == value)
            .map(|&(m, _)| pos.move_token(m).to_string())
            .collect();
        d.set_item("best", best)?;
        let mv = PyDict::new(py);
        for (m, v) in &moves {
            mv.set_item(pos.move_token(*m).to_string(), *v)?;
        }
        d.set_item("moves", mv)?;
        Ok(d)
    }

    fn __repr__(&self) -> String {
        format!("<hoyito.Tablebase {}>", self.tables.dir.display())
    }
}
