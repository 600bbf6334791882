//! The transposition table: a fixed array of 16-byte entries, keyed by the
//! incremental key of [`crate::zobrist`] (or, for comparison,
//! [`hoyito_core::Position::fingerprint`]) mixed with a per-search salt (rules and
//! last-four award), one entry per slot, depth-preferred within a search.

use hoyito_core::{Direction, Move};

/// How a stored value bounds the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    /// The value is exact.
    Exact,
    /// The true value is at least this (a beta cut-off).
    Lower,
    /// The true value is at most this (no move raised alpha).
    Upper,
}

/// One stored search result. `value` is relative to the node's captured
/// margin (what the side to move will still gain), so it does not depend on
/// how the seeds already captured are split.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C)]
pub(crate) struct Entry {
    key: u64,
    value: i32,
    mv: u16,
    depth: u8,
    /// Bits 0–1: bound (0 = empty); bits 2–7: search generation.
    flags: u8,
}

/// A probed entry.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Hit {
    pub value: i32,
    pub depth: i32,
    pub bound: Bound,
    pub mv: Option<Move>,
}

/// The table.
pub(crate) struct Tt {
    entries: Vec<Entry>,
    mask: usize,
    generation: u8,
}

impl Tt {
    /// A table of about `mb` mebibytes (rounded down to a power of two entries, at least 1024).
    pub fn new(mb: usize) -> Tt {
        let want = (mb.max(1) << 20) / core::mem::size_of::<Entry>();
        let len = if want.is_power_of_two() {
            want
        } else {
            want.next_power_of_two() >> 1
        };
        let len = len.max(1024);
        Tt {
            entries: vec![Entry::default(); len],
            mask: len - 1,
            generation: 0,
        }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.entries.fill(Entry::default());
        self.generation = 0;
    }

    /// Starts a new search: older entries become preferred victims.
    pub fn new_search(&mut self) {
        self.generation = (self.generation + 1) & 0x3f;
    }

    #[inline]
    pub fn probe(&self, key: u64) -> Option<Hit> {
        let e = &self.entries[key as usize & self.mask];
        if e.key != key || e.flags & 3 == 0 {
            return None;
        }
        let bound = match e.flags & 3 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            _ => Bound::Upper,
        };
        Some(Hit {
            value: e.value,
            depth: e.depth as i32,
            bound,
            mv: decode_move(e.mv),
        })
    }

    #[inline]
    pub fn store(&mut self, key: u64, value: i32, depth: i32, bound: Bound, mv: Option<Move>) {
        let generation = self.generation;
        let e = &mut self.entries[key as usize & self.mask];
        let same_search = e.flags >> 2 == generation && e.flags & 3 != 0;
        if e.key != key && same_search && (e.depth as i32) > depth + 2 {
            return;
        }
        let mv = match mv {
            Some(m) => encode_move(m),
            // Keep a known best move of the same position.
            None if e.key == key => e.mv,
            None => 0,
        };
        let b = match bound {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        *e = Entry {
            key,
            value,
            mv,
            depth: depth.clamp(0, 255) as u8,
            flags: generation << 2 | b,
        };
    }
}

/// Packs a move into 16 bits: hole (5 bits), direction (1 bit), second
/// hole + 1 (5 bits), and a validity bit.
pub(crate) fn encode_move(m: Move) -> u16 {
    let dir = (m.direction() == Direction::Cw) as u16;
    let second = m.second().map_or(0, |s| s as u16 + 1);
    0x8000 | m.hole() as u16 | dir << 5 | second << 6
}

/// The inverse of [`encode_move`].
pub(crate) fn decode_move(v: u16) -> Option<Move> {
    if v & 0x8000 == 0 {
        return None;
    }
    let hole = (v & 0x1f) as usize;
    let dir = if v >> 5 & 1 == 1 {
        Direction::Cw
    } else {
        Direction::Ccw
    };
    let second = (v >> 6 & 0x1f) as usize;
    Some(if second == 0 {
        Move::single(hole, dir)
    } else {
        Move::pair(hole, second - 1, dir)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entry_is_16_bytes() {
        assert_eq!(core::mem::size_of::<Entry>(), 16);
    }

    #[test]
    fn move_codes_round_trip() {
        for m in [
            Move::single(0, Direction::Ccw),
            Move::single(23, Direction::Cw),
            Move::pair(3, 11, Direction::Cw),
            Move::pair(0, 1, Direction::Ccw),
        ] {
            assert_eq!(decode_move(encode_move(m)), Some(m));
        }
        assert_eq!(decode_move(0), None);
    }

    #[test]
    fn store_and_probe() {
        let mut tt = Tt::new(1);
        let m = Move::single(4, Direction::Ccw);
        tt.store(12345, -7, 5, Bound::Lower, Some(m));
        let hit = tt.probe(12345).expect("stored");
        assert_eq!(
            (hit.value, hit.depth, hit.bound, hit.mv),
            (-7, 5, Bound::Lower, Some(m))
        );
        assert!(tt.probe(12346).is_none());
        tt.clear();
        assert!(tt.probe(12345).is_none());
    }
}
