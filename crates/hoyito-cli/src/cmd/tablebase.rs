//! `hoyito tablebase build|compact|probe|verify|search`: exact endgame tablebases of single games.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context;
use hoyito_core::{CaptureSide, Move, Position, Rules, Variant};
use hoyito_tablebase::compact::{compact_tables, CompactOptions, CompactReport, DEFAULT_BLOCK_LEN};
use hoyito_tablebase::reference::{compare_layer, Reference};
use hoyito_tablebase::search::ExactSearch;
use hoyito_tablebase::{layer_seeds, BuildOptions, LayerReport, Progress, Solver, Stage, Tablebase};

use super::common::RulesArgs;

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    action: Action,
}

#[derive(clap::Subcommand)]
enum Action {
    /// Solve layers 4, 8, …, --max-seeds (reusing valid layer files) and print figures per layer.
    Build(BuildArgs),
    /// Convert one-byte layer files to compact ones (entropy-coded blocks
    /// with random access: 1.7–2.7 bits a position instead of 8), which
    /// probe, search, serve and the engine read the same way.
    Compact(CompactArgs),
    /// Print the value of a position and its best moves.
    Probe(ProbeArgs),
    /// Check built layers: Bellman consistency, and an independent solver on small layers.
    Verify(VerifyArgs),
    /// The exact value of a position above the tables (default: the start)
    /// and of each of its moves, proved by searches down into them.
    Search(SearchArgs),
}

#[derive(clap::Args)]
struct BuildArgs {
    #[command(flatten)]
    rules: RulesArgs,
    /// Largest number of seeds in play to solve (layers are multiples of 4).
    #[arg(long)]
    max_seeds: u32,
    /// Directory of the tablebases (one subdirectory per rule set).
    #[arg(long, default_value = "./tablebases")]
    dir: PathBuf,
    /// No progress bars.
    #[arg(long)]
    quiet: bool,
    /// Solver: `graph` stores each layer's move graph and predecessor lists
    /// (27–43 bytes per position), `compact` only the forward moves (about
    /// 13 bytes per position, plain sweeps), `disk` the same with the moves
    /// in a temporary file beside the tables (about 5 bytes of memory per
    /// position, 4 bytes of disk per move while a layer is solved), `lean`
    /// 2–4 bytes per position and regenerates moves on every sweep
    /// (slowest), `stream` 2.25 bytes per position with the moves
    /// generated once and read back from a work file beside the tables
    /// (about 3 bytes plus 5 per move of disk while a layer is solved); after
    /// its first sweep it saves its state at most once a minute, and a
    /// build killed or interrupted resumes the layer from there. `auto` takes graph if it
    /// fits in half the available memory, else stream.
    #[arg(long, value_enum, default_value_t = SolverArg::Auto)]
    solver: SolverArg,
    /// Then convert the layers to compact files, as `hoyito tablebase compact`.
    #[arg(long)]
    compact: bool,
}

#[derive(clap::Args)]
struct CompactArgs {
    #[command(flatten)]
    rules: RulesArgs,
    /// Directory of the tablebases. Without --variant, --holes or another
    /// rules option, every rule set found there is converted.
    #[arg(long, default_value = "./tablebases")]
    dir: PathBuf,
    /// Keep the one-byte files (by default each is removed once its compact
    /// file is written and read back equal; where both exist, the one-byte
    /// file is read).
    #[arg(long)]
    keep_bytes: bool,
    /// Positions per block: a probe outside the cache decodes one block.
    #[arg(long, default_value_t = DEFAULT_BLOCK_LEN)]
    block: u32,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum SolverArg {
    Auto,
    Graph,
    Compact,
    Disk,
    Lean,
    Stream,
}

#[derive(clap::Args)]
struct ProbeArgs {
    #[command(flatten)]
    rules: RulesArgs,
    /// Directory of the tablebases.
    #[arg(long, default_value = "./tablebases")]
    dir: PathBuf,
    /// The position, e.g. `0,2,1,1/3,0,1,0 s 10-14` (quoted or as separate words).
    #[arg(required = true, num_args = 1.., allow_hyphen_values = true)]
    position: Vec<String>,
}

#[derive(clap::Args)]
struct VerifyArgs {
    #[command(flatten)]
    rules: RulesArgs,
    /// Directory of the tablebases.
    #[arg(long, default_value = "./tablebases")]
    dir: PathBuf,
    /// Also compare every position of the layers up to this many seeds with
    /// the independent reference solver (slow: hash tables, one threshold at a time).
    #[arg(long, default_value_t = 0)]
    reference_max_seeds: u32,
    /// Bellman-check only this layer (seeds in play), e.g. a large one just built.
    #[arg(long)]
    layer: Option<u32>,
}

#[derive(clap::Args)]
struct SearchArgs {
    #[command(flatten)]
    rules: RulesArgs,
    /// Directory of the tablebases (every layer up to the largest is used).
    #[arg(long, default_value = "./tablebases")]
    dir: PathBuf,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 1024)]
    hash: usize,
    /// No progress display.
    #[arg(long)]
    quiet: bool,
    /// Only prove a bound: whether the value for the player to move is at
    /// least T (a null-window search, far cheaper than the exact value).
    #[arg(long, value_name = "T", allow_hyphen_values = true)]
    at_least: Option<i32>,
    /// The position (default: the start position).
    #[arg(num_args = 0.., allow_hyphen_values = true)]
    position: Vec<String>,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    match args.action {
        Action::Build(a) => build(a),
        Action::Compact(a) => compact(a),
        Action::Probe(a) => probe(a),
        Action::Verify(a) => verify(a),
        Action::Search(a) => search(a),
    }
}

fn search(args: SearchArgs) -> anyhow::Result<ExitCode> {
    let rules = args.rules.rules()?;
    let pos = if args.position.is_empty() {
        Position::new(rules)
    } else {
        let text = args.position.join(" ");
        Position::from_notation(rules, &text).with_context(|| format!("bad position {text:?}"))?
    };
    let tb = Tablebase::open(rules, &args.dir)?;
    anyhow::ensure!(
        !tb.layers().is_empty(),
        "no tablebase layers in {}",
        Tablebase::files_dir(&args.dir, &rules).display()
    );
    let entries = (args.hash << 20) / 32;
    let mut search = ExactSearch::new(&tb, entries);
    let bar = if args.quiet {
        indicatif::ProgressBar::hidden()
    } else {
        indicatif::ProgressBar::new_spinner()
    };
    let began = Instant::now();
    {
        let bar = bar.clone();
        // Without a terminal (a log file), a plain line every minute instead.
        let log = !args.quiet && !std::io::IsTerminal::is_terminal(&std::io::stderr());
        let mut logged = 0u64;
        search.on_progress(move |s| {
            let secs = began.elapsed().as_secs_f64();
            let depth = if s.depth > 0 {
                format!("depth {}, ", s.depth)
            } else {
                String::new()
            };
            let line = format!(
                "{depth}{} nodes, {} probes, {} repetitions, {secs:.0} s",
                s.nodes, s.probes, s.repetitions
            );
            if log && secs as u64 >= logged + 60 {
                logged = secs as u64;
                eprintln!("{line}");
            }
            bar.set_message(line);
            bar.tick();
        });
    }
    let mut settled = pos;
    settled.settle();
    if let Some(t) = args.at_least {
        let holds = search.at_least(&pos, t)?;
        bar.finish_and_clear();
        let mover = settled.to_move();
        let (relation, bound) = if holds { (">=", t) } else { ("<=", t - 1) };
        outln!(
            "{mover} to move: value {relation} {bound:+} (final margin {relation} {:+} for {mover} with perfect play)",
            settled.margin(mover) + bound
        )?;
    } else {
        let moves = search.move_values(&pos)?;
        bar.finish_and_clear();
        if settled.is_over() {
            outln!("game over: value 0")?;
            return Ok(ExitCode::SUCCESS);
        }
        let value = moves.iter().map(|&(_, v)| v).max().unwrap_or(0);
        print_values(&settled, value, &moves)?;
    }
    let stats = search.stats();
    outln!(
        "searched {} positions, {} tablebase probes ({} seeds or fewer), {} repetitions, {:.1} s",
        stats.nodes,
        stats.probes,
        tb.layers().last().copied().unwrap_or(0),
        stats.repetitions,
        began.elapsed().as_secs_f64()
    )?;
    Ok(ExitCode::SUCCESS)
}

fn build(args: BuildArgs) -> anyhow::Result<ExitCode> {
    let rules = args.rules.rules()?;
    if args.max_seeds < 4 {
        anyhow::bail!("--max-seeds {} has no layer: expected 4 or more", args.max_seeds);
    }
    let threads = hoyito_tablebase::threads() as f64;
    let start = Instant::now();
    let (mut positions, mut solved_time, mut evaluated) = (0u64, 0f64, 0u64);
    outln!(
        "{rules}: layers {:?} into {}",
        layer_seeds(args.max_seeds).collect::<Vec<_>>(),
        Tablebase::files_dir(&args.dir, &rules).display()
    )?;
    let bars = LayerBars::default();
    let on_progress: &(dyn Fn(&Progress) + Sync) = &|p| bars.update(p);
    let mut tb = Tablebase::build(
        rules,
        &args.dir,
        args.max_seeds,
        BuildOptions {
            progress: (!args.quiet).then_some(on_progress),
            solver: match args.solver {
                SolverArg::Auto => Solver::Auto,
                SolverArg::Graph => Solver::Graph,
                SolverArg::Compact => Solver::Compact,
                SolverArg::Disk => Solver::Disk,
                SolverArg::Lean => Solver::Lean,
                SolverArg::Stream => Solver::Stream,
            },
        },
        // A closed output does not stop the build: the report is dropped.
        |r| {
            if !matches!(r, LayerReport::Sweep { .. }) {
                bars.clear();
            }
            bars.suspend(|| match *r {
            LayerReport::Reused { seeds, positions } => {
                let _ = outln!("seeds {seeds:>3}: {positions:>13} positions, file exists and checks out");
            }
            LayerReport::Sweep { seeds, stats: w } => {
                evaluated += w.evaluated;
                let _ = outln!(
                    "seeds {seeds:>3}: lean sweep {:>3}: {:>13} evaluated, {:>13} changed, {:>9.2}s, \
                     {:>10.0} evaluations/s/core",
                    w.sweep,
                    w.evaluated,
                    w.changed,
                    w.time.as_secs_f64(),
                    w.evaluated as f64 / w.time.as_secs_f64().max(1e-9) / threads,
                );
            }
            LayerReport::Solved(s) if s.lean => {
                let t = (s.generate + s.iterate).as_secs_f64();
                positions += s.positions;
                solved_time += t;
                let _ = outln!(
                    "seeds {:>3}: {:>13} positions, {:>13} inner edges, {:>4} sweeps (sweeping solver), first {:>8.2}s, \
                     others {:>8.2}s, {:.2} evaluations per position, {:>10.0} positions/s/core, \
                     work memory {:.1} MB ({:.2} bytes/position){}",
                    s.seeds,
                    s.positions,
                    s.inner_edges,
                    s.sweeps,
                    s.generate.as_secs_f64(),
                    s.iterate.as_secs_f64(),
                    evaluated as f64 / s.positions as f64,
                    s.positions as f64 / t.max(1e-9) / threads,
                    s.work_bytes as f64 / 1e6,
                    s.work_bytes as f64 / s.positions as f64,
                    if s.spill_bytes > 0 {
                        format!(", moves on disk {:.1} MB", s.spill_bytes as f64 / 1e6)
                    } else {
                        String::new()
                    },
                );
                evaluated = 0;
            }
            LayerReport::Solved(s) => {
                let t = (s.generate + s.iterate).as_secs_f64();
                positions += s.positions;
                solved_time += t;
                let _ = outln!(
                    "seeds {:>3}: {:>13} positions, {:>13} inner edges, {:>4} rounds, moves {:>8.2}s, \
                     fixpoint {:>8.2}s, {:>10.0} positions/s/core, work memory {:.1} MB",
                    s.seeds,
                    s.positions,
                    s.inner_edges,
                    s.sweeps,
                    s.generate.as_secs_f64(),
                    s.iterate.as_secs_f64(),
                    s.positions as f64 / t.max(1e-9) / threads,
                    s.work_bytes as f64 / 1e6,
                );
            }
        })
        },
    )?;
    bars.clear();
    let on_disk = if args.compact {
        drop(tb);
        let before = Instant::now();
        let (bytes, compact) = compact_set(rules, &args.dir, CompactOptions::default())?;
        outln!(
            "compacted in {:.2}s: {bytes} bytes in one-byte files, {compact} compact ({:.3} bits per position)",
            before.elapsed().as_secs_f64(),
            compact as f64 * 8.0 / layer_seeds(args.max_seeds)
                .map(|s| hoyito_tablebase::Indexer::new(rules.board_len(), s).count())
                .sum::<u64>() as f64
        )?;
        tb = Tablebase::open(rules, &args.dir)?;
        "compact files on disk"
    } else {
        "1 byte per position on disk + 64-byte header per layer"
    };
    let start_pos = Position::new(rules);
    if let Ok(v) = tb.value(&start_pos) {
        outln!(
            "start position {}: value {v:+} for South",
            start_pos.to_notation()
        )?;
    }
    outln!(
        "total {:.2}s ({} positions solved in {:.2}s on {} threads; {on_disk})",
        start.elapsed().as_secs_f64(),
        positions,
        solved_time,
        threads
    )?;
    Ok(ExitCode::SUCCESS)
}

/// Compacts the layers of `rules` under `dir`, printing a line a layer;
/// returns the bytes of the one-byte files and of the compact ones.
fn compact_set(rules: Rules, dir: &std::path::Path, options: CompactOptions) -> anyhow::Result<(u64, u64)> {
    let (mut bytes, mut compact) = (0u64, 0u64);
    compact_tables(rules, dir, options, None, |r| {
        let (seeds, positions, size, before, removed, how) = match *r {
            CompactReport::Written {
                seeds,
                stats,
                byte_file_bytes,
                removed,
            } => (
                seeds,
                stats.positions,
                stats.file_bytes,
                byte_file_bytes,
                removed,
                "written",
            ),
            CompactReport::Existing {
                seeds,
                positions,
                file_bytes,
                removed,
            } => (
                seeds,
                positions,
                file_bytes,
                64 + positions,
                removed,
                "exists and checks out",
            ),
        };
        bytes += before;
        compact += size;
        let _ = outln!(
            "seeds {seeds:>3}: {positions:>13} positions, {size:>12} bytes compact ({:.3} bits per position, \
             {:.2} times smaller), {how}{}",
            size as f64 * 8.0 / positions as f64,
            before as f64 / size as f64,
            if removed { ", one-byte file removed" } else { "" }
        );
    })?;
    Ok((bytes, compact))
}

fn compact(args: CompactArgs) -> anyhow::Result<ExitCode> {
    let given = ["variant", "holes", "skip_origin", "capture_side"]
        .iter()
        .any(|o| args.rules.is_given(o));
    let sets: Vec<Rules> = if given {
        vec![args.rules.rules()?]
    } else {
        // Every rule set with a directory under --dir.
        let mut found = Vec::new();
        for v in Variant::ALL {
            for holes in 4..=12 {
                for skip in [false, true] {
                    for side in [CaptureSide::Any, CaptureSide::Opponent] {
                        let mut spec = Rules::new(v, holes)?.spec();
                        spec.skip_origin = skip;
                        spec.capture_side = side;
                        let rules = Rules::try_from(spec)?;
                        if Tablebase::files_dir(&args.dir, &rules).is_dir() {
                            found.push(rules);
                        }
                    }
                }
            }
        }
        anyhow::ensure!(!found.is_empty(), "no tablebases in {}", args.dir.display());
        found
    };
    anyhow::ensure!(args.block > 0, "--block 0: a block holds at least one position");
    let options = CompactOptions {
        block_len: args.block,
        keep_bytes: args.keep_bytes,
    };
    let (mut bytes, mut compact) = (0u64, 0u64);
    let start = Instant::now();
    for rules in sets {
        outln!("{rules}: {}", Tablebase::files_dir(&args.dir, &rules).display())?;
        let (b, c) = compact_set(rules, &args.dir, options)?;
        bytes += b;
        compact += c;
    }
    outln!(
        "total {:.2}s: {bytes} bytes in one-byte files, {compact} compact ({:.2} times smaller)",
        start.elapsed().as_secs_f64(),
        bytes as f64 / compact.max(1) as f64
    )?;
    Ok(ExitCode::SUCCESS)
}

/// The progress bar of `build` on stderr: one per layer being solved, reset
/// at each stage (moves, rounds, sweeps) from the solvers' progress reports,
/// cleared when the layer is reported.
#[derive(Default)]
struct LayerBars {
    current: std::sync::Mutex<Option<((u32, Stage), indicatif::ProgressBar)>>,
}

impl LayerBars {
    fn update(&self, p: &Progress) {
        let mut current = self.current.lock().unwrap_or_else(|e| e.into_inner());
        let stage = (p.seeds, p.stage);
        let bar = match current.take() {
            Some((s, bar)) if s == stage => bar,
            other => {
                let bar = other.map(|(_, bar)| bar).unwrap_or_else(|| {
                    indicatif::ProgressBar::new(p.total).with_style(
                        indicatif::ProgressStyle::with_template(
                            "{msg:>22} [{elapsed_precise}] {wide_bar} {pos}/{len} ({per_sec}, eta {eta})",
                        )
                        .expect("valid template"),
                    )
                });
                bar.set_length(p.total);
                bar.set_position(0);
                bar.reset_eta();
                bar.set_message(p.to_string());
                bar
            }
        };
        // Worker threads report out of order: never step back.
        if p.done > bar.position() {
            bar.set_position(p.done);
        }
        *current = Some((stage, bar));
    }

    /// Runs `f` (which prints) with the bar out of the way.
    fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        let current = self.current.lock().unwrap_or_else(|e| e.into_inner());
        match current.as_ref() {
            Some((_, bar)) => bar.suspend(f),
            None => f(),
        }
    }

    fn clear(&self) {
        let mut current = self.current.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, bar)) = current.take() {
            bar.finish_and_clear();
        }
    }
}

fn probe(args: ProbeArgs) -> anyhow::Result<ExitCode> {
    let rules = args.rules.rules()?;
    let text = args.position.join(" ");
    let pos = Position::from_notation(rules, &text).with_context(|| format!("bad position {text:?}"))?;
    let tb = Tablebase::open(rules, &args.dir)?;
    if pos.is_over() {
        outln!("game over: value 0")?;
        return Ok(ExitCode::SUCCESS);
    }
    let value = tb.value(&pos)?;
    let moves = tb.move_values(&pos)?;
    print_values(&pos, value, &moves)?;
    Ok(ExitCode::SUCCESS)
}

/// Prints a position's value, its best moves and every move's value.
fn print_values(pos: &Position, value: i32, moves: &[(Move, i32)]) -> std::io::Result<()> {
    let mover = pos.to_move();
    outln!(
        "{mover} to move: value {value:+} (final margin {:+} for {mover} with perfect play)",
        pos.margin(mover) + value
    )?;
    if moves.is_empty() {
        return outln!("best: (pass)");
    }
    let best: Vec<String> = moves
        .iter()
        .filter(|&&(_, v)| v == value)
        .map(|&(m, _)| pos.move_token(m).to_string())
        .collect();
    outln!("best: {}", best.join(" "))?;
    let all: Vec<String> = moves
        .iter()
        .map(|&(m, v)| format!("{}:{v:+}", pos.move_token(m)))
        .collect();
    outln!("moves: {}", all.join(" "))
}

fn verify(args: VerifyArgs) -> anyhow::Result<ExitCode> {
    let rules = args.rules.rules()?;
    let mut tb = Tablebase::open(rules, &args.dir)?;
    // The check reads every layer at random: compact ones decoded first.
    tb.expand();
    let mut ok = true;
    if let Some(l) = args.layer {
        if !tb.layers().contains(&l) {
            anyhow::bail!(
                "no layer of {l} seeds in {}",
                Tablebase::files_dir(&args.dir, &rules).display()
            );
        }
    }
    for seeds in tb.layers().into_iter().filter(|&s| args.layer.unwrap_or(s) == s) {
        let t = Instant::now();
        let (n, bad) = tb.check_bellman(seeds, 3)?;
        outln!(
            "seeds {seeds:>3}: Bellman check of {n} positions: {} ({:.2}s)",
            if bad.is_empty() { "ok" } else { "FAILED" },
            t.elapsed().as_secs_f64()
        )?;
        for b in &bad {
            outln!("  {:?}: stored {}, best successor {}", b.board, b.stored, b.best)?;
        }
        ok &= bad.is_empty();
    }
    let top = tb
        .layers()
        .into_iter()
        .filter(|&s| s <= args.reference_max_seeds)
        .max();
    if let Some(top) = top {
        let t = Instant::now();
        let reference = Reference::solve(rules, top)?;
        outln!(
            "reference solver up to {top} seeds: {:.2}s",
            t.elapsed().as_secs_f64()
        )?;
        for seeds in layer_seeds(top) {
            let (n, wrong, bad) = compare_layer(&tb, &reference, seeds, 3)?;
            outln!(
                "seeds {seeds:>3}: {n} positions (both sides to move) against the reference: {}",
                if wrong == 0 {
                    "all equal".to_string()
                } else {
                    format!("{wrong} DIFFER")
                }
            )?;
            for (p, got, want) in &bad {
                outln!("  {p}: tablebase {got}, reference {want}")?;
            }
            ok &= wrong == 0;
        }
    }
    Ok(if ok { ExitCode::SUCCESS } else { ExitCode::from(1) })
}
