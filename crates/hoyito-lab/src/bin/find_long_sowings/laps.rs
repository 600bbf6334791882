//! Lap starts walked back to where their sowing began (`paths`), and the
//! relay that always lifts followed around its cycle (`cycles`).

use hoyito_core::{PlayError, Position, Rules, Variant};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::env::{board_from_env, capture_side_from_env};

/// Walks random lap-start states back to where their sowing began, then
/// sows that move with the core (see the module docs).
pub(crate) fn paths() {
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
pub(crate) struct Lap {
    pub(crate) board: Vec<u32>,
    pub(crate) origin: usize,
    pub(crate) hand: u32,
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
pub(crate) fn deepest_south_start(s: Lap, own: Option<usize>, n: usize, nodes: u64) -> Option<(u64, Lap)> {
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
pub(crate) fn cycles() {
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
