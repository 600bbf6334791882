//! The stream solver: the fixpoint of [`crate::solve`] in 2.25 bytes of
//! memory per position, resumable.
//!
//! Memory holds only the packed `secure`/`concede` state of every position
//! (2 bytes, see [`crate::solve`]), two bits per position saying whether it
//! changed in the current sweep or the one before (¼ byte), and the place
//! of each chunk's record (16 bytes per chunk of [`LEAN_CHUNK`] positions).
//! The moves are generated once, by the first sweep, and **streamed** to a
//! work file beside the tables (`seeds-KKK.moves`): per chunk, each
//! position's count of inner edges (1 byte), its exits' bounds (2 bytes)
//! and its inner edges (5 bytes each: a child rank of up to 39 bits and a
//! flip bit). Later sweeps read each chunk's record back with a positioned
//! read (no memory map, so the edges never count in the process's memory;
//! the kernel's page cache keeps them if it has room) and update the state
//! in place, in parallel, as the lean solver does, evaluating only the
//! positions with a child changed in this sweep or the one before. Sweeps
//! repeat until one changes nothing; the values are those of the least
//! fixpoint, identical to the other solvers'.
//!
//! **Resuming.** After a sweep (at most once a [`CHECKPOINT_EVERY`], and
//! always when stopped) the state is saved atomically to
//! `seeds-KKK.state`, with its sweep number and a checksum. Any saved state
//! lies between 0 and the least fixpoint (updates are monotone), so
//! sweeping on from it reaches the same fixpoint: a resumed build writes
//! the same bytes. The moves file is written under a temporary name and
//! renamed once complete, so a build stopped in the first sweep generates
//! the moves again (from the saved state); one stopped later reads them.
//! Both work files are removed once the layer file is written. A killed
//! build resumes from its last saved state; one stopped through its stop
//! flag saves the state it has reached and returns
//! [`TablebaseError::Interrupted`].

use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU16, AtomicU64, Ordering::Relaxed};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use hoyito_core::Rules;
use rayon::prelude::*;

use crate::error::TablebaseError;
use crate::file::{layer_file_name, write_atomic};
use crate::graph::{Edge, Expander};
use crate::index::Indexer;
use crate::lean::{SweepStats, LEAN_CHUNK};
use crate::progress::{OnProgress, Stage, StageCounter};
use crate::solve::{next_state, state_value, ExitBounds, LayerStats, LowerValues};
use crate::tag::layer_tag;

/// Least time between two saved states (the state is always saved when stopped).
pub const CHECKPOINT_EVERY: Duration = Duration::from_secs(60);

/// Bytes of an inner edge in the moves file.
const EDGE_BYTES: usize = 5;
const MOVES_MAGIC: &[u8; 8] = b"HOYITOMV";
const STATE_MAGIC: &[u8; 8] = b"HOYITOST";
/// Header of both work files: magic, layer tag, reserved.
const WORK_HEADER: usize = 32;

/// The work files of a layer being solved.
struct WorkFiles {
    moves: PathBuf,
    moves_partial: PathBuf,
    state: PathBuf,
}

impl WorkFiles {
    fn new(dir: &Path, seeds: u32) -> WorkFiles {
        let base = layer_file_name(seeds);
        let base = base.trim_end_matches(".htb");
        WorkFiles {
            moves: dir.join(format!("{base}.moves")),
            moves_partial: dir.join(format!("{base}.moves.tmp")),
            state: dir.join(format!("{base}.state")),
        }
    }
}

fn io_at(path: &Path) -> impl Fn(std::io::Error) -> TablebaseError + '_ {
    move |source| TablebaseError::Io {
        path: path.to_path_buf(),
        source,
    }
}

fn work_header(magic: &[u8; 8], tag: &[u8; 20]) -> [u8; WORK_HEADER] {
    let mut h = [0u8; WORK_HEADER];
    h[..8].copy_from_slice(magic);
    h[8..28].copy_from_slice(tag);
    h
}

/// Saves `state` (and the sweep it ends) atomically.
fn save_state(path: &Path, tag: &[u8; 20], sweep: u32, state: &[AtomicU16]) -> Result<(), TablebaseError> {
    write_atomic(path, |f| {
        let mut h = work_header(STATE_MAGIC, tag);
        h[28..32].copy_from_slice(&sweep.to_le_bytes());
        f.write_all(&h)?;
        f.write_all(&[0u8; 8])?;
        let mut hash = xxhash_rust::xxh3::Xxh3::new();
        let mut w = BufWriter::with_capacity(1 << 20, &mut *f);
        let mut block = Vec::with_capacity(1 << 16);
        for part in state.chunks(1 << 15) {
            block.clear();
            block.extend(part.iter().flat_map(|s| s.load(Relaxed).to_le_bytes()));
            hash.update(&block);
            w.write_all(&block)?;
        }
        w.flush()?;
        drop(w);
        f.seek(SeekFrom::Start(WORK_HEADER as u64))?;
        f.write_all(&hash.digest().to_le_bytes())
    })
    .map_err(io_at(path))
}

/// Loads a saved state into `state`: the sweep it ended, or `None` if there
/// is no saved state of this layer or it fails its checks (then `state` is
/// all 0 again).
fn load_state(path: &Path, tag: &[u8; 20], state: &[AtomicU16]) -> Option<u32> {
    let f = File::open(path).ok()?;
    let expected = WORK_HEADER as u64 + 8 + 2 * state.len() as u64;
    if f.metadata().ok()?.len() != expected {
        return None;
    }
    let mut r = BufReader::with_capacity(1 << 20, f);
    let mut h = [0u8; WORK_HEADER + 8];
    r.read_exact(&mut h).ok()?;
    if h[..8] != *STATE_MAGIC || h[8..28] != *tag {
        return None;
    }
    let sweep = u32::from_le_bytes(h[28..32].try_into().expect("4 bytes"));
    let want = u64::from_le_bytes(h[32..40].try_into().expect("8 bytes"));
    let mut hash = xxhash_rust::xxh3::Xxh3::new();
    let mut block = vec![0u8; 1 << 16];
    for part in state.chunks(1 << 15) {
        let bytes = &mut block[..2 * part.len()];
        r.read_exact(bytes).ok()?;
        hash.update(bytes);
        for (s, b) in part.iter().zip(bytes.chunks_exact(2)) {
            s.store(u16::from_le_bytes([b[0], b[1]]), Relaxed);
        }
    }
    if hash.digest() != want {
        state.iter().for_each(|s| s.store(0, Relaxed));
        return None;
    }
    Some(sweep)
}

/// The complete moves file of a layer: the file and every chunk's record
/// (offset, length).
struct Moves {
    file: File,
    records: Vec<(u64, u64)>,
    bytes: u64,
}

/// Opens the complete moves file, or `None` if there is none of this layer.
fn open_moves(path: &Path, tag: &[u8; 20], nchunks: u64) -> Option<Moves> {
    let mut file = File::open(path).ok()?;
    let bytes = file.metadata().ok()?.len();
    let mut h = [0u8; WORK_HEADER];
    file.read_exact(&mut h).ok()?;
    if h[..8] != *MOVES_MAGIC || h[8..28] != *tag {
        return None;
    }
    let table = 16 * nchunks;
    if bytes < WORK_HEADER as u64 + table {
        return None;
    }
    let mut raw = vec![0u8; table as usize];
    file.read_exact_at(&mut raw, bytes - table).ok()?;
    let records: Vec<(u64, u64)> = raw
        .chunks_exact(16)
        .map(|b| {
            (
                u64::from_le_bytes(b[..8].try_into().expect("8 bytes")),
                u64::from_le_bytes(b[8..].try_into().expect("8 bytes")),
            )
        })
        .collect();
    records
        .iter()
        .all(|&(at, len)| at >= WORK_HEADER as u64 && at + len <= bytes - table)
        .then_some(Moves { file, records, bytes })
}

/// Updates position `p` from its exits' bounds and its inner edges' children;
/// whether its state changed.
#[inline]
fn update(state: &[AtomicU16], p: usize, xs: i8, xo: i8, edges: impl Iterator<Item = (u64, bool)>) -> bool {
    let new = next_state(
        (xs, xo),
        edges.map(|(child, flip)| (state[child as usize].load(Relaxed), flip)),
    );
    let old = state[p].load(Relaxed);
    if new == old {
        return false;
    }
    // Both halves only grow: the iteration is monotone.
    debug_assert!(new & 0xff >= old & 0xff && new >> 8 >= old >> 8);
    state[p].store(new, Relaxed);
    true
}

#[inline]
fn decode(b: &[u8]) -> (u64, bool) {
    let v = u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], 0, 0, 0]);
    (v >> 1, v & 1 != 0)
}

/// The stream solver's result: the packed states of the solved layer.
pub struct Solved {
    /// `secure | concede << 8` of every position, in rank order.
    pub state: Vec<AtomicU16>,
    /// The layer's figures (`generate` is the first sweep of this run,
    /// `iterate` the others; `spill_bytes` the moves file).
    pub stats: LayerStats,
    /// The sweep this run resumed after (0 if it started afresh).
    pub resumed_after: u32,
}

impl Solved {
    /// The value of rank `p` (as [`crate::solve::solve_layer`] gives it).
    #[inline]
    pub fn value(&self, p: u64) -> i8 {
        state_value(self.state[p as usize].load(Relaxed))
    }
}

/// Removes the work files of layer `seeds` in `dir` (after its layer file
/// is written).
///
/// # Errors
/// [`TablebaseError::Io`] if one exists and cannot be removed.
pub fn remove_work_files(dir: &Path, seeds: u32) -> Result<(), TablebaseError> {
    let w = WorkFiles::new(dir, seeds);
    for p in [&w.moves, &w.moves_partial, &w.state] {
        match std::fs::remove_file(p) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(io_at(p)(e)),
            _ => {}
        }
    }
    Ok(())
}

/// Solves the layer of `seeds` seeds with its work files in `dir`, resuming
/// from a saved state there if one exists. `on_progress` follows each
/// sweep, `on_sweep` is called after each; when `stop` becomes true the
/// solver saves its state and returns [`TablebaseError::Interrupted`].
///
/// # Errors
/// [`TablebaseError::Io`] if a work file cannot be written or read (for
/// example when the disk is full), [`TablebaseError::Interrupted`] when stopped.
///
/// # Panics
/// If a value does not fit in `i8` (more than 127 seeds) or the layer has
/// 2³⁹ positions or more.
pub fn solve_layer_stream(
    rules: Rules,
    seeds: u32,
    lower: &dyn LowerValues,
    on_progress: OnProgress<'_>,
    dir: &Path,
    stop: Option<&AtomicBool>,
    mut on_sweep: impl FnMut(&SweepStats),
) -> Result<Solved, TablebaseError> {
    assert!(seeds <= 127, "values must fit in i8");
    let holes = rules.board_len();
    let indexers: Vec<Indexer> = (0..=seeds).map(|s| Indexer::new(holes, s)).collect();
    let ix = &indexers[seeds as usize];
    let count = ix.count();
    assert!(count < 1 << 39, "layer too large: {count} positions");
    let nchunks = count.div_ceil(LEAN_CHUNK);
    let rank = |s: u32, b: &[u8]| indexers[s as usize].rank(b);
    let tag = layer_tag(&rules, seeds, count);
    let files = WorkFiles::new(dir, seeds);
    let stopped = || stop.is_some_and(|s| s.load(Relaxed));

    let state: Vec<AtomicU16> = (0..count).map(|_| AtomicU16::new(0)).collect();
    let resumed_after = load_state(&files.state, &tag, &state).unwrap_or(0);
    // Bit `2 (p % 32) + k % 2` of `marks[p / 32]`: position `p` changed in
    // sweep `k` (this sweep or the one before; both bits in one word, so a
    // child costs one memory access).
    let words = count.div_ceil(32) as usize;
    let marks: Vec<AtomicU64> = (0..words).map(|_| AtomicU64::new(0)).collect();
    let recent = |p: u64| marks[(p / 32) as usize].load(Relaxed) & (3 << (2 * (p % 32))) != 0;
    let mut sweep = resumed_after;
    let mut last_save = Instant::now();

    // Evaluates chunk `c` from its record `rec` (counts, exits, edges);
    // returns the positions changed and evaluated. With `filter`, a position none of
    // whose children changed in this sweep or the one before is not
    // evaluated: its children have kept the states its last evaluation read
    // (by induction over the sweeps that skipped it), so it would not change.
    let eval_record = |rec: &[u8], c: u64, sweep: u32, filter: bool| -> (u64, u64) {
        let start = c * LEAN_CHUNK;
        let len = LEAN_CHUNK.min(count - start) as usize;
        let (counts, rest) = rec.split_at(len);
        let (exits, edges) = rest.split_at(2 * len);
        let mut e = 0usize;
        let (mut changed, mut evaluated) = (0u64, 0u64);
        for i in 0..len {
            let n = counts[i] as usize;
            let mine = &edges[e * EDGE_BYTES..(e + n) * EDGE_BYTES];
            e += n;
            if filter && !mine.chunks_exact(EDGE_BYTES).any(|b| recent(decode(b).0)) {
                continue;
            }
            evaluated += 1;
            let (xs, xo) = (exits[2 * i] as i8, exits[2 * i + 1] as i8);
            let p = start + i as u64;
            if update(
                &state,
                p as usize,
                xs,
                xo,
                mine.chunks_exact(EDGE_BYTES).map(decode),
            ) {
                changed += 1;
                marks[(p / 32) as usize].fetch_or(1 << (2 * (p % 32) + sweep as u64 % 2), Relaxed);
            }
        }
        (changed, evaluated)
    };

    // Generates chunk `c`'s record into `rec` and evaluates it.
    let generate_record = |ex: &mut Expander, rec: &mut Vec<u8>, edges: &mut Vec<u8>, c: u64, sweep: u32| {
        let start = c * LEAN_CHUNK;
        let len = LEAN_CHUNK.min(count - start) as usize;
        rec.clear();
        rec.resize(3 * len, 0);
        edges.clear();
        let mut board = vec![0u8; holes];
        ix.unrank(start, &mut board);
        for i in 0..len {
            let before = edges.len();
            let mut bounds = ExitBounds::NONE;
            ex.expand(&board, rank, |_, e| match e {
                Edge::Same { child, flip } => {
                    edges.extend_from_slice(&((child << 1) | flip as u64).to_le_bytes()[..EDGE_BYTES]);
                }
                exit => {
                    bounds.add(exit.value(|_| unreachable!(), |s, r| lower.value(s, r) as i32));
                }
            });
            rec[i] = ((edges.len() - before) / EDGE_BYTES) as u8;
            let (xs, xo) = bounds.packed();
            rec[len + 2 * i] = xs as u8;
            rec[len + 2 * i + 1] = xo as u8;
            if i + 1 < len {
                ix.next(&mut board);
            }
        }
        rec.extend_from_slice(edges);
        eval_record(rec, c, sweep, false).0
    };

    let mut log: Vec<SweepStats> = Vec::new();
    let mut finish_sweep = |st: SweepStats| {
        on_sweep(&st);
        log.push(st);
    };
    let read_error: Mutex<Option<std::io::Error>> = Mutex::new(None);
    let read_failed = |e: std::io::Error| {
        *read_error.lock().unwrap_or_else(|p| p.into_inner()) = Some(e);
    };
    // Reads chunk `c`'s record into `buf` and evaluates it.
    let read_and_eval = |m: &Moves, buf: &mut Vec<u8>, c: u64, sweep: u32, filter: bool| -> (u64, u64) {
        let (at, len) = m.records[c as usize];
        buf.resize(len as usize, 0);
        match m.file.read_exact_at(buf, at) {
            Ok(()) => eval_record(buf, c, sweep, filter),
            Err(e) => {
                read_failed(e);
                (0, 0)
            }
        }
    };

    // The first sweep of this run evaluates every position: from the moves
    // file if it is complete, else generating the moves and writing the file.
    let t0 = Instant::now();
    sweep += 1;
    let first = StageCounter::start(on_progress, seeds, Stage::Sweep(sweep), count);
    let changed = AtomicU64::new(0);
    let mut moves = open_moves(&files.moves, &tag, nchunks);
    match &moves {
        Some(m) => {
            (0..nchunks).into_par_iter().for_each_init(Vec::new, |buf, c| {
                if stopped() {
                    return;
                }
                changed.fetch_add(read_and_eval(m, buf, c, sweep, false).0, Relaxed);
                first.add(LEAN_CHUNK.min(count - c * LEAN_CHUNK));
            });
        }
        None => {
            let io = io_at(&files.moves_partial);
            let mut f = File::create(&files.moves_partial).map_err(&io)?;
            f.write_all(&work_header(MOVES_MAGIC, &tag)).map_err(&io)?;
            let out = Mutex::new((BufWriter::with_capacity(1 << 20, f), WORK_HEADER as u64, None));
            let records: Vec<(u64, u64)> = (0..nchunks)
                .into_par_iter()
                .map_init(
                    || (Expander::new(rules), Vec::new(), Vec::new()),
                    |(ex, rec, edges), c| {
                        if stopped() {
                            return (0, 0);
                        }
                        changed.fetch_add(generate_record(ex, rec, edges, c, sweep), Relaxed);
                        let mut o = out.lock().unwrap_or_else(|p| p.into_inner());
                        let (w, at, err): &mut (BufWriter<File>, u64, Option<std::io::Error>) = &mut o;
                        let place = (*at, rec.len() as u64);
                        if err.is_none() {
                            match w.write_all(rec) {
                                Ok(()) => *at += rec.len() as u64,
                                Err(e) => *err = Some(e),
                            }
                        }
                        drop(o);
                        first.add(LEAN_CHUNK.min(count - c * LEAN_CHUNK));
                        place
                    },
                )
                .collect();
            let (w, at, err) = out.into_inner().unwrap_or_else(|p| p.into_inner());
            if let Some(e) = err {
                return Err(io(e));
            }
            if !stopped() {
                let mut f = w.into_inner().map_err(|e| io(e.into_error()))?;
                let table: Vec<u8> = records
                    .iter()
                    .flat_map(|&(a, l)| a.to_le_bytes().into_iter().chain(l.to_le_bytes()))
                    .collect();
                f.write_all(&table).map_err(&io)?;
                f.sync_all().map_err(&io)?;
                drop(f);
                std::fs::rename(&files.moves_partial, &files.moves).map_err(&io)?;
                moves = Some(Moves {
                    file: File::open(&files.moves).map_err(io_at(&files.moves))?,
                    records,
                    bytes: at + table.len() as u64,
                });
            } else {
                drop(w);
                let _ = std::fs::remove_file(&files.moves_partial);
            }
        }
    }
    let read_check = |read_error: &Mutex<Option<std::io::Error>>| match read_error
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .take()
    {
        Some(e) => Err(io_at(&files.moves)(e)),
        None => Ok(()),
    };
    read_check(&read_error)?;
    if stopped() {
        save_state(&files.state, &tag, sweep - 1, &state)?;
        return Err(TablebaseError::Interrupted { seeds });
    }
    let moves = moves.expect("the moves file is complete after the first sweep");
    let generate = t0.elapsed();
    let mut any = changed.load(Relaxed) > 0;
    finish_sweep(SweepStats {
        sweep,
        evaluated: count,
        changed: changed.load(Relaxed),
        time: generate,
    });

    // Later sweeps: every position with a child changed in this sweep or the one before.
    let t1 = Instant::now();
    while any {
        if last_save.elapsed() >= CHECKPOINT_EVERY {
            save_state(&files.state, &tag, sweep, &state)?;
            last_save = Instant::now();
        }
        sweep += 1;
        let ts = Instant::now();
        // Clear this sweep's bits (they hold the changes of two sweeps ago).
        let keep = if sweep.is_multiple_of(2) {
            0xaaaa_aaaa_aaaa_aaaa
        } else {
            0x5555_5555_5555_5555
        };
        marks.par_iter().for_each(|w| {
            w.fetch_and(keep, Relaxed);
        });
        let progress = StageCounter::start(on_progress, seeds, Stage::Sweep(sweep), count);
        let (changed, evaluated) = (AtomicU64::new(0), AtomicU64::new(0));
        (0..nchunks).into_par_iter().for_each_init(Vec::new, |buf, c| {
            if stopped() {
                return;
            }
            let (n, e) = read_and_eval(&moves, buf, c, sweep, true);
            changed.fetch_add(n, Relaxed);
            evaluated.fetch_add(e, Relaxed);
            progress.add(LEAN_CHUNK.min(count - c * LEAN_CHUNK));
        });
        read_check(&read_error)?;
        if stopped() {
            // A partial sweep's states are still below the fixpoint: keep them.
            save_state(&files.state, &tag, sweep - 1, &state)?;
            return Err(TablebaseError::Interrupted { seeds });
        }
        any = changed.load(Relaxed) > 0;
        finish_sweep(SweepStats {
            sweep,
            evaluated: evaluated.load(Relaxed),
            changed: changed.load(Relaxed),
            time: ts.elapsed(),
        });
    }
    let iterate = t1.elapsed();
    let stats = LayerStats {
        seeds,
        positions: count,
        inner_edges: (moves.bytes - WORK_HEADER as u64 - 16 * nchunks - 3 * count) / EDGE_BYTES as u64,
        sweeps: sweep,
        generate,
        iterate,
        // State, change marks, chunk records.
        work_bytes: 2 * count + 8 * words as u64 + 16 * nchunks,
        lean: true,
        spill_bytes: moves.bytes,
    };
    Ok(Solved {
        state,
        stats,
        resumed_after,
    })
}
