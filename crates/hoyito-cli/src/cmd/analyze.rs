//! `hoyito analyze`: the engine's best move, score and principal variation,
//! and the score of every legal move, for a position or the end of a record.

use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use anyhow::{bail, Context};
use hoyito_core::{Game, Position, Record};
use hoyito_engine::review::{GameReview, Mark, SideStats};
use hoyito_engine::{Engine, EngineKind, Limits};

use super::common::{read_file, RulesArgs};

/// `--engine` values.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum EngineArg {
    /// Alpha-beta (PVS) with iterative deepening.
    #[value(alias = "ab", alias = "alpha-beta")]
    Alphabeta,
    /// Monte-Carlo tree search.
    Mcts,
}

impl From<EngineArg> for EngineKind {
    fn from(e: EngineArg) -> EngineKind {
        match e {
            EngineArg::Alphabeta => EngineKind::AlphaBeta,
            EngineArg::Mcts => EngineKind::Mcts,
        }
    }
}

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    rules: RulesArgs,
    /// Position in the one-line notation (default: the start position).
    #[arg(long, conflicts_with = "record")]
    position: Option<String>,
    /// A game record: analyse its final position (of the last round for a
    /// match) with the game's history. The record's rules are used.
    #[arg(long)]
    record: Option<std::path::PathBuf>,
    /// Search depth in plies (MCTS: thousands of playouts). Default 8.
    #[arg(long, conflicts_with = "time")]
    depth: Option<u32>,
    /// Search time in seconds (for every move together).
    #[arg(long)]
    time: Option<f64>,
    /// Search algorithm.
    #[arg(long, value_enum, default_value = "alphabeta")]
    engine: EngineArg,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = hoyito_engine::DEFAULT_HASH_MB)]
    hash: usize,
    #[command(flatten)]
    tablebases: super::common::TablebaseArgs,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
    /// Search for the best move only (no per-move scores) and print the
    /// progress of each iteration: depth, score, nodes, nodes/s, time, pv.
    #[arg(long)]
    info: bool,
    /// With --record: analyse every position of the record (each to the
    /// given --depth or --time) and print the record with each move's
    /// score and mark as a comment, and each side's totals as tags.
    #[arg(long, requires = "record", conflicts_with_all = ["info", "json"])]
    annotate: bool,
    /// Key the transposition table by `Position::fingerprint` computed at every
    /// node instead of the incremental hash (to compare their speed).
    #[arg(long)]
    scratch_hash: bool,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if args.annotate {
        return annotate(&args);
    }
    let game = match &args.record {
        Some(path) => {
            let text = read_file(path)?;
            let record =
                Record::read(&text).with_context(|| format!("cannot read record {}", path.display()))?;
            match (record.game(), record.match_()) {
                (Some(g), _) => g.clone(),
                (None, Some(m)) => m.current().clone(),
                (None, None) => bail!("record {} holds no game", path.display()),
            }
        }
        None => {
            let rules = args.rules.rules()?;
            match &args.position {
                Some(text) => {
                    Game::from_position(Position::from_notation(rules, text).context("invalid --position")?)
                }
                None => Game::new(rules),
            }
        }
    };
    let limits = limits(&args)?;
    let pos = *game.position();
    let mut engine = Engine::new(args.engine.into());
    engine.set_hash_mb(args.hash);
    engine.set_incremental_hash(!args.scratch_hash);
    args.tablebases.attach(&mut engine, *game.rules())?;
    let stop = AtomicBool::new(false);
    if args.info {
        return search_info(&mut engine, &game, limits, &stop, args.json);
    }
    let started = std::time::Instant::now();
    let moves = engine.analyze(&game, limits, &stop);
    let elapsed_ms = started.elapsed().as_millis() as u64;
    let best = moves.first();
    if args.json {
        let list: Vec<_> = moves
            .iter()
            .map(|(m, score, pv)| {
                serde_json::json!({
                    "move": pos.move_token(*m).to_string(),
                    "score": score,
                    "pv": pos.line_tokens(pv),
                })
            })
            .collect();
        let out = serde_json::json!({
            "position": pos.to_notation(),
            "to_move": if pos.is_over() { None } else { Some(pos.to_move().name()) },
            "over": pos.is_over(),
            "engine": match args.engine { EngineArg::Alphabeta => "alphabeta", EngineArg::Mcts => "mcts" },
            "depth": limits.depth,
            "time_ms": elapsed_ms,
            "best": best.map(|b| pos.move_token(b.0).to_string()),
            "score": best.map(|b| b.1),
            "pv": best.map(|b| pos.line_tokens(&b.2)).unwrap_or_default(),
            "moves": list,
        });
        outln!("{out}")?;
        return Ok(ExitCode::SUCCESS);
    }
    out!("{}", super::common::board_text(&pos))?;
    let Some((bm, bs, bpv)) = best else {
        outln!("no move: the game is over")?;
        return Ok(ExitCode::SUCCESS);
    };
    outln!(
        "best {}  score {:+}  pv {}",
        pos.move_token(*bm),
        bs,
        pos.line_tokens(bpv).join(" ")
    )?;
    outln!("moves ({} ms):", elapsed_ms)?;
    for (m, score, pv) in &moves {
        outln!(
            "  {:<6} {:>+4}  {}",
            pos.move_token(*m).to_string(),
            score,
            pos.line_tokens(pv).join(" ")
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The search limits of `--depth` or `--time`.
fn limits(args: &Args) -> anyhow::Result<Limits> {
    Ok(match (args.depth, args.time) {
        (_, Some(t)) if !(t > 0.0 && t.is_finite()) => bail!("--time must be a positive number of seconds"),
        (_, Some(t)) => Limits {
            movetime: Some(Duration::from_secs_f64(t)),
            ..Limits::default()
        },
        (d, None) => Limits {
            depth: Some(d.unwrap_or(8).max(1)),
            ..Limits::default()
        },
    })
}

/// `--annotate`: the record with every move's score and mark as comments
/// ([`hoyito_engine::review::annotation`]) and each side's totals as tags.
fn annotate(args: &Args) -> anyhow::Result<ExitCode> {
    let Some(path) = &args.record else {
        bail!("--annotate needs --record");
    };
    let text = read_file(path)?;
    let mut record = Record::read(&text).with_context(|| format!("cannot read record {}", path.display()))?;
    let limits = limits(args)?;
    let mut engine = Engine::new(args.engine.into());
    engine.set_hash_mb(args.hash);
    args.tablebases.attach(&mut engine, *record.rules())?;
    let stop = AtomicBool::new(false);
    let mut comments = Vec::new();
    let mut stats = [SideStats::default(); 2];
    for game in record.games() {
        let review = GameReview::of_game(&mut engine, game, limits, &stop, &mut |done, total| {
            eprint!("\ranalysed {done}/{total} positions");
        });
        eprintln!();
        for (all, side) in stats.iter_mut().zip(review.stats(game.moves())) {
            all.moves += side.moves;
            all.loss += side.loss;
            for (a, b) in all.counts.iter_mut().zip(side.counts) {
                *a += b;
            }
        }
        comments.push(review.annotations(game.moves()));
    }
    let budget = match (limits.depth, limits.movetime) {
        (_, Some(t)) => format!("{} ms per position", t.as_millis()),
        (d, None) => format!("depth {} per position", d.unwrap_or(0)),
    };
    record
        .tags
        .push(("Annotator".into(), format!("hoyito analyze, {budget}")));
    for (name, s) in ["SouthReview", "NorthReview"].into_iter().zip(stats) {
        let counts: Vec<String> = Mark::ALL.iter().map(|&m| format!("{} {m}", s.count(m))).collect();
        record.tags.push((
            name.into(),
            format!(
                "average loss {:.2} over {} moves; {}",
                s.average_loss(),
                s.moves,
                counts.join(", ")
            ),
        ));
    }
    out!("{}", record.write_annotated(&comments))?;
    Ok(ExitCode::SUCCESS)
}

/// `--info`: one line (or JSON object) per completed iteration, then the best move.
fn search_info(
    engine: &mut Engine,
    game: &Game,
    limits: Limits,
    stop: &AtomicBool,
    json: bool,
) -> anyhow::Result<ExitCode> {
    let pos = *game.position();
    let result = engine.search(game, limits, stop, &mut |info| {
        let pv = pos.line_tokens(&info.pv);
        // A closed output shows up at the final lines; progress lines are dropped.
        if json {
            let _ = outln!(
                "{}",
                serde_json::json!({
                    "depth": info.depth, "score": info.score, "nodes": info.nodes,
                    "nps": info.nps, "time_ms": info.time_ms, "pv": pv,
                })
            );
        } else {
            let _ = outln!(
                "depth {:>3}  score {:>+4}  nodes {:>11}  nps {:>9}  time {:>7} ms  pv {}",
                info.depth,
                info.score,
                info.nodes,
                info.nps,
                info.time_ms,
                pv.join(" ")
            );
        }
    });
    let best = result.best.map(|m| pos.move_token(m).to_string());
    if json {
        outln!(
            "{}",
            serde_json::json!({
                "best": best, "score": result.score, "depth": result.depth,
                "nodes": result.nodes, "time_ms": result.time_ms,
                "pv": pos.line_tokens(&result.pv),
            })
        )?;
    } else {
        outln!("bestmove {}", best.as_deref().unwrap_or("(none)"))?;
    }
    Ok(ExitCode::SUCCESS)
}
