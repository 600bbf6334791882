//! Writing compact layers: choosing the model, coding the blocks, the
//! conversion of one-byte layer files.

use std::io::Write;
use std::path::Path;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::Arc;

use hoyito_core::Rules;
use rayon::prelude::*;
use xxhash_rust::xxh3::Xxh3;

use super::model::{context_count, encode_block, Model};
use super::{
    compact_file_name, BlockCache, CompactLayer, DEFAULT_BLOCK_LEN, FORMAT_VERSION, HEADER_LEN, MAGIC,
    MAX_COUNTS, PROB_BITS, PROB_SCALE,
};
use crate::error::TablebaseError;
use crate::file::write_atomic;
use crate::index::Indexer;
use crate::tag::layer_tag;

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
        file_bytes: layer.file_bytes(),
        model_bytes: model_bytes.len() as u64,
        index_bytes: (blocks + 1) * layer.index_width() as u64,
        scheme: model.scheme,
    })
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
