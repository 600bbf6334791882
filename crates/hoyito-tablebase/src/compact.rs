//! Compact layer files: the values of a layer entropy-coded in blocks that
//! decode independently, so that a probe decodes one block (and a small
//! cache of decoded blocks serves repeated probes).
//!
//! A layer's values are multiples of 4 between `−seeds` and `+seeds`, and
//! hard to predict: on the largest layers their order-0 entropy is 2.1–2.8
//! bits a position, and neither the rank order nor simple board features
//! lower it much (docs/SOLUTIONS.md, "Compact tables"). Each value is coded
//! as a symbol (`(value − lowest) / step`, so 7 symbols for a 12-seed layer)
//! by a static rANS coder whose probabilities depend on a *context*: the
//! seeds on the mover's side, the mover's holes holding 3, the opponent's
//! holes holding 3, and the previous value in the block. The probabilities
//! of every context met in the layer are stored once in the file (the
//! *model*); each block of `block_len` positions (2,048 by default) is one
//! rANS stream, and an index gives where each block starts.
//!
//! ```text
//! offset size  field
//!      0    8  magic "HOYITOTC"
//!      8    4  format version (little-endian u32, currently 1)
//!     12   20  the layer: variant, holes per row, skip_origin, capture_side,
//!              seeds in play (u32), reserved (u32, 0), positions (u64), as
//!              bytes 12..32 of a one-byte layer file (file.rs)
//!     32    8  xxh3-64 of everything after the header (model, blocks, index)
//!     40    4  positions per block (u32)
//!     44    1  context scheme: 0 one context, 1 board and previous value
//!     45    1  probability bits (14)
//!     46    1  lowest value (i8)
//!     47    1  step between values (u8, ≥ 1)
//!     48    2  symbols (u16): values are lowest + step × symbol
//!     50    1  bytes of an index entry (4 or 8)
//!     51    1  reserved, 0
//!     52    4  model length in bytes (u32)
//!     56    8  blocks' length in bytes (u64)
//!     64    …  model: a bitmap of the contexts present, then for each one
//!              its symbols' frequencies (LEB128, summing to 2^14)
//!      …    …  blocks: one rANS stream each (4-byte state, then bytes)
//!      …    …  index: blocks + 1 offsets into the blocks (little-endian,
//!              the first 0, the last the blocks' length)
//! ```
//!
//! Files are written whole to a temporary file and renamed
//! ([`write_atomic`]), read back and compared with the values before the
//! call returns, and checked when opened (magic, version, layer, sizes,
//! checksum, model) with [`TablebaseError::Corrupt`] naming the failed check.

use std::fs::File;
use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex};

use hoyito_core::Rules;
use memmap2::Mmap;
use rayon::prelude::*;
use xxhash_rust::xxh3::{xxh3_64, Xxh3};

use crate::error::TablebaseError;
use crate::file::{layer_tag, write_atomic};
use crate::index::Indexer;

/// File magic of a compact layer.
pub const MAGIC: &[u8; 8] = b"HOYITOTC";
/// Current format version.
pub const FORMAT_VERSION: u32 = 1;
/// Header length; the model starts here.
pub const HEADER_LEN: usize = 64;
/// Positions per block unless told otherwise.
pub const DEFAULT_BLOCK_LEN: u32 = 2048;
/// Bytes of decoded blocks a [`BlockCache::default`] holds at most.
pub const DEFAULT_CACHE_BYTES: usize = 8 << 20;

const PROB_BITS: u32 = 14;
const PROB_SCALE: u32 = 1 << PROB_BITS;
const RANS_L: u32 = 1 << 23;
/// Most (context, symbol) counters the writer keeps (8 bytes each, per worker).
const MAX_COUNTS: usize = 1 << 23;

/// The name of a layer's compact file inside a tablebase directory.
pub fn compact_file_name(seeds: u32) -> String {
    format!("seeds-{seeds:03}.htc")
}

/// The seeds on the mover's side (holes `0..n`), the mover's holes holding
/// 3 and the opponent's holes holding 3.
#[inline]
fn features(board: &[u8]) -> (usize, usize, usize) {
    let n = board.len() / 2;
    let (mut m, mut t3m, mut t3t) = (0usize, 0usize, 0usize);
    for &s in &board[..n] {
        m += s as usize;
        t3m += (s == 3) as usize;
    }
    for &s in &board[n..] {
        t3t += (s == 3) as usize;
    }
    (m, t3m, t3t)
}

/// One symbol of a context: its slots `start..start + freq` of the
/// probability scale.
#[derive(Debug, Clone, Copy, Default)]
struct Entry {
    start: u16,
    freq: u16,
    symbol: u8,
}

/// The probabilities of every context (what a file's model section holds).
#[derive(Debug, Clone)]
struct Model {
    scheme: u8,
    /// Holes per row.
    n: usize,
    symbols: usize,
    lowest: i8,
    step: u8,
    /// Dense context → its row (row 0, a fallback, for contexts absent from the file).
    row_of: Vec<u32>,
    /// Dense context → where its row's entries start in `entries`: the
    /// symbols met in that context, most frequent first, their slots in
    /// that order (so that a decoder's scan mostly stops at the first).
    entry_of: Vec<u32>,
    entries: Vec<Entry>,
    /// For the encoder: row × symbol → its entry (freq 0 when absent).
    by_symbol: Vec<Entry>,
    /// Normalised frequencies of the present contexts, in context order (what is stored).
    stored: Vec<(u32, Vec<u16>)>,
}

/// Number of dense contexts of a scheme.
fn context_count(scheme: u8, seeds: u32, n: usize, symbols: usize) -> usize {
    match scheme {
        0 => 1,
        _ => (seeds as usize + 1) * (n + 1) * (n + 1) * (symbols + 1),
    }
}

impl Model {
    /// The dense context of `board` after the symbol `prev` (`symbols` at a block's start).
    #[inline]
    fn context(&self, board: &[u8], prev: usize) -> usize {
        if self.scheme == 0 {
            return 0;
        }
        let (m, t3m, t3t) = features(board);
        ((m * (self.n + 1) + t3m) * (self.n + 1) + t3t) * (self.symbols + 1) + prev
    }

    /// A model from normalised frequencies of the present contexts.
    fn new(
        scheme: u8,
        n: usize,
        seeds: u32,
        symbols: usize,
        lowest: i8,
        step: u8,
        stored: Vec<(u32, Vec<u16>)>,
    ) -> Model {
        let count = context_count(scheme, seeds, n, symbols);
        // Row 0: a fallback for contexts the file does not have (never met
        // in a valid file; it keeps decoding a crafted one panic-free).
        let mut fallback = vec![(PROB_SCALE / symbols as u32) as u16; symbols];
        fallback[0] += (PROB_SCALE - fallback.iter().map(|&f| f as u32).sum::<u32>()) as u16;
        let mut row_of = vec![0u32; count];
        let mut row_start = vec![0u32];
        let mut entries = Vec::new();
        let mut by_symbol = Vec::new();
        let rows = std::iter::once(&fallback).chain(stored.iter().map(|(_, f)| f));
        for (r, freqs) in rows.enumerate() {
            let mut order: Vec<usize> = (0..symbols).filter(|&s| freqs[s] > 0).collect();
            order.sort_by_key(|&s| (std::cmp::Reverse(freqs[s]), s));
            let mut row = vec![Entry::default(); symbols];
            let mut start = 0u32;
            for s in order {
                let e = Entry {
                    start: start as u16,
                    freq: freqs[s],
                    symbol: s as u8,
                };
                entries.push(e);
                row[s] = e;
                start += freqs[s] as u32;
            }
            row_start.push(entries.len() as u32);
            by_symbol.extend(row);
            // A row's slots end at the scale: a scan never runs past it.
            debug_assert_eq!(start, PROB_SCALE);
            if r > 0 {
                row_of[stored[r - 1].0 as usize] = r as u32;
            }
        }
        let entry_of = row_of.iter().map(|&r| row_start[r as usize]).collect();
        Model {
            scheme,
            n,
            symbols,
            lowest,
            step,
            row_of,
            entry_of,
            entries,
            by_symbol,
            stored,
        }
    }

    fn serialize(&self, seeds: u32) -> Vec<u8> {
        let count = context_count(self.scheme, seeds, self.n, self.symbols);
        let mut bitmap = vec![0u8; count.div_ceil(8)];
        let mut freqs = Vec::new();
        for (ctx, f) in &self.stored {
            bitmap[*ctx as usize / 8] |= 1 << (ctx % 8);
            for &v in f {
                leb128(&mut freqs, v as u32);
            }
        }
        bitmap.extend(freqs);
        bitmap
    }

    fn parse(
        bytes: &[u8],
        scheme: u8,
        n: usize,
        seeds: u32,
        symbols: usize,
        lowest: i8,
        step: u8,
    ) -> Result<Model, String> {
        let count = context_count(scheme, seeds, n, symbols);
        let map_len = count.div_ceil(8);
        if bytes.len() < map_len {
            return Err("model shorter than its bitmap".into());
        }
        let (bitmap, mut rest) = bytes.split_at(map_len);
        if !count.is_multiple_of(8) && bitmap[map_len - 1] >> (count % 8) != 0 {
            return Err("model bitmap names contexts that do not exist".into());
        }
        let mut stored = Vec::new();
        for ctx in 0..count {
            if bitmap[ctx / 8] & (1 << (ctx % 8)) == 0 {
                continue;
            }
            let mut f = Vec::with_capacity(symbols);
            for _ in 0..symbols {
                let (v, used) = read_leb128(rest).ok_or("model frequencies cut short")?;
                rest = &rest[used..];
                if v > PROB_SCALE {
                    return Err("a frequency above the probability scale".into());
                }
                f.push(v as u16);
            }
            if f.iter().map(|&v| v as u32).sum::<u32>() != PROB_SCALE {
                return Err(format!("context {ctx}: frequencies do not sum to {PROB_SCALE}"));
            }
            stored.push((ctx as u32, f));
        }
        if !rest.is_empty() {
            return Err("bytes left after the model".into());
        }
        Ok(Model::new(scheme, n, seeds, symbols, lowest, step, stored))
    }
}

fn leb128(out: &mut Vec<u8>, mut v: u32) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn read_leb128(b: &[u8]) -> Option<(u32, usize)> {
    let mut v = 0u32;
    for (i, &byte) in b.iter().enumerate().take(3) {
        v |= ((byte & 0x7f) as u32) << (7 * i);
        if byte & 0x80 == 0 {
            return Some((v, i + 1));
        }
    }
    None
}

/// Frequencies summing to [`PROB_SCALE`], at least 1 for every symbol met.
fn normalise(counts: &[u64]) -> Vec<u16> {
    let total: u64 = counts.iter().sum();
    let mut f: Vec<u32> = counts
        .iter()
        .map(|&c| {
            if c == 0 {
                0
            } else {
                ((c as u128 * PROB_SCALE as u128 + total as u128 / 2) / total as u128).max(1) as u32
            }
        })
        .collect();
    let mut sum: u32 = f.iter().sum();
    while sum != PROB_SCALE {
        // The symbol whose frequency is largest takes the difference, one at a time.
        let i = (0..f.len()).max_by_key(|&i| f[i]).expect("a symbol was met");
        if sum > PROB_SCALE {
            let cut = (sum - PROB_SCALE).min(f[i] - 1);
            f[i] -= cut.max(1);
            sum -= cut.max(1);
        } else {
            f[i] += PROB_SCALE - sum;
            sum = PROB_SCALE;
        }
    }
    f.into_iter().map(|v| v as u16).collect()
}

/// Bits the values counted in `counts` take coded with `freqs`.
fn coded_bits(counts: &[u64], freqs: &[u16]) -> f64 {
    counts
        .iter()
        .zip(freqs)
        .filter(|(&c, _)| c > 0)
        .map(|(&c, &f)| c as f64 * (PROB_SCALE as f64 / f as f64).log2())
        .sum()
}

/// Encodes one block: the values of ranks `first..first + codes.len()`
/// (as symbols).
fn encode_block(model: &Model, ix: &Indexer, first: u64, codes: &[u8]) -> Vec<u8> {
    let mut board = vec![0u8; ix.holes()];
    ix.unrank(first, &mut board);
    let mut slots = Vec::with_capacity(codes.len());
    let mut prev = model.symbols;
    for &c in codes {
        let ctx = model.context(&board, prev);
        let row = model.row_of[ctx] as usize;
        slots.push(model.by_symbol[row * model.symbols + c as usize]);
        prev = c as usize;
        ix.next(&mut board);
    }
    let mut out = Vec::with_capacity(codes.len() / 2 + 8);
    let mut x = RANS_L;
    for e in slots.iter().rev() {
        let freq = e.freq as u32;
        debug_assert!(freq > 0, "every coded symbol has a frequency");
        let x_max = ((RANS_L >> PROB_BITS) << 8) * freq;
        while x >= x_max {
            out.push(x as u8);
            x >>= 8;
        }
        x = ((x / freq) << PROB_BITS) + (x % freq) + e.start as u32;
    }
    let mut block = x.to_le_bytes().to_vec();
    block.extend(out.iter().rev());
    block
}

/// Decodes the first `out.len()` values of a block starting at rank `first`.
fn decode_block(model: &Model, ix: &Indexer, first: u64, bytes: &[u8], out: &mut [i8]) {
    let mut board = vec![0u8; ix.holes()];
    ix.unrank(first, &mut board);
    let mut x = match bytes.get(..4) {
        Some(b) => u32::from_le_bytes(b.try_into().expect("4 bytes")),
        None => RANS_L,
    };
    let mut p = 4;
    let mut prev = model.symbols;
    for v in out.iter_mut() {
        let ctx = model.context(&board, prev);
        let slot = x & (PROB_SCALE - 1);
        // The row's slots cover the whole scale (checked when parsed), so
        // the scan stops within it.
        let row = &model.entries[model.entry_of[ctx] as usize..];
        let e = *row
            .iter()
            .find(|e| slot < e.start as u32 + e.freq as u32)
            .unwrap_or(&row[0]);
        *v = model
            .lowest
            .wrapping_add((model.step as i8).wrapping_mul(e.symbol as i8));
        x = (e.freq as u32)
            .wrapping_mul(x >> PROB_BITS)
            .wrapping_add(slot)
            .wrapping_sub(e.start as u32);
        while x < RANS_L {
            // A valid stream holds exactly the bytes the decoder reads; a
            // crafted one that runs out (or a zero state) must not loop.
            let Some(&b) = bytes.get(p) else {
                x |= RANS_L;
                break;
            };
            x = (x << 8) | b as u32;
            p += 1;
        }
        prev = e.symbol as usize;
        ix.next(&mut board);
    }
}

/// What [`write_compact`] wrote.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CompactStats {
    /// Positions in the layer.
    pub positions: u64,
    /// Bytes of the file (header, model, blocks and index).
    pub file_bytes: u64,
    /// Bytes of the model.
    pub model_bytes: u64,
    /// Bytes of the index.
    pub index_bytes: u64,
    /// The context scheme chosen (0 one context, 1 board and previous value).
    pub scheme: u8,
}

impl CompactStats {
    /// Bits of file per position.
    pub fn bits_per_position(&self) -> f64 {
        self.file_bytes as f64 * 8.0 / self.positions.max(1) as f64
    }
}

fn gcd(a: u32, b: u32) -> u32 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// Writes the values of one layer (`values[rank]`, an `i8` as a byte, as
/// in a one-byte layer file) as a compact file at `path`, atomically, in
/// blocks of `block_len` positions; the file is then read back and
/// compared with `values` before this returns.
///
/// # Errors
/// [`TablebaseError::Io`] if it cannot be written; [`TablebaseError::Corrupt`]
/// if the file read back differs (a bug, or the disk).
pub fn write_compact(
    path: &Path,
    rules: &Rules,
    seeds: u32,
    values: &[u8],
    block_len: u32,
) -> Result<CompactStats, TablebaseError> {
    assert!(block_len > 0, "a block holds at least one position");
    let io = |e: std::io::Error| TablebaseError::Io {
        path: path.to_path_buf(),
        source: e,
    };
    let ix = Indexer::new(rules.board_len(), seeds);
    let positions = values.len() as u64;
    assert_eq!(positions, ix.count(), "one value per position of the layer");
    let n = rules.holes();

    // Symbols: lowest + step × symbol.
    let hist = values
        .par_chunks(1 << 20)
        .map(|c| {
            let mut h = [0u64; 256];
            for &b in c {
                h[b as usize] += 1;
            }
            h
        })
        .reduce(
            || [0u64; 256],
            |mut a, b| {
                a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
                a
            },
        );
    let present: Vec<i32> = (0..256)
        .filter(|&b| hist[b] > 0)
        .map(|b| b as u8 as i8 as i32)
        .collect();
    let lowest = present.iter().copied().min().unwrap_or(0);
    let highest = present.iter().copied().max().unwrap_or(0);
    let step = present
        .iter()
        .fold(0u32, |g, &v| gcd(g, (v - lowest) as u32))
        .max(1);
    let symbols = ((highest - lowest) as u32 / step + 1) as usize;
    let mut code_of = [0u8; 256];
    for &v in &present {
        code_of[v as i8 as u8 as usize] = ((v - lowest) as u32 / step) as u8;
    }

    // Counts per context of the fuller scheme (the other is their sum).
    let block = block_len as u64;
    let blocks = positions.div_ceil(block);
    // The fuller scheme's counts must fit in memory (they do up to far
    // beyond 2×6 with 48 seeds); past that, one context.
    let rich_scheme = (context_count(1, seeds, n, symbols) * symbols <= MAX_COUNTS) as u8;
    let count = context_count(rich_scheme, seeds, n, symbols);
    let probe = Model::new(
        rich_scheme,
        n,
        seeds,
        symbols,
        lowest as i8,
        step as u8,
        Vec::new(),
    );
    let chunk_blocks = (1u64 << 20).div_ceil(block).max(1);
    let counts = (0..blocks.div_ceil(chunk_blocks))
        .into_par_iter()
        .fold(
            || vec![0u64; count * symbols],
            |mut acc, c| {
                let first = c * chunk_blocks * block;
                let last = ((c + 1) * chunk_blocks * block).min(positions);
                let mut board = vec![0u8; ix.holes()];
                ix.unrank(first, &mut board);
                let mut prev = symbols;
                for r in first..last {
                    if r % block == 0 {
                        prev = symbols;
                    }
                    let s = code_of[values[r as usize] as usize] as usize;
                    acc[probe.context(&board, prev) * symbols + s] += 1;
                    prev = s;
                    ix.next(&mut board);
                }
                acc
            },
        )
        .reduce(
            || vec![0u64; count * symbols],
            |mut a, b| {
                a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
                a
            },
        );
    let mut rich = Vec::new();
    let mut rich_bits = 0.0;
    for (ctx, c) in counts.chunks(symbols).enumerate() {
        if c.iter().any(|&v| v > 0) {
            let f = normalise(c);
            rich_bits += coded_bits(c, &f);
            rich.push((ctx as u32, f));
        }
    }
    let mut flat_counts = vec![0u64; symbols];
    for c in counts.chunks(symbols) {
        flat_counts.iter_mut().zip(c).for_each(|(x, y)| *x += y);
    }
    let flat = normalise(&flat_counts);
    let flat_bits = coded_bits(&flat_counts, &flat);
    drop(counts);
    let rich_model = Model::new(rich_scheme, n, seeds, symbols, lowest as i8, step as u8, rich);
    let flat_model = Model::new(0, n, seeds, symbols, lowest as i8, step as u8, vec![(0, flat)]);
    let (rich_bytes, flat_bytes) = (rich_model.serialize(seeds), flat_model.serialize(seeds));
    let (model, model_bytes) =
        if rich_bits / 8.0 + (rich_bytes.len() as f64) < flat_bits / 8.0 + flat_bytes.len() as f64 {
            (rich_model, rich_bytes)
        } else {
            (flat_model, flat_bytes)
        };

    // The blocks, encoded in parallel a group at a time, then the index.
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(io)?;
    let group = 4096u64;
    let mut offsets: Vec<u64> = Vec::with_capacity(blocks as usize + 1);
    offsets.push(0);
    write_atomic(path, |f| {
        use std::io::{Seek, SeekFrom};
        f.write_all(&[0u8; HEADER_LEN])?;
        let mut hash = Xxh3::new();
        let mut w = std::io::BufWriter::with_capacity(1 << 20, &mut *f);
        w.write_all(&model_bytes)?;
        hash.update(&model_bytes);
        let mut g = 0;
        while g < blocks {
            let encoded: Vec<Vec<u8>> = (g..(g + group).min(blocks))
                .into_par_iter()
                .map(|b| {
                    let first = b * block;
                    let last = (first + block).min(positions);
                    let codes: Vec<u8> = values[first as usize..last as usize]
                        .iter()
                        .map(|&v| code_of[v as usize])
                        .collect();
                    encode_block(&model, &ix, first, &codes)
                })
                .collect();
            for e in &encoded {
                w.write_all(e)?;
                hash.update(e);
                offsets.push(offsets.last().expect("an offset") + e.len() as u64);
            }
            g += group;
        }
        let data_len = *offsets.last().expect("an offset");
        let width = if data_len <= u32::MAX as u64 { 4 } else { 8 };
        let mut index = Vec::with_capacity(offsets.len() * width);
        for &o in &offsets {
            index.extend_from_slice(&o.to_le_bytes()[..width]);
        }
        w.write_all(&index)?;
        hash.update(&index);
        w.flush()?;
        drop(w);
        let mut h = [0u8; HEADER_LEN];
        h[..8].copy_from_slice(MAGIC);
        h[8..12].copy_from_slice(&FORMAT_VERSION.to_le_bytes());
        h[12..32].copy_from_slice(&layer_tag(rules, seeds, positions));
        h[32..40].copy_from_slice(&hash.digest().to_le_bytes());
        h[40..44].copy_from_slice(&block_len.to_le_bytes());
        h[44] = model.scheme;
        h[45] = PROB_BITS as u8;
        h[46] = lowest as i8 as u8;
        h[47] = step as u8;
        h[48..50].copy_from_slice(&(symbols as u16).to_le_bytes());
        h[50] = width as u8;
        h[52..56].copy_from_slice(&(model_bytes.len() as u32).to_le_bytes());
        h[56..64].copy_from_slice(&data_len.to_le_bytes());
        f.seek(SeekFrom::Start(0))?;
        f.write_all(&h)
    })
    .map_err(io)?;

    // Read back and compared, block by block.
    let layer = CompactLayer::open(path, rules, seeds, positions, Arc::new(BlockCache::new(0)))?;
    let differ = (0..blocks).into_par_iter().any(|b| {
        let first = (b * block) as usize;
        let last = (first + block as usize).min(values.len());
        let mut out = vec![0i8; last - first];
        layer.decode(b, &mut out);
        out.iter().zip(&values[first..last]).any(|(&a, &v)| a as u8 != v)
    });
    if differ {
        let _ = std::fs::remove_file(path);
        return Err(TablebaseError::Corrupt {
            path: path.to_path_buf(),
            reason: "the compact file read back differs from the values written".into(),
        });
    }
    Ok(CompactStats {
        positions,
        file_bytes: layer.map.len() as u64,
        model_bytes: model_bytes.len() as u64,
        index_bytes: (blocks + 1) * layer.width as u64,
        scheme: model.scheme,
    })
}

/// A bounded cache of decoded blocks, shared by the compact layers of a
/// [`Tablebase`](crate::Tablebase): two-way set-associative (a block may
/// sit in one of the two slots of the set its layer and number hash to;
/// the one used less recently makes room), each set behind its own lock,
/// a slot's memory taken when first filled.
#[derive(Debug)]
pub struct BlockCache {
    sets: Box<[Mutex<Set>]>,
    decoded: AtomicU64,
}

#[derive(Debug, Default)]
struct Set {
    /// Layer and block of each slot, plus one (0: empty).
    keys: [u64; 2],
    values: [Vec<i8>; 2],
    /// The slot used last.
    last: usize,
}

impl Default for BlockCache {
    fn default() -> BlockCache {
        BlockCache::with_bytes(DEFAULT_CACHE_BYTES, DEFAULT_BLOCK_LEN)
    }
}

impl BlockCache {
    /// A cache of `slots` decoded blocks (rounded down to an even power of
    /// two; 0 or 1: no cache, every probe decodes up to its position).
    pub fn new(slots: usize) -> BlockCache {
        let sets = if slots < 2 { 0 } else { 1 << (slots / 2).ilog2() };
        BlockCache {
            sets: (0..sets).map(|_| Mutex::new(Set::default())).collect(),
            decoded: AtomicU64::new(0),
        }
    }

    /// A cache of at most `bytes` of blocks of `block_len` positions (a
    /// slot holds one block of whatever length its file has).
    pub fn with_bytes(bytes: usize, block_len: u32) -> BlockCache {
        BlockCache::new(bytes / block_len.max(1) as usize)
    }

    /// Slots (blocks it can hold).
    pub fn slots(&self) -> usize {
        2 * self.sets.len()
    }

    /// Blocks decoded so far (probes the cache did not answer).
    pub fn decoded(&self) -> u64 {
        self.decoded.load(Relaxed)
    }

    /// Empties every slot (their memory is kept).
    pub fn clear(&self) {
        for s in self.sets.iter() {
            s.lock().unwrap_or_else(|e| e.into_inner()).keys = [0; 2];
        }
    }
}

/// A compact layer file, checked and memory-mapped; values are read
/// through a [`BlockCache`].
pub struct CompactLayer {
    map: Mmap,
    seeds: u32,
    positions: u64,
    block_len: u64,
    model: Model,
    ix: Indexer,
    data_start: usize,
    index_start: usize,
    width: usize,
    cache: Arc<BlockCache>,
}

impl std::fmt::Debug for CompactLayer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CompactLayer")
            .field("seeds", &self.seeds)
            .field("positions", &self.positions)
            .field("block_len", &self.block_len)
            .field("bytes", &self.map.len())
            .finish()
    }
}

impl CompactLayer {
    /// Opens and checks a compact layer file: magic, version, rules,
    /// layer, positions, sizes, checksum and model must all hold.
    ///
    /// # Errors
    /// [`TablebaseError::Io`] if it cannot be read, [`TablebaseError::Corrupt`]
    /// if any check fails.
    pub fn open(
        path: &Path,
        rules: &Rules,
        seeds: u32,
        positions: u64,
        cache: Arc<BlockCache>,
    ) -> Result<CompactLayer, TablebaseError> {
        let file = File::open(path).map_err(|e| TablebaseError::Io {
            path: path.to_path_buf(),
            source: e,
        })?;
        // SAFETY: as for one-byte layers (file.rs): the file is only ever
        // created by an atomic rename and never modified in place.
        #[allow(unsafe_code)]
        let map = unsafe { Mmap::map(&file) }.map_err(|e| TablebaseError::Io {
            path: path.to_path_buf(),
            source: e,
        })?;
        let corrupt = |why: &str| TablebaseError::Corrupt {
            path: path.to_path_buf(),
            reason: why.to_string(),
        };
        if map.len() < HEADER_LEN || &map[..8] != MAGIC {
            return Err(corrupt("not a compact Hoyito tablebase file (bad magic)"));
        }
        let u32_at = |o: usize| u32::from_le_bytes(map[o..o + 4].try_into().expect("4 bytes"));
        let u64_at = |o: usize| u64::from_le_bytes(map[o..o + 8].try_into().expect("8 bytes"));
        let version = u32_at(8);
        if version != FORMAT_VERSION {
            return Err(corrupt(&format!(
                "compact format version {version}, expected {FORMAT_VERSION}"
            )));
        }
        let tag = layer_tag(rules, seeds, positions);
        if map[12..16] != tag[..4] {
            return Err(corrupt("built for other rules"));
        }
        if map[16..20] != tag[4..8] {
            return Err(corrupt("holds another layer"));
        }
        if map[20..32] != tag[8..20] {
            return Err(corrupt(&format!(
                "{} positions, expected {positions}",
                u64_at(24)
            )));
        }
        let block_len = u32_at(40) as u64;
        let (scheme, bits, lowest, step) = (map[44], map[45], map[46] as i8, map[47]);
        let symbols = u16::from_le_bytes([map[48], map[49]]) as usize;
        let width = map[50] as usize;
        let model_len = u32_at(52) as usize;
        let data_len = u64_at(56);
        if block_len == 0 || scheme > 1 || bits as u32 != PROB_BITS || step == 0 || !matches!(width, 4 | 8) {
            return Err(corrupt(
                "unknown block length, context scheme, precision, step or index width",
            ));
        }
        if symbols == 0 || symbols > 256 || lowest as i32 + step as i32 * (symbols as i32 - 1) > 127 {
            return Err(corrupt(&format!(
                "{symbols} symbols from {lowest} by {step} do not fit in i8"
            )));
        }
        let blocks = positions.div_ceil(block_len);
        let expected = (HEADER_LEN as u64)
            .checked_add(model_len as u64)
            .and_then(|v| v.checked_add(data_len))
            .and_then(|v| v.checked_add((blocks + 1).checked_mul(width as u64)?));
        if expected != Some(map.len() as u64) {
            return Err(corrupt(&format!(
                "{} bytes, expected {} (cut short or padded)",
                map.len(),
                expected.map_or("more than fit".into(), |e| e.to_string())
            )));
        }
        if xxh3_64(&map[HEADER_LEN..]) != u64_at(32) {
            return Err(corrupt("checksum mismatch"));
        }
        let model_bytes = &map[HEADER_LEN..HEADER_LEN + model_len];
        let model = Model::parse(model_bytes, scheme, rules.holes(), seeds, symbols, lowest, step)
            .map_err(|why| corrupt(&format!("bad model: {why}")))?;
        let data_start = HEADER_LEN + model_len;
        let index_start = data_start + data_len as usize;
        let layer = CompactLayer {
            map,
            seeds,
            positions,
            block_len,
            model,
            ix: Indexer::new(rules.board_len(), seeds),
            data_start,
            index_start,
            width,
            cache,
        };
        let mut last = 0;
        for b in 0..=blocks {
            let o = layer.offset(b);
            if o < last || o > data_len || (b == 0 && o != 0) || (b == blocks && o != data_len) {
                return Err(corrupt("block index out of order"));
            }
            last = o;
        }
        Ok(layer)
    }

    fn offset(&self, block: u64) -> u64 {
        let at = self.index_start + block as usize * self.width;
        let mut b = [0u8; 8];
        b[..self.width].copy_from_slice(&self.map[at..at + self.width]);
        u64::from_le_bytes(b)
    }

    /// The layer's seeds in play.
    pub fn seeds(&self) -> u32 {
        self.seeds
    }

    /// Positions in the layer.
    pub fn positions(&self) -> u64 {
        self.positions
    }

    /// Positions per block.
    pub fn block_len(&self) -> u64 {
        self.block_len
    }

    /// Bytes of the file.
    pub fn file_bytes(&self) -> u64 {
        self.map.len() as u64
    }

    /// Decodes the first `out.len()` values of block `block`.
    pub fn decode(&self, block: u64, out: &mut [i8]) {
        let (a, b) = (self.offset(block), self.offset(block + 1));
        let bytes = &self.map[self.data_start + a as usize..self.data_start + b as usize];
        decode_block(&self.model, &self.ix, block * self.block_len, bytes, out);
    }

    /// Every value, in rank order (the layer decoded into memory).
    pub fn values(&self) -> Vec<i8> {
        let mut out = vec![0i8; self.positions as usize];
        out.par_chunks_mut(self.block_len as usize)
            .enumerate()
            .for_each(|(b, chunk)| self.decode(b as u64, chunk));
        out
    }

    /// The value of rank `rank`: from the cache, or by decoding its block.
    #[inline]
    pub fn value(&self, rank: u64) -> i8 {
        let block = rank / self.block_len;
        let at = (rank % self.block_len) as usize;
        let sets = &self.cache.sets;
        if sets.is_empty() {
            self.cache.decoded.fetch_add(1, Relaxed);
            let mut out = vec![0i8; at + 1];
            self.decode(block, &mut out);
            return out[at];
        }
        let key = ((self.seeds as u64) << 48 | block) + 1;
        // Fibonacci hashing: the product's top bits pick the set.
        let h = key.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let set = &sets[h.checked_shr(64 - sets.len().trailing_zeros()).unwrap_or(0) as usize];
        let mut s = set.lock().unwrap_or_else(|e| e.into_inner());
        let i = match s.keys.iter().position(|&k| k == key) {
            Some(i) => i,
            None => {
                self.cache.decoded.fetch_add(1, Relaxed);
                let i = 1 - s.last;
                let len = (self.positions - block * self.block_len).min(self.block_len) as usize;
                s.keys[i] = 0;
                s.values[i].resize(len, 0);
                self.decode(block, &mut s.values[i]);
                s.keys[i] = key;
                i
            }
        };
        s.last = i;
        s.values[i][at]
    }
}

/// Options of [`compact_tables`].
#[derive(Debug, Clone, Copy)]
pub struct CompactOptions {
    /// Positions per block of the files written.
    pub block_len: u32,
    /// Keep the one-byte files (by default each is removed once its compact
    /// file is written and read back equal).
    pub keep_bytes: bool,
}

impl Default for CompactOptions {
    fn default() -> CompactOptions {
        CompactOptions {
            block_len: DEFAULT_BLOCK_LEN,
            keep_bytes: false,
        }
    }
}

/// What [`compact_tables`] did with one layer.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum CompactReport {
    /// The compact file was written from the one-byte file.
    Written {
        /// Seeds in play.
        seeds: u32,
        /// Its figures.
        stats: CompactStats,
        /// Bytes of the one-byte file.
        byte_file_bytes: u64,
        /// Whether the one-byte file was removed.
        removed: bool,
    },
    /// The compact file was there already and checks out.
    Existing {
        /// Seeds in play.
        seeds: u32,
        /// Positions.
        positions: u64,
        /// Bytes of the compact file.
        file_bytes: u64,
        /// Whether a one-byte file was found beside it and removed.
        removed: bool,
    },
}

/// Converts the one-byte layer files of `rules` under `dir` (layers 4, 8,
/// … up to the first missing one) to compact files, reusing compact files
/// that exist and check out, and unless `options.keep_bytes` removing each
/// one-byte file once its compact file is in place and read back equal.
/// An interruption (a kill, or `stop`, looked at between layers) leaves
/// every layer whole in one format or the other.
///
/// # Errors
/// [`TablebaseError::Missing`] if there is no layer at all,
/// [`TablebaseError::Corrupt`]/[`TablebaseError::Io`] for a bad file or
/// failed write, [`TablebaseError::Interrupted`] when stopped.
pub fn compact_tables(
    rules: Rules,
    dir: &Path,
    options: CompactOptions,
    stop: Option<&std::sync::atomic::AtomicBool>,
    mut report: impl FnMut(&CompactReport),
) -> Result<Vec<CompactReport>, TablebaseError> {
    use crate::file::{layer_file_name, rules_dir, LayerFile};
    crate::check_rules(&rules)?;
    let sub = rules_dir(dir, &rules);
    let mut done = Vec::new();
    for seeds in crate::layer_seeds(127) {
        let bytes = sub.join(layer_file_name(seeds));
        let path = sub.join(compact_file_name(seeds));
        let (has_bytes, has_compact) = (bytes.exists(), path.exists());
        if !has_bytes && !has_compact {
            break;
        }
        if stop.is_some_and(|s| s.load(Relaxed)) {
            return Err(TablebaseError::Interrupted { seeds });
        }
        let positions = Indexer::new(rules.board_len(), seeds).count();
        let remove = |removed: &mut bool| -> Result<(), TablebaseError> {
            if has_bytes && !options.keep_bytes {
                std::fs::remove_file(&bytes).map_err(|source| TablebaseError::Io {
                    path: bytes.clone(),
                    source,
                })?;
                *removed = true;
            }
            Ok(())
        };
        let existing = has_compact
            .then(|| CompactLayer::open(&path, &rules, seeds, positions, Arc::new(BlockCache::new(0))));
        let r = match existing {
            Some(Ok(c)) => {
                let mut removed = false;
                remove(&mut removed)?;
                CompactReport::Existing {
                    seeds,
                    positions,
                    file_bytes: c.file_bytes(),
                    removed,
                }
            }
            Some(Err(e)) if !has_bytes => return Err(e),
            _ => {
                let f = LayerFile::open(&bytes, &rules, seeds, positions)?;
                let stats = write_compact(&path, &rules, seeds, f.values(), options.block_len)?;
                let byte_file_bytes = (crate::file::HEADER_LEN + f.values().len()) as u64;
                drop(f);
                let mut removed = false;
                remove(&mut removed)?;
                CompactReport::Written {
                    seeds,
                    stats,
                    byte_file_bytes,
                    removed,
                }
            }
        };
        report(&r);
        done.push(r);
    }
    if done.is_empty() {
        return Err(TablebaseError::Missing {
            seeds: 4,
            built: format!("none in {}", sub.display()),
        });
    }
    Ok(done)
}
