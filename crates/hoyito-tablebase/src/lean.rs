//! The lean solver: the same fixpoint as [`crate::solve`], without the move graph.
//!
//! [`solve_layer`](crate::solve::solve_layer) stores a layer's move graph
//! (27–43 bytes per position), which does not fit in memory for layers of
//! several hundred million positions. [`solve_layer_lean`] keeps only the
//! packed `secure`/`concede` state of every position (2 bytes, see
//! [`crate::solve`]) and regenerates every position's moves with
//! `hoyito-core` on every sweep: each sweep walks the layer in rank order,
//! in parallel chunks (`unrank` once per chunk, then the in-place `next`),
//! re-reads the children's state (same layer, in place) and the exits' exact
//! values (lower layers, memory-mapped), and updates the state. Sweeps repeat
//! until one changes nothing. Updates are monotone (both halves of a state
//! only grow, and never beyond the least fixpoint), so reading a child's
//! state while another thread updates it (relaxed atomics) only ever reads a
//! value between the one of the previous sweep and the final one: the chaotic
//! (Gauss–Seidel) iteration converges to the same least fixpoint as the graph
//! solver, and the values are identical.
//!
//! **Compact cache.** Regenerating moves costs most of a sweep. With
//! `cache`, the first sweep keeps each position's inner edges (4 bytes per
//! edge, about 2 edges per position), their count (1 byte) and its exits'
//! bounds (2 bytes); the other sweeps only read them. This is the graph
//! solver's forward graph without its 32-bit offsets, 16-bit exits and
//! predecessor lists (about 13 bytes per position instead of 27–43), and the
//! same in-place sweeps.
//!
//! **Edges on disk.** With [`Cache::Disk`], the first sweep appends each
//! chunk's inner edges to an unnamed temporary file (removed by the system
//! when the solver ends, even if it is killed) instead of keeping them in
//! memory, and later sweeps read them back through a memory map. Memory
//! then holds only the state (2 bytes), the exits' bounds (2) and the edge
//! counts (1): about 5 bytes per position instead of about 15 for Hoyito II
//! and III, at the cost of writing the edges once (4 bytes per edge) and
//! reading them on every sweep, sequentially.
//!
//! **Skipping chunks, exactly.** The first sweep also records, for every
//! chunk of [`LEAN_CHUNK`] positions, the sorted set of chunks its
//! same-layer children lie in (its *dependencies*; at most 1/4 byte per position).
//! Each chunk remembers the last sweep in which it was evaluated (`eval[c]`)
//! and the last sweep in which one of its positions changed (`changed[c]`).
//! A later sweep evaluates chunk `c` only if some dependency `d` has
//! `changed[d] ≥ eval[c]`: otherwise every child of every position of `c`
//! has kept the state `c` read during its last evaluation (changes in
//! earlier sweeps were complete before that evaluation started, sweeps being
//! separated by a barrier), so re-evaluating would give the same states. The
//! A chunk whose children lie in more than [`MAX_DEPS`] chunks keeps no list
//! and is evaluated on every sweep (on 2×6 most chunks are such: their
//! children are spread over the layer). The
//! iteration stops after a sweep that changes nothing: then every chunk was
//! last evaluated on the final states of its children, i.e. every position
//! satisfies the fixpoint equations.

use std::fs::File;
use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicU16, AtomicU32, AtomicU64, Ordering::Relaxed};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use hoyito_core::Rules;
use rayon::prelude::*;

use crate::error::TablebaseError;
use crate::graph::{Edge, Expander};
use crate::index::Indexer;
use crate::progress::{OnProgress, Stage, StageCounter};
use crate::solve::{LayerStats, LowerValues};

/// Positions per chunk of the lean solver (the unit of work and of skipping).
pub const LEAN_CHUNK: u64 = 1 << 12;

/// Largest dependency list kept for a chunk (at most 1/4 byte per position);
/// a chunk with more is evaluated on every sweep.
pub const MAX_DEPS: usize = LEAN_CHUNK as usize / 16;

/// A chunk's dependencies: the sorted chunks its same-layer children lie in.
type Deps = Box<[u32]>;

/// Marks a cached edge whose child has the other player to move.
const FLIP: u32 = 1 << 31;

/// What the first sweep of [`solve_layer_lean`] keeps for the later ones.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cache<'a> {
    /// Nothing: every sweep regenerates every move (2–4 bytes per position).
    None,
    /// Inner edges, their counts and the exits' bounds, in memory (about
    /// 5 bytes per position plus 4 per inner edge).
    Memory,
    /// As `Memory`, but the inner edges go to an unnamed temporary file in
    /// this directory (about 5 bytes of memory per position, 4 bytes of disk
    /// per inner edge).
    Disk(&'a Path),
}

/// The compact cache of one chunk (with `cache`): every position's inner
/// edges (child rank, [`FLIP`] bit) and its exits' bounds.
#[derive(Default)]
struct ChunkCache {
    /// Inner edges of each position.
    counts: Vec<u8>,
    /// Edges recorded before the current position (after the first sweep:
    /// the chunk's edges).
    counted: usize,
    /// The edges, in memory (emptied when they go to disk).
    edges: Vec<u32>,
    /// Byte offset of the chunk's edges in the edge file ([`Cache::Disk`]).
    at: u64,
    /// `[max(0, best exit), min(−exits) or 127]` of each position.
    exits: Vec<[i8; 2]>,
}

/// Figures of one sweep of the lean solver.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SweepStats {
    /// Sweep number, from 1.
    pub sweep: u32,
    /// Positions evaluated (those of the chunks not skipped).
    pub evaluated: u64,
    /// Positions whose state changed.
    pub changed: u64,
    /// Wall-clock time of the sweep.
    pub time: Duration,
}

/// Solves the layer of `seeds` seeds without storing its move graph: returns
/// the value of every position (as [`crate::solve::solve_layer`], which it
/// equals exactly), the layer's figures (`generate` is the first sweep,
/// `iterate` the others, `sweeps` counts all of them) and every sweep's
/// figures. `on_progress` follows each sweep's positions, `on_sweep` is
/// called after each sweep.
///
/// With a [`Cache`], the first sweep also keeps every position's inner edges
/// (4 bytes each, child rank and flip bit), edge count (1 byte) and exits'
/// bounds (2 bytes), and later sweeps read them instead of generating moves:
/// about 13 bytes per position instead of 2–4, several times faster sweeps.
/// [`Cache::Disk`] keeps the edges in a temporary file instead of memory.
///
/// # Errors
/// [`TablebaseError::Io`] if the edge file of [`Cache::Disk`] cannot be
/// created, written or mapped (for example when the disk is full).
///
/// # Panics
/// If a value does not fit in `i8` (more than 127 seeds), the layer has
/// 2⁴⁴ positions or more (chunk numbers are 32-bit), or more than 2³¹ with
/// `cache`.
pub fn solve_layer_lean(
    rules: Rules,
    seeds: u32,
    lower: &dyn LowerValues,
    on_progress: OnProgress<'_>,
    cache: Cache<'_>,
    mut on_sweep: impl FnMut(&SweepStats),
) -> Result<(Vec<i8>, LayerStats, Vec<SweepStats>), TablebaseError> {
    assert!(seeds <= 127, "values must fit in i8");
    let holes = rules.board_len();
    let indexers: Vec<Indexer> = (0..=seeds).map(|s| Indexer::new(holes, s)).collect();
    let ix = &indexers[seeds as usize];
    let count = ix.count();
    let nchunks = count.div_ceil(LEAN_CHUNK);
    assert!(nchunks < u32::MAX as u64, "layer too large: {count} positions");
    assert!(
        cache == Cache::None || count <= 1 << 31,
        "cached child ranks are 31-bit: {count} positions"
    );
    let rank = |s: u32, b: &[u8]| indexers[s as usize].rank(b);

    // `state[p]`: `secure` in the low byte, `concede` in the high byte.
    let state: Vec<AtomicU16> = (0..count).map(|_| AtomicU16::new(0)).collect();
    let last_changed: Vec<AtomicU32> = (0..nchunks).map(|_| AtomicU32::new(0)).collect();
    let last_eval: Vec<AtomicU32> = (0..nchunks).map(|_| AtomicU32::new(0)).collect();
    let inner_edges = AtomicU64::new(0);

    // Evaluates chunk `c` in sweep `sweep`; records its dependencies into
    // `deps` and its inner edges and exits into `keep` if given. Returns the
    // number of positions that changed.
    let eval_chunk = |ex: &mut Expander,
                      c: u64,
                      sweep: u32,
                      mut deps: Option<&mut Vec<u32>>,
                      mut keep: Option<&mut ChunkCache>|
     -> u64 {
        let start = c * LEAN_CHUNK;
        let len = LEAN_CHUNK.min(count - start);
        let mut board = vec![0u8; holes];
        ix.unrank(start, &mut board);
        let mut changed = 0u64;
        let mut edges = 0u64;
        for i in 0..len {
            let p = (start + i) as usize;
            // Exits: secure starts at max(0, gains); concede at min(−gains).
            let (mut s, mut o) = (0i16, i16::MAX);
            // The exits alone (kept by the cache).
            let (mut xs, mut xo) = (0i16, i16::MAX);
            ex.expand(&board, rank, |_, e| match e {
                Edge::Same { child, flip } => {
                    let st = state[child as usize].load(Relaxed);
                    let (cs, co) = ((st & 0xff) as i16, (st >> 8) as i16);
                    if flip {
                        s = s.max(co);
                        o = o.min(cs);
                    } else {
                        s = s.max(cs);
                        o = o.min(co);
                    }
                    edges += 1;
                    if let Some(d) = deps.as_deref_mut() {
                        d.push((child / LEAN_CHUNK) as u32);
                    }
                    if let Some(k) = keep.as_deref_mut() {
                        k.edges.push(child as u32 | if flip { FLIP } else { 0 });
                    }
                }
                exit => {
                    let v = exit.value(|_| unreachable!(), |s, r| lower.value(s, r) as i32) as i16;
                    xs = xs.max(v);
                    xo = xo.min(-v);
                }
            });
            s = s.max(xs);
            o = o.min(xo);
            if let Some(k) = keep.as_deref_mut() {
                k.counts.push((k.edges.len() - k.counted) as u8);
                k.counted = k.edges.len();
                // Exits only: the initial `secure` and `concede` bounds.
                // (|values| ≤ 127; 127 also stands for "no exit", which
                // gives the same minimum since every state is ≤ 127.)
                k.exits.push([xs as i8, xo.min(127) as i8]);
            }
            let new = (o.max(0) as u16) << 8 | s as u16;
            let old = state[p].load(Relaxed);
            if new != old {
                // Both halves only grow: the iteration is monotone.
                debug_assert!(new & 0xff >= old & 0xff && new >> 8 >= old >> 8);
                state[p].store(new, Relaxed);
                changed += 1;
            }
            if i + 1 < len {
                ix.next(&mut board);
            }
        }
        last_eval[c as usize].store(sweep, Relaxed);
        if changed > 0 {
            last_changed[c as usize].store(sweep, Relaxed);
        }
        if deps.is_some() {
            inner_edges.fetch_add(edges, Relaxed);
        }
        changed
    };

    // Sweeps from the cache: the same evaluation without generating moves.
    let eval_cached = |k: &ChunkCache, edges: &[u32], c: u64, sweep: u32| -> u64 {
        let start = (c * LEAN_CHUNK) as usize;
        let mut changed = 0u64;
        let mut e = 0usize;
        for (i, (&n, &[xs, xo])) in k.counts.iter().zip(k.exits.iter()).enumerate() {
            let (mut s, mut o) = (xs as i16, xo as i16);
            for &edge in &edges[e..e + n as usize] {
                let st = state[(edge & !FLIP) as usize].load(Relaxed);
                let (cs, co) = ((st & 0xff) as i16, (st >> 8) as i16);
                if edge & FLIP != 0 {
                    s = s.max(co);
                    o = o.min(cs);
                } else {
                    s = s.max(cs);
                    o = o.min(co);
                }
            }
            e += n as usize;
            let p = start + i;
            let new = (o.max(0) as u16) << 8 | s as u16;
            let old = state[p].load(Relaxed);
            if new != old {
                debug_assert!(new & 0xff >= old & 0xff && new >> 8 >= old >> 8);
                state[p].store(new, Relaxed);
                changed += 1;
            }
        }
        last_eval[c as usize].store(sweep, Relaxed);
        if changed > 0 {
            last_changed[c as usize].store(sweep, Relaxed);
        }
        changed
    };

    let mut log: Vec<SweepStats> = Vec::new();
    let mut finish_sweep = |st: SweepStats| {
        on_sweep(&st);
        log.push(st);
    };

    // The edge file of `Cache::Disk`: the file, its length, the first error.
    let spill_dir = match cache {
        Cache::Disk(dir) => Some(dir),
        _ => None,
    };
    let io_error = |source: std::io::Error| TablebaseError::Io {
        path: spill_dir.unwrap_or(Path::new(".")).to_path_buf(),
        source,
    };
    let spill: Option<Mutex<(File, u64, Option<std::io::Error>)>> = match spill_dir {
        Some(dir) => Some(Mutex::new((
            tempfile::tempfile_in(dir).map_err(io_error)?,
            0,
            None,
        ))),
        None => None,
    };

    // Sweep 1: every chunk, recording dependencies.
    let t0 = Instant::now();
    let first = StageCounter::start(on_progress, seeds, Stage::Sweep(1), count);
    let changed = AtomicU64::new(0);
    let (deps, caches): (Vec<Option<Deps>>, Vec<Option<ChunkCache>>) = (0..nchunks)
        .into_par_iter()
        .map_init(
            || (Expander::new(rules), Vec::new()),
            |(ex, scratch), c| {
                scratch.clear();
                let mut keep = (cache != Cache::None).then(ChunkCache::default);
                let n = eval_chunk(ex, c, 1, Some(scratch), keep.as_mut());
                changed.fetch_add(n, Relaxed);
                scratch.sort_unstable();
                scratch.dedup();
                first.add(LEAN_CHUNK.min(count - c * LEAN_CHUNK));
                if let Some(k) = keep.as_mut() {
                    k.counts.shrink_to_fit();
                    k.exits.shrink_to_fit();
                    if let Some(spill) = &spill {
                        let bytes: Vec<u8> = k.edges.iter().flat_map(|e| e.to_le_bytes()).collect();
                        let mut f = spill.lock().unwrap_or_else(|p| p.into_inner());
                        let (file, len, err) = &mut *f;
                        if err.is_none() {
                            match file.write_all(&bytes) {
                                Ok(()) => {
                                    k.at = *len;
                                    *len += bytes.len() as u64;
                                }
                                Err(e) => *err = Some(e),
                            }
                        }
                        k.edges = Vec::new();
                    } else {
                        k.edges.shrink_to_fit();
                    }
                }
                // A chunk with many dependencies is always evaluated (its
                // list would cost more than it saves).
                let d = (scratch.len() <= MAX_DEPS).then(|| scratch.as_slice().into());
                (d, keep)
            },
        )
        .unzip();
    // Map the edge file for the later sweeps.
    let (map, spill_bytes) = match spill {
        Some(m) => {
            let (mut file, len, err) = m.into_inner().unwrap_or_else(|p| p.into_inner());
            if let Some(e) = err {
                return Err(io_error(e));
            }
            file.flush().map_err(io_error)?;
            // SAFETY: the file is unnamed and only this function holds it,
            // so no one else can change it while it is mapped.
            #[allow(unsafe_code)]
            let map = if len > 0 {
                Some(unsafe { memmap2::Mmap::map(&file) }.map_err(io_error)?)
            } else {
                None
            };
            (map, len)
        }
        None => (None, 0),
    };
    let generate = t0.elapsed();
    let mut any = changed.load(Relaxed) > 0;
    finish_sweep(SweepStats {
        sweep: 1,
        evaluated: count,
        changed: changed.load(Relaxed),
        time: generate,
    });

    // Later sweeps: the chunks whose dependencies changed since their last evaluation.
    let t1 = Instant::now();
    let mut sweep = 1u32;
    while any {
        sweep += 1;
        let ts = Instant::now();
        let progress = StageCounter::start(on_progress, seeds, Stage::Sweep(sweep), count);
        let changed = AtomicU64::new(0);
        let evaluated = AtomicU64::new(0);
        (0..nchunks).into_par_iter().for_each_init(
            || (Expander::new(rules), Vec::<u32>::new()),
            |(ex, buf), c| {
                let len = LEAN_CHUNK.min(count - c * LEAN_CHUNK);
                let since = last_eval[c as usize].load(Relaxed);
                // Skip only a chunk with a list, none of whose chunks changed since.
                let unchanged = matches!(&deps[c as usize], Some(ds)
                    if ds.iter().all(|&d| last_changed[d as usize].load(Relaxed) < since));
                if !unchanged {
                    let n = match (&caches[c as usize], &map) {
                        (Some(k), Some(map)) => {
                            let at = k.at as usize;
                            let bytes = &map[at..at + 4 * k.counted];
                            buf.clear();
                            buf.extend(
                                bytes
                                    .chunks_exact(4)
                                    .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]])),
                            );
                            eval_cached(k, buf, c, sweep)
                        }
                        (Some(k), None) => eval_cached(k, &k.edges, c, sweep),
                        (None, _) => eval_chunk(ex, c, sweep, None, None),
                    };
                    changed.fetch_add(n, Relaxed);
                    evaluated.fetch_add(len, Relaxed);
                }
                progress.add(len);
            },
        );
        any = changed.load(Relaxed) > 0;
        finish_sweep(SweepStats {
            sweep,
            evaluated: evaluated.load(Relaxed),
            changed: changed.load(Relaxed),
            time: ts.elapsed(),
        });
    }
    let iterate = t1.elapsed();

    let values = super::solve::values_of(&state);
    let dep_entries: u64 = deps.iter().flatten().map(|d| d.len() as u64).sum();
    let cache_bytes: u64 = caches
        .iter()
        .flatten()
        .map(|k| (k.edges.capacity() * 4 + k.counts.capacity() + k.exits.capacity() * 2) as u64 + 80)
        .sum();
    let work_bytes = 2 * count + 8 * nchunks + 16 * nchunks + 4 * dep_entries + cache_bytes;
    let stats = LayerStats {
        seeds,
        positions: count,
        inner_edges: inner_edges.load(Relaxed),
        sweeps: sweep,
        generate,
        iterate,
        work_bytes,
        lean: true,
        spill_bytes,
    };
    Ok((values, stats, log))
}
