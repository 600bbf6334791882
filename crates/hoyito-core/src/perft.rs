//! Move-path enumeration ("perft"): the number of move sequences of a given
//! number of plies, under the full rules, for golden tests of move
//! generation.

use crate::position::{Position, RepetitionKey};

/// The number of move sequences of `depth` plies from `pos`: an extra turn
/// is its own ply, passes are automatic (not plies), and a finished game is
/// a leaf. Positions occurring for the third time along a path end the game
/// (RULES.md §4); `history` holds the positions before `pos` that count.
///
/// # Examples
///
/// ```
/// use hoyito_core::{perft::perft, Position, Rules, Variant};
/// let start = Position::new(Rules::standard(Variant::I));
/// assert_eq!(perft(&start, 1), 6);
/// assert_eq!(perft(&start, 2), 32);
/// ```
pub fn perft(pos: &Position, depth: u32) -> u64 {
    let mut path = Vec::new();
    perft_with_history(*pos, depth, &mut path)
}

/// [`perft`] with the earlier positions of the game (their repetition keys).
pub fn perft_with_history(mut pos: Position, depth: u32, path: &mut Vec<RepetitionKey>) -> u64 {
    if !pos.is_over() {
        let key = pos.repetition_key();
        if path.iter().filter(|&&k| k == key).count() >= 2 {
            pos.end_by_repetition();
        }
    }
    if depth == 0 || pos.is_over() {
        return 1;
    }
    let moves = pos.legal_moves();
    if moves.is_empty() {
        pos.pass();
        return perft_with_history(pos, depth, path);
    }
    path.push(pos.repetition_key());
    let mut n = 0;
    for &m in &moves {
        let mut child = pos;
        child.play_unchecked(m).expect("legal moves are finite");
        n += perft_with_history(child, depth - 1, path);
    }
    path.pop();
    n
}
