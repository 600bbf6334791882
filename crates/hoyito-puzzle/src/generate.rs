//! Generating a puzzle set: candidates from the engine's own games (and
//! from any other games given), certified by the tables ([`certify`]),
//! the same position never twice. The positions of a self-play game are
//! taken after its random opening moves.
//!
//! Reproducible byte for byte: game `i` of a seed is the same game whatever
//! the machine and the number of threads (its openings and the levels'
//! noise come from the seed and `i`, its searches are limited by depth
//! only), games are played in batches of [`BATCH`] in parallel and taken
//! in order.

use std::collections::HashSet;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use hoyito_core::{Game, Rules, Side};
use hoyito_engine::{Engine, Limits};
use hoyito_tablebase::{Tablebase, TablebaseError};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use rayon::prelude::*;

use crate::certify::{certify, Puzzle};
use crate::record::PuzzleRecord;
use crate::theme::Theme;

/// Games played in parallel before their puzzles are taken, in order.
pub const BATCH: u32 = 8;

/// Longest self-play game, in moves.
pub const MAX_PLIES: usize = 400;

/// Random moves at the start of each self-play game.
pub const RANDOM_PLIES: u32 = 2;

/// What to generate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Plan {
    /// The rules (the tables' rules).
    pub rules: Rules,
    /// The seed of the games.
    pub seed: u64,
    /// Puzzles wanted.
    pub count: usize,
    /// The levels of the self-play games (1 to 9): each side of each game
    /// plays at a level drawn uniformly from this range.
    pub levels: (u8, u8),
    /// Most puzzles taken from one game (spreads the set over more games).
    pub per_game: usize,
    /// Most self-play games played, whatever the count reached.
    pub max_games: u32,
    /// Most seeds in play in a candidate position (the tables must answer
    /// every position with up to this many).
    pub max_seeds: u32,
}

/// A plan that cannot be carried out.
#[derive(Debug, thiserror::Error)]
pub enum PlanError {
    /// The levels are not a range within 1 to 9.
    #[error("levels {0}-{1}: expected a range within 1-9 (level 10 searches without a depth limit)")]
    Levels(u8, u8),
    /// The tables do not answer the rules.
    #[error(transparent)]
    Tables(#[from] TablebaseError),
}

/// The figures of a generation.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Figures {
    /// Games whose positions were examined.
    pub games: u32,
    /// Positions examined: every position of those games the tables answer
    /// that is not over.
    pub candidates: u64,
    /// Candidates that were puzzles, before duplicates and the per-game cap.
    pub certified: u64,
    /// Puzzles kept.
    pub accepted: usize,
    /// Puzzles kept with each theme ([`Theme::ALL`]'s order).
    pub themes: Vec<(Theme, usize)>,
    /// Puzzles kept with 1, 2 and 3 solver moves.
    pub lengths: Vec<usize>,
    /// Time spent.
    pub time: Duration,
}

impl Figures {
    /// The share of candidates kept, in percent.
    pub fn share(&self) -> f64 {
        100.0 * self.accepted as f64 / self.candidates.max(1) as f64
    }
}

/// Puzzles taken in order from games, the same board and side to move never twice.
pub struct Collector<'a> {
    tb: &'a Tablebase,
    max_seeds: u32,
    per_game: usize,
    count: usize,
    seen: HashSet<(Vec<u8>, Side)>,
    puzzles: Vec<Puzzle>,
    figures: Figures,
}

/// What one game gave: candidates examined and the puzzles found, in order.
pub struct GamePuzzles {
    candidates: u64,
    puzzles: Vec<Puzzle>,
}

/// Certifies every position of `game` (before each of its moves, and the
/// last) from move `from_ply` on with at most `max_seeds` seeds in play,
/// if the tables answer it (a round of a match with closed holes does not).
///
/// # Errors
/// [`TablebaseError`] if the tables do not answer one of them.
pub fn examine(
    tb: &Tablebase,
    game: &Game,
    max_seeds: u32,
    from_ply: usize,
) -> Result<GamePuzzles, TablebaseError> {
    let mut out = GamePuzzles {
        candidates: 0,
        puzzles: Vec::new(),
    };
    for pos in game.positions().into_iter().skip(from_ply) {
        if pos.is_over() || pos.in_play() as u32 > max_seeds {
            continue;
        }
        match certify(tb, &pos) {
            Ok(found) => {
                out.candidates += 1;
                out.puzzles.extend(found);
            }
            // Closed holes, the last four to a fixed player (rounds of a
            // match): not positions the tables answer.
            Err(TablebaseError::Unsupported(_)) => {}
            Err(e) => return Err(e),
        }
    }
    Ok(out)
}

impl<'a> Collector<'a> {
    /// A collector of at most `count` puzzles, `per_game` from one game,
    /// from positions of at most `max_seeds` seeds in play.
    pub fn new(tb: &'a Tablebase, max_seeds: u32, count: usize, per_game: usize) -> Collector<'a> {
        Collector {
            tb,
            max_seeds,
            per_game: per_game.max(1),
            count,
            seen: HashSet::new(),
            puzzles: Vec::new(),
            figures: Figures {
                themes: Theme::ALL.iter().map(|&t| (t, 0)).collect(),
                lengths: vec![0; crate::certify::MAX_SOLVER_MOVES],
                ..Figures::default()
            },
        }
    }

    /// Whether `count` puzzles were collected.
    pub fn full(&self) -> bool {
        self.puzzles.len() >= self.count
    }

    /// Takes the puzzles of one game, in order.
    pub fn take(&mut self, found: GamePuzzles) {
        self.figures.games += 1;
        self.figures.candidates += found.candidates;
        self.figures.certified += found.puzzles.len() as u64;
        let mut taken = 0;
        for p in found.puzzles {
            if self.full() || taken == self.per_game {
                break;
            }
            if !self
                .seen
                .insert((p.position.board().to_vec(), p.position.to_move()))
            {
                continue;
            }
            taken += 1;
            for (t, n) in &mut self.figures.themes {
                *n += p.themes.contains(t) as usize;
            }
            self.figures.lengths[p.solver_moves() - 1] += 1;
            self.puzzles.push(p);
        }
        self.figures.accepted = self.puzzles.len();
    }

    /// Examines `game` and takes its puzzles.
    ///
    /// # Errors
    /// As [`examine`].
    pub fn take_game(&mut self, game: &Game) -> Result<(), TablebaseError> {
        let found = examine(self.tb, game, self.max_seeds, 0)?;
        self.take(found);
        Ok(())
    }

    /// The figures so far.
    pub fn figures(&self) -> &Figures {
        &self.figures
    }

    /// The puzzles as records, numbered `<variant>-<holes>-NNNN` in order.
    pub fn finish(self, time: Duration) -> (Vec<PuzzleRecord>, Figures) {
        let records = self
            .puzzles
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let rules = p.position.rules();
                let id = format!("{}-{}-{:04}", rules.variant(), rules.holes(), i + 1);
                PuzzleRecord::new(id, p)
            })
            .collect();
        (records, Figures { time, ..self.figures })
    }
}

/// Game `index` of `seed`'s self-play: [`RANDOM_PLIES`] random moves, then
/// each side at a level drawn from `levels`, searched to the level's depth.
pub fn self_play(rules: Rules, seed: u64, index: u32, levels: (u8, u8)) -> Game {
    let mut rng = SmallRng::seed_from_u64(seed ^ (index as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let mut game = Game::new(rules);
    for _ in 0..RANDOM_PLIES {
        if game.is_over() {
            break;
        }
        let legal = game.position().legal_moves();
        game.play(legal[rng.random_range(0..legal.len())])
            .expect("a legal move");
    }
    let engine = |rng: &mut SmallRng| {
        let mut e = Engine::with_level(rng.random_range(levels.0..=levels.1));
        e.set_seed(rng.random());
        e
    };
    let (mut south, mut north) = (engine(&mut rng), engine(&mut rng));
    // The levels' own depths limit every search: depth only, reproducible.
    let limits = Limits {
        depth: Some(64),
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    while !game.is_over() && game.moves().len() < MAX_PLIES {
        let e = match game.position().to_move() {
            Side::South => &mut south,
            Side::North => &mut north,
        };
        let Some(m) = e.search(&game, limits, &stop, &mut |_| {}).best else {
            break;
        };
        game.play(m).expect("the engine plays legal moves");
    }
    game
}

/// Generates `plan.count` puzzles from self-play games (fewer if
/// `plan.max_games` games do not give them), calling `progress` after each
/// batch of games; `extra` games (stored games, say) are examined first.
///
/// # Errors
/// [`PlanError`] for levels out of range or tables of other rules.
pub fn generate(
    tb: &Tablebase,
    plan: &Plan,
    extra: &[Game],
    mut progress: impl FnMut(&Figures),
) -> Result<(Vec<PuzzleRecord>, Figures), PlanError> {
    let (lo, hi) = plan.levels;
    if !(1 <= lo && lo <= hi && hi <= 9) {
        return Err(PlanError::Levels(lo, hi));
    }
    if tb.rules() != &plan.rules {
        return Err(TablebaseError::Unsupported(format!(
            "puzzles of {}, with tables of {}",
            plan.rules,
            tb.rules()
        ))
        .into());
    }
    let top = tb.layers().last().copied().unwrap_or(0);
    if plan.max_seeds > top {
        return Err(TablebaseError::Missing {
            seeds: plan.max_seeds,
            built: tb
                .layers()
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(", "),
        }
        .into());
    }
    let began = Instant::now();
    let mut collector = Collector::new(tb, plan.max_seeds, plan.count, plan.per_game);
    for game in extra {
        if collector.full() {
            break;
        }
        collector.take_game(game)?;
    }
    let mut next = 0u32;
    while !collector.full() && next < plan.max_games {
        let batch = next..(next + BATCH).min(plan.max_games);
        next = batch.end;
        let found: Vec<GamePuzzles> = batch
            .into_par_iter()
            .map(|i| {
                examine(
                    tb,
                    &self_play(plan.rules, plan.seed, i, plan.levels),
                    plan.max_seeds,
                    RANDOM_PLIES as usize,
                )
            })
            .collect::<Result<_, _>>()?;
        for f in found {
            collector.take(f);
        }
        let mut figures = collector.figures().clone();
        figures.time = began.elapsed();
        progress(&figures);
    }
    Ok(collector.finish(began.elapsed()))
}
