//! What names a layer in the headers of its files (one-byte and compact)
//! and in the stream solver's work files: the rules, the seeds in play and
//! the positions.

use hoyito_core::{CaptureSide, Rules, Variant};

/// Bytes 12..32 of a layer file's header: variant (1, 2, 3), holes per
/// row, skip_origin (0/1), capture_side (0 any, 1 opponent), seeds in play
/// (u32), reserved (u32, 0), positions (u64), little-endian.
pub(crate) fn layer_tag(rules: &Rules, seeds: u32, positions: u64) -> [u8; 20] {
    let mut t = [0u8; 20];
    t[0] = match rules.variant() {
        Variant::I => 1,
        Variant::II => 2,
        Variant::III => 3,
    };
    t[1] = rules.holes() as u8;
    t[2] = rules.skip_origin() as u8;
    t[3] = (rules.capture_side() == CaptureSide::Opponent) as u8;
    t[4..8].copy_from_slice(&seeds.to_le_bytes());
    t[12..20].copy_from_slice(&positions.to_le_bytes());
    t
}
