//! Reading compact layers: their checks, the block cache, probes. A layer
//! is read from a memory-mapped file ([`CompactLayer::open`]) or from bytes
//! in memory ([`CompactLayer::from_bytes`], e.g. a file downloaded by a
//! browser): the same checks and the same decoder.

use std::ops::Deref;
#[cfg(feature = "files")]
use std::path::Path;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex};

use hoyito_core::Rules;
use xxhash_rust::xxh3::xxh3_64;

use super::model::{decode_block, Model};
use super::{
    compact_file_name, DEFAULT_BLOCK_LEN, DEFAULT_CACHE_BYTES, FORMAT_VERSION, HEADER_LEN, MAGIC, PROB_BITS,
};
use crate::error::TablebaseError;
use crate::index::Indexer;
use crate::tag::layer_tag;

/// Where a layer's bytes are.
enum Bytes {
    /// A file, memory-mapped.
    #[cfg(feature = "files")]
    Mapped(memmap2::Mmap),
    /// Bytes in memory, kept where they were read to (a `Vec` moved into
    /// its `Arc` is not copied, as one made into an `Arc<[u8]>` is).
    Memory(Arc<Vec<u8>>),
}

impl Deref for Bytes {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            #[cfg(feature = "files")]
            Bytes::Mapped(m) => m,
            Bytes::Memory(b) => b,
        }
    }
}

/// A bounded cache of decoded blocks, shared by the compact layers of a
/// [`Tablebase`](crate::Tablebase): two-way set-associative (a block may
/// sit in one of the two slots of the set its layer and number hash to;
/// the one used less recently makes room), each set behind its own lock,
/// a slot's memory taken when first filled.
#[derive(Debug)]
pub struct BlockCache {
    pub(super) sets: Box<[Mutex<Set>]>,
    pub(super) decoded: AtomicU64,
}

#[derive(Debug, Default)]
pub(super) struct Set {
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

/// A compact layer file, checked, memory-mapped or in memory; values are read
/// through a [`BlockCache`].
pub struct CompactLayer {
    map: Bytes,
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
    #[cfg(feature = "files")]
    pub fn open(
        path: &Path,
        rules: &Rules,
        seeds: u32,
        positions: u64,
        cache: Arc<BlockCache>,
    ) -> Result<CompactLayer, TablebaseError> {
        let file = std::fs::File::open(path).map_err(|e| TablebaseError::Io {
            path: path.to_path_buf(),
            source: e,
        })?;
        // SAFETY: as for one-byte layers (file.rs): the file is only ever
        // created by an atomic rename and never modified in place.
        #[allow(unsafe_code)]
        let map = unsafe { memmap2::Mmap::map(&file) }.map_err(|e| TablebaseError::Io {
            path: path.to_path_buf(),
            source: e,
        })?;
        CompactLayer::check(
            Bytes::Mapped(map),
            path.to_path_buf(),
            rules,
            seeds,
            positions,
            cache,
        )
    }

    /// Checks a compact layer held in memory (the bytes of a compact file,
    /// e.g. downloaded), exactly as [`CompactLayer::open`] checks a file;
    /// its errors name the layer's file name (`seeds-KKK.htc`).
    ///
    /// # Errors
    /// [`TablebaseError::Corrupt`] if any check fails: other rules or
    /// layer, a wrong size, a checksum mismatch, a bad model.
    pub fn from_bytes(
        bytes: impl Into<Arc<Vec<u8>>>,
        rules: &Rules,
        seeds: u32,
        positions: u64,
        cache: Arc<BlockCache>,
    ) -> Result<CompactLayer, TablebaseError> {
        let name = PathBuf::from(compact_file_name(seeds));
        CompactLayer::check(Bytes::Memory(bytes.into()), name, rules, seeds, positions, cache)
    }

    /// The checks of a layer's bytes, wherever they are.
    fn check(
        map: Bytes,
        path: PathBuf,
        rules: &Rules,
        seeds: u32,
        positions: u64,
        cache: Arc<BlockCache>,
    ) -> Result<CompactLayer, TablebaseError> {
        let corrupt = |why: &str| TablebaseError::Corrupt {
            path: path.clone(),
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

    /// Bytes of an entry of the block index (4 or 8).
    #[cfg(feature = "files")]
    pub(super) fn index_width(&self) -> usize {
        self.width
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
        #[cfg(feature = "files")]
        {
            use rayon::prelude::*;
            out.par_chunks_mut(self.block_len as usize)
                .enumerate()
                .for_each(|(b, chunk)| self.decode(b as u64, chunk));
        }
        #[cfg(not(feature = "files"))]
        out.chunks_mut(self.block_len as usize)
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
