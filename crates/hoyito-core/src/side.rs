//! The two players, [`Side`], and [`ByPlayer`], a pair indexed by side.

use core::fmt;
use core::ops::{Index, IndexMut};
use core::str::FromStr;

/// A player: South moves first in the first game and owns holes `0..n`;
/// North owns `n..2n` (RULES.md §1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Side {
    /// The first player; owns holes `0..n`.
    South,
    /// The second player; owns holes `n..2n`.
    North,
}

impl Side {
    /// Both sides, South first.
    pub const ALL: [Side; 2] = [Side::South, Side::North];

    /// The opponent.
    #[inline]
    pub const fn other(self) -> Side {
        match self {
            Side::South => Side::North,
            Side::North => Side::South,
        }
    }

    /// `0` for South, `1` for North.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Lower-case name, as in the JSON state: `"south"` / `"north"`.
    pub const fn name(self) -> &'static str {
        match self {
            Side::South => "south",
            Side::North => "north",
        }
    }

    /// One-letter code used in position notation: `s` / `n`.
    pub const fn letter(self) -> char {
        match self {
            Side::South => 's',
            Side::North => 'n',
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Side {
    type Err = crate::rules::RulesError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "s" | "south" | "p1" | "1" => Ok(Side::South),
            "n" | "north" | "p2" | "2" => Ok(Side::North),
            _ => Err(crate::rules::RulesError::UnknownValue {
                what: "side",
                value: crate::echo::echo(s),
                expected: "south or north",
            }),
        }
    }
}

/// A value for each player, indexed by [`Side`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ByPlayer<T> {
    /// South's value.
    pub south: T,
    /// North's value.
    pub north: T,
}

impl<T> ByPlayer<T> {
    /// A pair from South's and North's values.
    pub const fn new(south: T, north: T) -> Self {
        ByPlayer { south, north }
    }
    /// Both values set by a function of the side.
    pub fn new_with(mut f: impl FnMut(Side) -> T) -> Self {
        ByPlayer {
            south: f(Side::South),
            north: f(Side::North),
        }
    }
    /// Maps both values.
    pub fn map<U>(self, mut f: impl FnMut(T) -> U) -> ByPlayer<U> {
        ByPlayer {
            south: f(self.south),
            north: f(self.north),
        }
    }
}

impl<T> Index<Side> for ByPlayer<T> {
    type Output = T;
    #[inline]
    fn index(&self, s: Side) -> &T {
        // An address select rather than a branch: the side to move is
        // unpredictable in playouts.
        [&self.south, &self.north][s as usize]
    }
}

impl<T> IndexMut<Side> for ByPlayer<T> {
    #[inline]
    fn index_mut(&mut self, s: Side) -> &mut T {
        let [south, north] = [&mut self.south, &mut self.north];
        if s == Side::South {
            south
        } else {
            north
        }
    }
}
