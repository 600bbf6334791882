//! # hoyito-engine
//!
//! A game-playing engine for Hoyito (see `RULES.md`), on top of
//! [`hoyito_core`]. Two kinds of search:
//!
//! - [`EngineKind::AlphaBeta`]: negamax alpha-beta with principal variation
//!   search, iterative deepening, a transposition table keyed by an
//!   incremental hash (a board hash updated from each sowing's events, mixed
//!   with the side to move and a per-search salt of the rules and last-four
//!   award), and move ordering by table move, captures, killers and
//!   history. Extra turns are searched without negating the score, passes
//!   are automatic, repetitions score as the rules' split. Among root moves
//!   of equal value it plays the one giving a fallible opponent the most
//!   chances to err.
//! - [`EngineKind::Mcts`]: UCT with random playouts and score-aware rewards.
//!
//! Scores are the final captured-seed margin (reserves included, as
//! [`Position::margin`]) from the view of the side to move, in seeds. Levels
//! 1 to 10 ([`Engine::with_level`]) go from random play to full strength;
//! `docs/ENGINE.md` describes them.
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use hoyito_engine::{Engine, EngineKind, Limits};
//! use hoyito_engine::hoyito_core::{Game, Rules, Variant};
//!
//! let game = Game::new(Rules::standard(Variant::II));
//! let mut engine = Engine::new(EngineKind::AlphaBeta);
//! let limits = Limits { depth: Some(4), ..Limits::default() };
//! let result = engine.search(&game, limits, &AtomicBool::new(false), &mut |_info| {});
//! let best = result.best.expect("the start position has moves");
//! println!("{} scores {}", game.position().move_token(best), result.score);
//! ```

#![warn(missing_docs)]

pub use hoyito_core;

mod eval;
mod mcts;
mod search;
mod tt;
mod zobrist;

pub mod stats;
pub mod ugi;

#[cfg(test)]
mod tests;

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use hoyito_core::{Game, Move, Position, Side};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

pub use eval::{evaluate, split_value, EvalWeights, SCALE};
use search::{Searcher, INF, MAX_PLY};

/// An exact-value oracle (e.g. an endgame tablebase): given a position that
/// is not over, the final margin (as [`Position::margin`], in seeds) from the
/// view of its side to move under perfect play, or `None` if unknown. The
/// search calls it at every node below the root.
pub type Oracle = Arc<dyn Fn(&Position) -> Option<i32> + Send + Sync>;

/// Search limits. Each given limit stops the search; with none, the search
/// runs until `stop` is set (alpha-beta also stops at its maximum depth).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Iterative-deepening depth in plies (an extra turn is a ply). For MCTS:
    /// `depth × 1000` playouts.
    pub depth: Option<u32>,
    /// Nodes (alpha-beta) or playouts (MCTS).
    pub nodes: Option<u64>,
    /// Wall-clock time.
    pub movetime: Option<Duration>,
    /// A node budget standing in for `movetime` (machine- and load-independent
    /// timing): alpha-beta stops at this many nodes and, as with a time
    /// limit, starts no iteration after half of them and returns at once
    /// with a single legal move. MCTS treats it as `nodes`.
    pub node_budget: Option<u64>,
}

/// Which search an [`Engine`] runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineKind {
    /// Negamax alpha-beta (PVS) with iterative deepening.
    AlphaBeta,
    /// Monte-Carlo tree search (UCT).
    Mcts,
}

/// Progress of a search: sent after each completed iteration.
#[derive(Clone, Debug)]
pub struct Info {
    /// Completed depth (MCTS: length of the principal variation).
    pub depth: u32,
    /// Score in seeds from the side to move's view.
    pub score: i32,
    /// Nodes searched so far (MCTS: playouts).
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Milliseconds since the search started.
    pub time_ms: u64,
    /// Principal variation (passes are implicit).
    pub pv: Vec<hoyito_core::Move>,
}

/// The result of a search.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// The move to play, `None` if the game is over.
    pub best: Option<hoyito_core::Move>,
    /// Expected final margin in seeds from the side to move's view.
    pub score: i32,
    /// Principal variation, starting with `best`.
    pub pv: Vec<hoyito_core::Move>,
    /// Completed depth.
    pub depth: u32,
    /// Nodes searched (MCTS: playouts).
    pub nodes: u64,
    /// Milliseconds spent.
    pub time_ms: u64,
}

/// What a level does (see `docs/ENGINE.md`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LevelSpec {
    /// The level, 1 to 10.
    pub level: u8,
    /// Plays a uniformly random legal move.
    pub random: bool,
    /// Greatest search depth (`None`: the caller's limits).
    pub depth: Option<u32>,
    /// Uniform noise in `[0, noise]` hundredths of a seed added to each root
    /// move's score before choosing; ties are broken at random.
    pub noise: i32,
    /// Captured margin only, no positional terms.
    pub material_only: bool,
}

/// The level table: `LEVELS[l - 1]` is level `l`.
pub const LEVELS: [LevelSpec; 10] = {
    const fn l(level: u8, random: bool, depth: Option<u32>, noise: i32, material_only: bool) -> LevelSpec {
        LevelSpec {
            level,
            random,
            depth,
            noise,
            material_only,
        }
    }
    [
        l(1, true, Some(0), 0, true),
        l(2, false, Some(1), 0, true),
        l(3, false, Some(2), 300, false),
        l(4, false, Some(3), 200, false),
        l(5, false, Some(4), 100, false),
        l(6, false, Some(6), 50, false),
        l(7, false, Some(8), 25, false),
        l(8, false, Some(10), 0, false),
        l(9, false, Some(13), 0, false),
        l(10, false, None, 0, false),
    ]
};

/// A game-playing engine. Keeps its transposition table and move-ordering
/// history between searches; [`Engine::new_game`] clears them.
pub struct Engine {
    kind: EngineKind,
    level: Option<u8>,
    hash_mb: usize,
    tt: tt::Tt,
    history: Box<[[i32; 48]; 2]>,
    oracle: Option<Oracle>,
    /// The tablebases behind the oracle, for proofs above them.
    tables: Option<Arc<hoyito_tablebase::Tablebase>>,
    weights: EvalWeights,
    rng: SmallRng,
    /// Use the transposition table (switched off only by tests).
    use_tt: bool,
    /// Key the table incrementally (see [`Engine::set_incremental_hash`]).
    incremental_hash: bool,
    /// Set traps in proved-lost positions (see [`Engine::set_swindle`]).
    swindle: bool,
}

/// The most tempting moves of the opponent a swindle looks ahead (see
/// [`Engine::set_swindle`]).
pub const MAX_SWINDLE_DEPTH: u32 = 8;

/// The node limit of a root proof (see [`Engine::set_tablebase`]) when the
/// search has neither a node nor a time limit.
const DEFAULT_PROOF_NODES: u64 = 200_000;

/// Default transposition-table size in MiB.
pub const DEFAULT_HASH_MB: usize = 16;

impl Engine {
    /// A full-strength engine of that kind.
    pub fn new(kind: EngineKind) -> Engine {
        Engine {
            kind,
            level: None,
            hash_mb: DEFAULT_HASH_MB,
            tt: tt::Tt::new(DEFAULT_HASH_MB),
            history: Box::new([[0; 48]; 2]),
            oracle: None,
            tables: None,
            weights: EvalWeights::DEFAULT,
            rng: SmallRng::seed_from_u64(0x5EED),
            use_tt: true,
            incremental_hash: true,
            swindle: true,
        }
    }

    /// An alpha-beta engine playing at `level` (clamped to 1..=10): 1 plays
    /// at random, 2 greedily one ply deep, 3–9 search deeper with less
    /// randomness, 10 is full strength ([`LEVELS`]).
    pub fn with_level(level: u8) -> Engine {
        let level = level.clamp(1, 10);
        let spec = LEVELS[level as usize - 1];
        let mut e = Engine::new(EngineKind::AlphaBeta);
        e.level = Some(level);
        if spec.material_only {
            e.weights = EvalWeights::MATERIAL;
        }
        if spec.depth.is_some_and(|d| d <= 8) {
            e.set_hash_mb(1);
        }
        e
    }

    /// Keys the transposition table by the incremental hash (the default:
    /// a board hash updated from each sowing's events) or, with `false`, by
    /// [`Position::hash`] computed from scratch at every node. Both give the
    /// same search up to hash collisions; the switch exists to measure the
    /// speed of each. Clears the table.
    pub fn set_incremental_hash(&mut self, on: bool) {
        self.incremental_hash = on;
        self.tt.clear();
    }

    /// Swindles (the default) or not. With tablebases (see
    /// [`Engine::set_tablebase`]), when every move of the root is proved to
    /// lose the game, no move is better than another against perfect play,
    /// so a swindling engine plays the move that gives a fallible opponent
    /// the best chance to go wrong. Its model of that opponent plays, each
    /// time, one of its most tempting moves (largest immediate gain, as a
    /// one-ply greedy player does) for its next `d` moves, and perfectly
    /// after that; the engine's own later moves are the best against that
    /// model while still lost, perfect once not. A second model has the
    /// opponent's next [`random_depth`]`(d)` = `⌈d/2⌉` moves uniformly
    /// random (and perfect play after them). The move with the largest sum
    /// of the two expected results (win 1, draw 1/2), as if the opponent
    /// were either kind with equal chance, then the best proved value, is
    /// played; `d` deepens from 1 to [`MAX_SWINDLE_DEPTH`] while the model
    /// fits in twice the root proof's node budget and in 90 % of the move's
    /// time (the model needs only won, drawn or lost above the tables: at most two
    /// threshold proofs each, not a value's bisection). If no move gives a
    /// chance against either model, the proved best move is played. In a
    /// drawn position the same models choose, among the moves that keep
    /// the draw (the best moves), the one with the best chances to win. Without swindling the
    /// engine always plays a proved best move. Won positions are played
    /// perfectly either way, drawn ones never give up the draw, and the
    /// reported score is always the played move's proved value.
    pub fn set_swindle(&mut self, on: bool) {
        self.swindle = on;
    }

    /// The level, if made by [`Engine::with_level`].
    pub fn level(&self) -> Option<u8> {
        self.level
    }

    /// The kind of search.
    pub fn kind(&self) -> EngineKind {
        self.kind
    }

    /// Resizes (and clears) the transposition table.
    pub fn set_hash_mb(&mut self, mb: usize) {
        self.hash_mb = mb.max(1);
        self.tt = tt::Tt::new(self.hash_mb);
    }

    /// Seeds the random choices of levels 1–9 and of MCTS.
    pub fn set_seed(&mut self, seed: u64) {
        self.rng = SmallRng::seed_from_u64(seed);
    }

    /// Installs (or removes) an exact-value oracle, e.g. a tablebase probe.
    /// Clears the transposition table, whose values may disagree with it.
    pub fn set_oracle(&mut self, oracle: Option<Oracle>) {
        self.oracle = oracle;
        self.tables = None;
        self.tt.clear();
    }

    /// Uses `tb` as the exact-value oracle, as
    /// [`Engine::load_tablebases`] does with tables read from files. Above
    /// the tables, a full-strength search first tries to prove the value of
    /// every root move down into them
    /// ([`hoyito_tablebase::search::ExactSearch`], within a quarter of the
    /// node budget and half of the time limit) and
    /// then plays a best move perfectly; if the proof does not finish it
    /// searches as usual. Returns the seed counts of the layers.
    pub fn set_tablebase(&mut self, tb: Arc<hoyito_tablebase::Tablebase>) -> Vec<u32> {
        let layers = tb.layers();
        let probe = Arc::clone(&tb);
        let oracle: Oracle = Arc::new(move |p: &Position| probe.final_margin(p));
        self.set_oracle(Some(oracle));
        self.tables = Some(tb);
        layers
    }

    /// Uses the endgame tablebases of `rules` stored under `dir` (as built
    /// by `hoyito tablebase build`) as the exact-value oracle: every covered
    /// position below the root is scored perfectly, so wherever the root's
    /// children are covered the engine plays perfectly. Returns the seed
    /// counts of the layers loaded.
    ///
    /// # Errors
    /// [`hoyito_tablebase::TablebaseError`] if the rules are not covered by
    /// tablebases, no layer is present, or a file fails its checks.
    pub fn load_tablebases(
        &mut self,
        rules: hoyito_core::Rules,
        dir: &std::path::Path,
    ) -> Result<Vec<u32>, hoyito_tablebase::TablebaseError> {
        // Opening checks every file's checksum: keep opened tables for the process.
        type Cache = std::sync::Mutex<
            std::collections::HashMap<
                (hoyito_core::Rules, std::path::PathBuf),
                Arc<hoyito_tablebase::Tablebase>,
            >,
        >;
        static OPENED: std::sync::OnceLock<Cache> = std::sync::OnceLock::new();
        let key = (rules, dir.to_path_buf());
        let cached = OPENED
            .get_or_init(Default::default)
            .lock()
            .ok()
            .and_then(|c| c.get(&key).cloned());
        let tb = match cached {
            Some(tb) => tb,
            None => {
                let tb = Arc::new(hoyito_tablebase::Tablebase::open(rules, dir)?);
                if let Ok(mut c) = OPENED.get_or_init(Default::default).lock() {
                    c.insert(key, Arc::clone(&tb));
                }
                tb
            }
        };
        Ok(self.set_tablebase(tb))
    }

    /// Replaces the evaluation weights (for tuning). Clears the table.
    pub fn set_weights(&mut self, weights: EvalWeights) {
        self.weights = weights;
        self.tt.clear();
    }

    /// Forgets the transposition table and the move-ordering history.
    pub fn new_game(&mut self) {
        self.tt.clear();
        *self.history = [[0; 48]; 2];
    }

    /// Best move for the side to move of the game's current position
    /// (history used for repetition). `on_info` receives progress after each
    /// completed iteration. A search limited by depth only starts from an
    /// empty table, so its result depends only on the game and the depth.
    pub fn search(
        &mut self,
        game: &Game,
        limits: Limits,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        let pos = *game.position();
        if pos.is_over() {
            return SearchResult {
                best: None,
                score: 0,
                pv: Vec::new(),
                depth: 0,
                nodes: 0,
                time_ms: 0,
            };
        }
        let spec = self.level.map(|l| LEVELS[l as usize - 1]);
        if let Some(spec) = spec.filter(|s| s.random) {
            let _ = spec;
            let legal = pos.legal_moves();
            let m = legal[self.rng.gen_range(0..legal.len())];
            return SearchResult {
                best: Some(m),
                score: 0,
                pv: vec![m],
                depth: 0,
                nodes: 1,
                time_ms: 0,
            };
        }
        if self.kind == EngineKind::Mcts {
            return mcts::search(game, limits, stop, &mut self.rng, on_info).0;
        }
        let mut limits = capped(limits, spec);
        let noisy = spec.is_some_and(|s| s.noise > 0 || s.material_only);
        if spec.is_none_or(|s| s.depth.is_none() && !noisy) {
            let began = Instant::now();
            let spent_nodes = match self.prove_root(&pos, limits, on_info) {
                Ok(res) => return res,
                Err(nodes) => nodes,
            };
            // The search gets the time and nodes the failed proof left.
            let spent = began.elapsed();
            limits.movetime = limits
                .movetime
                .map(|t| t.saturating_sub(spent).max(std::time::Duration::from_millis(1)));
            let left = |n: u64| n.saturating_sub(spent_nodes).max(1);
            limits.nodes = limits.nodes.map(left);
            limits.node_budget = limits.node_budget.map(left);
        }
        let (moves, res) = self.alpha_beta(game, limits, stop, noisy, on_info);
        match spec {
            Some(s) if noisy => {
                // Levels: choose among all root moves by noisy score.
                let mut best: Option<(i32, u32, usize)> = None;
                for (i, rm) in moves.iter().enumerate() {
                    let v = rm.1
                        + if s.noise > 0 {
                            self.rng.gen_range(0..=s.noise)
                        } else {
                            0
                        };
                    let tie = self.rng.gen::<u32>();
                    if best.is_none_or(|(bv, bt, _)| (v, tie) > (bv, bt)) {
                        best = Some((v, tie, i));
                    }
                }
                let (_, _, i) = best.expect("a position that is not over has a move");
                let (m, v, pv) = &moves[i];
                SearchResult {
                    best: Some(*m),
                    score: to_seeds(*v),
                    pv: pv.clone(),
                    ..res
                }
            }
            _ => res,
        }
    }

    /// A perfect move above the tablebases, if the values of all root moves
    /// can be proved within the budget (see [`Engine::set_tablebase`]);
    /// otherwise the positions spent. Searches limited by depth alone are
    /// left to alpha-beta, so that they stay as documented.
    fn prove_root(
        &mut self,
        pos: &Position,
        limits: Limits,
        on_info: &mut dyn FnMut(&Info),
    ) -> Result<SearchResult, u64> {
        let Some(tb) = self.tables.as_ref() else {
            return Err(0);
        };
        let start = Instant::now();
        let moves_nodes = limits.node_budget.or(limits.nodes);
        // The proof gets a quarter of the move's nodes (an exact-search
        // node costs several alpha-beta nodes) and half of its time.
        let (budget, deadline) = match (moves_nodes, limits.movetime) {
            (None, None) if limits.depth.is_some() => return Err(0),
            (None, None) => (Some(DEFAULT_PROOF_NODES), None),
            (n, t) => (n.map(|n| n / 4), t.map(|t| start + t / 2)),
        };
        // Closed holes (later rounds of a match) have no tables.
        if pos.closed_mask() != 0 || budget == Some(0) {
            return Err(0);
        }
        let me = pos.to_move();
        let mut search = hoyito_tablebase::search::ExactSearch::new(tb, 1 << 16);
        search.set_node_limit(budget);
        search.set_deadline(deadline);
        let covered = search.covers(pos);
        let values = if covered {
            // Covered positions need no proof (the oracle makes the search
            // perfect) unless the engine may swindle.
            if !self.swindle {
                return Err(0);
            }
            match tb.move_values(pos) {
                // Won: nothing to swindle for.
                Ok(v) if v.iter().any(|&(_, v)| pos.margin(me) + v > 0) => return Err(0),
                Ok(v) => v,
                Err(_) => return Err(0),
            }
        } else {
            // Fails on the limit: the usual search takes over.
            match search.move_values(pos) {
                Ok(v) => v,
                Err(_) => return Err(search.stats().nodes),
            }
        };
        let Some(&(mut best, mut value)) = values.iter().rev().max_by_key(|&&(_, v)| v) else {
            return Err(search.stats().nodes);
        };
        if self.swindle && pos.margin(me) + value <= 0 {
            // Deeper and deeper traps, within twice the proof's node budget
            // and 90 % of the move's time (no search follows a proved root).
            let limit = budget.map(|b| search.stats().nodes + 2 * b);
            search.set_node_limit(limit);
            search.set_deadline(limits.movetime.map(|t| start + t * 9 / 10));
            let found = search.run(|search| {
                let mut found = None;
                // Exact values do not depend on the line to a position, so
                // each depth reuses the proofs of the shallower ones.
                let mut model = Model {
                    search,
                    results: HashMap::new(),
                };
                for depth in 1..=MAX_SWINDLE_DEPTH {
                    match swindle(&mut model, pos, &values, depth) {
                        Some(Some(choice)) => found = Some(choice),
                        Some(None) => {}
                        None => break,
                    }
                }
                found
            });
            if let Some((m, v)) = found {
                (best, value) = (m, v);
            }
        }
        let nodes = search.stats().nodes;
        let time_ms = start.elapsed().as_millis() as u64;
        let score = pos.margin(me) + value;
        on_info(&Info {
            depth: 0,
            score,
            nodes,
            nps: nodes * 1000 / time_ms.max(1),
            time_ms,
            pv: vec![best],
        });
        Ok(SearchResult {
            best: Some(best),
            score,
            pv: vec![best],
            depth: 0,
            nodes,
            time_ms,
        })
    }

    /// Score of every legal move (each searched to the same limits), best
    /// first: the move, its score in seeds from the side to move's view, and
    /// its principal variation (starting with the move).
    pub fn analyze(&mut self, game: &Game, limits: Limits, stop: &AtomicBool) -> Vec<(Move, i32, Vec<Move>)> {
        if game.is_over() {
            return Vec::new();
        }
        if self.kind == EngineKind::Mcts {
            return mcts::search(game, limits, stop, &mut self.rng, &mut |_| {}).1;
        }
        let spec = self.level.map(|l| LEVELS[l as usize - 1]);
        let limits = capped(limits, spec);
        let (moves, _) = self.alpha_beta(game, limits, stop, true, &mut |_| {});
        moves.into_iter().map(|(m, v, pv)| (m, to_seeds(v), pv)).collect()
    }

    /// Iterative deepening. With `all_exact`, every root move is searched with
    /// a full window, so every root score is exact at the completed depth.
    /// Returns the root moves (internal units), best first, and the result.
    fn alpha_beta(
        &mut self,
        game: &Game,
        limits: Limits,
        stop: &AtomicBool,
        all_exact: bool,
        on_info: &mut dyn FnMut(&Info),
    ) -> (Vec<(Move, i32, Vec<Move>)>, SearchResult) {
        let start = Instant::now();
        let root = *game.position();
        let me = root.to_move();
        let depth_only = limits.depth.is_some()
            && limits.nodes.is_none()
            && limits.movetime.is_none()
            && limits.node_budget.is_none();
        if depth_only {
            self.new_game();
        }
        self.tt.new_search();
        let salt = salt(&root);
        let history = game.positions();
        let mut s = Searcher::new(
            &mut self.tt,
            &mut self.history,
            self.oracle.as_ref(),
            self.weights,
            salt,
            stop,
            &history,
        );
        s.use_tt = self.use_tt;
        s.incremental = self.incremental_hash;
        s.node_limit = limits
            .nodes
            .unwrap_or(u64::MAX)
            .min(limits.node_budget.unwrap_or(u64::MAX));
        s.deadline = limits.movetime.map(|t| start + t);
        s.push_root(&root);

        struct RootMove {
            mv: Move,
            pos: Position,
            hb: u64,
            captured: u8,
            score: i32,
            pv: Vec<Move>,
        }
        let root_hb = zobrist::board_hash(&root);
        let mut roots: Vec<RootMove> = root
            .legal_moves()
            .iter()
            .map(|&m| {
                let mut p = root;
                let (played, hb) = zobrist::play_hashed(&mut p, root_hb, m).expect("a legal move");
                RootMove {
                    mv: m,
                    pos: p,
                    hb,
                    captured: played.captured,
                    score: -INF,
                    pv: vec![m],
                }
            })
            .collect();
        // Captures first in the first iteration.
        roots.sort_by_key(|r| std::cmp::Reverse(r.captured));
        let max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 1)
            .clamp(1, MAX_PLY as u32 - 1);
        let mut completed = 0u32;
        for depth in 1..=max_depth {
            s.horizon = false;
            let mut alpha = -INF;
            let mut scores: Vec<Option<(i32, Vec<Move>)>> = vec![None; roots.len()];
            for (i, r) in roots.iter().enumerate() {
                let d = depth as i32 - 1;
                let v = if all_exact || i == 0 {
                    s.child_value(&r.pos, r.hb, me, r.captured, d, 1, -INF, INF)
                } else {
                    let v = s.child_value(&r.pos, r.hb, me, r.captured, d, 1, alpha, alpha + 1);
                    if v > alpha && !s.aborted {
                        s.child_value(&r.pos, r.hb, me, r.captured, d, 1, alpha, INF)
                    } else {
                        v
                    }
                };
                if s.aborted {
                    break;
                }
                let mut pv = vec![r.mv];
                pv.extend_from_slice(s.pv(1));
                // Moves that fail low under PVS keep an upper bound as their score.
                scores[i] = Some((v, pv));
                alpha = alpha.max(v);
            }
            let finished = !s.aborted;
            // A partial iteration still tells a better move if one was proven better
            // than the previous best (searched first).
            let better_partial = !finished
                && scores[0].is_some()
                && scores.iter().enumerate().skip(1).any(|(_, x)| {
                    x.as_ref()
                        .is_some_and(|(v, _)| *v > scores[0].as_ref().map_or(INF, |y| y.0))
                });
            if finished || better_partial {
                for (r, sc) in roots.iter_mut().zip(scores) {
                    if let Some((v, pv)) = sc {
                        r.score = v;
                        r.pv = pv;
                    } else if !finished {
                        r.score = r.score.min(alpha - 1);
                    }
                }
                roots.sort_by_key(|r| std::cmp::Reverse(r.score));
            }
            if !finished {
                break;
            }
            completed = depth;
            s.can_abort = true;
            let ms = start.elapsed().as_millis() as u64;
            on_info(&Info {
                depth,
                score: to_seeds(roots[0].score),
                nodes: s.nodes,
                nps: s.nodes * 1000 / ms.max(1),
                time_ms: ms,
                pv: roots[0].pv.clone(),
            });
            if !s.horizon {
                break; // Solved: every line ended.
            }
            if let Some(t) = limits.movetime {
                if roots.len() == 1 || start.elapsed() * 2 > t {
                    break;
                }
            }
            if let Some(b) = limits.node_budget {
                if roots.len() == 1 || s.nodes * 2 > b {
                    break;
                }
            }
            if s.nodes >= s.node_limit || stop.load(std::sync::atomic::Ordering::Relaxed) {
                break;
            }
        }
        if !all_exact && completed >= 3 && roots.len() > 1 && !s.aborted {
            // Among the moves as good as the best, prefer the one that gives a
            // fallible opponent the most chances to go wrong.
            let d = completed as i32;
            let best = roots[0].score;
            let mut tied = vec![0usize];
            for (i, r) in roots.iter().enumerate().skip(1) {
                // PVS scores of later moves are upper bounds: test them.
                if r.score >= best
                    && !s.aborted
                    && s.child_value(&r.pos, r.hb, me, r.captured, d - 1, 1, best - 1, best) >= best
                {
                    tied.push(i);
                }
            }
            if tied.len() > 1 && !s.aborted {
                let mut choice = (0usize, f64::NEG_INFINITY);
                for &i in &tied {
                    let r = &roots[i];
                    let chance = error_chance(&mut s, me, &r.pos, r.hb, best, d);
                    if s.aborted {
                        break;
                    }
                    if chance > choice.1 {
                        choice = (i, chance);
                    }
                }
                if !s.aborted && choice.0 != 0 {
                    let i = choice.0;
                    roots[i].score = best;
                    if roots[i].pv.first() != Some(&roots[i].mv) {
                        roots[i].pv = vec![roots[i].mv];
                    }
                    let r = roots.remove(i);
                    roots.insert(0, r);
                }
            }
        }
        let nodes = s.nodes;
        let time_ms = start.elapsed().as_millis() as u64;
        let best = &roots[0];
        let result = SearchResult {
            best: Some(best.mv),
            score: to_seeds(best.score),
            pv: best.pv.clone(),
            depth: completed,
            nodes,
            time_ms,
        };
        (roots.into_iter().map(|r| (r.mv, r.score, r.pv)).collect(), result)
    }
}

/// How likely an opponent who plays a random move, weighted towards captures
/// (weight 1 + seeds captured), is to reply to `child` (a root child whose
/// exact value for the root's mover is `best`, internal units) with a move
/// that lets the root's mover do better than `best` at depth `d - 2`.
/// A child that is over, or where the root's mover moves again, gives 0.
fn error_chance(s: &mut Searcher<'_>, me: Side, child: &Position, hb: u64, best: i32, d: i32) -> f64 {
    let opp = child.to_move();
    if child.is_over() || opp == me {
        return 0.0;
    }
    let replies = child.legal_moves();
    if replies.is_empty() {
        return 0.0;
    }
    s.push_path(child);
    let (mut total, mut wrong) = (0.0, 0.0);
    for &q in replies.iter() {
        let mut p = *child;
        let Ok((played, h)) = zobrist::play_hashed(&mut p, hb, q) else {
            continue;
        };
        let w = 1.0 + played.captured as f64;
        total += w;
        // The opponent's value after q is below -best: a mistake.
        let v = s.child_value(&p, h, opp, played.captured, d - 2, 2, -best - 1, -best);
        if s.aborted {
            break;
        }
        if v < -best {
            wrong += w;
        }
    }
    s.pop_path();
    if total > 0.0 {
        wrong / total
    } else {
        0.0
    }
}

/// The swindle of [`Engine::set_swindle`] in a lost position: among `values`
/// (every root move with its proved value for the mover), the move that
/// does best against an opponent who always plays one of its most tempting
/// moves (largest immediate gain, each equally likely) for its next `depth`
/// moves and perfectly after that, while the mover plays the same way (the
/// best move against that opponent while lost, perfectly once it is not).
/// "Best" is first the sum of two expected results (a win counts 1, a draw
/// 1/2, a loss 0): against that opponent, and against an opponent whose
/// next [`random_depth`] moves are uniformly random, perfect after them
/// ([`Opponent::Random`]; the mover plays as above), as if the opponent
/// were either kind with equal chance; then the proved value.
/// `None` if the proofs do not finish within the search's limit,
/// `Some(None)` if no move gives either opponent a chance to go wrong.
fn swindle(
    search: &mut Model<'_, '_>,
    pos: &Position,
    values: &[(Move, i32)],
    depth: u32,
) -> Option<Option<(Move, i32)>> {
    let me = pos.to_move();
    let result = values.iter().map(|&(_, v)| (pos.margin(me) + v).signum()).max()?;
    // Only moves that keep the proved result: in a drawn position, the
    // moves that keep the draw. A fallible opponent may err greedily or at
    // random, so each is scored by the sum of the two models' expectations.
    let mut best: Option<(f64, i32, Move)> = None;
    for &(m, v) in values
        .iter()
        .filter(|&&(_, v)| (pos.margin(me) + v).signum() == result)
    {
        let mut child = *pos;
        child.play(m).ok()?;
        child.settle();
        let e = expectation(search, &child, me, depth, Opponent::Tempting)?;
        let u = expectation(search, &child, me, random_depth(depth), Opponent::Random)?;
        let chance = e > points(result) || u > points(result);
        if chance && best.is_none_or(|(bs, bv, _)| (e + u, v) > (bs, bv)) {
            best = Some((e + u, v, m));
        }
    }
    Some(best.map(|(_, v, m)| (m, v)))
}

/// The random moves of the opponent that the swindle's random model (see
/// [`Engine::set_swindle`]) plays before perfect play when its tempting
/// model plays `depth`: half as many, rounded up. A random opponent has all
/// its moves to choose from, a tempting one usually one or two, so the two
/// models cost about the same. At [`MAX_SWINDLE_DEPTH`] that is 4.
pub const fn random_depth(depth: u32) -> u32 {
    depth.div_ceil(2)
}

/// Points of a result: 1 for a win, 1/2 for a draw, 0 for a loss.
fn points(result: i32) -> f64 {
    (result.signum() as f64 + 1.0) / 2.0
}

/// The exact search of a swindle and the results it has proved above the
/// tables (inside them a result is one probe, not worth the memory).
///
/// The model needs only results (won, drawn or lost), not values: above
/// the tables a result is at most two threshold proofs
/// ([`ExactSearch::at_least`](hoyito_tablebase::search::ExactSearch::at_least)),
/// where a value is a bisection of about six.
struct Model<'s, 'a> {
    search: &'s mut hoyito_tablebase::search::ExactSearch<'a>,
    results: HashMap<Position, i8>,
}

impl Model<'_, '_> {
    fn count_node(&mut self) -> Result<(), hoyito_tablebase::TablebaseError> {
        self.search.count_node()
    }

    /// The result of `pos` (settled) under perfect play for its mover:
    /// 1 won, 0 drawn, −1 lost, proved once.
    fn result(&mut self, pos: &Position) -> Result<i32, hoyito_tablebase::TablebaseError> {
        let mover = pos.to_move();
        if pos.is_over() {
            return Ok(pos.margin(mover).signum());
        }
        if self.search.covers(pos) {
            return Ok((pos.margin(mover) + self.search.value(pos)?).signum());
        }
        if let Some(&r) = self.results.get(pos) {
            return Ok(r.into());
        }
        // Not lost: the mover gains at least what it is behind by.
        let even = -pos.margin(mover);
        let r = if !self.search.at_least(pos, even)? {
            -1
        } else if self.search.at_least(pos, even + 1)? {
            1
        } else {
            0
        };
        self.results.insert(*pos, r);
        Ok(r.into())
    }

    /// [`Model::result`] for `me`, whoever moves in `pos`.
    fn result_for(&mut self, pos: &Position, me: Side) -> Result<i32, hoyito_tablebase::TablebaseError> {
        let r = self.result(pos)?;
        Ok(if pos.to_move() == me { r } else { -r })
    }
}

/// How the opponent of a swindle's model chooses its moves.
#[derive(Clone, Copy)]
enum Opponent {
    /// One of its most tempting moves (largest immediate gain), each
    /// equally likely, as a one-ply greedy player does.
    Tempting,
    /// Any legal move, each equally likely, as a random player does.
    Random,
}

/// Expected points for `me` in `pos` (settled) under the model of
/// [`swindle`], the opponent having `depth` moves of the `opponent` model
/// left before it plays perfectly.
/// Every position of the model counts as a node of `search`, so the model
/// stays within the search's node limit even where every result is a probe.
fn expectation(
    search: &mut Model<'_, '_>,
    pos: &Position,
    me: Side,
    depth: u32,
    opponent: Opponent,
) -> Option<f64> {
    search.count_node().ok()?;
    if pos.is_over() {
        return Some(points(pos.margin(me)));
    }
    let mover = pos.to_move();
    if depth == 0 {
        // Perfect play from here on.
        return Some(points(search.result_for(pos, me).ok()?));
    }
    let moves = pos.legal_moves();
    let after = |r: Move| {
        let mut p = *pos;
        p.play(r).ok()?;
        p.settle();
        Some(p)
    };
    if mover == me {
        let r = search.result(pos).ok()?;
        if r > 0 {
            return Some(1.0);
        }
        // Lost: any move. Drawn: only the moves that keep the draw, and
        // the draw at least.
        let mut best: Option<f64> = (r == 0).then_some(0.5);
        for &m in moves.iter() {
            let child = after(m)?;
            if r == 0 && search.result_for(&child, me).ok()? < 0 {
                continue;
            }
            let e = expectation(search, &child, me, depth, opponent)?;
            if best.is_none_or(|b| e > b) {
                best = Some(e);
            }
        }
        return best;
    }
    // The opponent plays one of its most tempting moves, or any move.
    let mut children = Vec::with_capacity(moves.len());
    for &r in moves.iter() {
        let p = after(r)?;
        children.push((p.margin(mover) - pos.margin(mover), p));
    }
    let chosen = match opponent {
        Opponent::Tempting => children.iter().map(|&(g, _)| g).max()?,
        Opponent::Random => i32::MIN,
    };
    let (mut sum, mut n) = (0.0, 0.0);
    for (_, p) in children.iter().filter(|&&(g, _)| g >= chosen) {
        sum += expectation(search, p, me, depth - 1, opponent)?;
        n += 1.0;
    }
    Some(sum / n)
}

/// The caller's limits, capped by a level's depth.
fn capped(limits: Limits, spec: Option<LevelSpec>) -> Limits {
    match spec.and_then(|s| s.depth) {
        Some(d) => Limits {
            depth: Some(limits.depth.map_or(d, |x| x.min(d))),
            ..limits
        },
        None => limits,
    }
}

/// Internal units to seeds, rounded to nearest.
fn to_seeds(v: i32) -> i32 {
    (v as f64 / SCALE as f64).round() as i32
}

/// A key salt for what [`Position::hash`] leaves out but is constant within
/// a search: the rules and the last-four award.
fn salt(pos: &Position) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    pos.rules().hash(&mut h);
    pos.last_four().hash(&mut h);
    h.finish()
}

/// Time to spend on a move given the remaining clock and increment (UGI
/// p1time/p2time): a 30th of the remaining time plus three quarters of the
/// increment, never more than half of the remaining time, at least 1 ms.
pub fn time_for_move(remaining: Duration, increment: Duration) -> Duration {
    let t = remaining / 30 + increment * 3 / 4;
    t.min(remaining / 2).max(Duration::from_millis(1))
}

/// Plays `game` on with `south` and `north` choosing the moves of their side,
/// each search limited by `limits`, until the game is over or `max_plies`
/// more moves were played. Returns the number of moves played.
pub fn play_out(
    game: &mut Game,
    south: &mut Engine,
    north: &mut Engine,
    limits: Limits,
    max_plies: usize,
) -> usize {
    let stop = AtomicBool::new(false);
    let mut plies = 0;
    while !game.is_over() && plies < max_plies {
        let engine = match game.position().to_move() {
            hoyito_core::Side::South => &mut *south,
            hoyito_core::Side::North => &mut *north,
        };
        let r = engine.search(game, limits, &stop, &mut |_| {});
        let m = r.best.expect("a game that is not over has a legal move");
        game.play(m).expect("the engine plays legal moves");
        plies += 1;
    }
    plies
}
