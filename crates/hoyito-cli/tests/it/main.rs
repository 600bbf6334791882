//! The command's integration tests, one test binary: each module was a test
//! binary of its own (`tests/<name>.rs`); one binary links once.
//! `cargo test -p hoyito-cli --test it <module>::` runs one module's tests,
//! e.g. `cargo test -p hoyito-cli --test it -- --ignored reliability::`.

mod process;

mod accounts;
mod bench;
mod disk_full;
mod engine;
mod export_site;
mod pipe;
mod play;
mod postgres_faults;
mod postgres_tls;
mod puzzles;
mod reliability;
mod serve;
mod serve_answers;
mod tablebase;
mod ugi;
