//! The longest finite relay sowing of Hoyito II and III, exactly, by
//! exhausting every board of each seed layer.
//!
//! ```text
//! cargo run --release -p hoyito-lab --bin longest_sowing -- <holes per row> <max seeds> [closed] [seeds per hole]
//! ```
//!
//! For every board of 4, 8, …, `max seeds` seeds on 2×`holes` (with the
//! last `closed` holes of North's row closed, as in later rounds of a match;
//! the game starts with `seeds per hole`, 4 unless given) and every hole, this sows the move from that hole and reports the longest
//! sowing that ends. The standard rules: capture side `any`, the emptied
//! origin not skipped. Hoyito II and III sow alike (a last seed making 1 or
//! 4 ends the move in both), so one count serves both; Hoyito I is not
//! covered (its captures during the sowing change the board).
//!
//! A lap start (board with the origin just emptied, origin, hand) leads to
//! the next by one lap, and most lap starts can be reached from exactly one
//! other (the previous lap's origin is the nearest empty hole behind the
//! landing hole, when the sown board has one). So every finite sowing is a
//! piece of a chain that begins at a lap start no lap leads to: a hand of
//! 1 or 4 (no relay lifts those), or a board without an empty hole. Walking
//! forward from those starts alone visits every lap of every chain about
//! once; lap starts on cycles (endless sowings) are never walked, and a
//! start whose walk falls into a cycle is stopped by Brent's algorithm.
//!
//! The walk is a plain relay written out here for speed; every layer's
//! longest sowing is played again with `Position::play_unchecked` and the
//! two lap counts must agree. Both cores are used (rayon) and a progress bar
//! shows the boards done; nothing is written but the report.
//!
//! Findings: docs/research/README.md; the longest sowings found are
//! committed in hoyito-core's `tests/examples.rs`.

use hoyito_core::{Position, Rules, RulesSpec, Setup, Side, Variant};
use hoyito_tablebase::Indexer;
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;

/// Boards per unit of parallel work.
const CHUNK: u64 = 1 << 18;

/// The longest sowing found in part of a layer.
#[derive(Clone, Default)]
struct Longest {
    laps: u64,
    /// Seed counts of the ring's holes before the move.
    ring: Vec<u8>,
    /// The ring hole sown.
    hole: usize,
    /// Moves walked (chain starts) and laps sown in all.
    walks: u64,
    sown: u64,
}

impl Longest {
    fn merge(mut self, other: Longest) -> Longest {
        let (walks, sown) = (self.walks + other.walks, self.sown + other.sown);
        if other.laps > self.laps {
            self = other;
        }
        self.walks = walks;
        self.sown = sown;
        self
    }
}

/// Sows the move from `hole` of `ring` (seed counts of the open holes in
/// sowing order): `Some(laps)` if it ends, `None` if it is endless.
fn sow(ring: &[u8], hole: usize, board: &mut [u32]) -> Option<u64> {
    let len = ring.len();
    for (b, &r) in board.iter_mut().zip(ring) {
        *b = r as u32;
    }
    let (mut origin, mut hand) = (hole, board[hole]);
    board[hole] = 0;
    let mut anchor = board.to_vec();
    let (mut anchor_origin, mut power, mut since) = (origin, 1u64, 0u64);
    let mut laps = 0;
    loop {
        laps += 1;
        let mut at = origin;
        for _ in 0..hand {
            at += 1;
            if at == len {
                at = 0;
            }
            board[at] += 1;
        }
        let last = board[at];
        if last == 1 || last == 4 {
            return Some(laps);
        }
        hand = last;
        board[at] = 0;
        origin = at;
        // Brent: the lap start (board, origin) determines the hand.
        since += 1;
        if origin == anchor_origin && *board == anchor[..] {
            return None;
        }
        if since == power {
            anchor.copy_from_slice(board);
            anchor_origin = origin;
            power *= 2;
            since = 0;
        }
    }
}

fn layer(holes: usize, closed: usize, seeds: u32) -> Longest {
    let len = 2 * holes - closed;
    let index = Indexer::new(len, seeds);
    let chunks = index.count().div_ceil(CHUNK);
    let bar = ProgressBar::new(index.count());
    bar.set_style(
        ProgressStyle::with_template("{msg} [{bar:40}] {percent}% {elapsed}/{duration}")
            .expect("a valid template"),
    );
    bar.set_message(format!("{seeds} seeds"));
    let best = (0..chunks)
        .into_par_iter()
        .map(|c| {
            let mut ring = vec![0u8; len];
            let mut board = vec![0u32; len];
            let mut best = Longest::default();
            let first = c * CHUNK;
            let last = (first + CHUNK).min(index.count());
            index.unrank(first, &mut ring);
            for _ in first..last {
                let full = ring.iter().all(|&s| s > 0);
                for hole in 0..len {
                    let hand = ring[hole];
                    // Only chain starts: a hand no relay lifts, or a board
                    // whose previous lap cannot be found by its empty hole.
                    if hand == 0 || !(hand == 1 || hand == 4 || full) {
                        continue;
                    }
                    if let Some(laps) = sow(&ring, hole, &mut board) {
                        best.walks += 1;
                        best.sown += laps;
                        if laps > best.laps {
                            best.laps = laps;
                            best.ring.clone_from(&ring);
                            best.hole = hole;
                        }
                    }
                }
                index.next(&mut ring);
            }
            bar.inc(last - first);
            best
        })
        .reduce(Longest::default, Longest::merge);
    bar.finish_and_clear();
    best
}

/// The position before the longest move, as the core sees it.
fn position(rules: Rules, holes: usize, closed: usize, best: &Longest) -> (Position, usize) {
    let open: Vec<usize> = (0..2 * holes - closed).collect();
    let mut setup = Setup::start(&rules);
    setup.board = vec![0; 2 * holes];
    for (&i, &s) in open.iter().zip(&best.ring) {
        setup.board[i] = s;
    }
    setup.closed = (2 * holes - closed..2 * holes).collect();
    let hole = open[best.hole];
    setup.to_move = if hole < holes { Side::South } else { Side::North };
    let total = setup.board.iter().map(|&s| s as u32).sum::<u32>();
    let captured = (2 * holes as u32 * rules.seeds() as u32).saturating_sub(total);
    // Captured seeds (multiples of 4) are split as evenly as they go.
    let south = (captured / 8) * 4;
    setup.captured = hoyito_core::ByPlayer::new(south as u8, (captured - south) as u8);
    let pos = Position::from_setup(rules, &setup).expect("a valid position");
    (pos, hole)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: longest_sowing <holes per row 4..=12> <max seeds> [closed holes] [seeds per hole]";
    let holes: usize = args.first().and_then(|s| s.parse().ok()).expect(usage);
    let max_seeds: u32 = args.get(1).and_then(|s| s.parse().ok()).expect(usage);
    let closed: usize = args.get(2).map_or(0, |s| s.parse().expect(usage));
    let per_hole: u8 = args.get(3).map_or(4, |s| s.parse().expect(usage));
    assert!(closed < holes, "{usage}: fewer closed holes than holes per row");
    let rules = Rules::try_from(RulesSpec {
        variant: Variant::II,
        holes: holes as u8,
        seeds: per_hole,
        ..Default::default()
    })
    .expect(usage);
    let len = 2 * holes - closed;
    assert!(
        max_seeds <= per_hole as u32 * len as u32,
        "{usage}: at most {per_hole} seeds per open hole"
    );
    println!("2x{holes}, {closed} closed ({len} holes in the ring), Hoyito II/III, capture side any");
    for seeds in (4..=max_seeds).step_by(4) {
        let t = std::time::Instant::now();
        let best = layer(holes, closed, seeds);
        let (pos, hole) = position(rules, holes, closed, &best);
        let m = pos
            .candidates()
            .into_iter()
            .find(|m| m.hole() == hole)
            .expect("the hole is a candidate");
        let mut after = pos;
        let played = after.play_unchecked(m).expect("a finite sowing");
        assert_eq!(
            played.laps as u64,
            best.laps,
            "the core and the walk disagree on {}",
            pos.to_notation()
        );
        println!(
            "seeds {seeds:>3}: longest finite sowing {:>5} laps: \"{}\" move {} ({} moves walked, {} laps, {:.1?})",
            best.laps,
            pos.to_notation(),
            pos.move_token(m),
            best.walks,
            best.sown,
            t.elapsed()
        );
    }
}
