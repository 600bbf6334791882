//! `hoyito`: play, replay, analyse and serve Hoyito, the Dominican mancala games.
//!
//! Exit codes: 0 success, 1 failure of a check (e.g. a test position that
//! did not match), 2 usage or input error (one line on stderr). A closed
//! output pipe (`hoyito … | head -1`) ends a command quietly with 0.

#![forbid(unsafe_code)]

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod cmd;

/// mimalloc rather than the system's allocator: a server holding thousands
/// of games between short-lived request buffers stays near its live size
/// (docs/PERFORMANCE.md, memory per idle game).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Hoyito (El Hoyito, Casitas, Mate): rules engine, engine, tablebases and web app.
#[derive(Parser)]
#[command(name = "hoyito", version, about, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Apply moves from the start position and print the board (or JSON) after each ply.
    Replay(cmd::replay::Args),
    /// Count move sequences of D plies from the start.
    Perft(cmd::perft::Args),
    /// Random-playout speed of the rules engine, single-threaded.
    Bench(cmd::bench::Args),
    /// Play in the terminal: against the engine (--level, --side) or two humans (--humans).
    Play(cmd::play::Args),
    /// Engine protocol (UGI, like UCI) on stdin/stdout, for GUIs and match runners.
    Ugi(cmd::ugi::Args),
    /// Serve the web app: JSON API, live WebSocket updates and the browser UI.
    Serve(cmd::serve::Args),
    /// Exact endgame tablebases: build, probe and verify.
    Tablebase(cmd::tablebase::Args),
    /// Engine analysis: best move, score, principal variation and the score of every legal move.
    Analyze(cmd::analyze::Args),
    /// Engine-against-engine series in parallel: W/D/L, score and Elo difference.
    Selfplay(cmd::selfplay::Args),
    /// Puzzles certified by the tablebases: generate a set from self-play, check a set.
    Puzzles(cmd::puzzles::Args),
    /// Write the web app as static files to DIR (games on the device work from any static host, offline too).
    ExportSite(cmd::export_site::Args),
    // (more subcommands are added here, one line each)
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // Help and version go to stdout with 0; usage errors are one line, exit 2.
            if matches!(
                e.kind(),
                clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion
            ) {
                let _ = e.print();
                return ExitCode::SUCCESS;
            }
            let msg = e.to_string();
            let first = msg
                .lines()
                .find(|l| !l.trim().is_empty())
                .unwrap_or("usage error");
            eprintln!("hoyito: {}", first.trim_start_matches("error: "));
            return ExitCode::from(2);
        }
    };
    let result = match cli.command {
        Command::Replay(a) => cmd::replay::run(a),
        Command::Analyze(a) => cmd::analyze::run(a),
        Command::Selfplay(a) => cmd::selfplay::run(a),
        Command::Perft(a) => cmd::perft::run(a),
        Command::Bench(a) => cmd::bench::run(a),
        Command::Tablebase(a) => cmd::tablebase::run(a),
        Command::Play(a) => cmd::play::run(a),
        Command::Ugi(a) => cmd::ugi::run(a),
        Command::Serve(a) => cmd::serve::run(a),
        Command::ExportSite(a) => cmd::export_site::run(a),
        Command::Puzzles(a) => cmd::puzzles::run(a),
    };
    match result {
        Ok(code) => code,
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("hoyito: {}", one_line(&format!("{e:#}")));
            ExitCode::from(2)
        }
    }
}

/// Whether the error is a write to a closed pipe (the reader is gone).
fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// Errors are printed as one line.
fn one_line(s: &str) -> String {
    s.split('\n')
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}
