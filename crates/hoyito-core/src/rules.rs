//! The [`Rules`] value: variant, board size and every option of RULES.md §6.

use core::fmt;
use core::str::FromStr;

use thiserror::Error;

use crate::echo::echo;

/// Largest number of holes per row (RULES.md §1).
pub const MAX_HOLES: usize = 12;
/// Smallest number of holes per row (RULES.md §1).
pub const MIN_HOLES: usize = 4;
/// Number of holes on the largest board, `2 × MAX_HOLES`.
pub const MAX_BOARD: usize = 2 * MAX_HOLES;
/// Largest number of seeds the whole board may hold (counts are `u8`).
pub const MAX_TOTAL_SEEDS: u32 = 240;
/// Largest seeds per hole of any board: [`MAX_TOTAL_SEEDS`] on the
/// smallest board. On larger boards the total is the limit (checked when
/// the rules are validated).
pub const MAX_SEEDS_PER_HOLE: u32 = MAX_TOTAL_SEEDS / (2 * MIN_HOLES as u32);

/// An invalid rule set or option value.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RulesError {
    /// Holes per row outside 4..=12 (the text of
    /// [`RulesOptionError::BadValue`](crate::RulesOptionError::BadValue)).
    #[error("bad value \"{0}\" for holes: expected a whole number from 4 to 12")]
    Holes(u32),
    /// Seeds per hole outside 1..=30 (the text of
    /// [`RulesOptionError::BadValue`](crate::RulesOptionError::BadValue)), or too many seeds for the board.
    #[error("{}", seeds_message(*seeds, *holes))]
    Seeds {
        /// Seeds per hole asked for.
        seeds: u32,
        /// Holes per row.
        holes: u32,
    },
    /// A name that is not one of the known values (the text of
    /// [`RulesOptionError::BadValue`](crate::RulesOptionError::BadValue)).
    #[error("bad value {value:?} for {what}: expected {expected}")]
    UnknownValue {
        /// What was being parsed.
        what: &'static str,
        /// The input ([`echo`]ed).
        value: String,
        /// The accepted values.
        expected: &'static str,
    },
}

fn seeds_message(seeds: u32, holes: u32) -> String {
    let max = MAX_SEEDS_PER_HOLE;
    if seeds == 0 || seeds > max {
        format!("bad value \"{seeds}\" for seeds: expected a whole number from 1 to {max}")
    } else {
        format!(
            "{seeds} seeds per hole on 2x{holes} is not allowed: expected 1 or more, at most {} seeds on the board",
            MAX_TOTAL_SEEDS
        )
    }
}

/// The three Hoyito variants (RULES.md §3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Variant {
    /// Casas anywhere during the sowing are captured at once; no extra turn.
    #[cfg_attr(feature = "serde", serde(rename = "I"))]
    I,
    /// Final seed captures with a backward chain; extra turn.
    #[cfg_attr(feature = "serde", serde(rename = "II"))]
    II,
    /// Final seed captures the landing hole only; extra turn; round-dependent last four.
    #[cfg_attr(feature = "serde", serde(rename = "III"))]
    III,
}

impl Variant {
    /// All variants, in order.
    pub const ALL: [Variant; 3] = [Variant::I, Variant::II, Variant::III];
    /// Their names, in order.
    pub const NAMES: &'static [&'static str] = &["I", "II", "III"];

    /// The name used in every interface: `"I"`, `"II"` or `"III"`.
    pub const fn name(self) -> &'static str {
        match self {
            Variant::I => "I",
            Variant::II => "II",
            Variant::III => "III",
        }
    }

    /// Whether a capture gives the mover another turn (Hoyito II and III).
    pub const fn extra_turn(self) -> bool {
        !matches!(self, Variant::I)
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Variant {
    type Err = RulesError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim();
        let t = t
            .strip_prefix("Hoyito")
            .or_else(|| t.strip_prefix("hoyito"))
            .unwrap_or(t)
            .trim();
        match t {
            "I" | "i" | "1" => Ok(Variant::I),
            "II" | "ii" | "2" => Ok(Variant::II),
            "III" | "iii" | "3" => Ok(Variant::III),
            _ => Err(RulesError::UnknownValue {
                what: "variant",
                value: echo(s),
                expected: "I, II or III",
            }),
        }
    }
}

/// Sowing direction of one move (RULES.md §1, §6.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Direction {
    /// Counter-clockwise, `i → i+1`, the default; suffix `L`.
    #[default]
    #[cfg_attr(feature = "serde", serde(rename = "L"))]
    Ccw,
    /// Clockwise, `i → i−1`; suffix `R`.
    #[cfg_attr(feature = "serde", serde(rename = "R"))]
    Cw,
}

impl Direction {
    /// A player's direction choice as a 2-bit code, for hashing and packed
    /// keys: `0` no choice yet, `1` counter-clockwise, `2` clockwise.
    pub const fn choice_code(choice: Option<Direction>) -> u8 {
        match choice {
            None => 0,
            Some(Direction::Ccw) => 1,
            Some(Direction::Cw) => 2,
        }
    }
    /// The move-token suffix: `'L'` or `'R'`.
    pub const fn suffix(self) -> char {
        match self {
            Direction::Ccw => 'L',
            Direction::Cw => 'R',
        }
    }
    /// The other direction.
    pub const fn reverse(self) -> Direction {
        match self {
            Direction::Ccw => Direction::Cw,
            Direction::Cw => Direction::Ccw,
        }
    }
}

/// Who chooses the sowing direction (RULES.md §6.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum DirectionRule {
    /// Always counter-clockwise.
    #[default]
    Fixed,
    /// Each player picks a direction on their first move and keeps it for the game and match.
    PerPlayer,
    /// The direction is chosen at every move, extra turns included.
    PerMove,
}

/// How the seeds left in play are shared when a game ends by repetition
/// or because neither player can move (RULES.md §4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Repetition {
    /// Divided equally (the Awari computer rule), the default.
    #[default]
    Even,
    /// Each player takes the seeds in their own row.
    OwnRow,
}

/// Which casas may be captured (RULES.md §6.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum CaptureSide {
    /// Casas in either row, as the sources say (default).
    #[default]
    Any,
    /// Only casas in the opponent's row.
    Opponent,
}

/// `name()`, [`Display`](fmt::Display) and [`FromStr`] of a rules option:
/// the names are those of RULES.md (snake case); parsing ignores case and
/// surrounding spaces and takes `-` for `_` (`per-player`, `OWN_ROW`).
macro_rules! option_names {
    ($ty:ident { $($var:ident => $name:literal),* $(,)? } $what:literal, $expected:literal) => {
        impl $ty {
            /// Every value, in order.
            pub const ALL: &'static [$ty] = &[$($ty::$var),*];
            /// Their names, in order.
            pub const NAMES: &'static [&'static str] = &[$($name),*];
            /// The value's name in records and options (snake case).
            pub const fn name(self) -> &'static str {
                match self { $($ty::$var => $name),* }
            }
        }
        impl fmt::Display for $ty {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.name())
            }
        }
        impl FromStr for $ty {
            type Err = RulesError;
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                let norm = s.trim().to_ascii_lowercase().replace('-', "_");
                match norm.as_str() {
                    $($name => Ok($ty::$var),)*
                    _ => Err(RulesError::UnknownValue {
                        what: $what,
                        value: echo(s),
                        expected: $expected,
                    }),
                }
            }
        }
    };
}

option_names!(
    DirectionRule { Fixed => "fixed", PerPlayer => "per_player", PerMove => "per_move" }
    "direction", "fixed, per_player or per_move"
);
option_names!(Repetition { Even => "even", OwnRow => "own_row" } "repetition", "even or own_row");
option_names!(CaptureSide { Any => "any", Opponent => "opponent" } "capture_side", "any or opponent");

/// The complete rule set: variant, board size, seeds and every option.
///
/// One `Rules` value drives sowing, captures, move generation, notation,
/// records, the engine and the tablebases.
///
/// # Examples
///
/// ```
/// use hoyito_core::{Rules, Variant};
/// let rules = Rules::new(Variant::II, 6)?;
/// assert_eq!(rules.total_seeds(), 48);
/// # Ok::<(), hoyito_core::RulesError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "RulesSpec", into = "RulesSpec"))]
pub struct Rules {
    variant: Variant,
    holes: u8,
    seeds: u8,
    skip_origin: bool,
    direction: DirectionRule,
    two_hole_opening: bool,
    repetition: Repetition,
    capture_side: CaptureSide,
}

/// The unvalidated form of [`Rules`], with public fields, as a user types it.
///
/// Its options are described once, in [`RULES_OPTIONS`](crate::options::RULES_OPTIONS);
/// [`RulesSpec::set`] sets one by name. It deserialises through that table
/// (missing options take their defaults, unknown ones are refused: see
/// [`options`](crate::options)).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct RulesSpec {
    /// The variant.
    pub variant: Variant,
    /// Holes per row, 4 to 12.
    pub holes: u8,
    /// Seeds per hole at the start (standard 4).
    pub seeds: u8,
    /// Skip the emptied starting hole of each lap.
    pub skip_origin: bool,
    /// Who chooses the sowing direction.
    pub direction: DirectionRule,
    /// The first move of a game uses two holes.
    pub two_hole_opening: bool,
    /// How an endless game is shared.
    pub repetition: Repetition,
    /// Which casas are captured.
    pub capture_side: CaptureSide,
}

impl Default for RulesSpec {
    fn default() -> Self {
        RulesSpec {
            variant: Variant::I,
            holes: 6,
            seeds: 4,
            skip_origin: false,
            direction: DirectionRule::Fixed,
            two_hole_opening: false,
            repetition: Repetition::Even,
            capture_side: CaptureSide::Any,
        }
    }
}

impl TryFrom<RulesSpec> for Rules {
    type Error = RulesError;
    fn try_from(s: RulesSpec) -> Result<Self, Self::Error> {
        if !(MIN_HOLES..=MAX_HOLES).contains(&(s.holes as usize)) {
            return Err(RulesError::Holes(s.holes as u32));
        }
        let total = 2 * s.holes as u32 * s.seeds as u32;
        if s.seeds == 0 || total > MAX_TOTAL_SEEDS {
            return Err(RulesError::Seeds {
                seeds: s.seeds as u32,
                holes: s.holes as u32,
            });
        }
        Ok(Rules {
            variant: s.variant,
            holes: s.holes,
            seeds: s.seeds,
            skip_origin: s.skip_origin,
            direction: s.direction,
            two_hole_opening: s.two_hole_opening,
            repetition: s.repetition,
            capture_side: s.capture_side,
        })
    }
}

impl From<Rules> for RulesSpec {
    fn from(r: Rules) -> Self {
        RulesSpec {
            variant: r.variant,
            holes: r.holes,
            seeds: r.seeds,
            skip_origin: r.skip_origin,
            direction: r.direction,
            two_hole_opening: r.two_hole_opening,
            repetition: r.repetition,
            capture_side: r.capture_side,
        }
    }
}

impl Default for Rules {
    fn default() -> Self {
        Rules::try_from(RulesSpec::default()).expect("default rules are valid")
    }
}

impl Rules {
    /// Standard rules of `variant` on a board of `holes` holes per row
    /// (4 seeds each, every option at its default).
    ///
    /// # Errors
    /// [`RulesError::Holes`] if `holes` is not in `4..=12`.
    pub fn new(variant: Variant, holes: usize) -> Result<Rules, RulesError> {
        let holes = u8::try_from(holes).map_err(|_| RulesError::Holes(u32::MAX))?;
        Rules::try_from(RulesSpec {
            variant,
            holes,
            ..RulesSpec::default()
        })
    }

    /// Standard 2×6 rules of `variant`.
    pub fn standard(variant: Variant) -> Rules {
        Rules::new(variant, 6).expect("2x6 is valid")
    }

    /// The unvalidated form, to change a field and validate again.
    pub fn spec(self) -> RulesSpec {
        self.into()
    }

    /// The variant.
    pub const fn variant(&self) -> Variant {
        self.variant
    }
    /// Holes per row, `n`.
    pub const fn holes(&self) -> usize {
        self.holes as usize
    }
    /// Holes on the board, `2n`.
    pub const fn board_len(&self) -> usize {
        2 * self.holes as usize
    }
    /// Seeds per hole at the start of a single game, and per refilled hole in a match.
    pub const fn seeds(&self) -> u8 {
        self.seeds
    }
    /// Seeds on the board at the start of a single game.
    pub const fn total_seeds(&self) -> u32 {
        2 * self.holes as u32 * self.seeds as u32
    }
    /// Option `skip_origin`.
    pub const fn skip_origin(&self) -> bool {
        self.skip_origin
    }
    /// Option `direction`.
    pub const fn direction(&self) -> DirectionRule {
        self.direction
    }
    /// Option two-hole opening.
    pub const fn two_hole_opening(&self) -> bool {
        self.two_hole_opening
    }
    /// Option `repetition`.
    pub const fn repetition(&self) -> Repetition {
        self.repetition
    }
    /// Option `capture_side`.
    pub const fn capture_side(&self) -> CaptureSide {
        self.capture_side
    }
}

impl fmt::Display for Rules {
    /// A compact description, e.g. `Hoyito II 2x6 (per_move, two-hole opening)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Hoyito {} 2x{}", self.variant, self.holes)?;
        let mut opts: Vec<String> = Vec::new();
        if self.seeds != 4 {
            opts.push(format!("{} seeds", self.seeds));
        }
        if self.skip_origin {
            opts.push("skip_origin".into());
        }
        if self.direction != DirectionRule::Fixed {
            opts.push(format!("direction {}", self.direction));
        }
        if self.two_hole_opening {
            opts.push("two-hole opening".into());
        }
        if self.repetition != Repetition::Even {
            opts.push(format!("repetition {}", self.repetition));
        }
        if self.capture_side != CaptureSide::Any {
            opts.push(format!("capture side {}", self.capture_side));
        }
        if !opts.is_empty() {
            write!(f, " ({})", opts.join(", "))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validation() {
        assert!(Rules::new(Variant::I, 3).is_err());
        assert!(Rules::new(Variant::I, 13).is_err());
        for n in 4..=12 {
            assert_eq!(Rules::new(Variant::III, n).unwrap().total_seeds(), 8 * n as u32);
        }
        let spec = RulesSpec {
            holes: 12,
            seeds: 11,
            ..RulesSpec::default()
        };
        assert!(Rules::try_from(spec).is_err());
        let spec = RulesSpec {
            seeds: 0,
            ..RulesSpec::default()
        };
        assert!(Rules::try_from(spec).is_err());
    }

    #[test]
    fn names_parse() {
        for v in Variant::ALL {
            assert_eq!(v.name().parse::<Variant>().unwrap(), v);
        }
        assert_eq!("Hoyito II".parse::<Variant>().unwrap(), Variant::II);
        assert_eq!(
            "per-player".parse::<DirectionRule>().unwrap(),
            DirectionRule::PerPlayer
        );
        assert_eq!("own_row".parse::<Repetition>().unwrap(), Repetition::OwnRow);
        assert!("sideways".parse::<CaptureSide>().is_err());
    }

    /// Every spelling the interfaces accept (the command line's options,
    /// UGI's `setoption`), and the names written back.
    #[test]
    fn option_spellings() {
        fn all<T: FromStr<Err = RulesError> + PartialEq + fmt::Debug>(spellings: &[&str], want: T) {
            for s in spellings {
                assert_eq!(s.parse::<T>().as_ref(), Ok(&want), "{s:?}");
            }
        }
        all(&["I", "i", "1", " Hoyito I", "hoyito I"], Variant::I);
        all(&["II", "ii", "2", "Hoyito II"], Variant::II);
        all(&["III", "iii", "3", "Hoyito III"], Variant::III);
        all(&["fixed", "Fixed"], DirectionRule::Fixed);
        all(
            &["per_player", "per-player", "Per-Player"],
            DirectionRule::PerPlayer,
        );
        all(&["per_move", "per-move", "PER_MOVE"], DirectionRule::PerMove);
        all(&["even", "EVEN"], Repetition::Even);
        all(&["own_row", "own-row", " own_row "], Repetition::OwnRow);
        all(&["any", "Any"], CaptureSide::Any);
        all(&["opponent", "OPPONENT"], CaptureSide::Opponent);
        let names: Vec<String> = Variant::ALL
            .iter()
            .map(ToString::to_string)
            .chain(DirectionRule::ALL.iter().map(ToString::to_string))
            .chain(Repetition::ALL.iter().map(ToString::to_string))
            .chain(CaptureSide::ALL.iter().map(ToString::to_string))
            .collect();
        assert_eq!(
            names,
            [
                "I",
                "II",
                "III",
                "fixed",
                "per_player",
                "per_move",
                "even",
                "own_row",
                "any",
                "opponent"
            ]
        );
    }

    /// A bad value names the option and lists the values allowed.
    #[test]
    fn option_errors() {
        let message = |e: RulesError| e.to_string();
        assert_eq!(
            message("IV".parse::<Variant>().unwrap_err()),
            "bad value \"IV\" for variant: expected I, II or III"
        );
        assert_eq!(
            message("per player".parse::<DirectionRule>().unwrap_err()),
            "bad value \"per player\" for direction: expected fixed, per_player or per_move"
        );
        assert_eq!(
            message("odd".parse::<Repetition>().unwrap_err()),
            "bad value \"odd\" for repetition: expected even or own_row"
        );
        assert_eq!(
            "mine".parse::<CaptureSide>(),
            Err(RulesError::UnknownValue {
                what: "capture_side",
                value: "mine".into(),
                expected: "any or opponent"
            })
        );
        assert!("".parse::<Variant>().is_err());
        assert!("perplayer".parse::<DirectionRule>().is_err());
    }
}
