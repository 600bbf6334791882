//! `hoyito perft`: the number of move sequences of D plies from the start.

use std::process::ExitCode;

use hoyito_core::{Position, RepetitionKey, Rules};

use super::common::RulesArgs;

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    rules: RulesArgs,
    /// Plies (an extra turn is its own ply; a finished game is a leaf).
    #[arg(long)]
    depth: u32,
    /// Print the count below each first move too.
    #[arg(long)]
    divide: bool,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let rules = args.rules.rules()?;
    if args.depth > 64 {
        anyhow::bail!("depth {} is too deep: expected at most 64", args.depth);
    }
    if args.divide {
        let pos = Position::new(rules);
        let mut total = 0;
        for m in pos.legal_moves() {
            let mut child = pos;
            child.play(m).expect("legal");
            let mut path = vec![pos.repetition_key()];
            let n = if args.depth == 0 {
                0
            } else {
                perft_from(child, args.depth - 1, &mut path)
            };
            println!("{} {n}", pos.move_token(m));
            total += n;
        }
        println!("total {total}");
    } else {
        println!("{}", perft(rules, args.depth));
    }
    Ok(ExitCode::SUCCESS)
}

/// Move sequences of `depth` plies from the start of a game under `rules`,
/// under the full rules (passes, endless sowings, repetition).
pub fn perft(rules: Rules, depth: u32) -> u64 {
    let mut path = Vec::new();
    perft_from(Position::new(rules), depth, &mut path)
}

fn perft_from(mut pos: Position, depth: u32, path: &mut Vec<RepetitionKey>) -> u64 {
    if !pos.is_over() {
        // Repetition: the third occurrence of a position ends the game.
        let key = pos.repetition_key();
        if path.iter().filter(|&&k| k == key).count() >= 2 {
            pos.end_by_repetition();
        }
    }
    if depth == 0 || pos.is_over() {
        return 1;
    }
    let mut moves = pos.legal_moves();
    if moves.is_empty() {
        pos.pass();
        return perft_from(pos, depth, path);
    }
    path.push(pos.repetition_key());
    let mut n = 0;
    for m in moves.drain(..) {
        let mut child = pos;
        child.play_unchecked(m).expect("legal moves are finite");
        n += perft_from(child, depth - 1, path);
    }
    path.pop();
    n
}
