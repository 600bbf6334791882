//! How often each engine level plays an optimal move where its games enter
//! the tablebases: a strength figure for the middle game.
//!
//! ```text
//! cargo run --release -p hoyito-lab --bin optimal_moves -- --variant V --tables DIR
//!     [--holes N] [--max-seeds K] [--positions N] [--levels 1-10] [--sample-level L]
//!     [--nodes N | --movetime-ms M] [--random-plies K] [--seed S] [--threads T]
//!     [--with-tables] [--list] [--json]
//! ```
//!
//! **Positions.** Self-play games of `--sample-level` (default 6) on both
//! sides, without tablebases, each from `--random-plies` (default 2)
//! random moves from the start (the engines are seeded too, so games of
//! noisy levels differ beyond the opening). From each game it takes the
//! first position after the random plies with at most `--max-seeds` seeds
//! in play (default: the tables' largest layer) whose legal moves do not
//! all have the same tablebase value. Positions inside the tables where
//! every move is worth the same (one legal move, or all equal) are passed
//! over and counted; games that end before such a position, and positions
//! already sampled (same board and player to move), give none. One
//! position per game, `--positions` (default 1000) of them.
//!
//! **Measure.** For each position and each level of `--levels` (`1-10`,
//! `1..=10`, `3,5,8`), a fresh engine of that level (seeded from `--seed`,
//! the position and the level; no transposition table or history carried
//! over; no tablebases unless `--with-tables`) searches the position with
//! no game history under `--nodes` (default 1,000,000, a node budget: a
//! time limit counted in nodes, as `hoyito selfplay --nodes`) or
//! `--movetime-ms`; levels 1–9 also keep their own depth caps. Its move is
//! judged by the tablebase's value of every legal move (`Tablebase::
//! move_values`: the net score the mover still gains after the move, an
//! extra turn counted for the same player, a move that ends the game worth
//! its own gain). Per level it prints the share of optimal moves (with a
//! 95 % Wilson interval), the mean loss in seeds against the best move,
//! the share of moves that change the game-theoretic result (win to draw
//! or loss, draw to loss; on the final margin, earlier captures included),
//! of the won positions the share given away, and the mean search time.
//!
//! Progress goes to stderr; the report is printed to stdout at the end
//! (`--json`: one JSON object), with `--list` also one line per position as
//! it is measured. Nothing is written to files, so Ctrl-C loses only the
//! run. `--threads T` (default 1) measures T positions at a time; every
//! figure but the times is the same for any T.

use std::collections::{BTreeMap, HashSet};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use hoyito_core::{Rules, Variant};
use hoyito_engine::stats::wilson_interval;
use hoyito_engine::Limits;
use hoyito_lab::optimal::{engine_move, mix, sample_game, Choice, Sampling, Tally};
use hoyito_tablebase::Tablebase;
use rayon::prelude::*;

const USAGE: &str = "usage: optimal_moves --variant I|II|III --tables DIR [--holes N] [--max-seeds K] \
[--positions N] [--levels 1-10] [--sample-level L] [--nodes N | --movetime-ms M] [--random-plies K] \
[--seed S] [--threads T] [--with-tables] [--list] [--json]";

struct Args {
    variant: Variant,
    holes: usize,
    tables: PathBuf,
    max_seeds: Option<u32>,
    positions: usize,
    levels: Vec<u8>,
    sample_level: u8,
    nodes: u64,
    movetime_ms: Option<u64>,
    random_plies: u32,
    seed: u64,
    threads: usize,
    with_tables: bool,
    list: bool,
    json: bool,
}

fn parse_levels(s: &str) -> Result<Vec<u8>, String> {
    let bad = || format!("bad --levels {s:?}: expected 1-10, 1..=10 or 3,5,8 (levels 1 to 10)");
    let mut out = Vec::new();
    for part in s.split(',') {
        let part = part.trim();
        let range = part.split_once("..=").or_else(|| part.split_once('-'));
        let (a, b) = match range {
            Some((a, b)) => (a.trim(), b.trim()),
            None => (part, part),
        };
        let a: u8 = a.parse().map_err(|_| bad())?;
        let b: u8 = b.parse().map_err(|_| bad())?;
        if !(1..=10).contains(&a) || !(a..=10).contains(&b) {
            return Err(bad());
        }
        out.extend(a..=b);
    }
    out.sort_unstable();
    out.dedup();
    Ok(out)
}

fn parse_args() -> Result<Args, String> {
    let mut a = Args {
        variant: Variant::II,
        holes: 6,
        tables: PathBuf::new(),
        max_seeds: None,
        positions: 1000,
        levels: (1..=10).collect(),
        sample_level: 6,
        nodes: 1_000_000,
        movetime_ms: None,
        random_plies: 2,
        seed: 1,
        threads: 1,
        with_tables: false,
        list: false,
        json: false,
    };
    let mut tables = None;
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or_else(|| format!("{flag} needs a value"));
        fn num<T: std::str::FromStr>(flag: &str, v: String) -> Result<T, String> {
            v.parse().map_err(|_| format!("bad {flag} {v:?}"))
        }
        match flag.as_str() {
            "--variant" => a.variant = value()?.parse().map_err(|e| format!("{e}"))?,
            "--holes" => a.holes = num(&flag, value()?)?,
            "--tables" => tables = Some(PathBuf::from(value()?)),
            "--max-seeds" => a.max_seeds = Some(num(&flag, value()?)?),
            "--positions" => a.positions = num(&flag, value()?)?,
            "--levels" => a.levels = parse_levels(&value()?)?,
            "--sample-level" => a.sample_level = num(&flag, value()?)?,
            "--nodes" => a.nodes = num(&flag, value()?)?,
            "--movetime-ms" => a.movetime_ms = Some(num(&flag, value()?)?),
            "--random-plies" => a.random_plies = num(&flag, value()?)?,
            "--seed" => a.seed = num(&flag, value()?)?,
            "--threads" => a.threads = num::<usize>(&flag, value()?)?.max(1),
            "--with-tables" => a.with_tables = true,
            "--list" => a.list = true,
            "--json" => a.json = true,
            "-h" | "--help" => return Err(USAGE.into()),
            _ => return Err(format!("unknown argument {flag:?}\n{USAGE}")),
        }
    }
    a.tables = tables.ok_or_else(|| format!("--tables DIR is required\n{USAGE}"))?;
    if !(1..=10).contains(&a.sample_level) {
        return Err("--sample-level must be 1 to 10".into());
    }
    if a.positions == 0 {
        return Err("--positions must be at least 1".into());
    }
    Ok(a)
}

/// One measured position: the choice, and each level's move with its time.
struct Measured {
    game: u64,
    ply: usize,
    choice: Choice,
    moves: Vec<(hoyito_core::Move, Duration)>,
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("optimal_moves: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: &Args) -> Result<(), String> {
    let began = Instant::now();
    let rules = Rules::new(args.variant, args.holes).map_err(|e| e.to_string())?;
    let tb = Tablebase::open(rules, &args.tables).map_err(|e| format!("{}: {e}", args.tables.display()))?;
    let top = tb.layers().into_iter().max().unwrap_or(0);
    let max_seeds = args.max_seeds.unwrap_or(top);
    if max_seeds > top {
        return Err(format!(
            "--max-seeds {max_seeds}: the tables hold layers up to {top} seeds"
        ));
    }
    let tb = Arc::new(tb);
    let limits = match args.movetime_ms {
        Some(ms) => Limits {
            movetime: Some(Duration::from_millis(ms.max(1))),
            ..Limits::default()
        },
        None => Limits {
            node_budget: Some(args.nodes.max(1)),
            ..Limits::default()
        },
    };
    let limit_text = match args.movetime_ms {
        Some(ms) => format!("{ms} ms per move"),
        None => format!("{} nodes per move", args.nodes),
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads)
        .build()
        .map_err(|e| e.to_string())?;
    eprintln!(
        "{rules}: tables {} to {top} seeds, positions with at most {max_seeds} seeds; \
         sampling {} positions from level {} self-play ({} random plies), {limit_text}, {} thread(s)",
        args.tables.display(),
        args.positions,
        args.sample_level,
        args.random_plies,
        args.threads
    );

    // Sampling, in batches of games played in parallel and taken in order,
    // so that the positions do not depend on the threads.
    let sampling = Sampling {
        rules,
        max_seeds,
        level: args.sample_level,
        limits,
        random_plies: args.random_plies,
        seed: args.seed,
    };
    let mut samples: Vec<(u64, usize, Choice)> = Vec::new();
    let mut seen = HashSet::new();
    let (mut games, mut not_entered, mut no_choice, mut duplicates, mut trivial, mut first_trivial) =
        (0u64, 0u64, 0u64, 0u64, 0u64, 0u64);
    let mut in_opening = 0u64;
    let batch = (4 * args.threads) as u64;
    let mut last_sample_report = Instant::now();
    while samples.len() < args.positions {
        let results: Vec<_> = pool.install(|| {
            (games..games + batch)
                .into_par_iter()
                .map(|g| sample_game(&tb, &sampling, g).map(|s| (g, s)))
                .collect()
        });
        for r in results {
            let (g, s) = r.map_err(|e| e.to_string())?;
            if samples.len() >= args.positions {
                break;
            }
            games = g + 1;
            trivial += u64::from(s.trivial);
            if !s.entered {
                not_entered += 1;
                continue;
            }
            let Some(choice) = s.sample else {
                no_choice += 1;
                continue;
            };
            if s.trivial > 0 {
                first_trivial += 1;
            }
            let p = choice.position;
            if !seen.insert((p.board().to_vec(), p.to_move())) {
                duplicates += 1;
                continue;
            }
            in_opening += u64::from(s.entered_in_opening);
            samples.push((g, s.ply, choice));
        }
        if games > 20 * args.positions as u64 + 1000 && samples.len() * 20 < games as usize {
            return Err(format!(
                "only {} positions from {games} games: too few games reach the tables with a choice",
                samples.len()
            ));
        }
        if last_sample_report.elapsed() >= Duration::from_secs(10) || samples.len() >= args.positions {
            eprintln!(
                "sampled {}/{} positions from {games} games ({:.0} s)",
                samples.len(),
                args.positions,
                began.elapsed().as_secs_f64()
            );
            last_sample_report = Instant::now();
        }
    }
    let sampled_in = began.elapsed();

    // Measuring: every level on every position.
    let done = AtomicUsize::new(0);
    let out = Mutex::new(std::io::stdout());
    let measure_began = Instant::now();
    let last_report = Mutex::new(Instant::now());
    let measured: Vec<Measured> = pool.install(|| {
        samples
            .par_iter()
            .enumerate()
            .map(|(i, (game, ply, choice))| {
                let moves: Vec<_> = args
                    .levels
                    .iter()
                    .map(|&l| {
                        let seed = mix(args.seed ^ 0x0B7E_5EED, i as u64 * 16 + u64::from(l));
                        let tables = args.with_tables.then_some(&tb);
                        engine_move(l, seed, limits, tables, &choice.position)
                    })
                    .collect();
                let m = Measured {
                    game: *game,
                    ply: *ply,
                    choice: choice.clone(),
                    moves,
                };
                if args.list {
                    let line = list_line(args, i, &m);
                    let mut o = out.lock().expect("stdout");
                    let _ = writeln!(o, "{line}");
                }
                let n = done.fetch_add(1, Relaxed) + 1;
                let mut last = last_report.lock().expect("progress");
                if last.elapsed() >= Duration::from_secs(10) || n == samples.len() {
                    *last = Instant::now();
                    let secs = measure_began.elapsed().as_secs_f64();
                    eprintln!(
                        "measured {n}/{} positions ({secs:.0} s, about {:.0} s left)",
                        samples.len(),
                        secs / n as f64 * (samples.len() - n) as f64
                    );
                }
                m
            })
            .collect()
    });

    let mut tallies: Vec<Tally> = vec![Tally::default(); args.levels.len()];
    let mut by_seeds: BTreeMap<u8, u64> = BTreeMap::new();
    let mut results = [0u64; 3];
    let (mut legal, mut distinct, mut optimal_moves) = (0u64, 0u64, 0u64);
    for m in &measured {
        let c = &m.choice;
        *by_seeds.entry(c.position.in_play()).or_default() += 1;
        results[(1 - c.result()) as usize] += 1;
        legal += c.moves.len() as u64;
        distinct += c.distinct_values() as u64;
        optimal_moves += c.moves.iter().filter(|&&(_, v)| v == c.best).count() as u64;
        for (t, &(mv, time)) in tallies.iter_mut().zip(&m.moves) {
            t.add(c, mv, time);
        }
    }
    let n = measured.len() as f64;
    let total = began.elapsed();
    let report = Report {
        args,
        rules,
        top,
        max_seeds,
        limit_text,
        games,
        not_entered,
        no_choice,
        duplicates,
        trivial,
        first_trivial,
        in_opening,
        by_seeds,
        results,
        mean_legal: legal as f64 / n,
        mean_distinct: distinct as f64 / n,
        mean_optimal: optimal_moves as f64 / n,
        tallies,
        sampled_in,
        total,
    };
    let text = if args.json { report.json() } else { report.text() };
    let mut o = out.lock().expect("stdout");
    writeln!(o, "{text}").map_err(|e| e.to_string())?;
    Ok(())
}

fn list_line(args: &Args, i: usize, m: &Measured) -> String {
    let c = &m.choice;
    let p = &c.position;
    let values: Vec<String> = c
        .moves
        .iter()
        .map(|&(mv, v)| format!("{}:{v:+}", p.move_token(mv)))
        .collect();
    let played: Vec<String> = args
        .levels
        .iter()
        .zip(&m.moves)
        .map(|(l, &(mv, _))| {
            let j = c.judge(mv);
            format!("L{l}:{}{}", p.move_token(mv), if j.optimal { "" } else { "?" })
        })
        .collect();
    format!(
        "position {} (game {}, ply {}): {} | value {:+} | {} | {}",
        i + 1,
        m.game + 1,
        m.ply,
        p.to_notation(),
        c.best,
        values.join(" "),
        played.join(" ")
    )
}

struct Report<'a> {
    args: &'a Args,
    rules: Rules,
    top: u32,
    max_seeds: u32,
    limit_text: String,
    games: u64,
    not_entered: u64,
    no_choice: u64,
    duplicates: u64,
    trivial: u64,
    first_trivial: u64,
    /// Samples whose game was inside the tables when its random plies ended.
    in_opening: u64,
    by_seeds: BTreeMap<u8, u64>,
    /// Positions won, drawn and lost for the mover under perfect play.
    results: [u64; 3],
    mean_legal: f64,
    mean_distinct: f64,
    mean_optimal: f64,
    tallies: Vec<Tally>,
    sampled_in: Duration,
    total: Duration,
}

impl Report<'_> {
    fn positions(&self) -> u64 {
        self.results.iter().sum()
    }

    fn text(&self) -> String {
        let a = self.args;
        let n = self.positions();
        let mut s = String::new();
        let pct = |x: u64| 100.0 * x as f64 / n.max(1) as f64;
        s += &format!(
            "{}: {n} positions with at most {} seeds in play (tables to {} seeds), one from each of \
             {} games of level {} self-play ({} random plies, seed {}); engine {}{}\n",
            self.rules,
            self.max_seeds,
            self.top,
            self.games,
            a.sample_level,
            a.random_plies,
            a.seed,
            self.limit_text,
            if a.with_tables {
                ", with the tablebases"
            } else {
                ", without tablebases"
            }
        );
        s += &format!(
            "games without a sample: {} never reached the tables, {} reached them but ended \
             before a decisive choice; {} duplicate positions skipped; {} positions inside the \
             tables where every move had the same value were passed over ({} of the samples came \
             after such a position); {} samples were inside the tables as the random plies ended\n",
            self.not_entered,
            self.no_choice,
            self.duplicates,
            self.trivial,
            self.first_trivial,
            self.in_opening
        );
        let seeds: Vec<String> = self
            .by_seeds
            .iter()
            .map(|(k, v)| format!("{k}: {v} ({:.1} %)", pct(*v)))
            .collect();
        s += &format!("seeds in play: {}\n", seeds.join(", "));
        s += &format!(
            "for the mover under perfect play: won {} ({:.1} %), drawn {} ({:.1} %), lost {} ({:.1} %); \
             legal moves {:.2} on average, {:.2} distinct values, {:.2} optimal moves\n\n",
            self.results[0],
            pct(self.results[0]),
            self.results[1],
            pct(self.results[1]),
            self.results[2],
            pct(self.results[2]),
            self.mean_legal,
            self.mean_distinct,
            self.mean_optimal
        );
        s += "| Level | Optimal moves (95 %) | Mean loss (seeds) | Result changed | Won positions given away | Mean time per move |\n";
        s += "|---|---|---|---|---|---|\n";
        for (l, t) in a.levels.iter().zip(&self.tallies) {
            let (lo, hi) = wilson_interval(t.optimal_share(), t.positions as f64);
            s += &format!(
                "| {l} | {:.1} % ({:.1}–{:.1}) | {:.2} | {:.1} % | {} | {:.1} ms |\n",
                100.0 * t.optimal_share(),
                100.0 * lo,
                100.0 * hi,
                t.mean_loss(),
                100.0 * t.result_changed_share(),
                if t.won > 0 {
                    format!("{:.1} % of {}", 100.0 * t.won_lost as f64 / t.won as f64, t.won)
                } else {
                    "–".into()
                },
                t.mean_ms()
            );
        }
        s += &format!(
            "\nsampling took {:.0} s, all {:.0} s",
            self.sampled_in.as_secs_f64(),
            self.total.as_secs_f64()
        );
        s
    }

    fn json(&self) -> String {
        let a = self.args;
        let seeds: Vec<String> = self
            .by_seeds
            .iter()
            .map(|(k, v)| format!("\"{k}\":{v}"))
            .collect();
        let levels: Vec<String> = a
            .levels
            .iter()
            .zip(&self.tallies)
            .map(|(l, t)| {
                let (lo, hi) = wilson_interval(t.optimal_share(), t.positions as f64);
                format!(
                    "{{\"level\":{l},\"positions\":{},\"optimal\":{},\"optimal_share\":{:.6},\
                     \"optimal_low\":{lo:.6},\"optimal_high\":{hi:.6},\"mean_loss\":{:.6},\
                     \"result_changed\":{},\"won\":{},\"won_given_away\":{},\"mean_ms\":{:.3}}}",
                    t.positions,
                    t.optimal,
                    t.optimal_share(),
                    t.mean_loss(),
                    t.result_changed,
                    t.won,
                    t.won_lost,
                    t.mean_ms()
                )
            })
            .collect();
        let limit = match a.movetime_ms {
            Some(ms) => format!("\"movetime_ms\":{ms}"),
            None => format!("\"nodes\":{}", a.nodes),
        };
        format!(
            "{{\"rules\":\"{}\",\"tables_top\":{},\"max_seeds\":{},\"positions\":{},\"sample_level\":{},\
             \"random_plies\":{},\"seed\":{},{limit},\"with_tables\":{},\"games\":{},\
             \"games_not_entered\":{},\"games_without_choice\":{},\"duplicates\":{},\
             \"trivial_positions_passed\":{},\"samples_after_trivial\":{},\"samples_in_opening\":{},\"seeds\":{{{}}},\
             \"won\":{},\"drawn\":{},\"lost\":{},\"mean_legal\":{:.4},\"mean_distinct_values\":{:.4},\
             \"mean_optimal_moves\":{:.4},\"levels\":[{}],\"sampling_s\":{:.1},\"total_s\":{:.1}}}",
            self.rules,
            self.top,
            self.max_seeds,
            self.positions(),
            a.sample_level,
            a.random_plies,
            a.seed,
            a.with_tables,
            self.games,
            self.not_entered,
            self.no_choice,
            self.duplicates,
            self.trivial,
            self.first_trivial,
            self.in_opening,
            seeds.join(","),
            self.results[0],
            self.results[1],
            self.results[2],
            self.mean_legal,
            self.mean_distinct,
            self.mean_optimal,
            levels.join(","),
            self.sampled_in.as_secs_f64(),
            self.total.as_secs_f64()
        )
    }
}
