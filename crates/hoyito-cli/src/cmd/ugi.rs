//! `hoyito ugi`: the engine over the UGI protocol on stdin/stdout; the
//! protocol itself is [`hoyito_engine::ugi`]. See `docs/PROTOCOL.md`.

use std::process::ExitCode;

use hoyito_engine::ugi::Session;

use super::common::RulesArgs;

/// Engine protocol (UGI) on stdin/stdout.
#[derive(clap::Args)]
pub struct Args {
    /// Initial rules (the GUI can change them with `setoption`).
    #[command(flatten)]
    rules: RulesArgs,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let rules = args.rules.rules()?;
    Session::new(rules, std::io::stdout()).run(std::io::stdin().lock());
    Ok(ExitCode::SUCCESS)
}
