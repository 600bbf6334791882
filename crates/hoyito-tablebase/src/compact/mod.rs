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
//! (`file::write_atomic`), read back and compared with the values before the
//! call returns, and checked when opened (magic, version, layer, sizes,
//! checksum, model) with [`TablebaseError::Corrupt`](crate::TablebaseError::Corrupt) naming the failed check.

mod model;
mod read;
#[cfg(feature = "files")]
mod write;

pub use read::{BlockCache, CompactLayer};
#[cfg(feature = "files")]
pub use write::{compact_tables, write_compact, CompactOptions, CompactReport, CompactStats};

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
#[cfg(feature = "files")]
/// Most (context, symbol) counters the writer keeps (8 bytes each, per worker).
const MAX_COUNTS: usize = 1 << 23;

/// The name of a layer's compact file inside a tablebase directory.
pub fn compact_file_name(seeds: u32) -> String {
    format!("seeds-{seeds:03}.htc")
}
