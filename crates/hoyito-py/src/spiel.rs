//! `hoyito._hoyito.SpielState`: what a state of the OpenSpiel game
//! `python_hoyito` (`hoyito/openspiel.py`) holds, in one Rust object, so
//! that each call OpenSpiel's algorithms make on every ply (the player to
//! move, the legal actions, a move, the returns, a copy, the observation
//! tensor) is one call into Rust, and a state's `__dict__` (which
//! OpenSpiel's C++ `Clone` deep-copies entry by entry) has one entry.
//!
//! The game being played is a `hoyito.Game` (`game`), shared with the
//! Python state's `game_state`; nothing about it is cached here, so the
//! answers always follow that game.

use hoyito_core::Side;
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use crate::classes::PyGame;
use crate::errors::HoyitoError;
use crate::{actions, game};

/// The state of an OpenSpiel `python_hoyito` game: a `hoyito.Game` and
/// the kind of returns (`"win_loss"` or `"margin"`). For
/// `hoyito.openspiel`; players are 0 (South) and 1 (North), and
/// `terminal` is the player number of a finished game (OpenSpiel's
/// `PlayerId.TERMINAL`).
#[pyclass(name = "SpielState", module = "hoyito._hoyito")]
pub struct PySpielState {
    game: Py<PyGame>,
    margin: bool,
    terminal: i64,
}

impl PySpielState {
    fn with_game(&self, game: Py<PyGame>) -> PySpielState {
        PySpielState {
            game,
            margin: self.margin,
            terminal: self.terminal,
        }
    }
}

#[pymethods]
impl PySpielState {
    #[new]
    #[pyo3(signature = (game, returns="win_loss", terminal=-4))]
    fn new(game: Py<PyGame>, returns: &str, terminal: i64) -> PyResult<Self> {
        let margin = match returns {
            "win_loss" => false,
            "margin" => true,
            other => {
                return Err(HoyitoError::new_err(format!(
                    "unknown returns {:?}: expected \"win_loss\" or \"margin\"",
                    hoyito_core::error::echo(other)
                )))
            }
        };
        Ok(PySpielState {
            game,
            margin,
            terminal,
        })
    }

    /// The `hoyito.Game` being played (the same object every time).
    #[getter]
    fn game(&self, py: Python<'_>) -> Py<PyGame> {
        self.game.clone_ref(py)
    }

    /// `"win_loss"` or `"margin"`.
    #[getter]
    fn returns_kind(&self) -> &'static str {
        if self.margin {
            "margin"
        } else {
            "win_loss"
        }
    }

    /// The player to move: 0 (South), 1 (North), or `terminal` once the
    /// game is over.
    fn current_player(&self, py: Python<'_>) -> i64 {
        let g = self.game.borrow(py);
        let pos = g.game.position();
        if pos.is_over() {
            self.terminal
        } else {
            match pos.to_move() {
                Side::South => 0,
                Side::North => 1,
            }
        }
    }

    /// Whether the game is over.
    fn is_terminal(&self, py: Python<'_>) -> bool {
        self.game.borrow(py).game.is_over()
    }

    /// The legal actions, ascending (empty once the game is over).
    fn legal_actions(&self, py: Python<'_>) -> Vec<usize> {
        let g = self.game.borrow(py);
        let pos = g.game.position();
        if pos.is_over() {
            return Vec::new();
        }
        let mut legal: Vec<usize> = pos
            .legal_moves()
            .iter()
            .map(|&m| actions::encode(pos, m))
            .collect();
        legal.sort_unstable();
        legal
    }

    /// Plays an action (`Game.play_action`; `IllegalMove` for one that is
    /// not legal, the game then unchanged).
    fn apply(&self, py: Python<'_>, action: i64) -> PyResult<()> {
        let mut g = self.game.borrow_mut(py);
        game::play_action(py, &mut g.game, action).map(|_| ())
    }

    /// The returns `[south, north]`: 0 each until the game is over; then
    /// +1/-1/0 (`"win_loss"`) or the margin of captured seeds (`"margin"`).
    fn returns(&self, py: Python<'_>) -> [f64; 2] {
        let g = self.game.borrow(py);
        let pos = g.game.position();
        let Some(outcome) = pos.outcome() else {
            return [0.0, 0.0];
        };
        if self.margin {
            let c = pos.captured();
            let (south, north) = (f64::from(c.south), f64::from(c.north));
            return [south - north, north - south];
        }
        match outcome.result().winner() {
            Some(Side::South) => [1.0, -1.0],
            Some(Side::North) => [-1.0, 1.0],
            None => [0.0, 0.0],
        }
    }

    /// The observation (`Game.observation()`) as a list of floats.
    fn observation(&self, py: Python<'_>) -> Vec<f32> {
        let g = self.game.borrow(py);
        let mut obs = vec![0f32; actions::obs_len(g.game.rules())];
        actions::write_obs(g.game.position(), &mut obs, actions::Perspective::Absolute);
        obs
    }

    /// An independent copy (its own `hoyito.Game`).
    fn copy(&self, py: Python<'_>) -> PyResult<PySpielState> {
        let game = self.game.borrow(py).game.clone();
        Ok(self.with_game(Py::new(py, PyGame { game })?))
    }

    fn __copy__(&self, py: Python<'_>) -> PyResult<PySpielState> {
        self.copy(py)
    }

    fn __deepcopy__(&self, py: Python<'_>, _memo: &Bound<'_, PyAny>) -> PyResult<PySpielState> {
        self.copy(py)
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let s = slf.borrow();
        let args = (s.game.clone_ref(py), s.returns_kind(), s.terminal);
        (slf.get_type(), args).into_pyobject(py)
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        format!(
            "<hoyito.SpielState {} {}>",
            self.returns_kind(),
            self.game.borrow(py).game.position().to_notation()
        )
    }
}
