//! Retrograde solution of one layer, given the values of the lower layers.
//!
//! Within a layer no move captures, so the play is a graph with cycles whose
//! exits (captures, ends of game) have known values. Infinite play is worth
//! 0 (RULES.md §4, even split). For every threshold `u ≥ 1` the set of
//! positions where the mover can force a net gain of at least `u` is the
//! least fixpoint of an attractor operator, and so is the set where the
//! opponent can force at least `u`. Both families are computed for all
//! thresholds at once: `secure[p]` is the largest `u` the mover of `p` is
//! known to force, `concede[p]` the largest `u` the opponent is known to force
//! (0: none yet). Starting from 0 and sweeping
//!
//! ```text
//! secure[p]  = max(0, max over edges e: gain(e)          for exits,
//!                                          concede[c]/secure[c]  for flip/same-side children)
//! concede[p] = max(0, min over edges e: −gain(e)         for exits,
//!                                          secure[c]/concede[c]  for flip/same-side children)
//! ```
//!
//! until nothing changes (after a first full sweep, only the predecessors
//! of changed positions are re-evaluated) gives, for each `u`, exactly the least fixpoints
//! (the comparison `≥ u` commutes with `max`/`min`), so the value is
//! `secure` if positive, else `−concede` if positive, else 0. Updates are
//! monotone, so sweeping in place from several threads is sound.

use std::sync::atomic::{AtomicBool, AtomicU16, AtomicU32, AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

use hoyito_core::Rules;
use rayon::prelude::*;

use crate::graph::{Edge, Expander};
use crate::index::Indexer;
use crate::progress::{OnProgress, Stage, StageCounter};

/// Positions per work unit.
const CHUNK: u64 = 1 << 14;
/// Marks an edge whose child has the other player to move.
const FLIP: u32 = 1 << 31;
/// No exit edge: neutral for `max` / `min`.
const NO_EXIT_MAX: i16 = i16::MIN;
const NO_EXIT_MIN: i16 = i16::MAX;

/// Largest layer [`solve_layer`] accepts: child ranks are stored in 31 bits.
pub const MAX_LAYER_POSITIONS: u64 = 1 << 31;

/// The values of lower layers, looked up by seeds in play and rank.
pub trait LowerValues: Sync {
    /// The stored value of rank `rank` in layer `seeds`.
    fn value(&self, seeds: u32, rank: u64) -> i8;
}

/// Figures of one solved layer.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LayerStats {
    /// Seeds in play.
    pub seeds: u32,
    /// Positions in the layer.
    pub positions: u64,
    /// Edges inside the layer (non-capturing moves and passes).
    pub inner_edges: u64,
    /// Rounds of the fixpoint iteration (the first evaluates every
    /// position, later ones the predecessors of changed positions; the last
    /// changes nothing).
    pub sweeps: u32,
    /// Time generating moves.
    pub generate: Duration,
    /// Time sweeping.
    pub iterate: Duration,
    /// Bytes of the layer's in-memory move graph and working arrays.
    pub work_bytes: u64,
    /// Solved by the lean solver ([`crate::lean`]: no move graph; `generate`
    /// is then its first sweep and `iterate` the other sweeps).
    pub lean: bool,
    /// Bytes of inner edges kept on disk instead of memory
    /// ([`crate::lean::Cache::Disk`]; not counted in `work_bytes`).
    pub spill_bytes: u64,
}

/// One work unit's part of the move graph, in compressed rows.
struct Chunk {
    start: u64,
    /// `offsets[i]..offsets[i+1]` are position `start + i`'s inner edges.
    offsets: Vec<u32>,
    edges: Vec<u32>,
    /// Best exit value for the mover (or `NO_EXIT_MAX`).
    exit_max: Vec<i16>,
    /// Smallest opponent's gain (negated mover's value) over exits (or `NO_EXIT_MIN`).
    exit_concede: Vec<i16>,
}

/// Solves the layer of `seeds` seeds: returns the value of every position
/// (net future gain of the player to move) in rank order, reporting its
/// progress to `on_progress`.
///
/// # Panics
/// If the layer has [`MAX_LAYER_POSITIONS`] positions or more, or a value
/// does not fit in `i8` (more than 127 seeds).
pub fn solve_layer(
    rules: Rules,
    seeds: u32,
    lower: &dyn LowerValues,
    on_progress: OnProgress<'_>,
) -> (Vec<i8>, LayerStats) {
    assert!(seeds <= 127, "values must fit in i8");
    let holes = rules.board_len();
    let indexers: Vec<Indexer> = (0..=seeds).map(|s| Indexer::new(holes, s)).collect();
    let ix = &indexers[seeds as usize];
    let count = ix.count();
    assert!(count < MAX_LAYER_POSITIONS, "layer too large: {count} positions");
    let rank = |s: u32, b: &[u8]| indexers[s as usize].rank(b);

    // 1. The move graph of the layer, exits valued from the lower layers.
    let t0 = Instant::now();
    let moves = StageCounter::start(on_progress, seeds, Stage::Moves, count);
    let starts: Vec<u64> = (0..count).step_by(CHUNK as usize).collect();
    let chunks: Vec<Chunk> = starts
        .par_iter()
        .map_init(
            || Expander::new(rules),
            |ex, &start| {
                let len = CHUNK.min(count - start) as usize;
                let mut c = Chunk {
                    start,
                    offsets: Vec::with_capacity(len + 1),
                    edges: Vec::with_capacity(len * 2),
                    exit_max: Vec::with_capacity(len),
                    exit_concede: Vec::with_capacity(len),
                };
                let mut board = vec![0u8; holes];
                ix.unrank(start, &mut board);
                c.offsets.push(0);
                for i in 0..len {
                    let (mut hi, mut lo) = (NO_EXIT_MAX, NO_EXIT_MIN);
                    ex.expand(&board, rank, |_, e| {
                        if let Edge::Same { child, flip } = e {
                            c.edges.push(child as u32 | if flip { FLIP } else { 0 });
                        } else {
                            let v = e.value(|_| unreachable!(), |s, r| lower.value(s, r) as i32) as i16;
                            hi = hi.max(v);
                            lo = lo.min(-v);
                        }
                    });
                    c.offsets.push(c.edges.len() as u32);
                    c.exit_max.push(hi);
                    c.exit_concede.push(lo);
                    if i + 1 < len {
                        ix.next(&mut board);
                    }
                }
                moves.add(len as u64);
                c
            },
        )
        .collect();
    let generate = t0.elapsed();
    let inner_edges: u64 = chunks.iter().map(|c| c.edges.len() as u64).sum();

    // 2. Predecessor lists, so that a round re-evaluates only the
    //    predecessors of the positions that changed in the round before.
    let t1 = Instant::now();
    assert!(inner_edges < u32::MAX as u64, "too many edges for u32 offsets");
    let pred_off: Vec<AtomicU32> = (0..=count).map(|_| AtomicU32::new(0)).collect();
    chunks.par_iter().for_each(|c| {
        for &e in &c.edges {
            pred_off[(e & !FLIP) as usize + 1].fetch_add(1, Relaxed);
        }
    });
    let mut acc = 0u32;
    for o in &pred_off {
        acc += o.load(Relaxed);
        o.store(acc, Relaxed);
    }
    let preds: Vec<AtomicU32> = (0..inner_edges).map(|_| AtomicU32::new(0)).collect();
    {
        let cursor: Vec<AtomicU32> = pred_off[..count as usize]
            .par_iter()
            .map(|o| AtomicU32::new(o.load(Relaxed)))
            .collect();
        chunks.par_iter().for_each(|c| {
            for i in 0..c.exit_max.len() {
                let p = (c.start as usize + i) as u32;
                for &e in &c.edges[c.offsets[i] as usize..c.offsets[i + 1] as usize] {
                    let slot = cursor[(e & !FLIP) as usize].fetch_add(1, Relaxed);
                    preds[slot as usize].store(p, Relaxed);
                }
            }
        });
    }

    // 3. Simultaneous least fixpoints for every threshold. `state[p]` packs
    //    `secure[p]` (low byte) and `concede[p]` (high byte), so a child costs
    //    one memory access. Bit sets mark the positions to evaluate and the
    //    positions that changed.
    let state: Vec<AtomicU16> = (0..count).map(|_| AtomicU16::new(0)).collect();
    let words = count.div_ceil(64) as usize;
    let queued: Vec<AtomicU64> = (0..words).map(|_| AtomicU64::new(u64::MAX)).collect();
    let changed: Vec<AtomicU64> = (0..words).map(|_| AtomicU64::new(0)).collect();
    let eval = |c: &Chunk, i: usize| -> bool {
        let p = c.start as usize + i;
        let mut s = c.exit_max[i].max(0);
        let mut o = c.exit_concede[i];
        for &e in &c.edges[c.offsets[i] as usize..c.offsets[i + 1] as usize] {
            let st = state[(e & !FLIP) as usize].load(Relaxed);
            let (cs, co) = ((st & 0xff) as i16, (st >> 8) as i16);
            if e & FLIP != 0 {
                s = s.max(co);
                o = o.min(cs);
            } else {
                s = s.max(cs);
                o = o.min(co);
            }
        }
        let new = (o.max(0) as u16) << 8 | s as u16;
        let old = state[p].load(Relaxed);
        if new == old {
            return false;
        }
        // Both halves only grow: the iteration is monotone.
        debug_assert!(new & 0xff >= old & 0xff && new >> 8 >= old >> 8);
        state[p].store(new, Relaxed);
        true
    };
    let mut sweeps = 0;
    loop {
        sweeps += 1;
        let round = StageCounter::start(on_progress, seeds, Stage::Round(sweeps), count);
        let any = AtomicBool::new(false);
        // Evaluate the queued positions.
        chunks.par_iter().for_each(|c| {
            let len = c.exit_max.len();
            let w0 = (c.start / 64) as usize;
            for w in w0..w0 + len.div_ceil(64) {
                let mut bits = queued[w].swap(0, Relaxed);
                let mut out = 0u64;
                while bits != 0 {
                    let b = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    let i = (w - w0) * 64 + b;
                    if i < len && eval(c, i) {
                        out |= 1 << b;
                    }
                }
                if out != 0 {
                    changed[w].store(out, Relaxed);
                    any.store(true, Relaxed);
                }
            }
            round.add(len as u64);
        });
        if !any.load(Relaxed) {
            break;
        }
        // Queue the predecessors of the changed positions.
        (0..words).into_par_iter().with_min_len(256).for_each(|w| {
            let mut bits = changed[w].swap(0, Relaxed);
            while bits != 0 {
                let p = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let (lo, hi) = (pred_off[p].load(Relaxed), pred_off[p + 1].load(Relaxed));
                for q in &preds[lo as usize..hi as usize] {
                    let q = q.load(Relaxed) as usize;
                    queued[q / 64].fetch_or(1 << (q % 64), Relaxed);
                }
            }
        });
    }
    let values = values_of(&state);
    let work_bytes = chunks
        .iter()
        .map(|c| (c.offsets.capacity() * 4 + c.edges.capacity() * 4 + c.exit_max.capacity() * 4) as u64)
        .sum::<u64>()
        + 2 * count
        + 4 * (count + 1)
        + 4 * inner_edges
        + 16 * words as u64;
    let stats = LayerStats {
        seeds,
        positions: count,
        inner_edges,
        sweeps,
        generate,
        iterate: t1.elapsed(),
        work_bytes,
        lean: false,
        spill_bytes: 0,
    };
    (values, stats)
}

/// The values of a solved layer from its packed `secure | concede << 8`
/// states: `secure` if positive, else `−concede` (0 where neither side can
/// force a gain).
pub(crate) fn values_of(state: &[AtomicU16]) -> Vec<i8> {
    state.par_iter().map(|st| state_value(st.load(Relaxed))).collect()
}

/// The value of a position from its packed state `secure | concede << 8`
/// (see the [module](self)): `secure` if positive, else `−concede`.
#[inline]
pub fn state_value(state: u16) -> i8 {
    let (s, o) = ((state & 0xff) as i8, (state >> 8) as i8);
    debug_assert!(s == 0 || o == 0, "both players cannot force a gain");
    if s > 0 {
        s
    } else {
        -o
    }
}

/// What the exits of a position (its moves that capture or end the game,
/// whose values the lower layers give) contribute to its state: the best
/// exit value for the mover, at least 0, and the least of the negated
/// exit values (the opponent's gain), at most 127 ("no exit"). The
/// sweeping solvers ([`crate::stream`], `hoyito-cluster`) store these two
/// bytes per position and start every evaluation from them ([`next_state`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExitBounds {
    secure: i16,
    concede: i16,
}

impl Default for ExitBounds {
    fn default() -> ExitBounds {
        ExitBounds::NONE
    }
}

impl ExitBounds {
    /// No exit yet.
    pub const NONE: ExitBounds = ExitBounds {
        secure: 0,
        concede: i16::MAX,
    };

    /// Takes in one exit of value `value` for the mover.
    #[inline]
    pub fn add(&mut self, value: i32) {
        self.secure = self.secure.max(value as i16);
        self.concede = self.concede.min(-value as i16);
    }

    /// The two bounds as stored, `(secure, concede)`: values are at most
    /// 127 in size, and 127 also stands for "no exit", which gives the same
    /// minimum since every state is at most 127.
    #[inline]
    pub fn packed(self) -> (i8, i8) {
        (self.secure as i8, self.concede.min(127) as i8)
    }
}

/// One evaluation of the fixpoint operator at a position: its new packed
/// state `secure | concede << 8` from its exits' bounds (as
/// [`ExitBounds::packed`] gives them) and the current packed states of its
/// children inside the layer, each with `true` where the opponent moves
/// next. Starting from 0 and applied until nothing changes, in any order
/// (the operator is monotone), it reaches the least fixpoint that
/// [`solve_layer`] computes.
#[inline]
pub fn next_state(exits: (i8, i8), children: impl IntoIterator<Item = (u16, bool)>) -> u16 {
    let (mut s, mut o) = (exits.0 as i16, exits.1 as i16);
    for (st, flip) in children {
        let (cs, co) = ((st & 0xff) as i16, (st >> 8) as i16);
        if flip {
            s = s.max(co);
            o = o.min(cs);
        } else {
            s = s.max(cs);
            o = o.min(co);
        }
    }
    (o.max(0) as u16) << 8 | s as u16
}
