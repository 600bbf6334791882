//! The rules options, in one table: [`RULES_OPTIONS`].
//!
//! Every front end reads its rules options from here — the record tags
//! ([`record`](crate::record)), the command line's flags, the UGI options,
//! the Python keywords, the JSON of the server and of the WebAssembly module,
//! and the web app's new-game form. For each option the table gives its name
//! (snake case, as in JSON and Python; the flag is the name with `-`, the
//! record tag and UGI option the name in camel case), its kind and values,
//! its limits and its meaning with the RULES.md section. Defaults are those
//! of [`RulesSpec::default`].
//!
//! Parsing by name goes through [`RulesSpec::set`], and every front end gives
//! the same error for an unknown option or a bad value:
//!
//! ```
//! use hoyito_core::{RulesSpec, DirectionRule};
//! let mut spec = RulesSpec::default();
//! spec.set("direction", "per_move")?;
//! spec.set("CaptureSide", "opponent")?; // a record tag or UGI name is the same option
//! assert_eq!(spec.direction, DirectionRule::PerMove);
//! assert_eq!(
//!     spec.set("colour", "red").unwrap_err().to_string(),
//!     "unknown rules option \"colour\": expected one of variant, holes, seeds, \
//!      skip_origin, direction, two_hole_opening, repetition, capture_side"
//! );
//! assert_eq!(
//!     spec.set("direction", "x").unwrap_err().to_string(),
//!     "bad value \"x\" for direction: expected fixed, per_player or per_move"
//! );
//! # Ok::<(), hoyito_core::RulesOptionError>(())
//! ```

use core::fmt;

use thiserror::Error;

use crate::echo::echo;
pub use crate::rules::MAX_SEEDS_PER_HOLE;
use crate::rules::{
    CaptureSide, DirectionRule, Repetition, RulesError, RulesSpec, Variant, MAX_HOLES, MIN_HOLES,
};

/// A rules option set by name ([`RulesSpec::set`](crate::RulesSpec::set)):
/// every front end (records, command line, UGI, Python, JSON) shows these
/// texts.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RulesOptionError {
    /// No option has this name.
    #[error("unknown rules option {name:?}: expected one of {}", option_names())]
    Unknown {
        /// The name as given ([`echo`]ed).
        name: String,
    },
    /// The option does not take this value.
    #[error("bad value {value:?} for {option}: expected {expected}")]
    BadValue {
        /// The option's name (`capture_side`).
        option: &'static str,
        /// The value as given ([`echo`]ed).
        value: String,
        /// What it takes: `any or opponent`, `a whole number from 4 to 12`.
        expected: String,
    },
    /// The options together are not valid rules (too many seeds for the board).
    #[error(transparent)]
    Rules(#[from] RulesError),
}

/// Which rules option a [`RulesOption`] is: one per field of [`RulesSpec`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum OptionId {
    /// [`RulesSpec::variant`].
    Variant,
    /// [`RulesSpec::holes`].
    Holes,
    /// [`RulesSpec::seeds`].
    Seeds,
    /// [`RulesSpec::skip_origin`].
    SkipOrigin,
    /// [`RulesSpec::direction`].
    Direction,
    /// [`RulesSpec::two_hole_opening`].
    TwoHoleOpening,
    /// [`RulesSpec::repetition`].
    Repetition,
    /// [`RulesSpec::capture_side`].
    CaptureSide,
}

/// The kind of value an option takes, with its values or limits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OptionKind {
    /// One of the names listed (each parsed by its type's `FromStr`, which
    /// also takes the aliases: any case, `-` for `_`, `2` or `Hoyito II`
    /// for `II`).
    Choice(&'static [&'static str]),
    /// A whole number from `min` to `max`.
    Number {
        /// Smallest value.
        min: u32,
        /// Largest value.
        max: u32,
    },
    /// `true` or `false` (as text also `yes`/`no`, `1`/`0`, any case).
    Flag,
}

/// One value of an option, as [`RulesSpec::get`] gives it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OptionValue {
    /// The name of a choice (`"per_player"`).
    Choice(&'static str),
    /// A number.
    Number(u32),
    /// A flag.
    Flag(bool),
}

impl fmt::Display for OptionValue {
    /// The canonical spelling: the choice's name, the number, `true`/`false`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionValue::Choice(s) => f.write_str(s),
            OptionValue::Number(n) => write!(f, "{n}"),
            OptionValue::Flag(b) => write!(f, "{b}"),
        }
    }
}

/// One rules option: its names, values, limits and meaning.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RulesOption {
    /// Which option.
    pub id: OptionId,
    /// The name in JSON, Python and RULES.md (`capture_side`); the
    /// command-line flag is [`flag`](Self::flag) (`--capture-side`).
    pub name: &'static str,
    /// The record tag and UGI option name (`CaptureSide`).
    pub tag: &'static str,
    /// Its values or limits.
    pub kind: OptionKind,
    /// The RULES.md section that defines it (`§6.4`).
    pub section: &'static str,
    /// One line: what it does.
    pub meaning: &'static str,
}

/// The rules options, in the order of [`RulesSpec`]'s fields (and of the
/// record tags, the UGI option list, the command line's `--help`).
pub const RULES_OPTIONS: [RulesOption; 8] = [
    RulesOption {
        id: OptionId::Variant,
        name: "variant",
        tag: "Variant",
        kind: OptionKind::Choice(Variant::NAMES),
        section: "§3",
        meaning: "the capture rule: casas anywhere (I), the final seed with a backward chain (II) or the final seed only (III)",
    },
    RulesOption {
        id: OptionId::Holes,
        name: "holes",
        tag: "Holes",
        kind: OptionKind::Number {
            min: MIN_HOLES as u32,
            max: MAX_HOLES as u32,
        },
        section: "§1",
        meaning: "holes per row",
    },
    RulesOption {
        id: OptionId::Seeds,
        name: "seeds",
        tag: "Seeds",
        kind: OptionKind::Number {
            min: 1,
            max: MAX_SEEDS_PER_HOLE,
        },
        section: "§1",
        meaning: "seeds per hole at the start, at most 240 on the board",
    },
    RulesOption {
        id: OptionId::SkipOrigin,
        name: "skip_origin",
        tag: "SkipOrigin",
        kind: OptionKind::Flag,
        section: "§2",
        meaning: "skip the emptied starting hole of each lap",
    },
    RulesOption {
        id: OptionId::Direction,
        name: "direction",
        tag: "Direction",
        kind: OptionKind::Choice(DirectionRule::NAMES),
        section: "§6.1",
        meaning: "who chooses the sowing direction: nobody (fixed), each player once (per_player) or every move (per_move)",
    },
    RulesOption {
        id: OptionId::TwoHoleOpening,
        name: "two_hole_opening",
        tag: "TwoHoleOpening",
        kind: OptionKind::Flag,
        section: "§6.2",
        meaning: "the first move of a game sows two holes (2+5)",
    },
    RulesOption {
        id: OptionId::Repetition,
        name: "repetition",
        tag: "Repetition",
        kind: OptionKind::Choice(Repetition::NAMES),
        section: "§4",
        meaning: "how the seeds left in play are shared after a repetition: evenly (even) or each their own row (own_row)",
    },
    RulesOption {
        id: OptionId::CaptureSide,
        name: "capture_side",
        tag: "CaptureSide",
        kind: OptionKind::Choice(CaptureSide::NAMES),
        section: "§6.4",
        meaning: "which casas are captured: in either row (any) or only in the opponent's (opponent)",
    },
];

/// `a, b or c`.
fn or_list(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => (*one).to_string(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// The names of every option, `variant, holes, …, capture_side`.
pub fn option_names() -> String {
    RULES_OPTIONS.map(|o| o.name).join(", ")
}

/// A name compared loosely: any case, without `_` and `-`.
fn loose(name: &str) -> impl Iterator<Item = char> + '_ {
    name.trim()
        .chars()
        .filter(|c| !matches!(c, '_' | '-'))
        .map(|c| c.to_ascii_lowercase())
}

impl RulesOption {
    /// The option of exactly this name (`capture_side`), as JSON and
    /// Python name it.
    pub fn named(name: &str) -> Option<&'static RulesOption> {
        RULES_OPTIONS.iter().find(|o| o.name == name)
    }

    /// The option of this record tag (`CaptureSide`), exactly.
    pub fn tagged(tag: &str) -> Option<&'static RulesOption> {
        RULES_OPTIONS.iter().find(|o| o.tag == tag)
    }

    /// The option of this name in any front end's spelling: any case, with
    /// or without `_` and `-` (`capture_side`, `capture-side`,
    /// `CaptureSide`, `captureside`).
    pub fn find(name: &str) -> Option<&'static RulesOption> {
        RULES_OPTIONS.iter().find(|o| loose(o.name).eq(loose(name)))
    }

    /// The option of `id`.
    pub fn of(id: OptionId) -> &'static RulesOption {
        RULES_OPTIONS
            .iter()
            .find(|o| o.id == id)
            .expect("every option is in the table")
    }

    /// The error for an unknown option name.
    pub fn unknown(name: &str) -> RulesOptionError {
        RulesOptionError::Unknown { name: echo(name) }
    }

    /// The command-line flag, `--capture-side`.
    pub fn flag(&self) -> String {
        format!("--{}", self.name.replace('_', "-"))
    }

    /// The default value ([`RulesSpec::default`]).
    pub fn default_value(&self) -> OptionValue {
        RulesSpec::default().get(self.id)
    }

    /// What a value must be: `fixed, per_player or per_move`, `a whole
    /// number from 4 to 12`, `true or false`.
    pub fn expected(&self) -> String {
        match self.kind {
            OptionKind::Choice(values) => or_list(values),
            OptionKind::Number { min, max } => format!("a whole number from {min} to {max}"),
            OptionKind::Flag => "true or false".to_string(),
        }
    }

    /// The error for a value this option does not take.
    pub fn bad_value(&self, value: impl fmt::Display) -> RulesOptionError {
        RulesOptionError::BadValue {
            option: self.name,
            value: echo(&value.to_string()),
            expected: self.expected(),
        }
    }

    /// A line of help: the meaning and the RULES.md section, e.g. `Holes
    /// per row (RULES.md §1)`.
    pub fn help(&self) -> String {
        format!("{} (RULES.md {})", capitalised(self.meaning), self.section)
    }
}

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(first) => first.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// A flag's value from text: `true`/`false`, `yes`/`no`, `1`/`0`, any case.
fn parse_flag(value: &str) -> Option<bool> {
    match value.trim().to_ascii_lowercase().as_str() {
        "true" | "yes" | "1" => Some(true),
        "false" | "no" | "0" => Some(false),
        _ => None,
    }
}

impl RulesSpec {
    /// Sets the option `name` (any front end's spelling, see
    /// [`RulesOption::find`]) from text. The rules are not validated as a
    /// whole (seeds against the board's size): [`Rules::try_from`] does
    /// that.
    ///
    /// # Errors
    /// [`RulesOptionError::Unknown`] for a name that is no option,
    /// [`RulesOptionError::BadValue`] for a value it does not take.
    ///
    /// [`Rules::try_from`]: crate::Rules
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), RulesOptionError> {
        let option = RulesOption::find(name).ok_or_else(|| RulesOption::unknown(name))?;
        self.set_option(option.id, value)
    }

    /// Sets option `id` from text.
    ///
    /// # Errors
    /// [`RulesOptionError::BadValue`] for a value it does not take.
    pub fn set_option(&mut self, id: OptionId, value: &str) -> Result<(), RulesOptionError> {
        let option = RulesOption::of(id);
        let bad = || option.bad_value(value);
        let choice = |e: RulesError| match e {
            RulesError::UnknownValue { .. } => bad(),
            other => RulesOptionError::Rules(other),
        };
        let number = || -> Result<u8, RulesOptionError> {
            let OptionKind::Number { min, max } = option.kind else {
                unreachable!("a number option")
            };
            value
                .trim()
                .parse::<u32>()
                .ok()
                .filter(|n| (min..=max).contains(n))
                .and_then(|n| u8::try_from(n).ok())
                .ok_or_else(bad)
        };
        let flag = || parse_flag(value).ok_or_else(bad);
        match id {
            OptionId::Variant => self.variant = value.parse().map_err(choice)?,
            OptionId::Holes => self.holes = number()?,
            OptionId::Seeds => self.seeds = number()?,
            OptionId::SkipOrigin => self.skip_origin = flag()?,
            OptionId::Direction => self.direction = value.parse().map_err(choice)?,
            OptionId::TwoHoleOpening => self.two_hole_opening = flag()?,
            OptionId::Repetition => self.repetition = value.parse().map_err(choice)?,
            OptionId::CaptureSide => self.capture_side = value.parse().map_err(choice)?,
        }
        Ok(())
    }

    /// Sets option `id` from a typed value: a choice from its name (or an
    /// alias), a number, a flag. A value of the wrong kind is a bad value.
    ///
    /// # Errors
    /// [`RulesOptionError::BadValue`] for a value it does not take.
    pub fn set_value(&mut self, id: OptionId, value: OptionValue) -> Result<(), RulesOptionError> {
        let option = RulesOption::of(id);
        match (option.kind, value) {
            (OptionKind::Choice(_), OptionValue::Choice(s)) => self.set_option(id, s),
            (OptionKind::Number { .. }, OptionValue::Number(n)) => self.set_option(id, &n.to_string()),
            (OptionKind::Flag, OptionValue::Flag(b)) => self.set_option(id, if b { "true" } else { "false" }),
            (_, other) => Err(option.bad_value(format_args!("{other}"))),
        }
    }

    /// Sets a number option without checking its limits (a spec may hold
    /// any count; [`Rules::try_from`](crate::Rules) checks them).
    fn set_count(&mut self, id: OptionId, n: u8) {
        match id {
            OptionId::Holes => self.holes = n,
            OptionId::Seeds => self.seeds = n,
            _ => unreachable!("not a number option"),
        }
    }

    /// The value of option `id`.
    pub fn get(&self, id: OptionId) -> OptionValue {
        match id {
            OptionId::Variant => OptionValue::Choice(self.variant.name()),
            OptionId::Holes => OptionValue::Number(self.holes.into()),
            OptionId::Seeds => OptionValue::Number(self.seeds.into()),
            OptionId::SkipOrigin => OptionValue::Flag(self.skip_origin),
            OptionId::Direction => OptionValue::Choice(self.direction.name()),
            OptionId::TwoHoleOpening => OptionValue::Flag(self.two_hole_opening),
            OptionId::Repetition => OptionValue::Choice(self.repetition.name()),
            OptionId::CaptureSide => OptionValue::Choice(self.capture_side.name()),
        }
    }

    /// Every option with its value, in table order.
    pub fn values(&self) -> impl Iterator<Item = (&'static RulesOption, OptionValue)> + '_ {
        RULES_OPTIONS.iter().map(|o| (o, self.get(o.id)))
    }
}

#[cfg(feature = "serde")]
mod serde_impls;

#[cfg(test)]
mod tests;
