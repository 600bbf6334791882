//! `hoyito puzzles generate|check`: puzzle sets certified by the tablebases
//! (`hoyito-puzzle`).

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{bail, Context};
use hoyito_core::{Game, Record, Rules};
use hoyito_puzzle::generate::{generate, Figures, Plan};
use hoyito_puzzle::{certify, read_set, PuzzleRecord};
use hoyito_server::{stored_games, Store};
use hoyito_tablebase::Tablebase;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::common::{read_file, write_file_atomic, RulesArgs};

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    action: Action,
}

#[derive(clap::Subcommand)]
enum Action {
    /// Generate puzzles from seeded self-play games (and records given),
    /// each proved by the tables, into a file of one JSON object a line.
    Generate(GenerateArgs),
    /// Check a puzzle file: every line reads and every solution is proved again by the tables.
    Check(CheckArgs),
}

#[derive(clap::Args)]
struct GenerateArgs {
    /// Variant and board (the other rules options must keep their defaults).
    #[command(flatten)]
    rules: RulesArgs,
    /// Seed of the self-play games: the same seed and options write the same file, byte for byte.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Puzzles wanted (fewer if --max-games games do not give them).
    #[arg(long, default_value_t = 100)]
    count: usize,
    /// The output file (written whole at the end, never half-written).
    #[arg(long)]
    out: PathBuf,
    /// Levels of the self-play games, LOW-HIGH within 1-9: each side of each game is drawn from them.
    #[arg(long, default_value = "3-6")]
    levels: String,
    /// Most puzzles taken from one game.
    #[arg(long, default_value_t = 2)]
    per_game: usize,
    /// Most self-play games.
    #[arg(long, default_value_t = 100_000)]
    max_games: u32,
    /// Most seeds in play in a puzzle (default: the whole board on 2×4, 16 otherwise).
    #[arg(long)]
    max_seeds: Option<u32>,
    /// Probe the tables built in DIR (`hoyito tablebase build`) instead of
    /// solving them in memory; they must reach --max-seeds.
    #[arg(long, value_name = "DIR")]
    tablebases: Option<PathBuf>,
    /// Game records (`hoyito selfplay --records`, `hoyito replay --record`
    /// format) whose positions are examined before the self-play games.
    #[arg(long, value_name = "FILE")]
    records: Vec<PathBuf>,
    /// A database of `hoyito serve` (an SQLite file, or a PostgreSQL URL)
    /// whose games over on these rules are examined before the self-play
    /// games (after --records). The SQLite file must not be in use by a
    /// running server.
    #[arg(long, value_name = "DB")]
    db: Option<PathBuf>,
    /// Most games read from --db, oldest first.
    #[arg(long, default_value_t = 100_000, value_name = "N")]
    db_games: usize,
    /// No progress display.
    #[arg(long)]
    quiet: bool,
}

#[derive(clap::Args)]
struct CheckArgs {
    /// The puzzle files.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Probe the tables built in DIR instead of solving them in memory.
    #[arg(long, value_name = "DIR")]
    tablebases: Option<PathBuf>,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    match args.action {
        Action::Generate(a) => run_generate(a),
        Action::Check(a) => run_check(a),
    }
}

/// `LOW-HIGH` (or one level).
fn parse_levels(text: &str) -> anyhow::Result<(u8, u8)> {
    let bad = || format!("--levels {text:?}: expected LOW-HIGH within 1-9, e.g. 3-6");
    let (lo, hi) = text.split_once('-').unwrap_or((text, text));
    let lo: u8 = lo.trim().parse().with_context(bad)?;
    let hi: u8 = hi.trim().parse().with_context(bad)?;
    if !(1 <= lo && lo <= hi && hi <= 9) {
        bail!(bad());
    }
    Ok((lo, hi))
}

/// The games over on `rules` stored in the database `db`, at most `max`.
fn db_games(db: &Path, rules: &Rules, max: usize, quiet: bool) -> anyhow::Result<Vec<Game>> {
    // An SQLite file is opened as the server opens it, which would make a
    // missing one: a path that names nothing is a mistake here.
    let url = db.to_str().is_some_and(hoyito_server::store::is_postgres_url);
    if !url && !db.is_file() {
        bail!("--db {}: no such database file", db.display());
    }
    let store = Store::open(db).with_context(|| format!("cannot open the database {}", db.display()))?;
    let found = stored_games(&store, rules, max)?;
    if !quiet {
        eprintln!(
            "{}: {} games over read, {} of {rules} taken{}",
            db.display(),
            found.read,
            found.games.len(),
            if found.unreadable > 0 {
                format!(
                    ", {} left out (steps this version cannot replay)",
                    found.unreadable
                )
            } else {
                String::new()
            }
        );
    }
    Ok(found.games)
}

/// The tables of `rules` up to `max_seeds`: opened from `dir`, or solved in memory.
fn tables(rules: Rules, max_seeds: u32, dir: Option<&PathBuf>, quiet: bool) -> anyhow::Result<Tablebase> {
    let began = Instant::now();
    let tb = match dir {
        Some(dir) => Tablebase::open(rules, dir)
            .with_context(|| format!("cannot use the tablebases in {}", dir.display()))?,
        None => {
            if !quiet {
                eprintln!("{rules}: solving the tables up to {max_seeds} seeds in memory…");
            }
            Tablebase::solve_in_memory(rules, max_seeds.next_multiple_of(4))
                .with_context(|| format!("cannot solve the tables of {rules}"))?
        }
    };
    if !quiet {
        eprintln!(
            "{rules}: tables of layers {:?} ready in {:.1} s",
            tb.layers(),
            began.elapsed().as_secs_f64()
        );
    }
    Ok(tb)
}

fn run_generate(args: GenerateArgs) -> anyhow::Result<ExitCode> {
    let rules = args.rules.rules()?;
    if rules != Rules::new(rules.variant(), rules.holes())? {
        bail!("puzzles take --variant and --holes only: the other rules options must keep their defaults");
    }
    let levels = parse_levels(&args.levels)?;
    let whole = (rules.board_len() * rules.seeds() as usize) as u32;
    let max_seeds = args
        .max_seeds
        .unwrap_or(if rules.holes() <= 4 { whole } else { 16 })
        .min(whole);
    if max_seeds < 4 {
        bail!("--max-seeds {max_seeds}: expected 4 or more (the smallest table holds 4 seeds in play)");
    }
    let mut extra = Vec::new();
    for path in &args.records {
        let record =
            Record::read(&read_file(path)?).with_context(|| format!("cannot read {}", path.display()))?;
        if record.rules() != &rules {
            bail!(
                "{}: a record of {}, not of {rules}",
                path.display(),
                record.rules()
            );
        }
        extra.extend(record.games().iter().cloned());
    }
    if let Some(db) = &args.db {
        extra.extend(db_games(db, &rules, args.db_games, args.quiet)?);
    }
    let began = Instant::now();
    let tb = tables(rules, max_seeds, args.tablebases.as_ref(), args.quiet)?;
    let tables_time = began.elapsed();
    let plan = Plan {
        rules,
        seed: args.seed,
        count: args.count,
        levels,
        per_game: args.per_game,
        max_games: args.max_games,
        max_seeds,
    };
    let bar = ProgressBar::new(args.count as u64);
    let terminal = !args.quiet && std::io::stderr().is_terminal();
    if terminal {
        bar.set_draw_target(ProgressDrawTarget::stderr());
        bar.set_style(
            ProgressStyle::with_template(
                "{bar:40} {pos}/{len} puzzles  {msg}  {elapsed_precise} (eta {eta})",
            )
            .expect("a valid template"),
        );
    } else {
        bar.set_draw_target(ProgressDrawTarget::hidden());
    }
    // Without a terminal (a log file), a plain line every 10 % of the count.
    let mut logged = 0;
    let (records, figures) = generate(&tb, &plan, &extra, |f: &Figures| {
        bar.set_position(f.accepted as u64);
        bar.set_message(format!("{} games, {} candidates", f.games, f.candidates));
        if !args.quiet && !terminal && f.accepted * 10 >= (logged + 1) * args.count.max(1) {
            logged = f.accepted * 10 / args.count.max(1);
            eprintln!(
                "{} puzzles of {}, {} games, {} candidates, {:.0} s",
                f.accepted,
                args.count,
                f.games,
                f.candidates,
                f.time.as_secs_f64()
            );
        }
    })?;
    bar.finish_and_clear();
    let mut text = String::new();
    for r in &records {
        text.push_str(&r.to_line());
        text.push('\n');
    }
    write_file_atomic(&args.out, text.as_bytes())?;
    print_figures(rules, &figures, tables_time.as_secs_f64())?;
    outln!("wrote {} puzzles to {}", records.len(), args.out.display())?;
    Ok(if records.len() < args.count {
        eprintln!(
            "hoyito: {} puzzles of the {} wanted in {} games (--max-games)",
            records.len(),
            args.count,
            figures.games
        );
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn print_figures(rules: Rules, f: &Figures, tables_secs: f64) -> std::io::Result<()> {
    outln!(
        "{rules}: {} games, {} candidates, {} certified, {} accepted ({:.2} % of the candidates)",
        f.games,
        f.candidates,
        f.certified,
        f.accepted,
        f.share()
    )?;
    let lengths: Vec<String> = f
        .lengths
        .iter()
        .enumerate()
        .map(|(i, n)| format!("{}: {n}", i + 1))
        .collect();
    outln!("solver moves: {}", lengths.join(", "))?;
    let themes: Vec<String> = f.themes.iter().map(|(t, n)| format!("{t} {n}")).collect();
    outln!("themes: {}", themes.join(", "))?;
    outln!(
        "time: tables {tables_secs:.1} s, games and certification {:.1} s",
        f.time.as_secs_f64()
    )
}

fn run_check(args: CheckArgs) -> anyhow::Result<ExitCode> {
    let mut bad = 0usize;
    for path in &args.files {
        let set = read_set(&read_file(path)?).with_context(|| format!("{}", path.display()))?;
        // One table per rule set, up to the most seeds its puzzles need.
        let mut groups: Vec<(Rules, Vec<&PuzzleRecord>)> = Vec::new();
        for r in &set {
            let rules = r.rules().map_err(anyhow::Error::msg)?;
            match groups.iter_mut().find(|(g, _)| *g == rules) {
                Some((_, v)) => v.push(r),
                None => groups.push((rules, vec![r])),
            }
        }
        for (rules, records) in groups {
            let need = records
                .iter()
                .map(|r| r.to_position().map(|p| p.in_play() as u32))
                .collect::<Result<Vec<_>, _>>()
                .map_err(anyhow::Error::msg)?
                .into_iter()
                .max()
                .unwrap_or(4);
            let tb = tables(rules, need, args.tablebases.as_ref(), false)?;
            for r in records {
                let pos = r.to_position().map_err(anyhow::Error::msg)?;
                let again = certify(&tb, &pos)?.map(|p| PuzzleRecord::new(r.id.clone(), &p));
                if again.as_ref() != Some(r) {
                    bad += 1;
                    outln!(
                        "{}: {} is not certified again: {}",
                        path.display(),
                        r.id,
                        again.map_or("not a puzzle".to_string(), |a| a.to_line())
                    )?;
                }
            }
        }
        outln!("{}: {} puzzles", path.display(), set.len())?;
    }
    Ok(if bad == 0 {
        outln!("all puzzles certified again")?;
        ExitCode::SUCCESS
    } else {
        outln!("{bad} puzzles FAILED")?;
        ExitCode::from(1)
    })
}
