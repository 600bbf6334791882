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
    /// A player conceded: the seeds in play went to the other player.
    Conceded,
}

impl EndReason {
    /// Snake-case name.
    pub const fn name(self) -> &'static str {
        match self {
            EndReason::LastFour => "last_four",
            EndReason::Exhausted => "exhausted",
            EndReason::Repetition => "repetition",
            EndReason::NoMoves => "no_moves",
            EndReason::Conceded => "conceded",
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

impl Outcome {
    /// The result: a win for one side, or a draw.
    pub const fn result(&self) -> GameResult {
        GameResult::from_winner(self.winner)
    }
}

/// The result of a finished game, round or match: a win for one side or a
/// draw. Written `south`, `north` or `draw` in records, JSON and the UGI.
///
/// # Examples
///
/// ```
/// use hoyito_core::{GameResult, Side};
/// assert_eq!(GameResult::Win(Side::North).to_string(), "north");
/// assert_eq!("draw".parse::<GameResult>(), Ok(GameResult::Draw));
/// assert_eq!(GameResult::from_winner(Some(Side::South)).winner(), Some(Side::South));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// That side won.
    Win(Side),
    /// Neither side won.
    Draw,
}

impl GameResult {
    /// Every result, in the order `south`, `north`, `draw`.
    pub const ALL: [GameResult; 3] = [
        GameResult::Win(Side::South),
        GameResult::Win(Side::North),
        GameResult::Draw,
    ];

    /// The result with this winner (`None`: a draw).
    pub const fn from_winner(winner: Option<Side>) -> GameResult {
        match winner {
            Some(side) => GameResult::Win(side),
            None => GameResult::Draw,
        }
    }

    /// The winner, or `None` for a draw.
    pub const fn winner(self) -> Option<Side> {
        match self {
            GameResult::Win(side) => Some(side),
            GameResult::Draw => None,
        }
    }

    /// `south`, `north` or `draw`.
    pub const fn name(self) -> &'static str {
        match self {
            GameResult::Win(side) => side.name(),
            GameResult::Draw => "draw",
        }
    }
}

impl core::fmt::Display for GameResult {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

impl core::str::FromStr for GameResult {
    type Err = crate::rules::RulesError;

    /// Reads `south`, `north` or `draw` (any case).
    fn from_str(s: &str) -> Result<GameResult, Self::Err> {
        GameResult::ALL
            .into_iter()
            .find(|r| r.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| crate::rules::RulesError::UnknownValue {
                what: "result",
                value: crate::echo::echo(s),
                expected: "south, north or draw",
            })
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for GameResult {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for GameResult {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<GameResult, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// The result of a finished match.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MatchOutcome {
    /// The winner; `None` only if both players ended short (possible only with tiny seed counts).
    pub winner: Option<Side>,
    /// The round in which it ended.
    pub rounds: u32,
}

impl MatchOutcome {
    /// The result: a win for one side, or a draw.
    pub const fn result(&self) -> GameResult {
        GameResult::from_winner(self.winner)
    }
}
