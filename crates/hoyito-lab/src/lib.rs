//! The Hoyito lab: research programs, kept apart from the product crates.
//!
//! Each program in `src/bin/` is a search or a count whose findings were
//! committed elsewhere as exact facts (tests in the product crates, which
//! fail if a fact stops holding) or written up in `docs/research/`. None of
//! them is part of the `hoyito` binary, and no product crate depends on
//! this one; `cargo test` neither builds nor runs them. Run them in release
//! mode:
//!
//! ```text
//! cargo run --release -p hoyito-lab --bin find_long_sowings -- [seed] [max_moves_tested] [games]
//! cargo run --release -p hoyito-lab --bin longest_sowing -- <holes per row> <max seeds> [closed] [seeds per hole]
//! cargo run --release -p hoyito-lab --bin optimal_moves -- --variant V --tables DIR [--holes N] [--positions N] [--levels 1-10] [--sample-level L] …
//! cargo run --release -p hoyito-lab --bin probe_losses -- VARIANT PAIRS NODES OPP_LEVEL RANDOM_PLIES [SEED]
//! cargo run --release -p hoyito-lab --bin search_matches -- [matches]
//! cargo run --release -p hoyito-lab --bin search_no_moves -- [seed] [samples]
//! ```
//!
//! - `find_long_sowings`: endless and very long relay sowings of Hoyito II
//!   and III, by random play, by sampling lap starts, and on boards built
//!   from their lap residues (several modes; see its module docs and
//!   `docs/research/find-long-sowings.md`).
//! - `longest_sowing`: the longest finite relay sowing of every board of
//!   a small ring, exactly, by exhausting each seed layer.
//! - `optimal_moves`: how often each engine level plays an optimal move
//!   (by the tablebases) in positions where its own games enter the
//!   tables; its pieces are the module [`optimal`], which
//!   `tests/optimal_moves.rs` checks on 2×4 tables.
//! - `probe_losses`: full-strength alpha-beta against a level from random
//!   openings, printing every game it does not win with its scores.
//! - `search_matches`: short random matches that show the match rules
//!   (a drawn round, a match that ends, Hoyito III's last four).
//! - `search_no_moves`: positions where neither player has a legal move
//!   although seeds are on the board.
//!
//! `docs/research/README.md` lists the programs with what each searches and
//! where its findings are.

#![forbid(unsafe_code)]

pub mod optimal;
