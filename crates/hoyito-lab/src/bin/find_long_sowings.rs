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

use hoyito_core::{Match, PlayError, Position, Rules, Variant};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

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

/// Holes per row (`HOYITO_HOLES`, default 6) and seeds per hole
/// (`HOYITO_SEEDS`, default 4).
/// `HOYITO_CAPTURE_SIDE` (`any` by default).
fn capture_side_from_env() -> hoyito_core::CaptureSide {
    std::env::var("HOYITO_CAPTURE_SIDE")
        .ok()
        .map(|v| v.parse().expect("HOYITO_CAPTURE_SIDE is any or opponent"))
        .unwrap_or_default()
}

fn board_from_env() -> (u8, u8) {
    let var = |name: &str, default: u8| {
        std::env::var(name)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    (var("HOYITO_HOLES", 6), var("HOYITO_SEEDS", 4))
}

/// Walks random lap-start states back to where their sowing began, then
/// sows that move with the core (see the module docs).
fn paths() {
    let mut args = std::env::args().skip(2);
    let seed: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(1);
    let samples: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(1_000_000);
    let (holes, seeds) = board_from_env();
    let len = 2 * holes as usize;
    let total = len as u32 * seeds as u32;
    let capture_side = capture_side_from_env();
    // With casas captured in the opponent's row only, a 4 made in the
    // mover's row relays, so the mover matters: South (holes 0..n).
    let own = (capture_side == hoyito_core::CaptureSide::Opponent).then_some(holes as usize);
    let rules = Rules::try_from(hoyito_core::RulesSpec {
        variant: Variant::II,
        holes,
        seeds,
        capture_side,
        ..Default::default()
    })
    .expect("HOYITO_HOLES is 4..=12 and HOYITO_SEEDS fits");
    let mut rng = SmallRng::seed_from_u64(seed);
    let t0 = std::time::Instant::now();
    let (mut best, mut endless, mut skipped) = (0u32, 0u64, 0u64);
    let mut hist = [0u64; 32];
    for _ in 0..samples {
        // A lap start: the origin is empty, the hand holds its seeds.
        let mut state = Lap {
            board: vec![0; len],
            origin: rng.random_range(0..len),
            hand: 0,
        };
        for _ in 0..total {
            let i = rng.random_range(0..len);
            if i == state.origin {
                state.hand += 1;
            } else {
                state.board[i] += 1;
            }
        }
        if state.hand == 0 {
            continue;
        }
        let Some(start) = first_lap(state, own, 1_000_000) else {
            endless += 1;
            continue;
        };
        if own.is_some_and(|n| start.origin >= n) {
            // Not a South move.
            skipped += 1;
            continue;
        }
        let mut board: Vec<u8> = start.board.iter().map(|&c| c as u8).collect();
        board[start.origin] = start.hand as u8;
        let setup = hoyito_core::Setup {
            board,
            to_move: if start.origin < holes as usize {
                hoyito_core::Side::South
            } else {
                hoyito_core::Side::North
            },
            ..hoyito_core::Setup::start(&rules)
        };
        let Ok(pos) = Position::from_setup(rules, &setup) else {
            skipped += 1;
            continue;
        };
        let Some(m) = pos.candidates().into_iter().find(|m| m.hole() == start.origin) else {
            skipped += 1;
            continue;
        };
        let mut after = pos;
        match after.play_unchecked(m) {
            Ok(played) => {
                hist[31 - played.laps.leading_zeros() as usize] += 1;
                if played.laps > best {
                    best = played.laps;
                    println!(
                        "longest so far: pos=\"{}\" move={} laps={}",
                        pos.to_notation(),
                        pos.move_token(m),
                        played.laps
                    );
                }
            }
            Err(PlayError::Endless) => endless += 1,
            Err(e) => panic!("move {m:?} of {} failed: {e}", pos.to_notation()),
        }
    }
    println!(
        "paths seed {seed}: {samples} lap starts, {endless} endless, {skipped} skipped, longest finite {best} laps, {:.1?}",
        t0.elapsed()
    );
    for (k, c) in hist.iter().enumerate().filter(|(_, &c)| c > 0) {
        println!("laps {:>7}..{:<7} {c}", 1u64 << k, (1u64 << (k + 1)) - 1);
    }
}

/// A lap start of a relay sowing: the origin hole was just emptied into the hand.
#[derive(Clone, PartialEq, Eq)]
struct Lap {
    board: Vec<u32>,
    origin: usize,
    hand: u32,
}

/// Every lap start from which one lap of sowing leads to `s` (counter-
/// clockwise, the origin not skipped): the lap sowed `h` seeds from
/// `s.origin − h`, its last seed making `s.hand` in the landing hole, so
/// `s.hand` is neither 1 nor 4 (those end the move), except that with
/// `own = Some(n)` (capture side `opponent`, South moving) a 4 made in
/// holes `0..n` relays.
fn previous_laps(s: &Lap, own: Option<usize>) -> Vec<Lap> {
    let mut found = Vec::new();
    let relays_four = own.is_some_and(|n| s.origin < n);
    if s.hand == 1 || (s.hand == 4 && !relays_four) {
        return found;
    }
    let len = s.board.len();
    let mut sown = s.board.clone();
    sown[s.origin] = s.hand;
    let total: u32 = sown.iter().sum();
    for h in 1..=total as usize {
        let (full, part) = ((h / len) as u32, h % len);
        if sown.iter().any(|&c| c < full) {
            break;
        }
        let origin = (s.origin + len * (h / len + 1) - part) % len;
        let mut before = sown.clone();
        let ok = (0..len).all(|t| {
            let j = (origin + 1 + t) % len;
            let add = full + u32::from(t < part);
            before[j] = before[j].wrapping_sub(add);
            sown[j] >= add
        });
        if ok && before[origin] == 0 {
            found.push(Lap {
                board: before,
                origin,
                hand: h as u32,
            });
        }
    }
    found
}

/// The lap start, `limit` laps back at most, where the longest chain of laps
/// leading to `s` begins (`None` when the walk comes back to `s`: a cycle).
fn first_lap(s: Lap, own: Option<usize>, limit: u32) -> Option<Lap> {
    fn walk(s: &Lap, from: &Lap, own: Option<usize>, depth: u32, limit: u32) -> Option<(u32, Lap)> {
        let mut x = s.clone();
        let mut n = 0;
        loop {
            let prev = previous_laps(&x, own);
            if prev.is_empty() || depth + n >= limit {
                return Some((n, x));
            }
            if prev.len() == 1 {
                if prev[0] == *from {
                    return None;
                }
                x = prev.into_iter().next().expect("one");
                n += 1;
                continue;
            }
            let mut best: Option<(u32, Lap)> = None;
            for p in prev {
                if p == *from {
                    return None;
                }
                let (m, start) = walk(&p, from, own, depth + n + 1, limit)?;
                if best.as_ref().is_none_or(|b| m + 1 > b.0) {
                    best = Some((m + 1, start));
                }
            }
            let (m, start) = best.expect("several");
            return Some((n + m, start));
        }
    }
    walk(&s, &s, own, 0, limit).map(|(_, start)| start)
}

/// The deepest lap start in South's row (holes `0..n`) from which laps lead
/// to `s`, and how many laps back it lies (0: `s` itself, if South's),
/// searching the tree of previous laps depth first through at most
/// `nodes` lap starts. `s` must begin a finite sowing (no cycle leads to it).
fn deepest_south_start(s: Lap, own: Option<usize>, n: usize, nodes: u64) -> Option<(u64, Lap)> {
    let mut best: Option<(u64, Lap)> = None;
    let mut stack = vec![(0u64, s)];
    let mut seen = 0u64;
    while let Some((depth, lap)) = stack.pop() {
        seen += 1;
        if seen > nodes {
            break;
        }
        if lap.origin < n && best.as_ref().is_none_or(|b| depth > b.0) {
            best = Some((depth, lap.clone()));
        }
        for p in previous_laps(&lap, own) {
            stack.push((depth + 1, p));
        }
    }
    best
}

/// Follows the always-lifting relay around whole cycles (see the module docs).
fn cycles() {
    let args: Vec<String> = std::env::args().skip(2).collect();
    let seed: u64 = args.first().and_then(|s| s.parse().ok()).unwrap_or(1);
    let samples: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(5);
    let len = 12;
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut starts = Vec::new();
    if let (Some(text), Some(token)) = (args.get(2), args.get(3)) {
        let pos = Position::from_notation(Rules::standard(Variant::II), text).expect("a 2×6 position");
        let hole = pos.parse_move(token).expect("a move").hole();
        let mut board: Vec<u32> = pos.board().iter().map(|&c| c as u32).collect();
        let hand = std::mem::take(&mut board[hole]);
        starts.push(Lap {
            board,
            origin: hole,
            hand,
        });
    } else {
        for _ in 0..samples {
            let mut s = Lap {
                board: vec![0; len],
                origin: rng.random_range(0..len),
                hand: 0,
            };
            for _ in 0..48 {
                let i = rng.random_range(0..len);
                if i == s.origin {
                    s.hand += 1;
                } else {
                    s.board[i] += 1;
                }
            }
            if s.hand > 0 {
                starts.push(s);
            }
        }
    }
    const CAP: u64 = 200_000_000;
    for start in starts {
        let (mut s, mut laps, mut stops, mut stretch, mut longest) = (start.clone(), 0u64, 0u64, 0u64, 0u64);
        let mut hands = [0u64; 64];
        loop {
            let mut at = s.origin;
            for _ in 0..s.hand {
                at = (at + 1) % len;
                s.board[at] += 1;
            }
            s.hand = std::mem::take(&mut s.board[at]);
            s.origin = at;
            laps += 1;
            stretch += 1;
            hands[(s.hand as usize).min(63)] += 1;
            if s.hand == 1 || s.hand == 4 {
                stops += 1;
                longest = longest.max(stretch);
                stretch = 0;
            }
            if s == start || laps == CAP {
                break;
            }
        }
        if stops == 0 {
            longest = laps;
        }
        let never: Vec<usize> = (1..24).filter(|&h| hands[h] == 0).collect();
        println!(
            "cycle of {laps}{} laps, {stops} stopping laps, longest stretch without one {longest}, hands never lifted (1..23): {never:?}",
            if laps == CAP { "+ (capped)" } else { "" }
        );
    }
}

/// Sows a South move of random boards (every distribution of the seeds
/// equally likely) with [`relay`], capped at `cap` laps, and prints each
/// longest-so-far (see the module docs).
fn boards() {
    let mut args = std::env::args().skip(2);
    let seed: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(1);
    let samples: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(1_000_000);
    let cap: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(1_000_000);
    let (holes, seeds) = board_from_env();
    let n = holes as usize;
    let len = 2 * n;
    let total = len as u32 * seeds as u32;
    let mut rng = SmallRng::seed_from_u64(seed);
    let t0 = std::time::Instant::now();
    let (mut best, mut capped) = (0u32, 0u64);
    let mut hist = [0u64; 32];
    let mut board = vec![0u32; len];
    let near = std::env::var("HOYITO_NEAR").is_ok_and(|v| v == "1");
    let want_bad: Option<usize> = std::env::var("HOYITO_BAD").ok().and_then(|v| v.parse().ok());
    let row = |r: &[u32]| r.iter().map(u32::to_string).collect::<Vec<_>>().join(",");
    // Printed, not given to the core: its check of the other holes may
    // have to go round a cycle of billions of laps (check with `relay`).
    let report = |b: &[u32], hole: usize, laps: u32, sample: u64| {
        println!(
            "laps={laps} pos=\"{}/{} s 0-0\" move={} (sample {sample}, {:.1?})",
            row(&b[..n]),
            row(&b[n..]),
            hole + 1,
            t0.elapsed()
        );
    };
    for sample in 1..=samples {
        board.iter_mut().for_each(|c| *c = 0);
        for _ in 0..total {
            board[rng.random_range(0..len)] += 1;
        }
        let Some(start) = (0..n)
            .map(|k| (k + rng.random_range(0..n)) % n)
            .find(|&k| board[k] > 0)
        else {
            continue;
        };
        if want_bad.is_some_and(|k| bad_pairs(&board, start) != k) {
            continue;
        }
        let before = board.clone();
        let mut laps = relay(&mut board, start, cap.min(5_000));
        if laps > cap.min(5_000) && cap > 5_000 {
            // Residues without a difference of 1 or 4: endless, no need to
            // sow up to the cap.
            laps = if bad_pairs(&before, start) == 0 {
                cap + 1
            } else {
                relay(&mut before.clone(), start, cap)
            };
        }
        if laps > cap && near {
            // Every board one seed away from this (probably endless) one,
            // every South hole: counted in the histogram too.
            for from in 0..len {
                for to in (0..len).filter(|&to| to != from && before[from] > 0) {
                    let mut b = before.clone();
                    b[from] -= 1;
                    b[to] += 1;
                    for hole in (0..n).filter(|&k| b[k] > 0) {
                        let mut w = b.clone();
                        let l = relay(&mut w, hole, cap);
                        if l <= cap {
                            hist[63 - l.leading_zeros() as usize] += 1;
                        }
                        if l <= cap && (l as u32 > best || l > 10_000) {
                            best = best.max(l as u32);
                            report(&b, hole, l as u32, sample);
                        }
                    }
                }
            }
        }
        if laps > cap {
            capped += 1;
            println!(
                "CAPPED pos=\"{}/{} s 0-0\" move={} bad_pairs={}",
                row(&before[..n]),
                row(&before[n..]),
                start + 1,
                bad_pairs(&before, start)
            );
            continue;
        }
        let laps = laps as u32;
        hist[31 - laps.leading_zeros() as usize] += 1;
        if laps > best || laps > 10_000 {
            best = best.max(laps);
            report(&before, start, laps, sample);
        }
    }
    println!(
        "boards seed {seed}: {samples} samples, {capped} over {cap} laps (capped), longest finite {best} laps, {:.1?}",
        t0.elapsed()
    );
    for (k, c) in hist.iter().enumerate().filter(|(_, &c)| c > 0) {
        println!("laps {:>7}..{:<7} {c}", 1u64 << k, (1u64 << (k + 1)) - 1);
    }
}

/// The laps of the relay sowing from `origin` (standard rules of Hoyito II
/// and III, counter-clockwise, the origin not skipped), or `cap + 1` if it
/// has not ended after `cap` laps.
fn relay(board: &mut [u32], origin: usize, cap: u64) -> u64 {
    relay_observed(board, origin, cap, |_| {})
}

/// [`relay`], calling `on_hand` with each lap's hand.
fn relay_observed(board: &mut [u32], mut origin: usize, cap: u64, mut on_hand: impl FnMut(usize)) -> u64 {
    let len = board.len();
    // Capture side `opponent`: a 4 made in South's row relays.
    let own = match capture_side_from_env() {
        hoyito_core::CaptureSide::Opponent => len / 2,
        _ => 0,
    };
    let mut laps = 0;
    loop {
        let hand = std::mem::take(&mut board[origin]) as usize;
        on_hand(hand);
        laps += 1;
        let (full, part) = ((hand / len) as u32, hand % len);
        for (t, c) in board.iter_mut().enumerate() {
            let ahead = (t + len - origin - 1) % len;
            *c += full + u32::from(ahead < part);
        }
        let landing = (origin + hand) % len;
        if board[landing] == 1 || (board[landing] == 4 && landing >= own) {
            return laps;
        }
        if laps >= cap {
            return cap + 1;
        }
        origin = landing;
    }
}

/// `find_long_sowings relay "<board>" <hole> [cap]`: one South move sown by
/// [`relay`] (no cycle check), with the hands it lifts by their residue
/// modulo 2n + 1; a finite one is sown by the core too.
fn relay_one() {
    let mut args = std::env::args().skip(2);
    let text = args.next().expect("a position");
    let hole: usize = args.next().and_then(|s| s.parse().ok()).expect("a hole 1..n");
    let cap: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(1_000_000_000);
    let mut board: Vec<u32> = text
        .split_whitespace()
        .next()
        .expect("a board")
        .split([',', '/'])
        .map(|c| c.parse().expect("seed counts"))
        .collect();
    let start = board.clone();
    let m = board.len() + 1;
    let mut residues = vec![0u64; m];
    let t0 = std::time::Instant::now();
    let laps = relay_observed(&mut board, hole - 1, cap, |hand| residues[hand % m] += 1);
    if laps > cap {
        println!("over {cap} laps, {:.1?}", t0.elapsed());
    } else {
        println!("{laps} laps, {:.1?}", t0.elapsed());
    }
    println!("hands lifted by residue modulo {m}: {residues:?}");
    if laps <= cap {
        let total: u32 = start.iter().sum();
        let rules = Rules::try_from(hoyito_core::RulesSpec {
            variant: Variant::II,
            holes: (start.len() / 2) as u8,
            seeds: total.div_ceil(start.len() as u32).max(1) as u8,
            capture_side: capture_side_from_env(),
            ..Default::default()
        })
        .expect("a board of 4..=12 holes per row");
        let pos = Position::from_notation(rules, &text).expect("a position");
        let mv = pos
            .candidates()
            .into_iter()
            .find(|mv| mv.hole() == hole - 1)
            .expect("a candidate");
        println!("core: {:?}", { pos }.play_unchecked(mv));
    }
}

/// The residues modulo 2n + 1 that a relay sowing from `origin` keeps (a
/// multiset, one per hole and one for the hand): see the module docs.
fn residues(board: &[u32], origin: usize) -> Vec<usize> {
    let len = board.len();
    let m = len + 1;
    let mut r: Vec<usize> = (0..len)
        .map(|x| {
            if x == origin {
                0
            } else {
                ((x + len - origin) % len + board[x] as usize + 1) % m
            }
        })
        .collect();
    r.push(board[origin] as usize % m);
    r
}

/// Ordered pairs of [`residues`] differing by 1 or 4: a lap can end only
/// where the landing hole's and the hand's residues form one.
fn bad_pairs(board: &[u32], origin: usize) -> usize {
    let r = residues(board, origin);
    let m = board.len() + 1;
    let mut count = 0;
    for (i, a) in r.iter().enumerate() {
        for (j, b) in r.iter().enumerate() {
            if i != j && matches!((a + m - b) % m, 1 | 4) {
                count += 1;
            }
        }
    }
    count
}

/// `find_long_sowings construct [seed] [samples] [cap]`: boards built to
/// have exactly one ordered pair of residues differing by 1 or 4 (see the
/// module docs), with as many seeds as `HOYITO_SEEDS` per hole allow,
/// sown by [`relay`]. The residues come from a random set without such a
/// pair, one of them then moved 1 or 4 away from another.
fn construct() {
    let mut args = std::env::args().skip(2);
    let seed: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(1);
    let samples: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(100_000);
    let cap: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(10_000_000);
    let (holes, seeds) = board_from_env();
    let n = holes as usize;
    let len = 2 * n;
    let m = len + 1;
    let most = len * seeds as usize;
    let mut rng = SmallRng::seed_from_u64(seed);
    let t0 = std::time::Instant::now();
    let (mut best, mut capped, mut built) = (0u64, 0u64, 0u64);
    let mut hist = [0u64; 40];
    let row = |r: &[u32]| r.iter().map(u32::to_string).collect::<Vec<_>>().join(",");
    let mut board = vec![0u32; len];
    let diff: Option<usize> = std::env::var("HOYITO_DIFF").ok().and_then(|v| v.parse().ok());
    let back: Option<u64> = std::env::var("HOYITO_BACK").ok().and_then(|v| v.parse().ok());
    let own = (capture_side_from_env() == hoyito_core::CaptureSide::Opponent).then_some(n);
    let mut back_hist = [0u64; 40];
    while built < samples {
        let origin = rng.random_range(0..n);
        // Residues: 0 for the origin, then the hand's and the other holes'.
        // Drawn from a set with no two differing by 1 or 4 (mod 2n + 1),
        // then one of them moved next to another: exactly one bad pair.
        let mut set = vec![0];
        for v in 1..m {
            let far = |a: usize| {
                set.iter()
                    .all(|&b| ![1, 4, m - 1, m - 4].contains(&((a + m - b) % m)))
            };
            if rng.random_bool(0.5) && far(v) {
                set.push(v);
            }
        }
        let mut r: Vec<usize> = (0..=len).map(|_| set[rng.random_range(0..set.len())]).collect();
        r[origin] = 0;
        let moved = (origin + 1 + rng.random_range(0..len)) % (len + 1);
        let other = r[(moved + 1 + rng.random_range(0..len)) % (len + 1)];
        r[moved] = (other + [1, 4, m - 1, m - 4][rng.random_range(0..4)]) % m;
        let bad = (0..=len)
            .flat_map(|i| (0..=len).map(move |j| (i, j)))
            .filter(|&(i, j)| i != j && matches!((r[i] + m - r[j]) % m, 1 | 4))
            .count();
        if bad != 1 {
            continue;
        }
        // HOYITO_DIFF=1 or 4: only that difference.
        if let Some(want) = diff {
            let has = (0..=len).any(|i| (0..=len).any(|j| i != j && (r[i] + m - r[j]) % m == want));
            if !has {
                continue;
            }
        }
        // The fewest seeds with those residues, then multiples of 2n + 1.
        for x in 0..len {
            let d = (x + len - origin) % len;
            board[x] = if x == origin {
                r[len] as u32
            } else {
                ((r[x] + 2 * m - d - 1) % m) as u32
            };
        }
        let base: usize = board.iter().map(|&c| c as usize).sum();
        // The largest total up to `most` that is base mod 2n + 1 and a
        // multiple of 4 (the rest counts as captured).
        let Some(total) = (base..=most)
            .rev()
            .find(|t| (t - base).is_multiple_of(m) && t.is_multiple_of(4))
        else {
            continue;
        };
        for _ in 0..(total - base) / m {
            board[rng.random_range(0..len)] += m as u32;
        }
        if board[origin] == 0 {
            continue;
        }
        built += 1;
        debug_assert_eq!(bad_pairs(&board, origin), 1);
        let start = board.clone();
        let laps = relay(&mut board, origin, cap);
        if laps > cap {
            capped += 1;
            println!(
                "CAPPED pos=\"{}/{} s {}-0\" move={}",
                row(&start[..n]),
                row(&start[n..]),
                most - total,
                origin + 1
            );
            continue;
        }
        hist[63 - laps.leading_zeros() as usize] += 1;
        // HOYITO_BACK=k: a sowing of k laps or more is extended back to
        // the deepest South lap start leading to it.
        let (laps, start, origin) = match back {
            Some(k) if laps >= k => {
                let mut lap = Lap {
                    board: start.clone(),
                    origin,
                    hand: start[origin],
                };
                lap.board[origin] = 0;
                let (depth, first) =
                    deepest_south_start(lap, own, n, 10_000_000).expect("the start is South's");
                let mut from = first.board.clone();
                from[first.origin] = first.hand;
                let again = relay(&mut from.clone(), first.origin, cap);
                assert_eq!(again, laps + depth, "laps back plus laps on");
                if depth > 0 {
                    back_hist[63 - again.leading_zeros() as usize] += 1;
                }
                (again, from, first.origin)
            }
            _ => (laps, start, origin),
        };
        if laps > best || laps > 10_000 {
            best = best.max(laps);
            println!(
                "laps={laps} pos=\"{}/{} s {}-0\" move={} ({:.1?})",
                row(&start[..n]),
                row(&start[n..]),
                most - total,
                origin + 1,
                t0.elapsed()
            );
        }
    }
    println!(
        "construct seed {seed}: {built} boards, {capped} over {cap} laps, longest finite {best} laps, {:.1?}",
        t0.elapsed()
    );
    for (k, c) in hist.iter().enumerate().filter(|(_, &c)| c > 0) {
        println!("laps {:>9}..{:<9} {c}", 1u64 << k, (1u64 << (k + 1)) - 1);
    }
    if back.is_some() {
        println!("extended back:");
        for (k, c) in back_hist.iter().enumerate().filter(|(_, &c)| c > 0) {
            println!("laps {:>9}..{:<9} {c}", 1u64 << k, (1u64 << (k + 1)) - 1);
        }
    }
}
