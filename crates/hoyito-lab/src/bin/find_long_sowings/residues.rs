//! Random and built boards sown with a relay of their own, and the lap
//! residues that tell an endless sowing from a long one (`boards`,
//! `relay`, `construct`).

use hoyito_core::{Position, Rules, Variant};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::env::{board_from_env, capture_side_from_env};
use crate::laps::{deepest_south_start, Lap};

/// Sows a South move of random boards (every distribution of the seeds
/// equally likely) with [`relay`], capped at `cap` laps, and prints each
/// longest-so-far (see the module docs).
pub(crate) fn boards() {
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
pub(crate) fn relay_one() {
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
pub(crate) fn residues(board: &[u32], origin: usize) -> Vec<usize> {
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
pub(crate) fn bad_pairs(board: &[u32], origin: usize) -> usize {
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
pub(crate) fn construct() {
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
