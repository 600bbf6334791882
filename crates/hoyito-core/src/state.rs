//! The machine-readable JSON state of RULES.md §7 (with the `serde` feature).

use crate::position::{EndReason, GameResult, Position};
use crate::rules::Variant;
use crate::side::Side;

/// A position as the JSON object of RULES.md §7, plus a few extra fields.
///
/// # Examples
///
/// ```
/// use hoyito_core::{Position, Rules, Side, State, Variant};
/// let state = State::from_position(&Position::new(Rules::standard(Variant::I)));
/// assert_eq!(state.board, vec![4; 12]);
/// assert_eq!(state.to_move, Some(Side::South));
/// let json = serde_json::to_value(&state).unwrap();
/// assert_eq!((json["variant"].as_str(), json["to_move"].as_str()), (Some("I"), Some("south")));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct State {
    /// The variant, `"I"`, `"II"` or `"III"` in JSON.
    pub variant: Variant,
    /// Holes per row.
    pub holes_per_row: usize,
    /// Seeds per hole in index order; closed holes as 0.
    pub board: Vec<u8>,
    /// Indices of closed holes.
    pub closed: Vec<usize>,
    /// `[south, north]` captured this round, the last-four award included.
    pub captured: [u8; 2],
    /// `"south"` / `"north"`: who moves next (after automatic passes); null once over.
    pub to_move: Option<Side>,
    /// Whether the game is over.
    pub over: bool,
    /// `"south"`, `"north"`, `"draw"`, or null while the game goes on.
    pub winner: Option<GameResult>,
    /// Why the game ended (`"last_four"`, `"exhausted"`, `"repetition"`,
    /// `"no_moves"`), or null.
    pub end_reason: Option<EndReason>,
    /// `[south, north]` reserve from earlier rounds of a match.
    pub reserve: [u8; 2],
    /// Round of the match (1 in a single game).
    pub round: u32,
    /// The one-line position notation.
    pub notation: String,
}

impl State {
    /// The state of a position.
    pub fn from_position(pos: &Position) -> State {
        let cap = pos.captured();
        let res = pos.reserve();
        let outcome = pos.outcome();
        State {
            variant: pos.rules().variant(),
            holes_per_row: pos.rules().holes(),
            board: pos.board().to_vec(),
            closed: pos.closed_holes().collect(),
            captured: [cap.south, cap.north],
            to_move: (!pos.is_over()).then(|| pos.to_move()),
            over: pos.is_over(),
            winner: outcome.map(|o| o.result()),
            end_reason: outcome.map(|o| o.reason),
            reserve: [res.south, res.north],
            round: pos.round(),
            notation: pos.to_notation(),
        }
    }
}
