//! A worker's part of a layer: [`Part`] (states, exits, edges, change
//! bits), its first sweep ([`generate`]) and the helpers that read edges
//! and number the ghosts.

use hoyito_tablebase::graph::{Edge, Expander};
use hoyito_tablebase::solve::{next_state, ExitBounds, LowerValues};
use hoyito_tablebase::Indexer;

use super::files::Lower;
use super::job::BuildJob;

/// Largest local or ghost index of an edge (30 bits).
pub(super) const MAX_INDEX: u64 = 1 << 30;
pub(super) const GHOST: u32 = 2;
pub(super) const FLIP: u32 = 1;

/// One worker's part of a layer being solved.
pub(super) struct Part {
    pub(super) state: Vec<u16>,
    pub(super) exits: Vec<(i8, i8)>,
    pub(super) counts: Vec<u8>,
    /// Inner edges, 4 bytes each once translated (see [`super`]).
    pub(super) edges: Vec<u8>,
    /// Bit `2 (i % 32) + k % 2` of `marks[i / 32]`: position `i` changed in sweep `k`.
    pub(super) marks: Vec<u64>,
}

impl Part {
    #[inline]
    pub(super) fn mark(&mut self, i: usize, sweep: u32) {
        self.marks[i / 32] |= 1 << (2 * (i % 32) + sweep as usize % 2);
    }

    #[inline]
    pub(super) fn changed_in(&self, i: usize, sweep: u32) -> bool {
        self.marks[i / 32] >> (2 * (i % 32) + sweep as usize % 2) & 1 != 0
    }

    #[inline]
    pub(super) fn recent(&self, i: usize) -> bool {
        self.marks[i / 32] >> (2 * (i % 32)) & 3 != 0
    }
}

/// Generates the part's moves and evaluates each position once (sweep 1);
/// marks in `remote` the children owned by other workers. Edges are raw:
/// `child << 1 | flip` in `width` bytes.
pub(super) fn generate(
    job: &BuildJob,
    seeds: u32,
    lower: &Lower,
    range: (u64, u64),
    remote: &mut [u64],
    width: usize,
) -> (Part, u64) {
    let (lo, hi) = range;
    let holes = job.rules.board_len();
    let indexers: Vec<Indexer> = (0..=seeds).map(|s| Indexer::new(holes, s)).collect();
    let ix = &indexers[seeds as usize];
    let rank = |s: u32, b: &[u8]| indexers[s as usize].rank(b);
    let n = (hi - lo) as usize;
    let mut part = Part {
        state: vec![0; n],
        exits: Vec::with_capacity(n),
        counts: Vec::with_capacity(n),
        edges: Vec::new(),
        marks: vec![0; n.div_ceil(32)],
    };
    let mut ex = Expander::new(job.rules);
    let mut board = vec![0u8; holes];
    let mut changed = 0;
    if n > 0 {
        ix.unrank(lo, &mut board);
    }
    for i in 0..n {
        let before = part.edges.len();
        let mut bounds = ExitBounds::NONE;
        ex.expand(&board, rank, |_, e| match e {
            Edge::Same { child, flip } => {
                part.edges
                    .extend_from_slice(&((child << 1) | flip as u64).to_le_bytes()[..width]);
                if child < lo || child >= hi {
                    remote[(child / 64) as usize] |= 1 << (child % 64);
                }
            }
            exit => bounds.add(exit.value(|_| unreachable!(), |s, r| lower.value(s, r) as i32)),
        });
        let exits = bounds.packed();
        part.exits.push(exits);
        part.counts.push(((part.edges.len() - before) / width) as u8);
        // Children of other parts are at 0 in this first sweep.
        let new = next_state(
            exits,
            part.edges[before..].chunks_exact(width).map(|b| {
                let (child, flip) = raw(b);
                let st = if child >= lo && child < hi {
                    part.state[(child - lo) as usize]
                } else {
                    0
                };
                (st, flip)
            }),
        );
        if new != 0 {
            part.state[i] = new;
            part.mark(i, 1);
            changed += 1;
        }
        if i + 1 < n {
            ix.next(&mut board);
        }
    }
    (part, changed)
}

#[inline]
pub(super) fn raw(b: &[u8]) -> (u64, bool) {
    let mut v = [0u8; 8];
    v[..b.len()].copy_from_slice(b);
    let v = u64::from_le_bytes(v);
    (v >> 1, v & 1 != 0)
}

#[inline]
pub(super) fn edge_at(b: &[u8]) -> u32 {
    u32::from_le_bytes([b[0], b[1], b[2], b[3]])
}

/// Ghost indices by rank: `cum[i]` is the number of marked ranks below `64 i`.
pub(super) fn cumulative(bits: &[u64]) -> Vec<u64> {
    let mut acc = 0;
    let mut cum = Vec::with_capacity(bits.len() + 1);
    for &w in bits {
        cum.push(acc);
        acc += w.count_ones() as u64;
    }
    cum.push(acc);
    cum
}

#[inline]
pub(super) fn ghost_index(bits: &[u64], cum: &[u64], r: u64) -> u64 {
    let w = (r / 64) as usize;
    cum[w] + (bits[w] & ((1u64 << (r % 64)) - 1)).count_ones() as u64
}

/// Ghosts below rank `r`.
pub(super) fn ghosts_below(bits: &[u64], cum: &[u64], r: u64) -> u64 {
    if r / 64 >= bits.len() as u64 {
        return *cum.last().expect("one entry at least");
    }
    ghost_index(bits, cum, r)
}
