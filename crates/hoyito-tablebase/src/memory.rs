//! A tablebase of compact layers held in memory: the bytes of compact
//! files (downloaded by a browser, say) checked and probed exactly as the
//! files on disk are, by the same reader (`compact/read.rs`).

use std::sync::Arc;

use hoyito_core::Rules;

use crate::compact::{self, BlockCache, CompactLayer};
use crate::{Layer, Tablebase, TablebaseError};

impl Tablebase {
    /// A tablebase of `rules` with room for the layers up to `max_seeds`,
    /// none of them there yet: each comes from the bytes of its compact
    /// file through [`Tablebase::insert_compact`]. Its compact layers share
    /// a cache of at most `cache_bytes` of decoded blocks.
    ///
    /// # Errors
    /// [`TablebaseError::Unsupported`] for rules the tables do not cover or
    /// more than 127 seeds.
    pub fn in_memory(rules: Rules, max_seeds: u32, cache_bytes: usize) -> Result<Tablebase, TablebaseError> {
        let mut tb = Tablebase::empty(rules, max_seeds)?;
        tb.cache = Arc::new(BlockCache::with_bytes(cache_bytes, compact::DEFAULT_BLOCK_LEN));
        Ok(tb)
    }

    /// Adds layer `seeds` from the bytes of its compact file (as written by
    /// `hoyito tablebase build --compact`), checked as
    /// [`CompactLayer::open`] checks a file; a layer already there is
    /// replaced. A position whose layer (or a child's) is not there is
    /// answered [`TablebaseError::Missing`].
    ///
    /// # Errors
    /// [`TablebaseError::Unsupported`] for a layer that is not a multiple
    /// of 4 seeds or is above the tablebase's top,
    /// [`TablebaseError::Corrupt`] if the bytes fail a check (another
    /// layer's or rule set's file, cut short, a checksum mismatch).
    pub fn insert_compact(
        &mut self,
        seeds: u32,
        bytes: impl Into<Arc<Vec<u8>>>,
    ) -> Result<(), TablebaseError> {
        if seeds == 0 || !seeds.is_multiple_of(4) || seeds as usize >= self.layers.len() {
            return Err(TablebaseError::Unsupported(format!(
                "a layer of {seeds} seeds in a tablebase of layers 4, 8, … {}",
                self.layers.len() - 1
            )));
        }
        let positions = self.indexers[seeds as usize].count();
        let layer = CompactLayer::from_bytes(bytes, &self.rules, seeds, positions, Arc::clone(&self.cache))?;
        self.layers[seeds as usize] = Some(Layer::Compact(Box::new(layer)));
        Ok(())
    }
}
