//! # hoyito-puzzle
//!
//! Puzzles certified by the solution: positions of Hoyito where exactly
//! one move keeps the best result, proved by the endgame tablebases
//! (`hoyito-tablebase`), with the opponent's forced replies and the
//! solver's next only moves up to three solver moves ([`certify()`]); their
//! themes read from the traced moves ([`Theme`]); a deterministic rating
//! ([`rating`](mod@rating)); the puzzle files, one JSON object a line ([`record`](mod@record)); and
//! the generation of a set from the engine's own games ([`generate()`]).
//!
//! ```
//! use hoyito_core::{Position, Rules, Variant};
//! use hoyito_puzzle::{certify, Theme};
//! use hoyito_tablebase::Tablebase;
//!
//! let rules = Rules::new(Variant::II, 4)?;
//! let tb = Tablebase::solve_in_memory(rules, 16)?;
//! // South's hole 1 ends in a casa in hole 4: 4 seeds and another turn.
//! let pos = Position::from_notation(rules, "3,0,0,3/1,1,1,7 s 4-12")?;
//! let puzzle = certify(&tb, &pos)?.expect("a puzzle");
//! assert_eq!(puzzle.tokens[0], "1");
//! assert!(puzzle.themes.contains(&Theme::Casa));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod certify;
pub mod generate;
pub mod rating;
pub mod record;
pub mod theme;

pub use certify::{certify, step, Outlook, Puzzle, Step, CLEAR_MARGIN, MAX_SOLVER_MOVES};
pub use generate::{generate, Figures, Plan, PlanError};
pub use record::{read_set, PuzzleRecord, RecordError};
pub use theme::Theme;
