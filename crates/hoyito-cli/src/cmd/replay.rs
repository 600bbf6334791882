//! `hoyito replay`: apply moves from the start and print each position.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context};
use hoyito_core::{Game, Match, Position, Record, State};
use serde::Serialize;

use super::common::{board_text, legal_tokens, read_file, RulesArgs};

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    rules: RulesArgs,
    /// Move tokens separated by spaces, e.g. "3 4 1R 2+5".
    #[arg(
        long,
        conflicts_with = "record",
        required_unless_present = "record",
        allow_hyphen_values = true
    )]
    moves: Option<String>,
    /// A game record file (its tags give the rules; rule options on the command line are ignored).
    #[arg(long)]
    record: Option<PathBuf>,
    /// Play the moves as a match: when a round ends, the next round starts.
    #[arg(long = "match")]
    as_match: bool,
    /// One JSON object per line: the state after each ply.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct PlyLine<'a> {
    ply: usize,
    #[serde(rename = "move")]
    token: &'a str,
    mover: &'static str,
    laps: u32,
    captured_by_move: u8,
    extra_turn: bool,
    #[serde(flatten)]
    state: State,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let mut out = String::new();
    match (&args.moves, &args.record) {
        (Some(moves), _) => {
            let rules = args.rules.rules()?;
            let tokens: Vec<&str> = moves.split_whitespace().collect();
            if args.as_match {
                let mut m = Match::new(rules);
                replay_tokens(&mut out, args.json, &tokens, &mut Target::Match(&mut m))?;
            } else {
                let mut g = Game::new(rules);
                replay_tokens(&mut out, args.json, &tokens, &mut Target::Game(&mut g))?;
            }
        }
        (None, Some(path)) => {
            let text = read_file(path)?;
            let record = Record::read(&text).with_context(|| format!("{}", path.display()))?;
            let mut ply = 0;
            for (r, game) in record.games().iter().enumerate() {
                if record.match_().is_some() && !args.json {
                    let _ = writeln!(out, "== round {} ==", r + 1);
                }
                let mut p = *game.start();
                let mut g = Game::from_position(p);
                for &m in game.moves() {
                    ply += 1;
                    let token = p.move_token(m).to_string();
                    let mover = p.to_move();
                    let played = g.play(m).context("record replay")?;
                    emit(&mut out, args.json, ply, &token, mover, played, g.position())?;
                    p = *g.position();
                }
            }
        }
        (None, None) => bail!("give --moves \"<tokens>\" or --record FILE"),
    }
    let mut stdout = std::io::stdout().lock();
    stdout
        .write_all(out.as_bytes())
        .context("cannot write to stdout")?;
    Ok(ExitCode::SUCCESS)
}

enum Target<'a> {
    Game(&'a mut Game),
    Match(&'a mut Match),
}

fn replay_tokens(out: &mut String, json: bool, tokens: &[&str], t: &mut Target) -> anyhow::Result<()> {
    for (i, token) in tokens.iter().enumerate() {
        let ply = i + 1;
        if let Target::Match(m) = t {
            if m.current().is_over() && m.start_next_round() && !json {
                let _ = writeln!(out, "== round {} ==", m.round());
            }
        }
        let pos: Position = match t {
            Target::Game(g) => *g.position(),
            Target::Match(m) => *m.current().position(),
        };
        if pos.is_over() {
            bail!("ply {ply}: move {token:?} after the end of the game; no legal moves");
        }
        let mv = pos
            .parse_move(token)
            .map_err(|e| anyhow::anyhow!("ply {ply}: {e}; legal moves: {}", legal_tokens(&pos)))?;
        let played = match t {
            Target::Game(g) => g.play(mv),
            Target::Match(m) => m.play(mv),
        }
        .map_err(|e| {
            anyhow::anyhow!(
                "ply {ply}: move {token:?} is illegal: {e}; legal moves: {}",
                legal_tokens(&pos)
            )
        })?;
        let after = match t {
            Target::Game(g) => *g.position(),
            Target::Match(m) => *m.current().position(),
        };
        let token = pos.move_token(mv).to_string();
        emit(out, json, ply, &token, pos.to_move(), played, &after)?;
    }
    Ok(())
}

fn emit(
    out: &mut String,
    json: bool,
    ply: usize,
    token: &str,
    mover: hoyito_core::Side,
    played: hoyito_core::Played,
    after: &Position,
) -> anyhow::Result<()> {
    if json {
        let line = PlyLine {
            ply,
            token,
            mover: mover.name(),
            laps: played.laps,
            captured_by_move: played.captured,
            extra_turn: played.extra_turn,
            state: State::from_position(after),
        };
        out.push_str(&serde_json::to_string(&line)?);
        out.push('\n');
    } else {
        let who = if mover == hoyito_core::Side::South {
            "South"
        } else {
            "North"
        };
        let _ = write!(
            out,
            "ply {ply}: {who} plays {token} ({} lap{}",
            played.laps,
            if played.laps == 1 { "" } else { "s" }
        );
        if played.captured > 0 {
            let _ = write!(out, ", captures {}", played.captured);
        }
        if played.extra_turn {
            out.push_str(", extra turn");
        }
        out.push_str(")\n");
        out.push_str(&board_text(after));
        out.push('\n');
    }
    Ok(())
}
