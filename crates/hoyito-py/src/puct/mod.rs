//! `hoyito.PuctSearch`: an AlphaZero-style Monte-Carlo tree search (PUCT)
//! in Rust whose leaves a Python callable evaluates, in batches.
//!
//! A search starts from a copy of the game, asks the evaluator for the
//! root's priors and value, then runs `simulations` descents. Each descent
//! goes down the tree by the PUCT rule
//!
//! ```text
//! a = argmax  Q(s, a) + c_puct · P(s, a) · √N(s) / (1 + N(s, a))
//! ```
//!
//! (`N(s)` counts the node's own evaluation and every descent through it;
//! `Q` of an action not yet tried is 0, a draw), playing each move with
//! `hoyito_core::Game::play` (the call `Game.play_action` makes), until it
//! reaches a position not yet in the tree. A finished game is worth its
//! result (±1, 0 for a draw; the margin is not counted) and is backed up
//! at once; any other new position waits in the batch, under a virtual
//! loss on its path (each edge counts one more visit, lost) so that the
//! next descents of the same batch look elsewhere. A descent that meets a
//! position already waiting is given up and not counted. The batch (at
//! most `batch_size` positions) goes to the evaluator in one call.
//!
//! Values are kept from South's point of view while they are backed up,
//! and each edge stores them from the view of the player who chooses it,
//! so an extra turn (the same player moving again, RULES.md §3) keeps the
//! sign and only a change of mover flips it.
//!
//! The search holds the GIL only to call the evaluator: the descents run
//! with it released, and between batches pending signals are checked, so
//! Ctrl-C raises `KeyboardInterrupt` within one batch (as
//! `random_playouts` does; `interrupt::interruptible`'s helper thread does
//! not fit a search that calls back into Python on the calling thread).

use std::sync::Mutex;

use hoyito_core::Game;
use numpy::ndarray::Array2;
use numpy::{PyArray1, PyArray2};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use rand::rngs::SmallRng;
use rand::{RngCore, SeedableRng};

mod answer;
mod tree;

use crate::actions::{self, Perspective};
use crate::classes::{game_of, PyGame};
use crate::errors::HoyitoError;

use self::answer::{read_answer, value_err};
use self::tree::{Descent, Leaf, Tree};

/// Most simulations in one search (the tree grows by one position each).
const MAX_SIMULATIONS: i64 = 1 << 24;
/// Most positions in one evaluator call.
const MAX_BATCH: i64 = 4096;

/// What a search is asked to do.
#[derive(Clone, Copy, Debug)]
struct Config {
    simulations: u32,
    c_puct: f64,
    batch_size: usize,
    dirichlet_alpha: Option<f64>,
    dirichlet_fraction: f64,
}

/// One search's inputs beside the tree.
struct Search<'a, 'py> {
    py: Python<'py>,
    evaluator: &'a Bound<'py, PyAny>,
    pass_games: bool,
    na: usize,
    ol: usize,
    batches: u64,
    evaluations: u64,
}

impl<'py> Search<'_, 'py> {
    /// Calls the evaluator on `leaves`; their (priors rows, values).
    fn evaluate(&mut self, leaves: &[Leaf]) -> PyResult<(Vec<f64>, Vec<f64>)> {
        let py = self.py;
        let k = leaves.len();
        let (na, ol) = (self.na, self.ol);
        let mut obs = vec![0f32; k * ol];
        let mut masks = vec![0i8; k * na];
        for ((leaf, o), m) in leaves.iter().zip(obs.chunks_mut(ol)).zip(masks.chunks_mut(na)) {
            actions::write_obs(leaf.game.position(), o, Perspective::Mover);
            actions::write_mask(leaf.game.position(), m);
        }
        let shape_err = |e: numpy::ndarray::ShapeError| HoyitoError::new_err(e.to_string());
        let obs = PyArray2::from_owned_array(py, Array2::from_shape_vec((k, ol), obs).map_err(shape_err)?);
        let masks =
            PyArray2::from_owned_array(py, Array2::from_shape_vec((k, na), masks).map_err(shape_err)?);
        let answer = if self.pass_games {
            let games = leaves
                .iter()
                .map(|l| Bound::new(py, PyGame { game: l.game.clone() }))
                .collect::<PyResult<Vec<_>>>()?;
            self.evaluator.call1((obs, masks, PyList::new(py, games)?))?
        } else {
            self.evaluator.call1((obs, masks))?
        };
        self.batches += 1;
        self.evaluations += k as u64;
        read_answer(&answer, k, na)
    }
}

/// The search of `root` (not over) under `config`.
fn run(
    py: Python<'_>,
    evaluator: &Bound<'_, PyAny>,
    pass_games: bool,
    config: Config,
    root: &Game,
    seed: u64,
) -> PyResult<(Tree, u64, u64)> {
    let rules = *root.rules();
    let mut s = Search {
        py,
        evaluator,
        pass_games,
        na: actions::count(&rules),
        ol: actions::obs_len(&rules),
        batches: 0,
        evaluations: 0,
    };
    let mut tree = Tree::new(config.c_puct);
    let mut rng = SmallRng::seed_from_u64(seed);
    tree.add(root.position());
    let root_leaf = Leaf {
        node: 0,
        path: Vec::new(),
        game: root.clone(),
    };
    let (priors, values) = s.evaluate(std::slice::from_ref(&root_leaf))?;
    tree.expand(&root_leaf, &priors, values[0]);
    if let Some(alpha) = config.dirichlet_alpha {
        tree.add_noise(alpha, config.dirichlet_fraction, &mut rng);
    }
    let batch = config.batch_size;
    while tree.simulations < config.simulations {
        let target = config.simulations;
        // The descents of one batch, with the GIL released.
        let (leaves, error) = py.detach(|| {
            let mut leaves: Vec<Leaf> = Vec::new();
            let (mut tries, mut collisions) = (0usize, 0usize);
            while leaves.len() < batch
                && tree.simulations as usize + leaves.len() < target as usize
                && tries < 2 * batch
                && collisions < batch
            {
                tries += 1;
                match tree.descend(root) {
                    Ok(Descent::Leaf(l)) => leaves.push(*l),
                    Ok(Descent::Terminal) => {}
                    Ok(Descent::Collision) => collisions += 1,
                    Err(e) => return (leaves, Some(e)),
                }
            }
            (leaves, None)
        });
        if let Some(e) = error {
            return Err(pyo3::exceptions::PyRuntimeError::new_err(e));
        }
        if !leaves.is_empty() {
            let (priors, values) = s.evaluate(&leaves)?;
            for (i, leaf) in leaves.iter().enumerate() {
                tree.expand(leaf, &priors[i * s.na..(i + 1) * s.na], values[i]);
            }
        }
        py.check_signals()?;
    }
    Ok((tree, s.batches, s.evaluations))
}

/// An AlphaZero-style Monte-Carlo tree search (PUCT) in Rust whose leaf
/// positions a Python callable evaluates in batches.
///
/// PuctSearch(evaluator, simulations=200, c_puct=1.25, batch_size=8,
///            dirichlet_alpha=None, dirichlet_fraction=0.25, seed=None,
///            pass_games=False)
///
/// `evaluator(observations, masks)` gets a float32 array (k,
/// observation_size) of positions seen from the player to move (as
/// `Game.observation("mover")`) and their int8 legal-action masks (k,
/// num_actions), k <= batch_size, and returns `(priors, values)`: priors
/// (k, num_actions), finite and >= 0 (what illegal actions get is
/// ignored, the legal ones' share is renormalised, uniform if it is 0),
/// values (k,) in [-1, 1] for the player to move. With pass_games=True it
/// is called `evaluator(observations, masks, games)` with copies of the
/// positions' `Game`s too. Finished games are worth their result (+1 a
/// win, -1 a loss, 0 a draw, for the player who moved into them).
/// `search(game)` returns a dict; the game is not changed.
#[pyclass(name = "PuctSearch", module = "hoyito._hoyito")]
pub struct PyPuctSearch {
    evaluator: Py<PyAny>,
    config: Config,
    pass_games: bool,
    seed: Option<u64>,
    rng: Mutex<SmallRng>,
}

#[pymethods]
impl PyPuctSearch {
    #[new]
    #[pyo3(signature = (evaluator, simulations=200, c_puct=1.25, batch_size=8, dirichlet_alpha=None,
        dirichlet_fraction=0.25, seed=None, pass_games=false))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        evaluator: Bound<'_, PyAny>,
        simulations: i64,
        c_puct: f64,
        batch_size: i64,
        dirichlet_alpha: Option<f64>,
        dirichlet_fraction: f64,
        seed: Option<u64>,
        pass_games: bool,
    ) -> PyResult<Self> {
        if !evaluator.is_callable() {
            return Err(PyTypeError::new_err(format!(
                "the evaluator must be callable, not {}",
                evaluator.get_type().name()?
            )));
        }
        if !(1..=MAX_SIMULATIONS).contains(&simulations) {
            return Err(value_err(format!(
                "simulations {simulations} is not allowed: expected 1 to {MAX_SIMULATIONS}"
            )));
        }
        if !(1..=MAX_BATCH).contains(&batch_size) {
            return Err(value_err(format!(
                "batch_size {batch_size} is not allowed: expected 1 to {MAX_BATCH}"
            )));
        }
        if !(c_puct.is_finite() && c_puct > 0.0) {
            return Err(value_err(format!(
                "c_puct {c_puct} is not allowed: expected a positive number"
            )));
        }
        if let Some(a) = dirichlet_alpha {
            if !(a.is_finite() && a > 0.0) {
                return Err(value_err(format!(
                    "dirichlet_alpha {a} is not allowed: expected a positive number or None"
                )));
            }
        }
        if !(0.0..=1.0).contains(&dirichlet_fraction) {
            return Err(value_err(format!(
                "dirichlet_fraction {dirichlet_fraction} is not allowed: expected a number from 0 to 1"
            )));
        }
        Ok(PyPuctSearch {
            evaluator: evaluator.unbind(),
            config: Config {
                simulations: simulations as u32,
                c_puct,
                batch_size: batch_size as usize,
                dirichlet_alpha,
                dirichlet_fraction,
            },
            pass_games,
            seed,
            rng: Mutex::new(SmallRng::seed_from_u64(seed.unwrap_or_else(rand::random))),
        })
    }

    /// search(game, temperature=1.0) -> dict
    ///
    /// Searches the position of `game` (a `Game`, or a `Match`'s current
    /// round) and returns "visits" (int64, num_actions: the simulations
    /// through each root action; they sum to "simulations"), "policy"
    /// (float64: visits ** (1 / temperature), normalised; temperature 0:
    /// all on "action"), "prior" (the root's priors as searched, noise
    /// included), "q" (each root action's mean value for the player to
    /// move, NaN where not visited), "value" (the root's mean value, its
    /// own evaluation included, for the player to move), "action" and
    /// "move" (the most visited; ties to the higher prior), "to_move",
    /// "simulations", "evaluations" (positions given to the evaluator,
    /// the root included) and "batches" (evaluator calls). The game is
    /// unchanged; an error of the evaluator or of its answer is raised
    /// as it is. Raises HoyitoError if the game is over.
    #[pyo3(signature = (game, temperature=1.0))]
    fn search<'py>(
        &self,
        py: Python<'py>,
        game: &Bound<'py, PyAny>,
        temperature: f64,
    ) -> PyResult<Bound<'py, PyDict>> {
        let root = game_of(game)?;
        if !(temperature.is_finite() && temperature >= 0.0) {
            return Err(value_err(format!(
                "temperature {temperature} is not allowed: expected a number >= 0"
            )));
        }
        if root.is_over() {
            return Err(value_err("the game is over: there is nothing to search"));
        }
        let seed = self
            .rng
            .lock()
            .map_err(|_| value_err("the search's random generator was poisoned"))?
            .next_u64();
        let evaluator = self.evaluator.bind(py);
        let (tree, batches, evaluations) = run(py, evaluator, self.pass_games, self.config, &root, seed)?;
        summary(py, &tree, &root, temperature, batches, evaluations)
    }

    /// The evaluator (a callable).
    #[getter]
    fn evaluator(&self, py: Python<'_>) -> Py<PyAny> {
        self.evaluator.clone_ref(py)
    }

    /// Simulations per search.
    #[getter]
    fn simulations(&self) -> u32 {
        self.config.simulations
    }

    /// The exploration constant of the PUCT rule.
    #[getter]
    fn c_puct(&self) -> f64 {
        self.config.c_puct
    }

    /// Most positions in one evaluator call.
    #[getter]
    fn batch_size(&self) -> usize {
        self.config.batch_size
    }

    /// The root noise's Dirichlet parameter (None: no noise).
    #[getter]
    fn dirichlet_alpha(&self) -> Option<f64> {
        self.config.dirichlet_alpha
    }

    /// The noise's share of the root priors.
    #[getter]
    fn dirichlet_fraction(&self) -> f64 {
        self.config.dirichlet_fraction
    }

    /// The seed given (None: from the system).
    #[getter]
    fn seed(&self) -> Option<u64> {
        self.seed
    }

    /// Whether the evaluator is given the positions' games too.
    #[getter]
    fn pass_games(&self) -> bool {
        self.pass_games
    }

    fn __repr__(&self) -> String {
        let c = &self.config;
        format!(
            "<hoyito.PuctSearch simulations={} c_puct={} batch_size={} dirichlet_alpha={:?} dirichlet_fraction={}>",
            c.simulations, c.c_puct, c.batch_size, c.dirichlet_alpha, c.dirichlet_fraction
        )
    }
}

/// The result dict of a search.
fn summary<'py>(
    py: Python<'py>,
    tree: &Tree,
    root: &Game,
    temperature: f64,
    batches: u64,
    evaluations: u64,
) -> PyResult<Bound<'py, PyDict>> {
    let na = actions::count(root.rules());
    let edges = &tree.edges[tree.edge_range(0)];
    let mut visits = vec![0i64; na];
    let mut prior = vec![0f64; na];
    let mut q = vec![f64::NAN; na];
    for e in edges {
        let a = e.action as usize;
        visits[a] = i64::from(e.visits);
        prior[a] = e.prior;
        if e.visits > 0 {
            q[a] = e.value / f64::from(e.visits);
        }
    }
    // The most visited, ties to the higher prior, then the first legal move.
    let best = edges
        .iter()
        .enumerate()
        .max_by(|(i, a), (j, b)| {
            a.visits
                .cmp(&b.visits)
                .then(a.prior.total_cmp(&b.prior))
                .then(j.cmp(i))
        })
        .map(|(_, e)| *e)
        .ok_or_else(|| value_err("the root has no legal move"))?;
    let mut policy = vec![0f64; na];
    if temperature == 0.0 {
        policy[best.action as usize] = 1.0;
    } else {
        // In logarithms, so that a small temperature does not overflow.
        let logs: Vec<(usize, f64)> = edges
            .iter()
            .filter(|e| e.visits > 0)
            .map(|e| (e.action as usize, f64::from(e.visits).ln() / temperature))
            .collect();
        let top = logs.iter().map(|&(_, l)| l).fold(f64::NEG_INFINITY, f64::max);
        let sum: f64 = logs.iter().map(|&(_, l)| (l - top).exp()).sum();
        for (a, l) in logs {
            policy[a] = (l - top).exp() / sum;
        }
    }
    let pos = root.position();
    let d = PyDict::new(py);
    d.set_item("visits", PyArray1::from_vec(py, visits))?;
    d.set_item("policy", PyArray1::from_vec(py, policy))?;
    d.set_item("prior", PyArray1::from_vec(py, prior))?;
    d.set_item("q", PyArray1::from_vec(py, q))?;
    d.set_item("value", tree.root_value / f64::from(tree.simulations + 1))?;
    d.set_item("action", best.action)?;
    d.set_item("move", pos.move_token(best.mv).to_string())?;
    d.set_item("to_move", pos.to_move().name())?;
    d.set_item("simulations", tree.simulations)?;
    d.set_item("evaluations", evaluations)?;
    d.set_item("batches", batches)?;
    Ok(d)
}
