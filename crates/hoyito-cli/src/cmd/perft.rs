//! `hoyito perft`: the number of move sequences of D plies from the start.

use std::process::ExitCode;

use hoyito_core::perft::{perft, perft_with_history};
use hoyito_core::Position;

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
    let pos = Position::new(rules);
    if args.divide && args.depth > 0 {
        let mut total = 0;
        for m in pos.legal_moves() {
            let mut child = pos;
            child.play(m).expect("legal");
            let n = perft_with_history(child, args.depth - 1, &mut vec![pos.repetition_key()]);
            outln!("{} {n}", pos.move_token(m))?;
            total += n;
        }
        outln!("total {total}")?;
    } else {
        outln!("{}", perft(&pos, args.depth))?;
    }
    Ok(ExitCode::SUCCESS)
}
