//! The [`Engine`]: its settings, what a search reports, and the entry points
//! [`Engine::search`] and [`Engine::analyze`].

use crate::clock::Instant;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use hoyito_core::{Game, Move};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::eval::{to_seeds, EvalWeights};
use crate::level::LevelSpec;
use crate::proof::RootProof;
use crate::{mcts, tt, Limits, Oracle};

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
    pub pv: Vec<Move>,
}

/// The result of a search.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// The move to play, `None` if the game is over.
    pub best: Option<Move>,
    /// Expected final margin in seeds from the side to move's view.
    pub score: i32,
    /// Principal variation, starting with `best`.
    pub pv: Vec<Move>,
    /// Completed depth.
    pub depth: u32,
    /// Nodes searched (MCTS: playouts).
    pub nodes: u64,
    /// Milliseconds spent.
    pub time_ms: u64,
}

/// Default transposition-table size in MiB.
pub const DEFAULT_HASH_MB: usize = 16;

/// A game-playing engine. Keeps its transposition table and move-ordering
/// history between searches; [`Engine::new_game`] clears them.
pub struct Engine {
    pub(crate) kind: EngineKind,
    pub(crate) level: Option<u8>,
    pub(crate) hash_mb: usize,
    pub(crate) tt: tt::Tt,
    pub(crate) history: Box<[[i32; 48]; 2]>,
    /// Perfect-play knowledge, given by the caller.
    pub(crate) oracle: Option<Arc<dyn Oracle>>,
    pub(crate) weights: EvalWeights,
    pub(crate) rng: SmallRng,
    /// Use the transposition table (switched off only by tests).
    pub(crate) use_tt: bool,
    /// Key the table incrementally (see [`Engine::set_incremental_hash`]).
    pub(crate) incremental_hash: bool,
    /// Set traps in proved-lost positions (see [`Engine::set_swindle`]).
    pub(crate) swindle: bool,
}

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
            weights: EvalWeights::DEFAULT,
            rng: SmallRng::seed_from_u64(0x5EED),
            use_tt: true,
            incremental_hash: true,
            swindle: true,
        }
    }

    /// An alpha-beta engine playing at `level` (clamped to 1..=10): 1 plays
    /// at random, 2 greedily one ply deep, 3–9 search deeper with less
    /// randomness, 10 is full strength ([`LEVELS`](crate::LEVELS)).
    pub fn with_level(level: u8) -> Engine {
        let level = level.clamp(1, 10);
        let spec = LevelSpec::of(level);
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
    /// [`Position::fingerprint`](hoyito_core::Position::fingerprint) computed from scratch at every node. Both give the
    /// same search up to hash collisions; the switch exists to measure the
    /// speed of each. Clears the table.
    pub fn set_incremental_hash(&mut self, on: bool) {
        self.incremental_hash = on;
        self.tt.clear();
    }

    /// Swindles (the default) or not. With an oracle that proves (see
    /// [`Engine::set_oracle`]), when every move of the root is proved to
    /// lose the game, no move is better than another against perfect play,
    /// so a swindling engine plays the move that gives a fallible opponent
    /// the best chance to go wrong. Its model of that opponent plays, each
    /// time, one of its most tempting moves (largest immediate gain, as a
    /// one-ply greedy player does) for its next `d` moves, and perfectly
    /// after that; the engine's own later moves are the best against that
    /// model while still lost, perfect once not. A second model has the
    /// opponent's next [`random_depth`](crate::random_depth)`(d)` = `⌈d/2⌉`
    /// moves uniformly random (and perfect play after them). The move with
    /// the largest sum of the two expected results (win 1, draw 1/2), as if
    /// the opponent were either kind with equal chance, then the best
    /// proved value, is played; `d` deepens from 1 to
    /// [`MAX_SWINDLE_DEPTH`](crate::MAX_SWINDLE_DEPTH) while the model fits
    /// in twice the root proof's node budget and in 90 % of the move's time
    /// (the model needs only won, drawn or lost above the tables: at most
    /// two threshold proofs each, not a value's bisection). If no move gives
    /// a chance against either model, the proved best move is played. In a
    /// drawn position the same models choose, among the moves that keep the
    /// draw (the best moves), the one with the best chances to win. Without
    /// swindling the engine always plays a proved best move. Won positions
    /// are played perfectly either way, drawn ones never give up the draw,
    /// and the reported score is always the played move's proved value.
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

    /// Installs (or removes) perfect-play knowledge, such as an endgame
    /// tablebase opened or built by the caller (share one `Arc` between
    /// engines: opening tables checks every file). The search scores every
    /// position below the root that [`Oracle::final_margin`] answers
    /// exactly, so wherever the root's children are covered the engine
    /// plays perfectly. If the oracle also proves ([`Oracle::prover`]),
    /// a full-strength search above its knowledge first tries to prove the
    /// value of every root move down into it (within a quarter of the node
    /// budget and half of the time limit) and then plays a best move
    /// perfectly (or swindles, see [`Engine::set_swindle`]); if the proof
    /// does not finish it searches as usual. Clears the transposition
    /// table, whose values may disagree with the oracle.
    pub fn set_oracle(&mut self, oracle: Option<Arc<dyn Oracle>>) {
        self.oracle = oracle;
        self.tt.clear();
    }

    /// Uses `tb` as the oracle ([`Engine::set_oracle`]). Returns the seed
    /// counts of its layers.
    #[cfg(feature = "tablebase")]
    pub fn set_tablebase(&mut self, tb: Arc<hoyito_tablebase::Tablebase>) -> Vec<u32> {
        let layers = tb.layers();
        self.set_oracle(Some(tb));
        layers
    }

    /// Opens the endgame tablebases of `rules` stored under `dir` (as built
    /// by `hoyito tablebase build`) and uses them as the oracle
    /// ([`Engine::set_tablebase`]). Returns the seed counts of the layers
    /// loaded. Opening checks every file's checksum: a caller that makes
    /// many engines should open the tables once
    /// (`hoyito_tablebase::Tablebase::open`) and give each engine the same
    /// `Arc` instead.
    ///
    /// # Errors
    /// [`hoyito_tablebase::TablebaseError`] if the rules are not covered by
    /// tablebases, no layer is present, or a file fails its checks.
    #[cfg(feature = "tablebase-files")]
    pub fn load_tablebases(
        &mut self,
        rules: hoyito_core::Rules,
        dir: &std::path::Path,
    ) -> Result<Vec<u32>, hoyito_tablebase::TablebaseError> {
        let tb = hoyito_tablebase::Tablebase::open(rules, dir)?;
        Ok(self.set_tablebase(Arc::new(tb)))
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

    /// The spec of this engine's level, if it has one.
    fn spec(&self) -> Option<LevelSpec> {
        self.level.map(LevelSpec::of)
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
        let spec = self.spec();
        if spec.is_some_and(|s| s.random) {
            let legal = pos.legal_moves();
            let m = legal[self.rng.random_range(0..legal.len())];
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
        let mut limits = spec.map_or(limits, |s| s.cap(limits));
        let noisy = spec.is_some_and(|s| s.noisy());
        if spec.is_none_or(|s| s.depth.is_none() && !noisy) {
            let began = Instant::now();
            match self.prove_root(&pos, limits, on_info) {
                RootProof::Proved(res) => return res,
                // The search gets the time and nodes the failed proof left.
                RootProof::Unproved { nodes_spent } => limits = limits.after(began.elapsed(), nodes_spent),
            }
        }
        let (moves, res) = self.alpha_beta(game, limits, stop, noisy, on_info);
        match spec {
            Some(s) if noisy => {
                // Levels: choose among all root moves by noisy score.
                let (m, v, pv) = &moves[s.choose(&moves, &mut self.rng)];
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

    /// Score of every legal move (each searched to the same limits), best
    /// first: the move, its score in seeds from the side to move's view, and
    /// its principal variation (starting with the move).
    pub fn analyze(&mut self, game: &Game, limits: Limits, stop: &AtomicBool) -> Vec<(Move, i32, Vec<Move>)> {
        self.analyze_search(game, limits, stop).0
    }

    /// As [`Engine::analyze`], with the search's summary: the depth
    /// completed (MCTS: the length of its principal variation), the nodes
    /// (MCTS: playouts) and the time spent.
    pub fn analyze_search(
        &mut self,
        game: &Game,
        limits: Limits,
        stop: &AtomicBool,
    ) -> (Vec<(Move, i32, Vec<Move>)>, SearchResult) {
        if game.is_over() {
            let none = SearchResult {
                best: None,
                score: 0,
                pv: Vec::new(),
                depth: 0,
                nodes: 0,
                time_ms: 0,
            };
            return (Vec::new(), none);
        }
        if self.kind == EngineKind::Mcts {
            let (res, moves) = mcts::search(game, limits, stop, &mut self.rng, &mut |_| {});
            return (moves, res);
        }
        let limits = self.spec().map_or(limits, |s| s.cap(limits));
        let (moves, res) = self.alpha_beta(game, limits, stop, true, &mut |_| {});
        let moves = moves.into_iter().map(|(m, v, pv)| (m, to_seeds(v), pv)).collect();
        (moves, res)
    }
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
