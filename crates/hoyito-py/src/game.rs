//! `hoyito.Game`: a thin class over `hoyito_core::Game` (`hoyito.Match` is
//! in matchplay.rs), and the helpers both use.

use hoyito_core::{Game, MoveError, PlayError, Position, Record, Side};
use numpy::PyArray1;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple, PyType};

use crate::classes::PyGame;
use crate::errors::{illegal, notation_err, IllegalMove};
use crate::{actions, convert, engine, rules};

/// The error of a token that cannot be played in `pos` (the core's
/// words, but the round's end says which method to call).
pub(crate) fn token_error(py: Python<'_>, pos: &Position, token: &str, e: MoveError) -> PyErr {
    let reason = match &e {
        MoveError::RoundOver { token, round } => {
            format!("{token} cannot be played: round {round} is over; call start_next_round()")
        }
        _ => e.to_string(),
    };
    illegal(py, token, &reason, &pos.legal_tokens())
}

/// Plays an action in `game`; the seeds captured.
pub(crate) fn play_action(py: Python<'_>, game: &mut Game, action: i64) -> PyResult<u8> {
    let pos = *game.position();
    let Some(m) = actions::decode(&pos, action) else {
        return Err(illegal(
            py,
            &action.to_string(),
            &format!(
                "action {action} is outside the action space 0..{}",
                actions::count(pos.rules())
            ),
            &pos.legal_tokens(),
        ));
    };
    game.play(m).map(|p| p.captured).map_err(|e| {
        let token = pos.move_token(m).to_string();
        let reason = if e == PlayError::GameOver {
            format!("action {action} ({token}) cannot be played: the game is over")
        } else {
            format!("action {action} ({token}) is illegal: {e}")
        };
        illegal(py, &action.to_string(), &reason, &pos.legal_tokens())
    })
}

/// The game's record text.
fn record_text(game: &Game) -> String {
    Record::from_game(game.clone()).write()
}

pub(crate) fn winner_name(pos: &Position) -> Option<&'static str> {
    pos.outcome().map(|o| o.result().name())
}

pub(crate) fn legal_list<'py>(py: Python<'py>, pos: &Position) -> PyResult<Bound<'py, PyList>> {
    if pos.is_over() {
        return Ok(PyList::empty(py));
    }
    let legal = pos.legal_moves();
    let mut items = Vec::with_capacity(legal.len());
    for &m in &legal {
        items.push(PyString::new(py, &pos.move_token(m).to_string()));
    }
    PyList::new(py, items)
}

/// `game` as an instance of `cls` (`Game` or a subclass of it), with the
/// instance attributes of `like` when given.
fn instance_of<'py>(
    cls: &Bound<'py, PyType>,
    game: Game,
    like: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let py = cls.py();
    if cls.is(py.get_type::<PyGame>()) {
        return Ok(Bound::new(py, PyGame { game })?.into_any());
    }
    let obj = cls.call0()?;
    obj.cast::<PyGame>()?.borrow_mut().game = game;
    if let Some(dict) = like.and_then(|l| l.getattr("__dict__").ok()) {
        obj.getattr("__dict__")?.call_method1("update", (dict,))?;
    }
    Ok(obj)
}

/// Refuses a position holding more seeds than the rules' game: such a
/// position cannot arise, and its observations would leave their bounds.
fn check_seeds(pos: &Position) -> PyResult<()> {
    let (cap, res) = (pos.captured(), pos.reserve());
    let total = [pos.in_play(), cap.south, cap.north, res.south, res.north]
        .iter()
        .map(|&n| n as u32)
        .sum::<u32>();
    let rules = pos.rules();
    if total > rules.total_seeds() {
        return Err(notation_err(format!(
            "the position holds {total} seeds (board, captures and reserves): expected at most {}, \
             the seeds of a game of 2x{} holes of {}",
            rules.total_seeds(),
            rules.holes(),
            rules.seeds()
        )));
    }
    Ok(())
}

impl PyGame {
    /// What `==` and `hash` compare: the rules, the start, the moves and a concession.
    fn key(&self) -> (&hoyito_core::Rules, &Position, &[hoyito_core::Move], Option<Side>) {
        (
            self.game.rules(),
            self.game.start(),
            self.game.moves(),
            self.game.conceded(),
        )
    }
}

#[pymethods]
impl PyGame {
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
        Ok(PyGame { game: Game::new(r) })
    }

    /// Game.from_notation(text, **rules) -> Game
    ///
    /// A game starting from a position in the one-line notation of
    /// docs/NOTATION.md (e.g. "0,2,1,1/3,0,1,0 s 10-14"), under the given
    /// rules options (the board must have 2 x holes entries). Raises
    /// `NotationError` for text that cannot be read.
    #[classmethod]
    #[pyo3(signature = (text, **rules))]
    fn from_notation<'py>(
        cls: &Bound<'py, PyType>,
        text: &str,
        rules: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let r = rules::from_kwargs(rules)?;
        let pos = Position::from_notation(r, text).map_err(notation_err)?;
        check_seeds(&pos)?;
        instance_of(cls, Game::from_position(pos), None)
    }

    /// Game.from_record(text) -> Game
    ///
    /// A game read from a game record (the format of `record()`; its tags
    /// give the rules) with every move replayed. Raises `NotationError`
    /// for a record that cannot be read or holds a match.
    #[classmethod]
    fn from_record<'py>(cls: &Bound<'py, PyType>, text: &str) -> PyResult<Bound<'py, PyAny>> {
        let record = Record::read(text).map_err(notation_err)?;
        match record.game() {
            Some(g) => instance_of(cls, g.clone(), None),
            None => Err(notation_err("the record holds a match: use Match.from_record")),
        }
    }

    /// The rules options as a dict (RULES.md spellings).
    #[getter]
    fn rules<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        rules::to_dict(py, self.game.rules())
    }

    /// The variant: "I", "II" or "III".
    #[getter]
    fn variant(&self) -> &'static str {
        self.game.rules().variant().name()
    }

    /// Holes per row.
    #[getter]
    fn holes(&self) -> usize {
        self.game.rules().holes()
    }

    /// Seeds in each hole, in hole-index order (closed holes hold 0).
    #[getter]
    fn board(&self) -> Vec<u32> {
        self.game
            .position()
            .board()
            .iter()
            .map(|&s| u32::from(s))
            .collect()
    }

    /// Seeds captured so far: (south, north).
    #[getter]
    fn captured(&self) -> (u8, u8) {
        let c = self.game.position().captured();
        (c.south, c.north)
    }

    /// The size of the integer action space (see `legal_actions`).
    #[getter]
    fn num_actions(&self) -> usize {
        actions::count(self.game.rules())
    }

    /// The length of `observation()`: 4 * holes + 3.
    #[getter]
    fn observation_size(&self) -> usize {
        actions::obs_len(self.game.rules())
    }

    /// legal_moves() -> list[str]
    ///
    /// The tokens of the legal moves of the side to move (empty once the
    /// game is over).
    fn legal_moves<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        legal_list(py, self.game.position())
    }

    /// play(token) -> int
    ///
    /// Plays a move token ("3", "3R", "2+5") and returns the seeds it
    /// captured (the last-four award included). Passes are automatic.
    /// Raises `IllegalMove` (a `ValueError`) with the reason and the legal
    /// moves if the token cannot be read or the move is not legal; the game
    /// is then unchanged.
    fn play(&mut self, py: Python<'_>, token: &str) -> PyResult<u8> {
        match self.game.play_traced(token, 0) {
            Ok(t) => Ok(t.captured()),
            Err(e) => Err(token_error(py, self.game.position(), token, e)),
        }
    }

    /// legal_actions() -> list[int]
    ///
    /// The legal moves as integer actions, in the order of `legal_moves()`
    /// (see `docs/PYTHON.md`).
    fn legal_actions(&self) -> Vec<usize> {
        let pos = self.game.position();
        if pos.is_over() {
            return Vec::new();
        }
        pos.legal_moves()
            .iter()
            .map(|&m| actions::encode(pos, m))
            .collect()
    }

    /// action_mask() -> numpy.ndarray
    ///
    /// An int8 array of `num_actions` entries, 1 for each legal action.
    fn action_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i8>> {
        let mut mask = vec![0i8; actions::count(self.game.rules())];
        actions::write_mask(self.game.position(), &mut mask);
        PyArray1::from_vec(py, mask)
    }

    /// observation(perspective="absolute") -> numpy.ndarray
    ///
    /// A float32 array of `4 * holes + 3` numbers: the board, the closed
    /// holes (0/1), South's and North's captured seeds, the side to move
    /// (0 South, 1 North; 0 once the game is over). With
    /// perspective="mover", the mover's row, closed holes and captures come
    /// first (the last number still tells who moves; a finished game has no
    /// mover and is seen as South sees it).
    #[pyo3(signature = (perspective="absolute"))]
    fn observation<'py>(&self, py: Python<'py>, perspective: &str) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let view = actions::Perspective::named(perspective)?;
        let mut obs = vec![0f32; actions::obs_len(self.game.rules())];
        actions::write_obs(self.game.position(), &mut obs, view);
        Ok(PyArray1::from_vec(py, obs))
    }

    /// play_action(action) -> int
    ///
    /// Plays an integer action (see `legal_actions`) and returns the seeds
    /// captured. Raises `IllegalMove` for an action that is not legal.
    fn play_action(&mut self, py: Python<'_>, action: i64) -> PyResult<u8> {
        play_action(py, &mut self.game, action)
    }

    /// action_to_move(action) -> str
    ///
    /// The move token an action stands for in the current position.
    /// Raises `IllegalMove` for an action that is not legal here.
    fn action_to_move(&self, py: Python<'_>, action: i64) -> PyResult<String> {
        let pos = self.game.position();
        match actions::decode(pos, action).filter(|&m| !pos.is_over() && pos.is_legal(m)) {
            Some(m) => Ok(pos.move_token(m).to_string()),
            None => Err(illegal(
                py,
                &action.to_string(),
                &format!("action {action} is not legal here"),
                &pos.legal_tokens(),
            )),
        }
    }

    /// move_to_action(token) -> int
    ///
    /// The integer action of a legal move token. Raises `IllegalMove` for a
    /// token that is not legal here.
    fn move_to_action(&self, py: Python<'_>, token: &str) -> PyResult<usize> {
        let pos = self.game.position();
        let m = pos
            .parse_move(token)
            .map_err(|e| illegal(py, token, &e.to_string(), &pos.legal_tokens()))?;
        if pos.is_over() || !pos.is_legal(m) {
            return Err(illegal(
                py,
                token,
                &format!("{} is not legal here", token.trim()),
                &pos.legal_tokens(),
            ));
        }
        Ok(actions::encode(pos, m))
    }

    /// state() -> dict
    ///
    /// The machine-readable state of RULES.md §7: variant, holes_per_row,
    /// board, closed, captured, to_move, over, winner, plus end_reason,
    /// reserve, round and notation.
    fn state<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        convert::state_dict(py, self.game.position())
    }

    /// is_over() -> bool
    fn is_over(&self) -> bool {
        self.game.is_over()
    }

    /// winner() -> str | None
    ///
    /// "south", "north" or "draw" once the game is over, else None.
    fn winner(&self) -> Option<&'static str> {
        winner_name(self.game.position())
    }

    /// to_move() -> str | None
    ///
    /// "south" or "north": who moves next (after automatic passes); None
    /// once the game is over.
    fn to_move(&self) -> Option<&'static str> {
        let pos = self.game.position();
        (!pos.is_over()).then(|| pos.to_move().name())
    }

    /// notation() -> str
    ///
    /// The current position in the one-line notation (docs/NOTATION.md).
    fn notation(&self) -> String {
        self.game.position().to_notation()
    }

    /// moves() -> list[str]
    ///
    /// The tokens of the moves played so far.
    fn moves(&self) -> Vec<String> {
        self.game.tokens()
    }

    /// undo() -> str | None
    ///
    /// Takes back the last move and returns its token (None if no move was
    /// played).
    fn undo(&mut self) -> Option<String> {
        let positions = self.game.positions();
        let before = positions.get(positions.len().checked_sub(2)?)?;
        let m = self.game.undo()?;
        Some(before.move_token(m).to_string())
    }

    /// concede(side: str) -> None
    ///
    /// `side` ("south" or "north") concedes the game: the seeds in play go
    /// to the other side and the game is counted (docs/NOTATION.md,
    /// "Conceding a round"). Raises IllegalMove once the game is over or for
    /// another side name; the game is then unchanged.
    fn concede(&mut self, py: Python<'_>, side: &str) -> PyResult<()> {
        let s = concession_side(py, side)?;
        self.game
            .concede(s)
            .map_err(|e| illegal(py, &format!("concede:{side}"), &e.to_string(), &[]))
    }

    /// record() -> str
    ///
    /// The game record (the project's PGN-like format), readable by
    /// `Game.from_record` and `hoyito replay --record`.
    fn record(&self) -> String {
        record_text(&self.game)
    }

    /// copy() -> Game
    ///
    /// An independent copy (of the same class).
    fn copy<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        let game = slf.borrow().game.clone();
        instance_of(&slf.get_type(), game, Some(slf.as_any()))
    }

    fn __copy__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        Self::copy(slf)
    }

    fn __deepcopy__<'py>(slf: &Bound<'py, Self>, _memo: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let copy = Self::copy(slf)?;
        if let Ok(dict) = slf.getattr("__dict__") {
            let deep = slf
                .py()
                .import("copy")?
                .getattr("deepcopy")?
                .call1((dict, _memo))?;
            copy.setattr("__dict__", deep)?;
        }
        Ok(copy)
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let ctor = slf.get_type().getattr("from_record")?;
        let args = (record_text(&slf.borrow().game),);
        match slf.getattr("__dict__") {
            Ok(dict) => (ctor, args, dict).into_pyobject(py),
            Err(_) => (ctor, args).into_pyobject(py),
        }
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        match other.cast::<PyGame>() {
            Ok(o) => self.key() == o.borrow().key(),
            Err(_) => false,
        }
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.key().hash(&mut h);
        h.finish()
    }

    fn __repr__(&self) -> String {
        format!(
            "<hoyito.Game {} after {} moves: {}>",
            self.game.rules(),
            self.game.moves().len(),
            self.game.position().to_notation()
        )
    }

    fn __str__(&self) -> String {
        self.game.position().to_notation()
    }

    /// rollouts(n=1, seed=None, returns="win_loss") -> numpy.ndarray
    ///
    /// The mean returns (South, North) of `n` uniformly random games played
    /// on from here in Rust (the game's history counts for the repetition
    /// rule): "win_loss" +1/-1/0, "margin" the final margin in seeds. Once
    /// the game is over, its own returns. For Monte Carlo evaluation (see
    /// `hoyito.openspiel.RolloutEvaluator`). The game is unchanged.
    #[pyo3(signature = (n=1, seed=None, returns="win_loss"))]
    fn rollouts<'py>(
        &self,
        py: Python<'py>,
        n: i64,
        seed: Option<u64>,
        returns: &str,
    ) -> PyResult<Bound<'py, PyArray1<f64>>> {
        crate::rollout::rollouts(py, &self.game, n, seed, returns)
    }

    /// analyze(level=None, time=None, depth=None, engine="alphabeta",
    ///         hash_mb=16, seed=None, tablebase=None) -> dict
    ///
    /// The engine's analysis of the current position: every legal move
    /// searched to the same limits. Returns a dict with "best" (token),
    /// "score" (expected final margin in seeds for the side to move),
    /// "pv" (principal variation, tokens), "moves" (a list of
    /// {"move", "score", "pv"}, best first), "time_ms". Limits: `time` in
    /// seconds or `depth` in plies (default: the level's depth, or 8).
    /// `level` 1..10 weakens the engine as in the web app; `tablebase` a
    /// `hoyito.Tablebase` for exact endgames. The GIL is released while it
    /// searches.
    #[pyo3(signature = (level=None, time=None, depth=None, engine="alphabeta", hash_mb=16, seed=None, tablebase=None))]
    #[allow(clippy::too_many_arguments)]
    fn analyze<'py>(
        &self,
        py: Python<'py>,
        level: Option<i64>,
        time: Option<f64>,
        depth: Option<i64>,
        engine: &str,
        hash_mb: i64,
        seed: Option<u64>,
        tablebase: Option<PyRef<'_, engine::PyTablebase>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let settings = engine::Settings::new(level, engine, hash_mb, seed, tablebase.as_deref())?;
        let mut e = settings.build(py, self.game.rules())?;
        engine::analyze(py, &mut e, settings.level, &self.game, time, depth)
    }

    /// best_move(level=None, time=None, depth=None, engine="alphabeta",
    ///           hash_mb=16, seed=None, tablebase=None) -> str | None
    ///
    /// The move the engine plays here (at `level` 1..10, the level's own
    /// choice, noise included), or None once the game is over. Limits as
    /// in `analyze`. The GIL is released while it searches.
    #[pyo3(signature = (level=None, time=None, depth=None, engine="alphabeta", hash_mb=16, seed=None, tablebase=None))]
    #[allow(clippy::too_many_arguments)]
    fn best_move(
        &self,
        py: Python<'_>,
        level: Option<i64>,
        time: Option<f64>,
        depth: Option<i64>,
        engine: &str,
        hash_mb: i64,
        seed: Option<u64>,
        tablebase: Option<PyRef<'_, engine::PyTablebase>>,
    ) -> PyResult<Option<String>> {
        let settings = engine::Settings::new(level, engine, hash_mb, seed, tablebase.as_deref())?;
        let mut e = settings.build(py, self.game.rules())?;
        let res = engine::search(py, &mut e, settings.level, &self.game, time, depth)?;
        Ok(res.best.map(|m| self.game.position().move_token(m).to_string()))
    }
}

/// The side a `concede` call names: "south" or "north" (else an
/// `IllegalMove` that says so).
pub(crate) fn concession_side(py: Python<'_>, side: &str) -> PyResult<Side> {
    match side {
        "south" => Ok(Side::South),
        "north" => Ok(Side::North),
        _ => {
            let err = IllegalMove::new_err(format!(
                "cannot concede for {:?}: expected \"south\" or \"north\"",
                hoyito_core::error::echo(side)
            ));
            let _ = err.value(py).setattr("move", format!("concede:{side}"));
            let _ = err.value(py).setattr("legal_moves", PyList::empty(py));
            Err(err)
        }
    }
}
