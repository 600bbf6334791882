//! One module per subcommand; each parses its arguments and calls the libraries.

/// `print!` that returns the write error instead of panicking, so that a
/// closed output pipe (`hoyito … | head -1`) ends the command quietly
/// (`main` exits with 0 on a broken pipe).
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        write!(std::io::stdout(), $($arg)*)
    }};
}

/// `println!` that returns the write error (a closed pipe ends the command
/// quietly in `main`) instead of panicking.
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout(), $($arg)*)
    }};
}

pub mod analyze;
pub mod bench;
pub mod common;
pub mod export_site;
pub mod perft;
pub mod play;
pub mod puzzles;
pub mod replay;
pub mod selfplay;
pub mod serve;
pub mod tablebase;
pub mod ugi;
