//! Throughput from Python: random playouts in a Rust loop, and a batch of
//! games stepped together for vectorised reinforcement learning.

use std::time::Instant;

use hoyito_core::{playout, Game, Position, RepetitionTracker, Rules, Side};
use numpy::ndarray::{Array1, Array2};
use numpy::{PyArray1, PyArray2, PyReadonlyArray1};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use rand::rngs::SmallRng;
use rand::{RngCore, SeedableRng};
use rayon::prelude::*;

use crate::actions::Perspective;
use crate::errors::{illegal, HoyitoError};
use crate::{actions, rules};

/// Most games `random_playouts` plays in one call.
const MAX_PLAYOUTS: i64 = 1 << 40;
/// Games played between two checks for signals (Ctrl-C).
const PLAYOUT_CHUNK: i64 = 4096;
/// Most games in one `VectorGame`.
const MAX_ENVS: i64 = 1 << 20;

/// random_playouts(n, seed=1, **rules) -> dict
///
/// Plays `n` uniformly random games from the start under the full rules,
/// in Rust with the GIL released, and returns summary statistics: "games",
/// "plies", "south_wins", "north_wins", "draws", "mean_plies", "seconds",
/// "games_per_s", "plies_per_s". With the same seed it plays the same games
/// as `hoyito bench --games n --seed SEED`.
#[pyfunction]
#[pyo3(signature = (n, seed=1, **rules))]
pub(crate) fn random_playouts<'py>(
    py: Python<'py>,
    n: i64,
    seed: u64,
    rules: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyDict>> {
    let r = rules::from_kwargs(rules)?;
    if !(0..=MAX_PLAYOUTS).contains(&n) {
        return Err(HoyitoError::new_err(format!(
            "n {n} is not allowed: expected 0 to {MAX_PLAYOUTS} games"
        )));
    }
    let start = Position::new(r);
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut tracker = RepetitionTracker::new();
    let (mut plies, mut south, mut north) = (0u64, 0u64, 0u64);
    let began = Instant::now();
    let mut done = 0i64;
    // In chunks, so that Ctrl-C (a pending signal) can stop a long run.
    while done < n {
        let chunk = (n - done).min(PLAYOUT_CHUNK);
        py.detach(|| {
            let mut below = |k: usize| playout::uniform_below(k, || rng.next_u32());
            for _ in 0..chunk {
                let (end, p) = playout::random_game(start, &mut below, &mut tracker);
                plies += p;
                match end.outcome().and_then(|o| o.winner) {
                    Some(Side::South) => south += 1,
                    Some(Side::North) => north += 1,
                    None => {}
                }
            }
        });
        done += chunk;
        py.check_signals()?;
    }
    let (games, secs) = (n as u64, began.elapsed().as_secs_f64());
    let d = PyDict::new(py);
    d.set_item("games", games)?;
    d.set_item("plies", plies)?;
    d.set_item("south_wins", south)?;
    d.set_item("north_wins", north)?;
    d.set_item("draws", games - south - north)?;
    d.set_item(
        "mean_plies",
        if games > 0 {
            plies as f64 / games as f64
        } else {
            0.0
        },
    )?;
    d.set_item("seconds", secs)?;
    let rate = |x: u64| if secs > 0.0 { x as f64 / secs } else { 0.0 };
    d.set_item("games_per_s", rate(games))?;
    d.set_item("plies_per_s", rate(plies))?;
    Ok(d)
}

/// Games per task when a batch is stepped on several threads.
const STEP_CHUNK: usize = 512;

/// The slices of one chunk of games: games, actions, masks, observations,
/// rewards, dones, results, per-player rewards (2 a game), final
/// observations.
type Chunk<'a> = (
    &'a mut [Game],
    &'a [i64],
    &'a mut [i8],
    &'a mut [f32],
    &'a mut [f32],
    &'a mut [bool],
    &'a mut [i8],
    &'a mut [f32],
    &'a mut [f32],
);

/// How the batch is set up: its rules, reward and observations' view.
#[derive(Clone, Copy)]
struct Setup {
    rules: Rules,
    reward: Reward,
    view: Perspective,
}

/// Steps a chunk of games with actions already checked against the masks;
/// returns the number of games that ended (and were restarted).
fn step_chunk(setup: Setup, chunk: Chunk<'_>) -> u64 {
    let (games, acts, masks, obs, rewards, dones, results, per_player, finals) = chunk;
    let rules = setup.rules;
    let na = actions::count(&rules);
    let ol = actions::obs_len(&rules);
    let mut finished = 0;
    for (i, g) in games.iter_mut().enumerate() {
        let before = *g.position();
        let mover = before.to_move();
        // Legal by the mask, which came from this position's legal moves.
        let played = actions::decode(&before, acts[i]).map(|m| g.play(m));
        debug_assert!(matches!(played, Some(Ok(_))));
        let after = *g.position();
        let gain = |side: Side| f32::from(after.captured()[side]) - f32::from(before.captured()[side]);
        let (south, north) = (gain(Side::South), gain(Side::North));
        let winner = after.outcome().and_then(|o| o.winner);
        let (rs, rn) = match setup.reward {
            Reward::Seeds => (south, north),
            Reward::Margin => (south - north, north - south),
            Reward::WinLoss => match winner {
                Some(Side::South) => (1.0, -1.0),
                Some(Side::North) => (-1.0, 1.0),
                None => (0.0, 0.0),
            },
        };
        per_player[2 * i] = rs;
        per_player[2 * i + 1] = rn;
        rewards[i] = if mover == Side::South { rs } else { rn };
        let fin = &mut finals[i * ol..(i + 1) * ol];
        if after.is_over() {
            results[i] = match winner {
                Some(Side::South) => 1,
                Some(Side::North) => -1,
                None => 0,
            };
            actions::write_obs(&after, fin, setup.view);
            dones[i] = true;
            finished += 1;
            *g = Game::new(rules);
        } else {
            fin.fill(0.0);
        }
        let pos = g.position();
        actions::write_mask(pos, &mut masks[i * na..(i + 1) * na]);
        actions::write_obs(pos, &mut obs[i * ol..(i + 1) * ol], setup.view);
    }
    finished
}

/// Observations and masks as numpy arrays.
type ObsMask<'py> = (Bound<'py, PyArray2<f32>>, Bound<'py, PyArray2<i8>>);

/// How `VectorGame` rewards a step.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Reward {
    /// Seeds the player gained.
    Seeds,
    /// Seeds the player gained less the seeds the opponent gained.
    Margin,
    /// +1 / -1 / 0 for the mover when the game ends, else 0.
    WinLoss,
}

/// `n` independent games stepped together, for vectorised reinforcement
/// learning (self-play: one policy moves for whoever is to move), with
/// numpy observations and action masks (the layouts of
/// `Game.observation(perspective)` and `Game.action_mask()`).
///
/// `step(actions)` plays one integer action in every game (for whoever is
/// to move there) with the GIL released and returns `(obs, reward, done,
/// mask)`: float32 observations (n, 4*holes+3), float32 rewards (n,) for
/// the player who moved — reward="seeds": seeds gained (captures,
/// last-four award, the share at a repetition end); "margin": seeds gained
/// less the opponent's; "win_loss": +1/-1/0 when the game ends — bool
/// `done` (n,), and int8 masks (n, num_actions) of the legal actions of the
/// next mover. `last_rewards()` gives both players' rewards of the last
/// step. A game that ends is restarted at once: its row of `obs` and
/// `mask` is the new game's start, `final_observations()` its last
/// position and `results()` how it ended. With perspective="mover" every
/// observation is from the player to move. An illegal action raises
/// `IllegalMove` naming the game, and no game moves.
#[pyclass(name = "VectorGame", module = "hoyito._hoyito")]
pub struct PyVectorGame {
    setup: Setup,
    games: Vec<Game>,
    /// Legal actions of each game, `num_actions` per game.
    masks: Vec<i8>,
    /// How each game's last finished game ended: 1 South, -1 North, 0 draw
    /// (also 0 before any game ended).
    results: Vec<i8>,
    /// South's and North's rewards of the last step, 2 per game.
    last_rewards: Vec<f32>,
    /// The final observation of each game that ended in the last step
    /// (zeros for the others).
    finals: Vec<f32>,
    /// Games finished since creation.
    finished: u64,
}

impl PyVectorGame {
    fn obs_and_masks(&self) -> (Vec<f32>, Vec<i8>) {
        let ol = actions::obs_len(&self.setup.rules);
        let mut obs = vec![0f32; self.games.len() * ol];
        for (g, o) in self.games.iter().zip(obs.chunks_mut(ol)) {
            actions::write_obs(g.position(), o, self.setup.view);
        }
        (obs, self.masks.clone())
    }

    fn arrays<'py>(&self, py: Python<'py>, obs: Vec<f32>, masks: Vec<i8>) -> PyResult<ObsMask<'py>> {
        let n = self.games.len();
        let shape_err = |e: numpy::ndarray::ShapeError| HoyitoError::new_err(e.to_string());
        let o = Array2::from_shape_vec((n, actions::obs_len(&self.setup.rules)), obs).map_err(shape_err)?;
        let m = Array2::from_shape_vec((n, actions::count(&self.setup.rules)), masks).map_err(shape_err)?;
        Ok((
            PyArray2::from_owned_array(py, o),
            PyArray2::from_owned_array(py, m),
        ))
    }

    fn restart_all(&mut self) {
        let na = actions::count(&self.setup.rules);
        for (g, m) in self.games.iter_mut().zip(self.masks.chunks_mut(na)) {
            *g = Game::new(self.setup.rules);
            actions::write_mask(g.position(), m);
        }
        self.results.fill(0);
        self.last_rewards.fill(0.0);
        self.finals.fill(0.0);
    }
}

/// The actions argument as a vector of i64.
fn read_actions(actions: &Bound<'_, PyAny>) -> PyResult<Vec<i64>> {
    if let Ok(a) = actions.extract::<PyReadonlyArray1<'_, i64>>() {
        return Ok(a.as_array().to_vec());
    }
    actions.extract::<Vec<i64>>().map_err(|_| {
        PyTypeError::new_err("actions must be a sequence or 1-d array of integers, one per game")
    })
}

#[pymethods]
impl PyVectorGame {
    #[new]
    #[pyo3(signature = (n, reward="seeds", perspective="absolute", **rules))]
    fn new(
        n: i64,
        reward: &str,
        perspective: &str,
        rules: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<PyVectorGame> {
        let r = rules::from_kwargs(rules)?;
        if !(1..=MAX_ENVS).contains(&n) {
            return Err(HoyitoError::new_err(format!(
                "n {n} is not allowed: expected 1 to {MAX_ENVS} games"
            )));
        }
        let reward = match reward {
            "seeds" => Reward::Seeds,
            "margin" => Reward::Margin,
            "win_loss" => Reward::WinLoss,
            other => {
                return Err(HoyitoError::new_err(format!(
                    "unknown reward {:?}: expected \"seeds\", \"margin\" or \"win_loss\"",
                    hoyito_core::error::echo(other)
                )))
            }
        };
        let view = Perspective::named(perspective)?;
        let n = n as usize;
        let mut v = PyVectorGame {
            setup: Setup {
                rules: r,
                reward,
                view,
            },
            games: vec![Game::new(r); n],
            masks: vec![0; n * actions::count(&r)],
            results: vec![0; n],
            last_rewards: vec![0.0; 2 * n],
            finals: vec![0.0; n * actions::obs_len(&r)],
            finished: 0,
        };
        v.restart_all();
        Ok(v)
    }

    /// Number of games.
    #[getter]
    fn num_envs(&self) -> usize {
        self.games.len()
    }

    /// Size of the action space.
    #[getter]
    fn num_actions(&self) -> usize {
        actions::count(&self.setup.rules)
    }

    /// Length of an observation.
    #[getter]
    fn observation_size(&self) -> usize {
        actions::obs_len(&self.setup.rules)
    }

    /// Games finished since creation (or the last `reset`).
    #[getter]
    fn games_finished(&self) -> u64 {
        self.finished
    }

    /// The rules options as a dict.
    #[getter]
    fn rules<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        rules::to_dict(py, &self.setup.rules)
    }

    /// reset() -> (obs, mask)
    ///
    /// Restarts every game.
    fn reset<'py>(&mut self, py: Python<'py>) -> PyResult<ObsMask<'py>> {
        self.restart_all();
        self.finished = 0;
        let (o, m) = self.obs_and_masks();
        self.arrays(py, o, m)
    }

    /// observations() -> numpy.ndarray
    ///
    /// The current observations, float32 (n, 4*holes+3).
    fn observations<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f32>>> {
        let (o, m) = self.obs_and_masks();
        Ok(self.arrays(py, o, m)?.0)
    }

    /// action_masks() -> numpy.ndarray
    ///
    /// The legal actions of every game, int8 (n, num_actions).
    fn action_masks<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<i8>>> {
        let m = Array2::from_shape_vec(
            (self.games.len(), actions::count(&self.setup.rules)),
            self.masks.clone(),
        )
        .map_err(|e| HoyitoError::new_err(e.to_string()))?;
        Ok(PyArray2::from_owned_array(py, m))
    }

    /// results() -> numpy.ndarray
    ///
    /// int8 (n,): how the last finished game of each slot ended, 1 South
    /// won, -1 North won, 0 a draw (0 too if none has finished).
    fn results<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i8>> {
        PyArray1::from_owned_array(py, Array1::from_vec(self.results.clone()))
    }

    /// last_rewards() -> numpy.ndarray
    ///
    /// float32 (n, 2): South's and North's rewards of the last step (zeros
    /// before the first step).
    fn last_rewards<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f32>>> {
        let a = Array2::from_shape_vec((self.games.len(), 2), self.last_rewards.clone())
            .map_err(|e| HoyitoError::new_err(e.to_string()))?;
        Ok(PyArray2::from_owned_array(py, a))
    }

    /// final_observations() -> numpy.ndarray
    ///
    /// float32 (n, 4*holes+3): for each game that ended in the last step,
    /// the observation of its final position (before the restart); zeros
    /// for the games that did not end.
    fn final_observations<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f32>>> {
        let a = Array2::from_shape_vec(
            (self.games.len(), actions::obs_len(&self.setup.rules)),
            self.finals.clone(),
        )
        .map_err(|e| HoyitoError::new_err(e.to_string()))?;
        Ok(PyArray2::from_owned_array(py, a))
    }

    /// The observations' point of view: "absolute" or "mover".
    #[getter]
    fn perspective(&self) -> &'static str {
        match self.setup.view {
            Perspective::Absolute => "absolute",
            Perspective::Mover => "mover",
        }
    }

    /// game(i) -> Game
    ///
    /// A copy of game `i` (to inspect or analyse it).
    fn game(&self, i: i64) -> PyResult<crate::classes::PyGame> {
        usize::try_from(i)
            .ok()
            .and_then(|i| self.games.get(i))
            .map(|g| crate::classes::PyGame { game: g.clone() })
            .ok_or_else(|| {
                HoyitoError::new_err(format!(
                    "game {i} does not exist: expected 0 to {}",
                    self.games.len() - 1
                ))
            })
    }

    /// step(actions) -> (obs, reward, done, mask)
    ///
    /// Plays one action in every game; see the class documentation.
    #[allow(clippy::type_complexity)]
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
    ) -> PyResult<(
        Bound<'py, PyArray2<f32>>,
        Bound<'py, PyArray1<f32>>,
        Bound<'py, PyArray1<bool>>,
        Bound<'py, PyArray2<i8>>,
    )> {
        let acts = read_actions(actions)?;
        let n = self.games.len();
        if acts.len() != n {
            return Err(HoyitoError::new_err(format!(
                "expected {n} actions, one per game, got {}",
                acts.len()
            )));
        }
        let na = actions::count(&self.setup.rules);
        // Every action is checked before any game moves.
        for (i, &a) in acts.iter().enumerate() {
            let ok = usize::try_from(a).is_ok_and(|a| a < na && self.masks[i * na + a] == 1);
            if !ok {
                let pos = self.games[i].position();
                return Err(illegal(
                    py,
                    &a.to_string(),
                    &format!("game {i}: action {a} is not legal (action space 0..{na})"),
                    &pos.legal_tokens(),
                ));
            }
        }
        let ol = actions::obs_len(&self.setup.rules);
        let setup = self.setup;
        let games = &mut self.games;
        let masks = &mut self.masks;
        let results = &mut self.results;
        let per_player = &mut self.last_rewards;
        let finals = &mut self.finals;
        let (obs, rewards, dones, finished) = py.detach(move || {
            let mut obs = vec![0f32; n * ol];
            let mut rewards = vec![0f32; n];
            let mut dones = vec![false; n];
            // Large batches are split over the cores (rayon's pool, sized by
            // RAYON_NUM_THREADS); small ones stay on this thread.
            let finished: u64 = if n >= 2 * STEP_CHUNK {
                games
                    .par_chunks_mut(STEP_CHUNK)
                    .zip(acts.par_chunks(STEP_CHUNK))
                    .zip(masks.par_chunks_mut(STEP_CHUNK * na))
                    .zip(obs.par_chunks_mut(STEP_CHUNK * ol))
                    .zip(rewards.par_chunks_mut(STEP_CHUNK))
                    .zip(dones.par_chunks_mut(STEP_CHUNK))
                    .zip(results.par_chunks_mut(STEP_CHUNK))
                    .zip(per_player.par_chunks_mut(STEP_CHUNK * 2))
                    .zip(finals.par_chunks_mut(STEP_CHUNK * ol))
                    .map(|((((((((g, a), m), o), r), d), res), pp), f)| {
                        step_chunk(setup, (g, a, m, o, r, d, res, pp, f))
                    })
                    .sum()
            } else {
                step_chunk(
                    setup,
                    (
                        games,
                        &acts,
                        masks,
                        &mut obs,
                        &mut rewards,
                        &mut dones,
                        results,
                        per_player,
                        finals,
                    ),
                )
            };
            (obs, rewards, dones, finished)
        });
        self.finished += finished;
        let (o, m) = self.arrays(py, obs, self.masks.clone())?;
        Ok((
            o,
            PyArray1::from_vec(py, rewards),
            PyArray1::from_vec(py, dones),
            m,
        ))
    }

    fn __repr__(&self) -> String {
        format!(
            "<hoyito.VectorGame {} games of {}>",
            self.games.len(),
            self.setup.rules
        )
    }
}
