//! `hoyito serve`: the web app (JSON API, WebSocket live updates, browser UI).

use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `hoyito serve`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Address to listen on (port 0 picks a free port, printed at start).
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: SocketAddr,
    /// SQLite database holding every game and move (created if missing).
    #[arg(long, default_value = "./hoyito.db")]
    pub db: PathBuf,
    /// Endgame tablebases for the level-10 engine (default: ./tablebases if it exists).
    #[arg(long, value_name = "DIR")]
    pub tablebases: Option<PathBuf>,
}

/// Serves until Ctrl-C or SIGTERM. Prints `listening on http://ADDR` once bound.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let config = hoyito_server::Config {
        addr: args.addr,
        db: args.db,
        tablebases: args
            .tablebases
            .or_else(|| Some(PathBuf::from("tablebases")).filter(|d| d.is_dir())),
    };
    hoyito_server::run(config, |addr| {
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "listening on http://{addr}");
        let _ = out.flush();
    })?;
    Ok(ExitCode::SUCCESS)
}
