//! Arguments shared by subcommands: the rules.

use std::ffi::OsStr;
use std::str::FromStr;

use anyhow::Context;
use clap::builder::{PossibleValue, TypedValueParser};
use hoyito_core::{CaptureSide, DirectionRule, Repetition, Rules, RulesError, RulesSpec, Side, Variant};

/// A rules option of the core (variant, direction, …), parsed on the
/// command line by its own [`FromStr`], with its names listed in `--help`.
pub trait RuleOption: FromStr<Err = RulesError> + Clone + Send + Sync + 'static {
    /// Every value, in order.
    fn all() -> &'static [Self];
    /// The value's name, as `--help` lists it.
    fn name(&self) -> &'static str;
}

macro_rules! rule_option {
    ($($ty:ty),*) => {$(
        impl RuleOption for $ty {
            fn all() -> &'static [Self] {
                &<$ty>::ALL
            }
            fn name(&self) -> &'static str {
                <$ty>::name(*self)
            }
        }
    )*};
}

rule_option!(Variant, DirectionRule, Repetition, CaptureSide);

/// The clap value parser of a [`RuleOption`]: the core's parsing (and its
/// aliases: `i` or `1` for `I`, `per-player` for `per_player`, …) and the
/// core's error message, which lists the values allowed.
#[derive(Clone, Copy, Debug)]
pub struct RuleParser<T>(std::marker::PhantomData<T>);

impl<T> RuleParser<T> {
    pub const fn new() -> RuleParser<T> {
        RuleParser(std::marker::PhantomData)
    }
}

impl<T: RuleOption> TypedValueParser for RuleParser<T> {
    type Value = T;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<T, clap::Error> {
        let text = value.to_string_lossy();
        text.parse().map_err(|e: RulesError| {
            let arg = arg.map_or_else(|| "the value".to_string(), |a| format!("'{a}'"));
            clap::Error::raw(
                clap::error::ErrorKind::InvalidValue,
                format!("invalid value '{text}' for {arg}: {e}\n"),
            )
            .with_cmd(cmd)
        })
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(T::all().iter().map(|v| PossibleValue::new(v.name()))))
    }
}

/// The rules options, as on every subcommand that needs rules.
#[derive(clap::Args, Clone, Debug)]
pub struct RulesArgs {
    /// Variant: I, II or III.
    #[arg(long, default_value = "I", value_parser = RuleParser::<Variant>::new())]
    pub variant: Variant,
    /// Holes per row, 4 to 12.
    #[arg(long, default_value_t = 6)]
    pub holes: u8,
    /// Seeds per hole at the start.
    #[arg(long, default_value_t = 4)]
    pub seeds: u8,
    /// Skip the emptied starting hole of each lap.
    #[arg(long)]
    pub skip_origin: bool,
    /// Who chooses the sowing direction.
    #[arg(long, default_value = "fixed", value_parser = RuleParser::<DirectionRule>::new())]
    pub direction: DirectionRule,
    /// The first move of a game uses two holes (e.g. 2+5).
    #[arg(long)]
    pub two_hole_opening: bool,
    /// How the seeds are shared when a game ends by repetition.
    #[arg(long, default_value = "even", value_parser = RuleParser::<Repetition>::new())]
    pub repetition: Repetition,
    /// Which casas may be captured.
    #[arg(long, default_value = "any", value_parser = RuleParser::<CaptureSide>::new())]
    pub capture_side: CaptureSide,
}

impl RulesArgs {
    /// The validated rules.
    pub fn rules(&self) -> anyhow::Result<Rules> {
        let spec = RulesSpec {
            variant: self.variant,
            holes: self.holes,
            seeds: self.seeds,
            skip_origin: self.skip_origin,
            direction: self.direction,
            two_hole_opening: self.two_hole_opening,
            repetition: self.repetition,
            capture_side: self.capture_side,
        };
        Rules::try_from(spec).context("invalid rules")
    }
}

/// Reads a file whole, with the path in the error.
pub fn read_file(path: &std::path::Path) -> anyhow::Result<String> {
    std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))
}

/// Writes a file atomically ([`hoyito_tablebase::file::write_atomic`]): an
/// interrupted write never leaves a half-written file, nor a temporary one.
pub fn write_file_atomic(path: &std::path::Path, contents: &[u8]) -> anyhow::Result<()> {
    use std::io::Write;
    hoyito_tablebase::file::write_atomic(path, |f| f.write_all(contents))
        .with_context(|| format!("cannot write {}", path.display()))
}

/// A readable board: North's row on top (hole n at the left, as South sees
/// it), South's row below, hole numbers outside, closed holes as `--`.
pub fn board_text(pos: &hoyito_core::Position) -> String {
    use std::fmt::Write;
    let n = pos.rules().holes();
    let cell = |i: usize| {
        if pos.is_closed(i) {
            " --".to_string()
        } else {
            format!("{:>3}", pos.seeds(i))
        }
    };
    let mut s = String::new();
    let north: Vec<usize> = (n..2 * n).rev().collect();
    let _ = write!(s, "  North ");
    for &i in &north {
        let _ = write!(s, "{:>4}", i - n + 1);
    }
    s.push('\n');
    let _ = write!(s, "        ");
    for &i in &north {
        let _ = write!(s, " {}", cell(i));
    }
    s.push('\n');
    let _ = write!(s, "        ");
    for i in 0..n {
        let _ = write!(s, " {}", cell(i));
    }
    s.push('\n');
    let _ = write!(s, "  South ");
    for i in 0..n {
        let _ = write!(s, "{:>4}", i + 1);
    }
    s.push('\n');
    let c = pos.captured();
    let r = pos.reserve();
    let _ = write!(s, "  captured: South {}, North {}", c.south, c.north);
    if r.south + r.north > 0 {
        let _ = write!(s, "   reserve: South {}, North {}", r.south, r.north);
    }
    if pos.round() > 1 {
        let _ = write!(s, "   round {}", pos.round());
    }
    match pos.outcome() {
        Some(o) => {
            let w = match o.winner {
                Some(side) => format!("{} wins", side_name(side)),
                None => "draw".into(),
            };
            let _ = write!(s, "   game over ({}): {w}", o.reason.name().replace('_', " "));
        }
        None => {
            let _ = write!(s, "   to move: {}", side_name(pos.to_move()));
        }
    }
    s.push('\n');
    s
}

pub use hoyito_engine::ugi::legal_tokens;

/// `--tablebases DIR`: endgame tablebases for perfect play.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct TablebaseArgs {
    /// Directory of endgame tablebases built by `hoyito tablebase build`; the
    /// engine plays perfectly wherever they cover the position. Default:
    /// ./tablebases, if it exists and holds tables for these rules.
    #[arg(long, value_name = "DIR")]
    pub tablebases: Option<std::path::PathBuf>,
}

impl TablebaseArgs {
    /// Loads the tablebases of `rules` into `engine`. Returns the layers
    /// loaded (seed counts), or `None` when the default directory has none.
    ///
    /// # Errors
    /// Only when `--tablebases` was given and cannot be used.
    pub fn attach(
        &self,
        engine: &mut hoyito_engine::Engine,
        rules: Rules,
    ) -> anyhow::Result<Option<Vec<u32>>> {
        match &self.tablebases {
            Some(dir) => engine
                .load_tablebases(rules, dir)
                .map(Some)
                .with_context(|| format!("cannot use the tablebases in {}", dir.display())),
            None => {
                let dir = std::path::Path::new("tablebases");
                Ok(if dir.is_dir() {
                    engine.load_tablebases(rules, dir).ok()
                } else {
                    None
                })
            }
        }
    }
}

/// `South` / `North`.
pub fn side_name(side: Side) -> &'static str {
    match side {
        Side::South => "South",
        Side::North => "North",
    }
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        rules: RulesArgs,
    }

    fn parse(args: &[&str]) -> Result<RulesArgs, String> {
        Cli::try_parse_from(std::iter::once("hoyito").chain(args.iter().copied()))
            .map(|c| c.rules)
            .map_err(|e| e.to_string())
    }

    /// The options take the core's spellings and aliases, with the core's defaults.
    #[test]
    fn rules_options_parse_with_the_core_names() {
        let r = parse(&[]).unwrap();
        assert_eq!(r.rules().unwrap(), Rules::standard(Variant::I));
        let r = parse(&[
            "--variant=2",
            "--direction",
            "per-player",
            "--repetition",
            "own_row",
            "--capture-side",
            "opponent",
        ])
        .unwrap();
        assert_eq!(
            (r.variant, r.direction, r.repetition, r.capture_side),
            (
                Variant::II,
                DirectionRule::PerPlayer,
                Repetition::OwnRow,
                CaptureSide::Opponent
            )
        );
        assert_eq!(
            parse(&["--direction", "per_move"]).unwrap().direction,
            DirectionRule::PerMove
        );
    }

    /// A bad value names the option and lists the values allowed.
    #[test]
    fn bad_rules_values_list_the_allowed_ones() {
        let e = parse(&["--repetition", "odd"]).unwrap_err();
        assert!(
            e.starts_with(
                "error: invalid value 'odd' for '--repetition <REPETITION>': \
                 unknown repetition \"odd\": expected even or own_row"
            ),
            "{e}"
        );
        let e = parse(&["--variant", "IV"]).unwrap_err();
        assert!(e.contains("expected I, II or III"), "{e}");
    }
}
