//! [`Move`]: a small `Copy` value, and [`MoveList`], a fixed-capacity stack list.

use arrayvec::ArrayVec;

use crate::rules::{Direction, MAX_HOLES};

/// Marker for "no second hole".
const NONE: u8 = u8::MAX;

/// A move: one hole (or, for the two-hole opening, two holes sown one after
/// the other) and a sowing direction. Holes are board indices `0..2n`
/// (RULES.md §1); use [`crate::Position::parse_move`] and
/// [`crate::Position::move_token`] for the players' names `3`, `3R`, `2+5`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    hole: u8,
    second: u8,
    dir: Direction,
}

impl Move {
    /// A one-hole move from board index `hole` in direction `dir`.
    #[inline]
    pub const fn single(hole: usize, dir: Direction) -> Move {
        Move {
            hole: hole as u8,
            second: NONE,
            dir,
        }
    }

    /// A two-hole opening move: `first` is sown, then `second` (RULES.md §6.2).
    #[inline]
    pub const fn pair(first: usize, second: usize, dir: Direction) -> Move {
        Move {
            hole: first as u8,
            second: second as u8,
            dir,
        }
    }

    /// The (first) hole sown, a board index.
    #[inline]
    pub const fn hole(self) -> usize {
        self.hole as usize
    }

    /// The second hole of a two-hole opening move.
    #[inline]
    pub const fn second(self) -> Option<usize> {
        if self.second == NONE {
            None
        } else {
            Some(self.second as usize)
        }
    }

    /// Whether this is a two-hole opening move.
    #[inline]
    pub const fn is_pair(self) -> bool {
        self.second != NONE
    }

    /// The sowing direction.
    #[inline]
    pub const fn direction(self) -> Direction {
        self.dir
    }
}

/// Capacity of a [`MoveList`]: the two-hole opening has at most `n(n−1)`
/// ordered pairs of different holes, times 2 directions, on 2×12:
/// `12 · 11 · 2 = 264`. One-hole moves need at most `12 · 2 = 24`.
pub const MAX_MOVES: usize = MAX_HOLES * (MAX_HOLES - 1) * 2;

/// A list of moves on the stack; building it never allocates.
pub type MoveList = ArrayVec<Move, MAX_MOVES>;

/// Capacity of a [`SingleMoves`] list: one-hole moves, `12` holes × 2 directions.
pub const MAX_SINGLE_MOVES: usize = MAX_HOLES * 2;

/// A short list of one-hole moves (see [`crate::Position::candidates`]).
pub type SingleMoves = ArrayVec<Move, MAX_SINGLE_MOVES>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_is_small() {
        assert_eq!(core::mem::size_of::<Move>(), 3);
    }

    #[test]
    fn accessors() {
        let m = Move::pair(1, 4, Direction::Cw);
        assert_eq!((m.hole(), m.second(), m.direction()), (1, Some(4), Direction::Cw));
        assert!(m.is_pair());
        assert!(!Move::single(0, Direction::Ccw).is_pair());
    }
}
