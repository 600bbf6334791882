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
//! Perfect-play knowledge comes from the caller through an [`Oracle`]
//! ([`Engine::set_oracle`]); with the `tablebase` feature an endgame
//! tablebase of `hoyito-tablebase` is one (also in WebAssembly, over
//! compact tables given as bytes), and with `tablebase-files` (on by
//! default) the engine opens tables from a directory.
//!
//! Scores are the final captured-seed margin (reserves included, as
//! [`Position::margin`](hoyito_core::Position::margin)) from the view of the side to move, in seeds. Levels
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

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub use hoyito_core;

mod clock;
mod engine;
mod eval;
mod level;
mod limits;
mod mcts;
mod oracle;
mod proof;
mod root;
mod search;
mod swindle;
#[cfg(feature = "tablebase")]
mod tablebase;
mod tt;
mod zobrist;

pub mod review;
pub mod stats;
pub mod ugi;

pub use engine::{play_out, Engine, EngineKind, Info, SearchResult, DEFAULT_HASH_MB};
pub use eval::{evaluate, split_value, EvalWeights, SCALE};
pub use level::{LevelSpec, HINT_LEVEL, HINT_MOVETIME, LEVELS, PLAY_MOVETIME};
pub use limits::{time_for_move, Limits};
pub use oracle::{Oracle, ProofError, Prover};
pub use swindle::{random_depth, MAX_SWINDLE_DEPTH};
