//! Searches, by random play in Hoyito II and III on 2×6, for
//! (a) a position and move whose relay sowing is endless
//!     (`Position::play` returns `PlayError::Endless`), and
//! (b) a position and move whose finite sowing has more than 10,000 laps.
//!
//! ```text
//! cargo run --release -p hoyito-lab --bin find_long_sowings -- [seed] [max_moves_tested] [games]
//! ```
//!
//! `HOYITO_HOLES=n` plays on 2×n instead of 2×6; `HOYITO_SEEDS=s` starts
//! with `s` seeds per hole instead of 4; `HOYITO_SKIP_ORIGIN=1` and
//! `HOYITO_CAPTURE_SIDE=opponent` set those options.
//!
//! With `games`, random single games are played instead of whole matches.
//!
//! Every candidate move of every position met in random matches (games
//! chained into rounds, so later rounds have closed holes) is tried on a
//! copy. The examples found are committed in hoyito-core's
//! `tests/examples.rs`.
//!
//! `find_long_sowings perturb < endless.txt` instead tries, for each
//! `ENDLESS` line of an earlier run, every board one seed away.
//!
//! `find_long_sowings paths [seed] [samples]` samples lap-start states
//! (board, origin, hand) at random instead of game positions, walks each
//! back lap by lap to a state no lap can lead to, and sows the move from
//! there with `Position::play_unchecked`. Lap starts lie on long sowings
//! in proportion to their length, so this finds long sowings much more
//! often than game positions do. With `HOYITO_CAPTURE_SIDE=opponent` South
//! is the mover (a 4 made in South's row relays) and chains that begin in
//! North's row are skipped.
//!
//! `find_long_sowings boards [seed] [samples] [cap]` sows one South move of
//! random boards (`HOYITO_HOLES`, `HOYITO_SEEDS`, `HOYITO_CAPTURE_SIDE`)
//! with a relay of its own capped at `cap` laps, printing each longest so
//! far, every capped move (`CAPPED`: endless, or longer than the cap) and
//! a histogram. `HOYITO_NEAR=1` also sows every board one seed away from
//! each capped one; `HOYITO_BAD=k` keeps only boards with `k` ordered
//! pairs of residues differing by 1 or 4 (see below).
//! `find_long_sowings relay "<position>" <hole> [cap]` sows one South move
//! the same way, counts the hands it lifts by their residue modulo 2n + 1,
//! and sows a finite one again with the core. `find_long_sowings construct
//! [seed] [samples] [cap]` builds boards with exactly one such pair
//! (`HOYITO_DIFF=1` or `4` picks its difference) and sows them; with
//! `HOYITO_CAPTURE_SIDE=opponent` a pair differing by 4 can end the move
//! only in North's row, which makes sowings about twice as long.
//! `HOYITO_BACK=k` extends every built sowing of `k` laps or more back
//! along the laps that lead to its first one (the tree of previous laps,
//! depth first) to the deepest lap start in South's row, and sows the
//! move from there again: the laps back plus the laps on must add up.
//!
//! The residues: a relay's lap ends at a time congruent, modulo the ring's
//! length plus one, to the last lifting time of the hole it lifts, so the
//! residues of the holes' last lifting times and of the current lap's end
//! are only permuted, and a lap can end (a last seed making 1 or 4) only
//! where two of them differ by 1 or 4. Without such a pair the sowing is
//! endless (the core proves endless sowings this way); with exactly one
//! it is long.
//!
//! `find_long_sowings cycles [seed] [samples] [position move]` follows the
//! relay that always lifts (even a hole made 1 or 4, where a real move
//! stops) from random 2×6 lap starts, or from the first lap of the given
//! move, around its whole cycle: the cycle's length, how many of its laps
//! would stop a real move, the longest stretch without one, and the hands
//! never lifted.
//!
//! Findings: docs/research/find-long-sowings.md.

mod env;
mod laps;
mod residues;

use hoyito_core::{Match, PlayError, Position, Rules, Variant};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use env::{board_from_env, capture_side_from_env};
use laps::{cycles, paths};
use residues::{bad_pairs, boards, construct, relay_one};

fn main() {
    match std::env::args().nth(1).as_deref() {
        Some("perturb") => return perturb(),
        Some("paths") => return paths(),
        Some("cycles") => return cycles(),
        Some("boards") => return boards(),
        Some("relay") => return relay_one(),
        Some("construct") => return construct(),
        _ => {}
    }
    let mut args = std::env::args().skip(1);
    let seed: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(1);
    let budget: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(50_000_000);
    let single_games = args.next().as_deref() == Some("games");
    let (holes, seeds) = board_from_env();
    let holes = holes as usize;
    // Options: HOYITO_SKIP_ORIGIN=1, HOYITO_CAPTURE_SIDE=opponent.
    let skip_origin = std::env::var("HOYITO_SKIP_ORIGIN").is_ok_and(|v| v == "1");
    let capture_side = capture_side_from_env();
    let mut rng = SmallRng::seed_from_u64(seed);
    let t0 = std::time::Instant::now();
    let mut tested = 0u64;
    let mut endless = 0u64;
    // Endless sowings of boards without closed holes whose residues (at the
    // first lap) prove them endless.
    let mut by_residues = 0u64;
    let mut long = 0u64;
    let mut max_laps = 0u32;
    let mut games = 0u64;
    // hist[k]: finite sowings of 2^k..2^(k+1)-1 laps.
    let mut hist = [0u64; 32];
    let mut longest = String::new();
    // The candidate that took longest to sow (or to prove endless).
    let mut slowest = (std::time::Duration::ZERO, String::new());
    while tested < budget && long < 5 {
        let variant = [Variant::II, Variant::III][(games % 2) as usize];
        games += 1;
        let rules = Rules::try_from(hoyito_core::RulesSpec {
            variant,
            holes: holes as u8,
            seeds,
            skip_origin,
            capture_side,
            ..Default::default()
        })
        .expect("HOYITO_HOLES is 4..=12 and HOYITO_SEEDS fits");
        // Whole matches: later rounds have closed holes (a shorter ring).
        let mut mat = Match::new(rules);
        for _ply in 0..20_000 {
            if mat.outcome().is_some() {
                break;
            }
            if mat.current().is_over() {
                if single_games || !mat.start_next_round() {
                    break;
                }
                continue;
            }
            let pos = *mat.current().position();
            for m in pos.candidates() {
                tested += 1;
                let mut p = pos;
                // `play_unchecked` sows exactly like `play` (candidates are
                // checked moves), without settling the next player's passes.
                let t = std::time::Instant::now();
                let result = p.play_unchecked(m);
                let took = t.elapsed();
                if took > slowest.0 {
                    slowest = (
                        took,
                        format!(
                            "variant={} pos=\"{}\" move={} result={result:?}",
                            variant,
                            pos.to_notation(),
                            pos.move_token(m)
                        ),
                    );
                }
                match result {
                    Err(PlayError::Endless) => {
                        endless += 1;
                        if pos.closed_mask() == 0 && m.direction() == hoyito_core::Direction::Ccw {
                            let board: Vec<u32> = pos.board().iter().map(|&c| c.into()).collect();
                            by_residues += u64::from(bad_pairs(&board, m.hole()) == 0);
                        }
                        if endless <= 5 {
                            println!(
                                "ENDLESS variant={} pos=\"{}\" move={}",
                                variant,
                                pos.to_notation(),
                                pos.move_token(m)
                            );
                        }
                    }
                    Ok(played) => {
                        hist[31 - played.laps.leading_zeros() as usize] += 1;
                        if played.laps > max_laps {
                            max_laps = played.laps;
                            longest = format!(
                                "variant={} pos=\"{}\" move={} laps={}",
                                variant,
                                pos.to_notation(),
                                pos.move_token(m),
                                played.laps
                            );
                        }
                        if played.laps > 10_000 {
                            long += 1;
                            println!(
                                "LONG variant={} pos=\"{}\" move={} laps={} captured={} extra={} after=\"{}\"",
                                variant,
                                pos.to_notation(),
                                pos.move_token(m),
                                played.laps,
                                played.captured,
                                played.extra_turn,
                                p.to_notation()
                            );
                        }
                    }
                    Err(e) => panic!("candidate {m:?} of {} failed: {e}", pos.to_notation()),
                }
            }
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            let m = legal[rng.random_range(0..legal.len())];
            mat.play(m).expect("legal moves play");
        }
    }
    println!(
        "seed {seed}: {games} games, {tested} moves tested, {endless} endless ({by_residues} proved by residues), {long} over 10,000 laps, longest finite {max_laps} laps, {:.1?}",
        t0.elapsed()
    );
    println!("longest finite: {longest}");
    println!("slowest: {:.1?} {}", slowest.0, slowest.1);
    for (k, c) in hist.iter().enumerate().filter(|(_, &c)| c > 0) {
        println!("laps {:>7}..{:<7} {c}", 1u64 << k, (1u64 << (k + 1)) - 1);
    }
}

/// Reads `ENDLESS variant=V pos="…" move=K` lines on standard input and tries,
/// for each, every board one seed away (a seed moved from one hole to
/// another), reporting finite sowings of the same move longer than 10,000 laps.
fn perturb() {
    use std::io::BufRead;
    let t0 = std::time::Instant::now();
    let mut tested = 0u64;
    let mut best = 0u32;
    for line in std::io::stdin().lock().lines() {
        let line = line.unwrap();
        let Some(rest) = line.strip_prefix("ENDLESS variant=") else {
            continue;
        };
        let (v, rest) = rest.split_once(' ').unwrap();
        let variant: Variant = v.parse().unwrap();
        let rules = Rules::standard(variant);
        let text = rest.split('"').nth(1).unwrap();
        let token = rest.rsplit_once("move=").unwrap().1.trim();
        let pos = Position::from_notation(rules, text).unwrap();
        let m = pos.parse_move(token).unwrap();
        let mut setup = pos.to_setup();
        let len = setup.board.len();
        for a in 0..len {
            for b in 0..len {
                if a == b || setup.board[a] == 0 {
                    continue;
                }
                setup.board[a] -= 1;
                setup.board[b] += 1;
                if setup.board[m.hole()] > 0 {
                    if let Ok(p) = Position::from_setup(rules, &setup) {
                        if !p.is_over() && p.to_move() == pos.to_move() {
                            tested += 1;
                            let mut q = p;
                            if let Ok(played) = q.play_unchecked(m) {
                                best = best.max(played.laps);
                                if played.laps > 10_000 {
                                    println!(
                                        "LONG variant={} pos=\"{}\" move={} laps={} after=\"{}\"",
                                        variant,
                                        p.to_notation(),
                                        p.move_token(m),
                                        played.laps,
                                        q.to_notation()
                                    );
                                }
                            }
                        }
                    }
                }
                setup.board[a] += 1;
                setup.board[b] -= 1;
            }
        }
    }
    println!(
        "perturb: {tested} tested, longest finite {best} laps, {:.1?}",
        t0.elapsed()
    );
}
