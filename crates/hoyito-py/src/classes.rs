//! The Python classes `Game` and `Match` (their methods are in game.rs and
//! matchplay.rs), and [`game_of`], which reads either as the game being
//! played: kept apart so that the engine's and the tablebase's classes take
//! a game without importing the classes' methods.

use hoyito_core::{Game, Match};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;

/// A single game of Hoyito: its rules, the moves played and the current
/// position, with the repetition rule (RULES.md §4) applied after each move.
///
/// Options use the spellings of RULES.md: variant "I", "II" or "III";
/// direction "fixed", "per_player" or "per_move"; repetition "even" or
/// "own_row"; capture_side "any" or "opponent". A bad value raises
/// `hoyito.RulesError` (a `ValueError`) naming the option and the allowed
/// values.
///
/// Moves are tokens as in RULES.md §1: "3", "3R", "2+5". `play` checks them
/// with the rules; an illegal one raises `hoyito.IllegalMove` (a
/// `ValueError`) with the reason and the legal moves, and leaves the game
/// unchanged. Games can be copied and pickled.
///
/// Games compare equal (`==`) and hash alike when they have the same rules,
/// start and moves; like a list, a game's hash changes when a move is
/// played, so do not change a game while it is a dict key. `Game` can be
/// subclassed: copies, pickles and `from_record`/`from_notation` called on
/// the subclass give instances of the subclass (its `__init__` must accept
/// no arguments).
#[pyclass(name = "Game", module = "hoyito._hoyito", subclass)]
#[derive(Clone)]
pub struct PyGame {
    pub(crate) game: Game,
}

/// A match: games chained into rounds with refills, closed holes and
/// reserves (RULES.md §5).
///
/// Moves are played in the current round with `play`; when a round is over
/// and the match goes on, `start_next_round()` starts the next one (the
/// winner refills and starts). `is_over()` and `winner()` are about the
/// whole match; `is_round_over()` about the current round.
#[pyclass(name = "Match", module = "hoyito._hoyito")]
#[derive(Clone)]
pub struct PyMatch {
    pub(crate) m: Match,
}

/// The current game of a `Game` or `Match` argument.
pub(crate) fn game_of(obj: &Bound<'_, PyAny>) -> PyResult<Game> {
    if let Ok(g) = obj.cast::<PyGame>() {
        return Ok(g.borrow().game.clone());
    }
    if let Ok(m) = obj.cast::<PyMatch>() {
        return Ok(m.borrow().m.current().clone());
    }
    Err(PyTypeError::new_err(format!(
        "expected a hoyito.Game or hoyito.Match, not {}",
        obj.get_type().name()?
    )))
}
