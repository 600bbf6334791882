//! How often the engine plays an optimal move where its games enter the
//! tablebases: the pieces of the `optimal_moves` program, kept in the
//! library so that its test (`tests/optimal_moves.rs`) can check them.
//!
//! A [`Choice`] is a position inside the tables with the tablebase's value
//! of every legal move ([`Tablebase::move_values`]: the net score the mover
//! still gains after the move, perfect play from then on; an extra turn
//! keeps the child's value for the mover, a move that ends the game is worth
//! its own gain). [`sample_game`] plays one self-play game of a level and
//! returns its first position inside the tables whose moves do not all
//! have the same value; [`engine_move`] is a level's move in a position,
//! searched by a fresh engine; [`Choice::judge`] scores a move against the
//! best.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use hoyito_core::{Game, Move, Position, Rules};
use hoyito_engine::{Engine, Limits};
use hoyito_tablebase::{Tablebase, TablebaseError};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// Longest self-play game played while sampling.
pub const MAX_PLIES: usize = 3000;

/// A position inside the tables with the value of each of its legal moves.
#[derive(Clone, Debug)]
pub struct Choice {
    /// The position (the player to move chooses).
    pub position: Position,
    /// Every legal move with its tablebase value for the mover.
    pub moves: Vec<(Move, i32)>,
    /// The best of the moves' values: the position's value.
    pub best: i32,
}

/// What a move is worth against the best move of a [`Choice`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Judgement {
    /// The move keeps the position's value.
    pub optimal: bool,
    /// Seeds of final margin lost against the best move (0 if optimal).
    pub loss: i32,
    /// The move changes the game-theoretic result of the game (from a win
    /// to a draw or a loss, or from a draw to a loss), judged on the final
    /// margin, captures before the position included.
    pub result_changed: bool,
}

/// The result of a final margin: 1 won, 0 drawn, −1 lost.
pub fn result_of(final_margin: i32) -> i32 {
    final_margin.signum()
}

impl Choice {
    /// The moves of `pos` and their values in `tb`.
    ///
    /// # Errors
    /// As [`Tablebase::move_values`]: the position's layer is missing, or it
    /// is not covered (other rules, closed holes).
    pub fn new(tb: &Tablebase, pos: &Position) -> Result<Choice, TablebaseError> {
        let moves = tb.move_values(pos)?;
        let best = moves.iter().map(|&(_, v)| v).max().unwrap_or(0);
        Ok(Choice {
            position: *pos,
            moves,
            best,
        })
    }

    /// Whether the choice matters: the moves do not all have the same value
    /// (so there are at least two).
    pub fn decisive(&self) -> bool {
        self.moves.iter().any(|&(_, v)| v != self.best)
    }

    /// The value of move `m`, if it is legal here.
    pub fn value_of(&self, m: Move) -> Option<i32> {
        self.moves.iter().find(|&&(x, _)| x == m).map(|&(_, v)| v)
    }

    /// The captured margin of the player to move so far: the final margin
    /// of a move is this plus the move's value.
    pub fn margin(&self) -> i32 {
        self.position.margin(self.position.to_move())
    }

    /// The result (1, 0, −1) for the player to move under perfect play.
    pub fn result(&self) -> i32 {
        result_of(self.margin() + self.best)
    }

    /// How `m` compares with the best move.
    ///
    /// # Panics
    /// If `m` is not a legal move of the position.
    pub fn judge(&self, m: Move) -> Judgement {
        let v = self.value_of(m).expect("a legal move of the position");
        Judgement {
            optimal: v == self.best,
            loss: self.best - v,
            result_changed: result_of(self.margin() + v) < self.result(),
        }
    }

    /// The distinct values of the moves.
    pub fn distinct_values(&self) -> usize {
        let mut v: Vec<i32> = self.moves.iter().map(|&(_, v)| v).collect();
        v.sort_unstable();
        v.dedup();
        v.len()
    }
}

/// How positions are sampled from self-play games.
#[derive(Clone, Copy, Debug)]
pub struct Sampling {
    /// The rules of the games (those of the tables).
    pub rules: Rules,
    /// Positions with at most this many seeds in play are in the tables.
    pub max_seeds: u32,
    /// The level playing both sides.
    pub level: u8,
    /// The limits of each of its searches.
    pub limits: Limits,
    /// Uniformly random moves at the start of each game, so that games of
    /// deterministic levels differ.
    pub random_plies: u32,
    /// Seed of the random plies and of the engines.
    pub seed: u64,
}

/// What one self-play game gave.
#[derive(Clone, Debug)]
pub struct GameSample {
    /// The first position of the game inside the tables, after the random
    /// plies, whose moves do not all have the same value; `None` if the
    /// game ended first.
    pub sample: Option<Choice>,
    /// The number of the sampled position's move in the game (from 0).
    pub ply: usize,
    /// Whether the game reached the tables (a position with at most
    /// `max_seeds` seeds in play, not over) after its random plies.
    pub entered: bool,
    /// Whether the game was already inside the tables when its random
    /// plies ended (its sample then comes after random moves only).
    pub entered_in_opening: bool,
    /// Positions inside the tables passed over before the sample because
    /// every move had the same value.
    pub trivial: u32,
}

/// A seed for the item `index` of a series seeded with `seed`.
pub fn mix(seed: u64, index: u64) -> u64 {
    let mut z = seed ^ index.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Plays game `index` of a sampling series: `random_plies` random moves
/// from the start, then the level on both sides (two engines, seeded from
/// the series' seed and the index, no tablebases), until the first
/// position inside the tables with a decisive choice.
///
/// # Errors
/// As [`Choice::new`].
pub fn sample_game(tb: &Tablebase, s: &Sampling, index: u64) -> Result<GameSample, TablebaseError> {
    let mut rng = SmallRng::seed_from_u64(mix(s.seed, index));
    let mut game = Game::new(s.rules);
    for _ in 0..s.random_plies {
        if game.is_over() {
            break;
        }
        let legal = game.position().legal_moves();
        game.play(legal[rng.random_range(0..legal.len())])
            .expect("a legal move");
    }
    let mut south = Engine::with_level(s.level);
    south.set_seed(rng.random());
    let mut north = Engine::with_level(s.level);
    north.set_seed(rng.random());
    let stop = AtomicBool::new(false);
    let mut out = GameSample {
        sample: None,
        ply: 0,
        entered: false,
        entered_in_opening: !game.is_over() && u32::from(game.position().in_play()) <= s.max_seeds,
        trivial: 0,
    };
    while !game.is_over() && game.moves().len() < MAX_PLIES {
        let pos = *game.position();
        if u32::from(pos.in_play()) <= s.max_seeds {
            out.entered = true;
            let choice = Choice::new(tb, &pos)?;
            if choice.decisive() {
                out.ply = game.moves().len();
                out.sample = Some(choice);
                return Ok(out);
            }
            out.trivial += 1;
        }
        let engine = match pos.to_move() {
            hoyito_core::Side::South => &mut south,
            hoyito_core::Side::North => &mut north,
        };
        let m = engine
            .search(&game, s.limits, &stop, &mut |_| {})
            .best
            .expect("a game that is not over has a move");
        game.play(m).expect("the engine plays legal moves");
    }
    Ok(out)
}

/// The move of a fresh engine of `level` (seeded with `seed`, with `tables`
/// as its oracle if given) in `pos`, searched without history, and the
/// time the search took.
pub fn engine_move(
    level: u8,
    seed: u64,
    limits: Limits,
    tables: Option<&Arc<Tablebase>>,
    pos: &Position,
) -> (Move, Duration) {
    let mut engine = Engine::with_level(level);
    engine.set_seed(seed);
    if let Some(tb) = tables {
        engine.set_tablebase(Arc::clone(tb));
    }
    let game = Game::from_position(*pos);
    let stop = AtomicBool::new(false);
    let began = Instant::now();
    let r = engine.search(&game, limits, &stop, &mut |_| {});
    let took = began.elapsed();
    (r.best.expect("a position that is not over has a move"), took)
}

/// The figures of one player over a set of choices.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Tally {
    /// Positions judged.
    pub positions: u64,
    /// Optimal moves.
    pub optimal: u64,
    /// Seeds lost against the best moves, summed.
    pub loss: u64,
    /// Moves that changed the game-theoretic result.
    pub result_changed: u64,
    /// Positions whose result under perfect play was a win for the mover
    /// (for the share of won positions given away).
    pub won: u64,
    /// Won positions whose move gave away the win.
    pub won_lost: u64,
    /// Search time, summed.
    pub time: Duration,
}

impl Tally {
    /// Counts move `m` played in `c` after searching for `time`.
    pub fn add(&mut self, c: &Choice, m: Move, time: Duration) {
        let j = c.judge(m);
        self.positions += 1;
        self.optimal += u64::from(j.optimal);
        self.loss += j.loss as u64;
        self.result_changed += u64::from(j.result_changed);
        if c.result() > 0 {
            self.won += 1;
            self.won_lost += u64::from(j.result_changed);
        }
        self.time += time;
    }

    /// The share of optimal moves.
    pub fn optimal_share(&self) -> f64 {
        self.optimal as f64 / self.positions.max(1) as f64
    }

    /// The mean loss in seeds.
    pub fn mean_loss(&self) -> f64 {
        self.loss as f64 / self.positions.max(1) as f64
    }

    /// The share of moves that changed the result.
    pub fn result_changed_share(&self) -> f64 {
        self.result_changed as f64 / self.positions.max(1) as f64
    }

    /// The mean search time per move in milliseconds.
    pub fn mean_ms(&self) -> f64 {
        self.time.as_secs_f64() * 1000.0 / self.positions.max(1) as f64
    }
}
