//! Arguments shared by subcommands: the rules.

use std::ffi::OsStr;
use std::sync::OnceLock;

use anyhow::Context;
use clap::builder::{PossibleValue, TypedValueParser};
use clap::parser::ValueSource;
use clap::{Arg, ArgAction, ArgMatches};
use hoyito_core::{OptionKind, Rules, RulesOption, RulesSpec, Side, RULES_OPTIONS};

/// The clap value parser of a rules option: the core's parsing
/// ([`RulesSpec::set_option`], with its aliases: `i` or `1` for `I`,
/// `per-player` for `per_player`, `yes` for `true`, …) and the core's error
/// text, which lists the values allowed. The value is kept as given and
/// read again by [`RulesArgs`].
#[derive(Clone, Copy, Debug)]
pub struct OptionParser(&'static RulesOption);

impl TypedValueParser for OptionParser {
    type Value = String;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        _arg: Option<&Arg>,
        value: &OsStr,
    ) -> Result<String, clap::Error> {
        let text = value.to_string_lossy().into_owned();
        RulesSpec::default().set_option(self.0.id, &text).map_err(|e| {
            clap::Error::raw(clap::error::ErrorKind::InvalidValue, format!("{e}\n")).with_cmd(cmd)
        })?;
        Ok(text)
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        match self.0.kind {
            OptionKind::Choice(values) => Some(Box::new(values.iter().map(|v| PossibleValue::new(*v)))),
            _ => None,
        }
    }
}

/// The long flags (`capture-side`), value names (`CAPTURE_SIDE`) and
/// defaults of the options, made once: clap keeps `&'static str`.
fn flag_names() -> &'static [(&'static str, &'static str, &'static str)] {
    static NAMES: OnceLock<Vec<(&'static str, &'static str, &'static str)>> = OnceLock::new();
    NAMES.get_or_init(|| {
        RULES_OPTIONS
            .iter()
            .map(|o| {
                let long: &'static str = o.flag().trim_start_matches('-').to_string().leak();
                let value: &'static str = o.name.to_ascii_uppercase().leak();
                let default: &'static str = o.default_value().to_string().leak();
                (long, value, default)
            })
            .collect()
    })
}

/// The rules options, as on every subcommand that needs rules: one flag per
/// entry of the core's [`RULES_OPTIONS`], with its help, values and default
/// from there (`--variant II`, `--holes 8`, `--skip-origin`, `--direction
/// per_player`, …). A flag option also takes a value after `=`
/// (`--skip-origin=no`).
#[derive(Clone, Debug, Default)]
pub struct RulesArgs {
    /// The options as given (unvalidated).
    pub spec: RulesSpec,
    /// The names of the options given on the command line (the others
    /// have their defaults).
    pub given: Vec<&'static str>,
}

impl clap::Args for RulesArgs {
    fn augment_args(mut cmd: clap::Command) -> clap::Command {
        for (o, (long, value_name, default)) in RULES_OPTIONS.iter().zip(flag_names()) {
            let mut arg = Arg::new(o.name)
                .long(*long)
                .value_parser(OptionParser(o))
                .help(o.help());
            arg = match o.kind {
                OptionKind::Flag => arg
                    .num_args(0..=1)
                    .require_equals(true)
                    .default_missing_value("true")
                    .value_name("BOOL")
                    .action(ArgAction::Set),
                OptionKind::Number { min, max } => arg
                    .value_name(*value_name)
                    .help(format!("{} [{min} to {max}]", o.help()))
                    .default_value(*default),
                OptionKind::Choice(_) => arg.value_name(*value_name).default_value(*default),
            };
            cmd = cmd.arg(arg);
        }
        cmd
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        Self::augment_args(cmd)
    }
}

impl clap::FromArgMatches for RulesArgs {
    fn from_arg_matches(m: &ArgMatches) -> Result<Self, clap::Error> {
        let mut args = RulesArgs::default();
        args.update_from_arg_matches(m)?;
        Ok(args)
    }

    fn update_from_arg_matches(&mut self, m: &ArgMatches) -> Result<(), clap::Error> {
        for o in &RULES_OPTIONS {
            if let Some(v) = m.get_one::<String>(o.name) {
                self.spec
                    .set_option(o.id, v)
                    .map_err(|e| clap::Error::raw(clap::error::ErrorKind::InvalidValue, format!("{e}\n")))?;
            }
            if m.value_source(o.name) == Some(ValueSource::CommandLine) && !self.given.contains(&o.name) {
                self.given.push(o.name);
            }
        }
        Ok(())
    }
}

impl RulesArgs {
    /// Whether the option `name` (a name of [`RULES_OPTIONS`]: `variant`,
    /// `holes`, …) was given on the command line.
    pub fn is_given(&self, name: &str) -> bool {
        self.given.contains(&name)
    }

    /// The validated rules.
    pub fn rules(&self) -> anyhow::Result<Rules> {
        Rules::try_from(self.spec).context("invalid rules")
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
    use hoyito_core::{CaptureSide, DirectionRule, Repetition, Variant};

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

    /// The options given on the command line are told from the defaulted ones.
    #[test]
    fn rules_options_given_are_known() {
        let r = parse(&[]).unwrap();
        assert!(r.given.is_empty());
        let r = parse(&["--variant=2", "--skip-origin", "--holes", "8"]).unwrap();
        assert!(r.is_given("variant") && r.is_given("skip_origin") && r.is_given("holes"));
        assert!(!r.is_given("seeds") && !r.is_given("direction"));
        // Given with its default value is still given.
        assert!(parse(&["--variant", "I"]).unwrap().is_given("variant"));
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
            "--skip-origin",
            "--two-hole-opening=yes",
            "--holes",
            "8",
        ])
        .unwrap();
        assert_eq!(
            r.spec,
            RulesSpec {
                variant: Variant::II,
                holes: 8,
                skip_origin: true,
                direction: DirectionRule::PerPlayer,
                two_hole_opening: true,
                repetition: Repetition::OwnRow,
                capture_side: CaptureSide::Opponent,
                ..RulesSpec::default()
            }
        );
        assert_eq!(
            parse(&["--direction", "per_move"]).unwrap().spec.direction,
            DirectionRule::PerMove
        );
        assert!(!parse(&["--skip-origin=no"]).unwrap().spec.skip_origin);
    }

    /// One flag per entry of the core's table, its help from there.
    #[test]
    fn the_flags_are_the_core_table() {
        let cmd = <Cli as clap::CommandFactory>::command();
        let longs: Vec<String> = cmd
            .get_arguments()
            .filter_map(|a| a.get_long().map(|l| format!("--{l}")))
            .collect();
        let flags: Vec<String> = RULES_OPTIONS.iter().map(|o| o.flag()).collect();
        assert_eq!(longs, flags);
        for a in cmd.get_arguments() {
            let o = RulesOption::named(a.get_id().as_str()).unwrap();
            assert!(a.get_help().unwrap().to_string().starts_with(&o.help()));
        }
    }

    /// A bad value gets the core's text, which lists the values allowed.
    #[test]
    fn bad_rules_values_list_the_allowed_ones() {
        let e = parse(&["--repetition", "odd"]).unwrap_err();
        assert!(
            e.starts_with("error: bad value \"odd\" for repetition: expected even or own_row"),
            "{e}"
        );
        let e = parse(&["--variant", "IV"]).unwrap_err();
        assert!(
            e.starts_with("error: bad value \"IV\" for variant: expected I, II or III"),
            "{e}"
        );
        let e = parse(&["--holes", "13"]).unwrap_err();
        assert!(
            e.starts_with("error: bad value \"13\" for holes: expected a whole number from 4 to 12"),
            "{e}"
        );
        let e = parse(&["--skip-origin=maybe"]).unwrap_err();
        assert!(
            e.starts_with("error: bad value \"maybe\" for skip_origin: expected true or false"),
            "{e}"
        );
    }
}
