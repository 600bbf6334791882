//! `hoyito.Match`: a match of rounds (RULES.md §5) for Python.

use hoyito_core::{Match, Record};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};

use crate::classes::PyGame;
use crate::classes::PyMatch;
use crate::errors::{illegal, notation_err};
use crate::game::{concession_side, legal_list, token_error, winner_name};
use crate::{convert, rules};

#[pymethods]
impl PyMatch {
    #[new]
    #[pyo3(signature = (variant=None, holes=None, seeds=None, skip_origin=None, direction=None,
        two_hole_opening=None, repetition=None, capture_side=None),
        text_signature = "(variant='I', holes=6, seeds=4, skip_origin=False, direction='fixed', two_hole_opening=False, repetition='even', capture_side='any')")]
    #[allow(clippy::too_many_arguments)]
    fn new(
        variant: Option<&Bound<'_, PyAny>>,
        holes: Option<&Bound<'_, PyAny>>,
        seeds: Option<&Bound<'_, PyAny>>,
        skip_origin: Option<&Bound<'_, PyAny>>,
        direction: Option<&Bound<'_, PyAny>>,
        two_hole_opening: Option<&Bound<'_, PyAny>>,
        repetition: Option<&Bound<'_, PyAny>>,
        capture_side: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let r = rules::from_args([
            variant,
            holes,
            seeds,
            skip_origin,
            direction,
            two_hole_opening,
            repetition,
            capture_side,
        ])?;
        Ok(PyMatch { m: Match::new(r) })
    }

    /// Match.from_record(text) -> Match
    ///
    /// A match read from a match record (the format of `record()`).
    #[staticmethod]
    fn from_record(text: &str) -> PyResult<PyMatch> {
        let record = Record::read(text).map_err(notation_err)?;
        match record.match_() {
            Some(m) => Ok(PyMatch { m: m.clone() }),
            None => Err(notation_err(
                "the record holds a single game: use Game.from_record",
            )),
        }
    }

    /// The rules options as a dict.
    #[getter]
    fn rules<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        rules::to_dict(py, self.m.rules())
    }

    /// The current round number, from 1.
    #[getter]
    fn round(&self) -> u32 {
        self.m.round()
    }

    /// The indices of the holes closed in the current round.
    #[getter]
    fn closed(&self) -> Vec<usize> {
        self.m.current().position().closed_holes().collect()
    }

    /// Seeds in reserve from earlier rounds: (south, north).
    #[getter]
    fn reserve(&self) -> (u8, u8) {
        let r = self.m.current().position().reserve();
        (r.south, r.north)
    }

    /// legal_moves() -> list[str]
    ///
    /// The legal move tokens in the current round (empty when it is over).
    fn legal_moves<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        legal_list(py, self.m.current().position())
    }

    /// play(token) -> int
    ///
    /// Plays a move in the current round and returns the seeds captured.
    /// Raises `IllegalMove` (nothing changes) for an illegal move, or when
    /// the round is over (call `start_next_round()`).
    fn play(&mut self, py: Python<'_>, token: &str) -> PyResult<u8> {
        match self.m.play_traced(token, 0) {
            Ok(t) => Ok(t.captured()),
            Err(e) => Err(token_error(py, self.m.current().position(), token, e)),
        }
    }

    /// is_round_over() -> bool
    fn is_round_over(&self) -> bool {
        self.m.current().is_over()
    }

    /// can_start_next_round() -> bool
    ///
    /// Whether the current round is over and the match goes on.
    fn can_start_next_round(&self) -> bool {
        self.m.can_start_next_round()
    }

    /// concede(side: str) -> None
    ///
    /// `side` ("south" or "north") concedes the current round: the seeds in
    /// play go to the other side, the round is counted and the match goes on
    /// by RULES.md §5 (docs/NOTATION.md, "Conceding a round"). Raises
    /// IllegalMove once the round or match is over or for another side name;
    /// the match is then unchanged.
    fn concede(&mut self, py: Python<'_>, side: &str) -> PyResult<()> {
        let s = concession_side(py, side)?;
        self.m
            .concede(s)
            .map_err(|e| illegal(py, &format!("concede:{side}"), &e.to_string(), &[]))
    }

    /// start_next_round() -> bool
    ///
    /// Starts the next round (refills, closed holes, reserves, who starts:
    /// RULES.md §5). Returns False, changing nothing, if the current round
    /// is not over or the match is over.
    fn start_next_round(&mut self) -> bool {
        self.m.start_next_round()
    }

    /// is_over() -> bool
    ///
    /// Whether the match is decided (a player ended a round with fewer
    /// seeds than a hole's refill).
    fn is_over(&self) -> bool {
        self.m.outcome().is_some()
    }

    /// winner() -> str | None
    ///
    /// The match winner ("south", "north" or "draw") once the match is
    /// over, else None.
    fn winner(&self) -> Option<&'static str> {
        self.m.outcome().map(|o| o.result().name())
    }

    /// round_winner() -> str | None
    ///
    /// The current round's result once it is over, else None.
    fn round_winner(&self) -> Option<&'static str> {
        winner_name(self.m.current().position())
    }

    /// to_move() -> str | None
    fn to_move(&self) -> Option<&'static str> {
        let pos = self.m.current().position();
        (!pos.is_over()).then(|| pos.to_move().name())
    }

    /// state() -> dict
    ///
    /// The RULES.md §7 state of the current round's position (with closed,
    /// reserve and round).
    fn state<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        convert::state_dict(py, self.m.current().position())
    }

    /// notation() -> str
    fn notation(&self) -> String {
        self.m.current().position().to_notation()
    }

    /// game() -> Game
    ///
    /// A copy of the current round as a `Game` (to analyse it).
    fn game(&self) -> PyGame {
        PyGame {
            game: self.m.current().clone(),
        }
    }

    /// rounds() -> list[Game]
    ///
    /// Copies of every round so far, the current one last.
    fn rounds(&self) -> Vec<PyGame> {
        self.m
            .rounds()
            .iter()
            .map(|g| PyGame { game: g.clone() })
            .collect()
    }

    /// record() -> str
    ///
    /// The match record, readable by `Match.from_record`.
    fn record(&self) -> String {
        Record::from_match(self.m.clone()).write()
    }

    /// copy() -> Match
    fn copy(&self) -> PyMatch {
        self.clone()
    }

    fn __copy__(&self) -> PyMatch {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyMatch {
        self.clone()
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let ctor = py.get_type::<PyMatch>().getattr("from_record")?;
        (ctor, (Record::from_match(self.m.clone()).write(),)).into_pyobject(py)
    }

    fn __repr__(&self) -> String {
        format!(
            "<hoyito.Match {} round {}: {}>",
            self.m.rules(),
            self.m.round(),
            self.m.current().position().to_notation()
        )
    }
}
