//! # hoyito-core
//!
//! The rules of Hoyito (El Hoyito, Casitas, Mate), the Dominican family of
//! two-row mancala games, exactly as `RULES.md` states them: Hoyito I, II and
//! III on 2×4 to 2×12 boards with every recorded option, relay sowing, casas,
//! captures, chains, extra turns, passes, the last four, repetition, and
//! match play with refills, closed holes and reserves.
//!
//! ```
//! use hoyito_core::{Game, Rules, Variant};
//!
//! let mut game = Game::new(Rules::standard(Variant::II));
//! for token in ["3", "4", "1"] {
//!     game.play_token(token)?;
//! }
//! let pos = game.position();
//! println!("{}", pos.to_notation());
//! for m in pos.legal_moves() {
//!     println!("legal: {}", pos.move_token(m));
//! }
//! # Ok::<(), hoyito_core::TokenError>(())
//! ```
//!
//! One [`Rules`] value (variant + options) drives everything. [`Position`]
//! is a `Copy` value; [`Position::play`] checks legality and settles
//! automatic passes, [`Position::play_unchecked`] is the allocation-free hot
//! path for search. [`Game`] adds the move list and the repetition rule,
//! [`Match`] chains games into rounds, and [`Contest`] is either. Notation lives in [`notation`] and
//! records in [`record`]. [`Contest::play_traced`] (and its [`Game`] and
//! [`Match`] equivalents) plays a move token once and returns a
//! [`TracedMove`]: its [`Trace`] of sowing events, captures, extra turn,
//! pass, round and match end, canonical token; [`RoundSummary`] sums up a
//! round. The front ends show these.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod contest;
mod echo;
pub mod error;
pub mod game;
pub mod matchplay;
pub mod moves;
pub mod notation;
pub mod options;
pub mod perft;
pub mod playout;
pub mod position;
pub mod record;
pub mod round;
pub mod rules;
pub mod side;
pub mod state;
pub mod trace;

pub use contest::Contest;
pub use error::{
    MoveError, MoveParseError, MoveParseReason, OpeningError, PlayError, PositionError, RecordError,
    RulesError, RulesOptionError, TokenError,
};
pub use game::{concession_token, parse_concession, Game};
pub use matchplay::Match;
pub use moves::{Move, MoveList, SingleMoves, MAX_MOVES, MAX_SINGLE_MOVES};
pub use options::{OptionId, OptionKind, OptionValue, RulesOption, RULES_OPTIONS};
pub use position::{
    EndReason, GameResult, LastFour, MatchOutcome, Outcome, Played, Position, RepetitionKey,
    RepetitionTracker, Setup, SowObserver,
};
pub use record::Record;
pub use round::RoundSummary;
pub use rules::{CaptureSide, Direction, DirectionRule, Repetition, Rules, RulesSpec, Variant};
pub use side::{ByPlayer, Side};
pub use state::State;
pub use trace::{Capture, CaptureKind, Event, Trace, TracedMove, MAX_TRACE_EVENTS};

/// The README's library example, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
struct ReadmeExample;
