//! Typed errors of the rules library. Every error says what was wrong and
//! what was expected.

use thiserror::Error;

pub use crate::echo::{echo, ECHO_CHARS};
pub use crate::options::RulesOptionError;
pub use crate::rules::RulesError;

/// Why a move cannot be played in a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum PlayError {
    /// The game (a single game, or a position played on its own) is over.
    #[error("the game is over")]
    GameOver,
    /// The match's current round is over and the match goes on: the next
    /// round starts first.
    #[error("round {round} is over; start the next round")]
    RoundOver {
        /// The round that is over, from 1.
        round: u32,
    },
    /// The match is over.
    #[error("the match is over")]
    MatchOver,
    /// The hole is not one of the mover's holes on this board.
    #[error("hole {hole} is not one of the mover's open holes")]
    NotOwnHole {
        /// Hole index.
        hole: usize,
    },
    /// The hole is closed for this round.
    #[error("hole {hole} is closed")]
    Closed {
        /// Hole index.
        hole: usize,
    },
    /// The hole is empty.
    #[error("hole {hole} is empty")]
    Empty {
        /// Hole index.
        hole: usize,
    },
    /// The direction is not allowed by the `direction` option or by the player's earlier choice.
    #[error("that sowing direction is not allowed here")]
    Direction,
    /// The two-hole opening rule (RULES.md §6.2) refuses the move.
    #[error(transparent)]
    Opening(#[from] OpeningError),
    /// The relay sowing would never end (RULES.md §2): the move is illegal.
    #[error("the sowing would never end (endless sowing)")]
    Endless,
}

/// Why the two-hole opening rule (RULES.md §6.2) refuses a move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum OpeningError {
    /// The first move of the game must sow two holes.
    #[error("the first move of this game must use two holes, like 2+5")]
    PairRequired,
    /// A two-hole move outside the opening.
    #[error("a two-hole move is only allowed as the opening move")]
    PairNotAllowed,
    /// Both holes of the pair are the same.
    #[error("the two holes of the opening must differ")]
    SameHole,
    /// The first sowing emptied the second hole.
    #[error("the second hole of the opening is empty after the first sowing")]
    SecondHoleEmpty,
}

/// What is wrong with a move token.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum MoveParseReason {
    /// Nothing but spaces.
    #[error("empty token")]
    Empty,
    /// A character that is no digit, `+`, `L` or `R` where it stands.
    #[error("{0:?} cannot stand there")]
    Unexpected(char),
    /// No hole number where one must be (`L`, `+5`, `2+`).
    #[error("a hole number is missing")]
    Missing,
    /// A hole number of more than two digits.
    #[error("a hole number has 1 or 2 digits")]
    TooLong,
    /// A hole number that is 0 or larger than the holes per row.
    #[error("hole number out of range")]
    OutOfRange,
}

/// A move token that could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("bad move token {token:?}: {reason}; expected a hole number 1..{holes} with an optional L/R suffix, or a two-hole opening like 2+5")]
pub struct MoveParseError {
    /// The token as given ([`echo`]ed).
    pub token: String,
    /// What was wrong.
    pub reason: MoveParseReason,
    /// Holes per row.
    pub holes: usize,
}

/// A position that could not be built or read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PositionError {
    /// The board has the wrong number of holes.
    #[error("the board has {got} holes: expected {expected} (2 rows of {holes})", expected = 2 * holes)]
    BoardLength {
        /// Holes given.
        got: usize,
        /// Holes per row of the rules.
        holes: usize,
    },
    /// A closed hole holds seeds or is out of range.
    #[error("closed hole {0} is invalid: closed holes must be on the board and empty")]
    Closed(usize),
    /// More seeds than a board can hold.
    #[error("{0} seeds in all is too many: at most 240")]
    TooManySeeds(u32),
    /// A round number outside `1..=65535`.
    #[error("round {0} is invalid: expected a round from 1 to 65535")]
    Round(u32),
    /// The two-hole opening is marked pending, but the rules have none.
    #[error("opening is set but the rules have no two-hole opening")]
    OpeningWithoutRule,
    /// Direction choices are set, but the rules' direction is not `per_player`.
    #[error("direction choices (dir=) are set but the rules' direction is {0}, not per_player")]
    ChosenWithoutRule(crate::rules::DirectionRule),
    /// The position text could not be read.
    #[error("bad position notation {text:?}: {reason}")]
    Notation {
        /// The input.
        text: String,
        /// What was wrong and what was expected.
        reason: String,
    },
}

/// A game record that could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("record line {line}: {reason}")]
pub struct RecordError {
    /// 1-based line number.
    pub line: usize,
    /// What was wrong and what was expected.
    pub reason: String,
}

/// A move token that could not be played: unreadable or illegal.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TokenError {
    /// The token is not a move token.
    #[error(transparent)]
    Parse(#[from] MoveParseError),
    /// The move is not legal here.
    #[error("{token} is illegal: {error}")]
    Illegal {
        /// The token as given.
        token: String,
        /// Why.
        error: PlayError,
    },
}

/// Why a move token cannot be played in a game, a match or a contest, or a
/// prepared move cannot be committed ([`TracedMove`](crate::TracedMove)).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// The token is not a move token.
    #[error(transparent)]
    Parse(#[from] MoveParseError),
    /// The move is not legal in this position.
    #[error("{token} is illegal: {error}")]
    Illegal {
        /// The token as given (trimmed).
        token: String,
        /// Why.
        error: PlayError,
    },
    /// The game (a single game, or a position played on its own) is over.
    #[error("{token} cannot be played: the game is over")]
    GameOver {
        /// The token as given (trimmed).
        token: String,
    },
    /// The match's current round is over and the match goes on.
    #[error("{token} cannot be played: round {round} is over; start the next round")]
    RoundOver {
        /// The token as given (trimmed).
        token: String,
        /// The round that is over, from 1.
        round: u32,
    },
    /// The match is over.
    #[error("{token} cannot be played: the match is over")]
    MatchOver {
        /// The token as given (trimmed).
        token: String,
    },
    /// A prepared move committed to a game whose position is not the one
    /// it was prepared in.
    #[error("{token} was prepared in another position: expected a move prepared in the current one")]
    Stale {
        /// The move's token.
        token: String,
    },
}
