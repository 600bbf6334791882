//! One module per subcommand; each parses its arguments and calls the libraries.

pub mod analyze;
pub mod bench;
pub mod common;
pub mod perft;
pub mod play;
pub mod replay;
pub mod selfplay;
pub mod serve;
pub mod tablebase;
pub mod ugi;
