"""Hoyito as an OpenSpiel game: ``import hoyito.openspiel`` registers the
Python game ``python_hoyito``.

>>> import pyspiel
>>> import hoyito.openspiel
>>> game = pyspiel.load_game("python_hoyito", {"variant": "II"})
>>> state = game.new_initial_state()
>>> while not state.is_terminal():
...     state.apply_action(state.legal_actions()[0])
>>> state.returns()

Parameters: the rules options of :class:`hoyito.Game` (``variant``,
``holes``, ``seeds``, ``skip_origin``, ``direction``,
``two_hole_opening``, ``repetition``, ``capture_side``) and ``returns``:
``"win_loss"`` (default; +1 / -1 / 0) or ``"margin"`` (the final captured
margin in seeds). Player 0 is South, player 1 North; after a capture in
Hoyito II and III the same player moves again. Actions number the move
tokens as in ``docs/PYTHON.md``; the observation tensor is that of
``Game.observation()``.

Every rule is played by the Rust core through :class:`hoyito.Game`.

:class:`RolloutEvaluator` is OpenSpiel's random-rollout evaluator for
``mcts.MCTSBot`` with the rollouts played in Rust (``Game.rollouts``):

>>> from open_spiel.python.algorithms import mcts
>>> from hoyito.openspiel import RolloutEvaluator
>>> bot = mcts.MCTSBot(game, 2, 200, RolloutEvaluator(n_rollouts=1, seed=0))
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from . import _env
from ._hoyito import Game, IllegalMove, SpielState, action_count, observation_size

__all__ = ["HoyitoGame", "HoyitoState", "RolloutEvaluator", "GAME_NAME", "DEFAULT_PARAMS"]

#: The name to give ``pyspiel.load_game``.
GAME_NAME = "python_hoyito"

#: Every parameter with its default.
DEFAULT_PARAMS: dict[str, Any] = {
    "variant": "I",
    "holes": 6,
    "seeds": 4,
    "skip_origin": False,
    "direction": "fixed",
    "two_hole_opening": False,
    "repetition": "even",
    "capture_side": "any",
    "returns": "win_loss",
}

#: A bound on the length of a game reported to OpenSpiel. The repetition
#: rule ends every game, but no small exact bound is known; random games on
#: 2x6 last about 100 plies.
MAX_GAME_LENGTH = 100_000

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Python Hoyito",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULT_PARAMS,
)

_TERMINAL = int(pyspiel.PlayerId.TERMINAL)


class HoyitoGame(pyspiel.Game):
    """The OpenSpiel game (see the module documentation)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        merged = dict(DEFAULT_PARAMS)
        merged.update(params or {})
        returns = merged.pop("returns")
        if returns not in ("win_loss", "margin"):
            raise ValueError(f"unknown returns {returns!r}: expected 'win_loss' or 'margin'")
        self.rules = _env.validated_rules(merged)
        self.returns_kind = returns
        total = float(_env.total_seeds(self.rules))
        bound = 1.0 if returns == "win_loss" else total
        info = pyspiel.GameInfo(
            num_distinct_actions=action_count(**self.rules),
            max_chance_outcomes=0,
            num_players=2,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=0.0,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(_GAME_TYPE, info, params or dict())
        # The start, copied by each new state (OpenSpiel's C++ Clone makes
        # a new initial state before it copies the state's attributes).
        self._start = SpielState(Game(**self.rules), returns, _TERMINAL)

    def new_initial_state(self) -> "HoyitoState":
        return HoyitoState(self)

    def make_py_observer(self, iig_obs_type=None, params=None) -> "HoyitoObserver":
        return HoyitoObserver(self, params)


class HoyitoState(pyspiel.State):
    """A position of a game, with its history (for the repetition rule).

    `game_state` is the :class:`hoyito.Game` being played. Everything else
    the state holds is in one Rust object (`hoyito._hoyito.SpielState`,
    the state's only attribute), and the calls OpenSpiel's Python
    algorithms make on every ply (`current_player`, `is_terminal`,
    `is_chance_node`, `legal_actions`, `returns`, `observation_tensor`)
    are answered here by one call into Rust, without a round trip through
    OpenSpiel's C++ state. `apply_action` and `clone` stay OpenSpiel's
    (C++), so that the history it keeps (`history()`, `serialize()`) stays
    right; they call back `current_player`, `_apply_action` (one call into
    Rust) and a copy of that one attribute."""

    def __init__(self, game: HoyitoGame) -> None:
        pyspiel.State.__init__(self, game)
        self._s = game._start.copy()

    @property
    def game_state(self) -> Game:
        """The :class:`hoyito.Game` being played."""
        return self._s.game

    @property
    def _returns_kind(self) -> str:
        return self._s.returns_kind

    def current_player(self) -> int:
        return self._s.current_player()

    def is_terminal(self) -> bool:
        return self._s.is_terminal()

    def is_chance_node(self) -> bool:
        # No chance nodes (the game is deterministic).
        return False

    def is_simultaneous_node(self) -> bool:
        return False

    def is_player_node(self) -> bool:
        return not self._s.is_terminal()

    def legal_actions(self, player: int | None = None) -> list[int]:
        if player is not None and player != self._s.current_player():
            return []
        return self._s.legal_actions()

    def _legal_actions(self, player: int) -> list[int]:
        return self._s.legal_actions()

    def _apply_action(self, action: int) -> None:
        self._s.apply(action)

    def _action_to_string(self, player: int, action: int) -> str:
        try:
            return self.game_state.action_to_move(int(action))
        except IllegalMove:
            return f"action {action}"

    def returns(self) -> list[float]:
        return self._s.returns()

    def observation_tensor(self, player: int | None = None) -> list[float]:
        # OpenSpiel's own (C++) checks the player: a player outside 0..1
        # goes there for its error.
        if player is None:
            player = self._s.current_player()
        if player.__class__ is int and 0 <= player < 2:
            return self._s.observation()
        return pyspiel.State.observation_tensor(self, player)

    def __str__(self) -> str:
        return self._s.game.notation()


class HoyitoObserver:
    """OpenSpiel observer: the tensor of ``Game.observation()``; strings are
    the position notation (observation) or the moves so far (information
    state)."""

    def __init__(self, game: HoyitoGame, params: dict | None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        self.tensor = np.zeros(observation_size(**game.rules), np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: HoyitoState, player: int) -> None:
        self.tensor[:] = state.game_state.observation()

    def string_from(self, state: HoyitoState, player: int) -> str:
        return " ".join(state.game_state.moves()) + " | " + state.game_state.notation()


class RolloutEvaluator:
    """An evaluator for OpenSpiel's ``mcts.MCTSBot`` (the interface of
    ``mcts.Evaluator``): the value of a state is the mean returns of
    ``n_rollouts`` uniformly random games played on from it in Rust, under
    the game's ``returns``; the prior is uniform over the legal actions, as
    with ``mcts.RandomRolloutEvaluator``. For ``python_hoyito`` states only.
    """

    def __init__(self, n_rollouts: int = 1, seed: int | None = None) -> None:
        if not isinstance(n_rollouts, int) or isinstance(n_rollouts, bool) or n_rollouts < 1:
            raise ValueError(f"n_rollouts must be an int of at least 1, not {n_rollouts!r}")
        self.n_rollouts = n_rollouts
        self._rng = np.random.default_rng(seed)

    def evaluate(self, state: HoyitoState) -> np.ndarray:
        if not isinstance(state, HoyitoState):
            raise TypeError(f"RolloutEvaluator evaluates python_hoyito states, not {type(state).__name__}")
        seed = int(self._rng.integers(2**63))
        return state._s.game.rollouts(self.n_rollouts, seed, state._s.returns_kind)

    def prior(self, state: HoyitoState) -> list[tuple[int, float]]:
        legal = state.legal_actions(state.current_player())
        return [(a, 1.0 / len(legal)) for a in legal]


pyspiel.register_game(_GAME_TYPE, HoyitoGame)
