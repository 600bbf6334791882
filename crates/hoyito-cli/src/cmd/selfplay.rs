//! `hoyito selfplay`: engine-against-engine series, games in parallel,
//! colours alternating, with W/D/L, score and an Elo estimate.

use std::io::IsTerminal;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{bail, Context};
use hoyito_core::{Game, Position, Record, Side};
use hoyito_engine::stats::{wilson_interval, Elo, Tally};
use hoyito_engine::{play_out, Engine, EngineKind, EvalWeights, Limits};
use hoyito_tablebase::Tablebase;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use rayon::prelude::*;

use super::common::{write_file_atomic, RulesArgs};

/// Longest game played; a longer one is adjudicated on the captured margin.
const MAX_PLIES: usize = 3000;

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    rules: RulesArgs,
    /// Player A: level:N (1-10), ab, mcts, random, greedy, or ab:ROW,MOBILITY,THREAT,TEMPO
    /// (alpha-beta with other evaluation weights, hundredths of a seed) or ab:ROW,MOBILITY,THREAT,TEMPO,QUIESCENCE.
    #[arg(long)]
    a: String,
    /// Player B: level:N (1-10), ab, mcts, random or greedy.
    #[arg(long)]
    b: String,
    /// Number of games (A takes South in even-numbered games).
    #[arg(long, default_value_t = 20)]
    games: u32,
    /// Milliseconds per move.
    #[arg(long, conflicts_with_all = ["depth", "nodes"])]
    movetime_ms: Option<u64>,
    /// A node budget per move standing in for a time limit, independent of
    /// the machine's load: the search stops at N nodes and starts no
    /// iteration after N/2, as with --movetime-ms (MCTS: N playouts).
    #[arg(long, conflicts_with = "depth")]
    nodes: Option<u64>,
    /// Search depth per move (levels keep their own cap if lower).
    #[arg(long)]
    depth: Option<u32>,
    /// Random plies at the start of each pair of games (both colours play the same opening).
    #[arg(long, default_value_t = 2)]
    random_plies: u32,
    /// Start every game from this position (the one-line notation of
    /// docs/NOTATION.md) instead of the start position; any random plies
    /// follow it. A still takes South in even-numbered games, whoever moves
    /// first.
    #[arg(long, value_name = "NOTATION")]
    position: Option<String>,
    /// Seed of the openings and of the engines' random choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Endgame tablebases (as built by `hoyito tablebase build`) for the
    /// full-strength alpha-beta players (`ab`, `ab:…`): covered positions
    /// are scored perfectly. Levels, MCTS, random and greedy never use them.
    #[arg(long, value_name = "DIR")]
    tablebases: Option<std::path::PathBuf>,
    /// Write each game's record to DIR/game-NNNN.hoy (the `hoyito replay
    /// --record` format; the tags South, North and Game name the players
    /// and the game) as soon as it ends.
    #[arg(long, value_name = "DIR")]
    records: Option<std::path::PathBuf>,
    /// Worker threads (default: one per core).
    #[arg(long)]
    threads: Option<usize>,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

/// A player of the series.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spec {
    /// A level of [`Engine::with_level`].
    Level(u8),
    /// Full-strength engine of a kind.
    Full(EngineKind),
    /// Full-strength alpha-beta with other evaluation weights (for tuning).
    Weighted(EvalWeights),
}

impl std::str::FromStr for Spec {
    type Err = anyhow::Error;
    fn from_str(s: &str) -> anyhow::Result<Spec> {
        let t = s.trim().to_ascii_lowercase();
        Ok(match t.as_str() {
            "ab" | "alphabeta" => Spec::Full(EngineKind::AlphaBeta),
            "mcts" => Spec::Full(EngineKind::Mcts),
            "random" => Spec::Level(1),
            "greedy" => Spec::Level(2),
            _ if t.starts_with("ab:") => {
                let bad = || format!("bad weights in {s:?}: expected ab:ROW,MOBILITY,THREAT,TEMPO[,QUIESCENCE]");
                let w: Vec<i32> = t[3..]
                    .split(',')
                    .map(str::parse)
                    .collect::<Result<_, _>>()
                    .with_context(bad)?;
                let (&[row_seed, mobility, threat, tempo], quiescence) = match w[..] {
                    [a, b, c, d] => (&[a, b, c, d], 0),
                    [a, b, c, d, q] => (&[a, b, c, d], q),
                    _ => bail!(bad()),
                };
                Spec::Weighted(EvalWeights {
                    row_seed,
                    mobility,
                    threat,
                    tempo,
                    quiescence,
                })
            }
            _ => match t.strip_prefix("level:").map(str::parse::<u8>) {
                Some(Ok(l @ 1..=10)) => Spec::Level(l),
                _ => bail!(
                    "unknown player {s:?}: expected level:N (1-10), ab, mcts, random, greedy or ab:ROW,MOBILITY,THREAT,TEMPO"
                ),
            },
        })
    }
}

impl Spec {
    /// Whether this player takes the series' tablebases.
    fn uses_tablebases(self) -> bool {
        matches!(self, Spec::Full(EngineKind::AlphaBeta) | Spec::Weighted(_))
    }

    fn engine(self, seed: u64, tables: Option<&Arc<Tablebase>>) -> Engine {
        let mut e = match self {
            Spec::Level(l) => Engine::with_level(l),
            Spec::Full(k) => {
                let mut e = Engine::new(k);
                e.set_hash_mb(8);
                e
            }
            Spec::Weighted(w) => {
                let mut e = Engine::new(EngineKind::AlphaBeta);
                e.set_hash_mb(8);
                e.set_weights(w);
                e
            }
        };
        e.set_seed(seed);
        if let (true, Some(tb)) = (self.uses_tablebases(), tables) {
            // Opened and checked once before the series starts.
            e.set_tablebase(Arc::clone(tb));
        }
        e
    }
}

/// The result of one game from A's view: 1, ½ or 0, plies, A's margin.
#[derive(Clone, Copy, Debug)]
struct GameScore {
    /// A played South.
    a_south: bool,
    score: f64,
    plies: usize,
    margin: i32,
    /// The position the random opening reached (a hash of its notation).
    opening: u64,
}

/// What every game of a series shares.
#[derive(Clone, Copy)]
struct Series<'a> {
    start: Position,
    a: Spec,
    b: Spec,
    limits: Limits,
    seed: u64,
    random_plies: u32,
    tables: Option<&'a Arc<Tablebase>>,
}

fn play_one(series: &Series, index: u32) -> (GameScore, Game) {
    let Series {
        start,
        a,
        b,
        limits,
        seed: args_seed,
        random_plies,
        tables,
    } = *series;
    let pair = index / 2;
    let a_side = if index & 1 == 0 { Side::South } else { Side::North };
    let mut rng = SmallRng::seed_from_u64(args_seed ^ (pair as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let mut game = Game::from_position(start);
    for _ in 0..random_plies {
        if game.is_over() {
            break;
        }
        let legal = game.position().legal_moves();
        game.play(legal[rng.random_range(0..legal.len())])
            .expect("a legal move");
    }
    let opening = game.moves().len();
    let opening_key = {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        game.position().to_notation().hash(&mut h);
        h.finish()
    };
    let seed = args_seed.wrapping_add(index as u64 * 7919);
    let mut ea = a.engine(seed, tables);
    let mut eb = b.engine(seed ^ 0xABCD, tables);
    let (south, north) = match a_side {
        Side::South => (&mut ea, &mut eb),
        Side::North => (&mut eb, &mut ea),
    };
    play_out(&mut game, south, north, limits, MAX_PLIES);
    let pos = game.position();
    // An unfinished game (only after MAX_PLIES) is judged on the margin so far.
    let margin = pos.margin(a_side);
    let score = match margin.signum() {
        1 => 1.0,
        0 => 0.5,
        _ => 0.0,
    };
    let result = GameScore {
        a_south: a_side == Side::South,
        score,
        plies: game.moves().len() - opening,
        margin,
        opening: opening_key,
    };
    (result, game)
}

/// Writes the record of game `index` (from 0) of a series to `dir`.
fn write_record(
    dir: &std::path::Path,
    args: &Args,
    index: u32,
    r: &GameScore,
    game: Game,
) -> anyhow::Result<()> {
    let a = format!("{} (A)", args.a);
    let b = format!("{} (B)", args.b);
    let (south, north) = if r.a_south { (a, b) } else { (b, a) };
    let mut record = Record::from_game(game);
    record.tags = vec![
        ("Event".into(), format!("hoyito selfplay --seed {}", args.seed)),
        ("Game".into(), format!("{} of {}", index + 1, args.games)),
        ("South".into(), south),
        ("North".into(), north),
    ];
    write_file_atomic(
        &dir.join(format!("game-{:04}.hoy", index + 1)),
        record.write().as_bytes(),
    )
}

/// The log line of a finished game (`index` from 0), counting it into the
/// running `tally` of A's wins, draws and losses.
fn game_line(r: &GameScore, index: u32, games: u32, tally: &mut Tally) -> String {
    let outcome = if r.score == 1.0 {
        "won"
    } else if r.score == 0.5 {
        "drew"
    } else {
        "lost"
    };
    tally.add(r.score);
    let Tally {
        wins: w,
        draws: d,
        losses: l,
    } = *tally;
    let played = tally.games();
    let score = tally.score().unwrap_or_default();
    format!(
        "game {}/{games}: A as {} {outcome}, margin {:+}, {} plies; {played} played: +{w} ={d} -{l} ({:.1} %)",
        index + 1,
        if r.a_south { "South" } else { "North" },
        r.margin,
        r.plies,
        100.0 * score
    )
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let rules = args.rules.rules()?;
    let a: Spec = args.a.parse()?;
    let b: Spec = args.b.parse()?;
    if args.games == 0 {
        bail!("--games must be at least 1");
    }
    let limits = match (args.movetime_ms, args.depth, args.nodes) {
        (Some(ms), _, _) => Limits {
            movetime: Some(Duration::from_millis(ms.max(1))),
            ..Limits::default()
        },
        (None, _, Some(n)) => Limits {
            node_budget: Some(n.max(1)),
            ..Limits::default()
        },
        (None, Some(d), None) => Limits {
            depth: Some(d.max(1)),
            ..Limits::default()
        },
        (None, None, None) => Limits {
            movetime: Some(Duration::from_millis(100)),
            ..Limits::default()
        },
    };
    let tables_dir = args.tablebases.as_deref();
    let tables = match tables_dir {
        Some(dir) => {
            if !(a.uses_tablebases() || b.uses_tablebases()) {
                bail!("--tablebases needs a full-strength alpha-beta player (ab or ab:…)");
            }
            let tb = Tablebase::open(rules, dir)
                .with_context(|| format!("cannot use the tablebases in {}", dir.display()))?;
            eprintln!("tablebases: layers {:?} from {}", tb.layers(), dir.display());
            Some(Arc::new(tb))
        }
        None => None,
    };
    let start = match &args.position {
        Some(text) => {
            let pos = Position::from_notation(rules, text).context("invalid --position")?;
            if pos.is_over() {
                bail!("--position {text:?} is a finished game: there is nothing to play");
            }
            pos
        }
        None => Position::new(rules),
    };
    let series = Series {
        start,
        a,
        b,
        limits,
        seed: args.seed,
        random_plies: args.random_plies,
        tables: tables.as_ref(),
    };
    let pb = ProgressBar::new(args.games as u64);
    if std::io::stderr().is_terminal() {
        pb.set_draw_target(ProgressDrawTarget::stderr());
        pb.set_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} games  {elapsed_precise} (eta {eta})")
                .expect("a valid template"),
        );
    } else {
        pb.set_draw_target(ProgressDrawTarget::hidden());
    }
    // Without a terminal (a log file), one plain line per finished game
    // instead of the bar, so a long series shows its progress and an
    // interrupted one keeps the games it played.
    let log = (!std::io::stderr().is_terminal()).then(|| std::sync::Mutex::new(Tally::default()));
    let mut builder = rayon::ThreadPoolBuilder::new().stack_size(16 << 20);
    if let Some(t) = args.threads {
        builder = builder.num_threads(t.max(1));
    }
    let pool = builder.build().context("cannot start worker threads")?;
    let started = std::time::Instant::now();
    if let Some(dir) = &args.records {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create the records directory {}", dir.display()))?;
    }
    let results: Vec<GameScore> = pool.install(|| {
        (0..args.games)
            .into_par_iter()
            .map(|i| {
                let (r, game) = play_one(&series, i);
                if let Some(dir) = &args.records {
                    write_record(dir, &args, i, &r, game)?;
                }
                pb.inc(1);
                if let Some(tally) = &log {
                    // The lock also keeps each line whole and the tallies in order.
                    let mut t = tally.lock().unwrap_or_else(|e| e.into_inner());
                    eprintln!("{}", game_line(&r, i, args.games, &mut t));
                }
                Ok(r)
            })
            .collect::<anyhow::Result<_>>()
    })?;
    pb.finish_and_clear();
    let secs = started.elapsed().as_secs_f64();
    let mut tally = Tally::default();
    for r in &results {
        tally.add(r.score);
    }
    let Tally {
        wins: w,
        draws: d,
        losses: l,
    } = tally;
    let p = tally.score().context("no games were played")?;
    let elo = tally.elo().context("no games were played")?;
    let (e, err) = match elo {
        Elo::Estimate { elo, error } => (elo, Some(error)),
        Elo::AtLeast(e) | Elo::AtMost(e) => (e, None),
    };
    // With every game won (or lost) the Elo has no finite estimate: `e` is a bound.
    let elo_text = match elo {
        Elo::Estimate { elo, error } => format!("Elo {:+.0} ± {error:.0}", elo + 0.0),
        Elo::AtLeast(e) => format!("Elo >= {e:+.0} (bound: all games won)"),
        Elo::AtMost(e) => format!("Elo <= {e:+.0} (bound: all games lost)"),
    };
    let by_colour = |south: bool| {
        let rs: Vec<GameScore> = results.iter().copied().filter(|r| r.a_south == south).collect();
        let w = rs.iter().filter(|r| r.score == 1.0).count();
        let d = rs.iter().filter(|r| r.score == 0.5).count();
        (w, d, rs.len() - w - d)
    };
    let (south, north) = (by_colour(true), by_colour(false));
    let (lo, hi) = wilson_interval(p, results.len() as f64);
    let plies = results.iter().map(|r| r.plies).sum::<usize>() as f64 / results.len() as f64;
    let margin = results.iter().map(|r| r.margin as f64).sum::<f64>() / results.len() as f64;
    // Deterministic players replay the same game from the same opening, so
    // games from repeated openings are not independent evidence.
    let openings = results
        .iter()
        .map(|r| r.opening)
        .collect::<std::collections::HashSet<_>>()
        .len();
    let pairs = results.len().div_ceil(2);
    if openings < pairs {
        eprintln!(
            "note: {openings} distinct openings for {pairs} pairs of games; deterministic players repeat \
             games from a repeated opening, so the interval overstates the evidence (use more --random-plies)"
        );
    }
    if args.json {
        let out = serde_json::json!({
            "variant": rules.variant().name(),
            "holes": rules.holes(),
            "position": start.to_notation(),
            "a": args.a,
            "b": args.b,
            "games": args.games,
            "movetime_ms": args.movetime_ms,
            "nodes": args.nodes,
            "depth": limits.depth,
            "wins": w,
            "draws": d,
            "losses": l,
            "score": p,
            "score_95": [lo, hi],
            "elo": e,
            "elo_error": err,
            "a_south": { "wins": south.0, "draws": south.1, "losses": south.2 },
            "a_north": { "wins": north.0, "draws": north.1, "losses": north.2 },
            "avg_plies": plies,
            "avg_margin": margin,
            "openings": openings,
            "tablebases": tables_dir.map(|d| d.display().to_string()),
            "seconds": secs,
        });
        outln!("{out}")?;
    } else {
        outln!(
            "{} vs {} ({} {}x{}, {} games): +{} ={} -{}  score {:.1}% (95% {:.1}-{:.1}%)  {}  (A as South +{} ={} -{}, as North +{} ={} -{}; {} openings, avg {:.0} plies, A margin {:+.1}, {:.1} s)",
            args.a,
            args.b,
            rules.variant().name(),
            2,
            rules.holes(),
            args.games,
            w,
            d,
            l,
            100.0 * p,
            100.0 * lo,
            100.0 * hi,
            elo_text,
            south.0,
            south.1,
            south.2,
            north.0,
            north.1,
            north.2,
            openings,
            plies,
            margin,
            secs
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse() {
        assert_eq!("level:7".parse::<Spec>().unwrap(), Spec::Level(7));
        assert_eq!("random".parse::<Spec>().unwrap(), Spec::Level(1));
        assert_eq!("greedy".parse::<Spec>().unwrap(), Spec::Level(2));
        assert_eq!("ab".parse::<Spec>().unwrap(), Spec::Full(EngineKind::AlphaBeta));
        assert_eq!("MCTS".parse::<Spec>().unwrap(), Spec::Full(EngineKind::Mcts));
        assert!("level:11".parse::<Spec>().is_err());
        assert_eq!(
            "ab:5,1,2,3".parse::<Spec>().unwrap(),
            Spec::Weighted(EvalWeights {
                row_seed: 5,
                mobility: 1,
                threat: 2,
                tempo: 3,
                quiescence: 0
            })
        );
        assert!("ab:5,1".parse::<Spec>().is_err());
        assert!("stockfish".parse::<Spec>().is_err());
    }

    #[test]
    fn game_lines_keep_a_running_tally() {
        let r = |a_south, score, margin| GameScore {
            a_south,
            score,
            plies: 40,
            margin,
            opening: 0,
        };
        let mut tally = Tally::default();
        assert_eq!(
            game_line(&r(true, 1.0, 12), 4, 10, &mut tally),
            "game 5/10: A as South won, margin +12, 40 plies; 1 played: +1 =0 -0 (100.0 %)"
        );
        game_line(&r(false, 0.5, 0), 0, 10, &mut tally);
        assert_eq!(
            game_line(&r(false, 0.0, -4), 9, 10, &mut tally),
            "game 10/10: A as North lost, margin -4, 40 plies; 3 played: +1 =1 -1 (50.0 %)"
        );
        assert_eq!(
            tally,
            Tally {
                wins: 1,
                draws: 1,
                losses: 1
            }
        );
    }
}
