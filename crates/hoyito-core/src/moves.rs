//! [`Move`]: a small `Copy` value, and [`MoveList`], a fixed-capacity stack list.

use arrayvec::ArrayVec;

use crate::rules::{Direction, MAX_BOARD, MAX_HOLES};

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
    /// A one-hole move from board index `hole` (`0..24`) in direction `dir`.
    ///
    /// # Panics
    /// If `hole` is not a board index of the largest board (`hole >= 24`);
    /// [`Move::try_single`] returns `None` instead.
    #[inline]
    pub const fn single(hole: usize, dir: Direction) -> Move {
        match Move::try_single(hole, dir) {
            Some(m) => m,
            None => panic!("a hole index must be below 24"),
        }
    }

    /// A one-hole move from a board index the caller knows is on the board
    /// (move generation and playouts), without [`Move::single`]'s check,
    /// which costs about 1 % of random-playout speed.
    #[inline]
    pub(crate) const fn on_board(hole: usize, dir: Direction) -> Move {
        debug_assert!(hole < MAX_BOARD);
        Move {
            hole: hole as u8,
            second: NONE,
            dir,
        }
    }

    /// A one-hole move, or `None` if `hole` is not below 24.
    #[inline]
    pub const fn try_single(hole: usize, dir: Direction) -> Option<Move> {
        if hole < MAX_BOARD {
            Some(Move {
                hole: hole as u8,
                second: NONE,
                dir,
            })
        } else {
            None
        }
    }

    /// A two-hole opening move: `first` is sown, then `second` (RULES.md
    /// §6.2). Whether the pair is legal (two different holes of the mover)
    /// is for [`crate::Position::play`] to say.
    ///
    /// # Panics
    /// If a hole index is not below 24; [`Move::try_pair`] returns `None`
    /// instead.
    #[inline]
    pub const fn pair(first: usize, second: usize, dir: Direction) -> Move {
        match Move::try_pair(first, second, dir) {
            Some(m) => m,
            None => panic!("a hole index must be below 24"),
        }
    }

    /// A two-hole opening move, or `None` if a hole index is not below 24.
    #[inline]
    pub const fn try_pair(first: usize, second: usize, dir: Direction) -> Option<Move> {
        if first < MAX_BOARD && second < MAX_BOARD {
            Some(Move {
                hole: first as u8,
                second: second as u8,
                dir,
            })
        } else {
            None
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

    #[test]
    fn constructors_refuse_indices_off_the_largest_board() {
        assert_eq!(Move::try_single(24, Direction::Ccw), None);
        assert_eq!(
            Move::try_single(256, Direction::Ccw),
            None,
            "no truncation to hole 0"
        );
        assert_eq!(
            Move::try_pair(3, 255, Direction::Ccw),
            None,
            "255 is not 'no second hole'"
        );
        assert_eq!(Move::try_pair(24, 3, Direction::Ccw), None);
        assert_eq!(Move::try_single(23, Direction::Cw).map(Move::hole), Some(23));
        assert_eq!(
            Move::try_pair(0, 23, Direction::Cw).and_then(Move::second),
            Some(23)
        );
    }

    #[test]
    #[should_panic(expected = "below 24")]
    fn single_panics_off_the_board() {
        let _ = Move::single(300, Direction::Ccw);
    }
}
