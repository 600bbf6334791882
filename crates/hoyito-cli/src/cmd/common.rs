//! Arguments shared by subcommands: the rules.

use anyhow::Context;
use clap::ValueEnum;
use hoyito_core::{CaptureSide, DirectionRule, Repetition, Rules, RulesSpec, Variant};

/// `--variant` values (Roman numerals, as the variants are named).
#[allow(clippy::upper_case_acronyms)]
#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum VariantArg {
    #[value(name = "I", alias = "i", alias = "1")]
    I,
    #[value(name = "II", alias = "ii", alias = "2")]
    II,
    #[value(name = "III", alias = "iii", alias = "3")]
    III,
}

impl From<VariantArg> for Variant {
    fn from(v: VariantArg) -> Variant {
        match v {
            VariantArg::I => Variant::I,
            VariantArg::II => Variant::II,
            VariantArg::III => Variant::III,
        }
    }
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum DirectionArg {
    Fixed,
    #[value(alias = "per_player")]
    PerPlayer,
    #[value(alias = "per_move")]
    PerMove,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum RepetitionArg {
    Even,
    #[value(alias = "own_row")]
    OwnRow,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum CaptureSideArg {
    Any,
    Opponent,
}

/// The rules options, as on every subcommand that needs rules.
#[derive(clap::Args, Clone, Debug)]
pub struct RulesArgs {
    /// Variant: I, II or III.
    #[arg(long, value_enum, default_value = "I")]
    pub variant: VariantArg,
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
    #[arg(long, value_enum, default_value = "fixed")]
    pub direction: DirectionArg,
    /// The first move of a game uses two holes (e.g. 2+5).
    #[arg(long)]
    pub two_hole_opening: bool,
    /// How the seeds are shared when a game ends by repetition.
    #[arg(long, value_enum, default_value = "even")]
    pub repetition: RepetitionArg,
    /// Which casas may be captured.
    #[arg(long, value_enum, default_value = "any")]
    pub capture_side: CaptureSideArg,
}

impl RulesArgs {
    /// The validated rules.
    pub fn rules(&self) -> anyhow::Result<Rules> {
        let spec = RulesSpec {
            variant: self.variant.into(),
            holes: self.holes,
            seeds: self.seeds,
            skip_origin: self.skip_origin,
            direction: match self.direction {
                DirectionArg::Fixed => DirectionRule::Fixed,
                DirectionArg::PerPlayer => DirectionRule::PerPlayer,
                DirectionArg::PerMove => DirectionRule::PerMove,
            },
            two_hole_opening: self.two_hole_opening,
            repetition: match self.repetition {
                RepetitionArg::Even => Repetition::Even,
                RepetitionArg::OwnRow => Repetition::OwnRow,
            },
            capture_side: match self.capture_side {
                CaptureSideArg::Any => CaptureSide::Any,
                CaptureSideArg::Opponent => CaptureSide::Opponent,
            },
        };
        Rules::try_from(spec).context("invalid rules")
    }
}

/// Reads a file whole, with the path in the error.
pub fn read_file(path: &std::path::Path) -> anyhow::Result<String> {
    std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))
}

/// Writes a file atomically: a temporary file beside it, then a rename, so
/// an interrupted write never leaves a half-written file.
pub fn write_file_atomic(path: &std::path::Path, contents: &[u8]) -> anyhow::Result<()> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(std::path::Path::new("."));
    let name = path.file_name().context("output path has no file name")?;
    let tmp = dir.join(format!(".{}.{}.tmp", name.to_string_lossy(), std::process::id()));
    std::fs::write(&tmp, contents).with_context(|| format!("cannot write {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}

/// A readable board: North's row on top (hole n at the left, as South sees
/// it), South's row below, hole numbers outside, closed holes as `--`.
pub fn board_text(pos: &hoyito_core::Position) -> String {
    use hoyito_core::Side;
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
                Some(Side::South) => "South wins",
                Some(Side::North) => "North wins",
                None => "draw",
            };
            let _ = write!(s, "   game over ({}): {w}", o.reason.name().replace('_', " "));
        }
        None => {
            let _ = write!(
                s,
                "   to move: {}",
                if pos.to_move() == Side::South {
                    "South"
                } else {
                    "North"
                }
            );
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
