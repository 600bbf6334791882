//! The repetition rule's bookkeeping (RULES.md §4): exact keys and a
//! tracker counting occurrences since the last capture.

use super::Position;

/// The exact state the repetition rule compares (board, closed holes, side to move).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RepetitionKey(pub(super) [u64; 4]);

/// Counts occurrences of positions since the last capture, to end a game
/// on the third occurrence (RULES.md §4). Captures are irreversible, so the
/// history is forgotten whenever the seeds in play change. An open-addressing
/// table with generation stamps: `push` and forgetting are O(1), keys are
/// compared exactly, and the buffer is reused from game to game.
#[derive(Debug, Clone)]
pub struct RepetitionTracker {
    slots: Vec<Slot>,
    gen: u32,
    len: usize,
    in_play: u8,
}

#[derive(Debug, Clone, Copy)]
struct Slot {
    key: RepetitionKey,
    gen: u32,
    count: u32,
}

const EMPTY_SLOT: Slot = Slot {
    key: RepetitionKey([0; 4]),
    gen: 0,
    count: 0,
};

impl Default for RepetitionTracker {
    fn default() -> Self {
        RepetitionTracker {
            // Small to start (320 bytes): a server holds thousands of idle
            // games; the table doubles as positions accumulate.
            slots: vec![EMPTY_SLOT; 8],
            gen: 1,
            len: 0,
            in_play: u8::MAX,
        }
    }
}

impl RepetitionKey {
    /// Equality word by word in registers (see `RepetitionTracker::insert`).
    #[inline(always)]
    fn same(&self, other: &RepetitionKey) -> bool {
        let (a, b) = (self.0, other.0);
        (a[0] ^ b[0]) | (a[1] ^ b[1]) | (a[2] ^ b[2]) | (a[3] ^ b[3]) == 0
    }

    #[inline]
    fn mix(&self) -> u64 {
        let [a, b, c, d] = self.0;
        let h = (a ^ d.rotate_left(40)).wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ b.wrapping_mul(0xBF58_476D_1CE4_E5B9)
            ^ c.wrapping_mul(0x94D0_49BB_1331_11EB);
        h ^ (h >> 32)
    }
}

impl RepetitionTracker {
    /// An empty tracker.
    pub fn new() -> Self {
        Self::default()
    }

    /// Forgets every position.
    #[inline]
    pub fn clear(&mut self) {
        self.gen = self.gen.wrapping_add(1);
        if self.gen == 0 {
            self.slots.fill(EMPTY_SLOT);
            self.gen = 1;
        }
        self.len = 0;
        self.in_play = u8::MAX;
    }

    /// Records that `pos` occurred and returns how many times it has
    /// occurred since the seeds in play last changed.
    #[inline]
    pub fn push(&mut self, pos: &Position) -> usize {
        if pos.in_play() != self.in_play {
            self.clear();
            self.in_play = pos.in_play();
        }
        self.insert(pos.repetition_key())
    }

    /// Takes back the last [`push`](Self::push) of `pos` (its mover turned
    /// out to have no legal move, so the position does not count).
    #[inline]
    pub fn pop(&mut self, pos: &Position) {
        let key = pos.repetition_key();
        let mask = self.slots.len() - 1;
        let mut i = key.mix() as usize & mask;
        while self.slots[i].gen == self.gen {
            if self.slots[i].key == key {
                self.slots[i].count = self.slots[i].count.saturating_sub(1);
                return;
            }
            i = (i + 1) & mask;
        }
    }

    // Inlined so that the key stays in registers: passed through memory, its
    // four word stores would stall the wide loads that compare it.
    #[inline(always)]
    fn insert(&mut self, key: RepetitionKey) -> usize {
        let mask = self.slots.len() - 1;
        let mut i = key.mix() as usize & mask;
        loop {
            let slot = &mut self.slots[i];
            if slot.gen != self.gen {
                *slot = Slot {
                    key,
                    gen: self.gen,
                    count: 1,
                };
                self.len += 1;
                if self.len * 2 > self.slots.len() {
                    self.grow();
                }
                return 1;
            }
            if slot.key.same(&key) {
                slot.count += 1;
                return slot.count as usize;
            }
            i = (i + 1) & mask;
        }
    }

    fn grow(&mut self) {
        let bigger = vec![EMPTY_SLOT; self.slots.len() * 2];
        let old = core::mem::replace(&mut self.slots, bigger);
        let mask = self.slots.len() - 1;
        for slot in old.into_iter().filter(|s| s.gen == self.gen) {
            let mut i = slot.key.mix() as usize & mask;
            while self.slots[i].gen == self.gen {
                i = (i + 1) & mask;
            }
            self.slots[i] = slot;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Setup;
    use crate::rules::{Rules, Variant};
    use crate::side::Side;

    /// The tracker counts exactly through growth, `pop` and `clear`.
    #[test]
    fn repetition_tracker_counts_through_growth_and_clear() {
        let rules = Rules::standard(Variant::II);
        let mut positions = Vec::new();
        for a in 0..12 {
            for b in (0..12).filter(|&b| b != a) {
                for k in 1..=4u8 {
                    for to_move in Side::ALL {
                        let mut setup = Setup::start(&rules);
                        setup.board[a] -= k;
                        setup.board[b] += k;
                        setup.to_move = to_move;
                        positions.push(Position::from_setup(rules, &setup).unwrap());
                    }
                }
            }
        }
        let mut t = RepetitionTracker::new();
        for round in 0..3 {
            for p in &positions {
                assert_eq!(t.push(p), 1, "round {round}");
            }
            assert!(t.slots.len() >= 2 * positions.len());
            for p in &positions {
                assert_eq!(t.push(p), 2);
            }
            for p in positions.iter().step_by(3) {
                t.pop(p);
            }
            for (i, p) in positions.iter().enumerate() {
                assert_eq!(t.push(p), if i % 3 == 0 { 2 } else { 3 });
            }
            t.clear();
        }
    }
}
