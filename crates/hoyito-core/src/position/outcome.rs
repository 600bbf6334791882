//! How a game ends: the last four, the end reasons, the outcome.

use crate::side::Side;

/// Who receives the last four seeds (RULES.md §4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum LastFour {
    /// The captor of the penultimate casa (Hoyito I, II; III in rounds 1–2 and single games).
    #[default]
    Captor,
    /// A fixed player: in Hoyito III from round 3, the winner of the previous round.
    To(Side),
}

/// Why a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum EndReason {
    /// A capture left exactly 4 seeds, which were awarded (RULES.md §4).
    LastFour,
    /// A capture left no seed in play.
    Exhausted,
    /// A position occurred for the third time; the seeds were shared.
    Repetition,
    /// Neither player had a legal move; the seeds were shared.
    NoMoves,
}

impl EndReason {
    /// Snake-case name.
    pub const fn name(self) -> &'static str {
        match self {
            EndReason::LastFour => "last_four",
            EndReason::Exhausted => "exhausted",
            EndReason::Repetition => "repetition",
            EndReason::NoMoves => "no_moves",
        }
    }
}

/// The result of a finished game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// The winner, or `None` for a draw.
    pub winner: Option<Side>,
    /// Why the game ended.
    pub reason: EndReason,
}
