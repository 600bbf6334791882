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
from ._hoyito import Game, IllegalMove, action_count, observation_size

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

    def new_initial_state(self) -> "HoyitoState":
        return HoyitoState(self)

    def make_py_observer(self, iig_obs_type=None, params=None) -> "HoyitoObserver":
        return HoyitoObserver(self, params)


class HoyitoState(pyspiel.State):
    """A position of a game, with its history (for the repetition rule).

    The player to move and the legal actions are kept after each move, and
    `current_player`, `is_terminal` and `legal_actions` answer Python callers
    (MCTS, rollouts) from them directly, without a round trip through
    OpenSpiel's C++ state."""

    def __init__(self, game: HoyitoGame) -> None:
        super().__init__(game)
        self._returns_kind = game.returns_kind
        self.game_state = Game(**game.rules)
        self._after_move()

    def _after_move(self) -> None:
        g = self.game_state
        self._legal = sorted(g.legal_actions())
        if self._legal:
            self._player = 0 if g.to_move() == "south" else 1
        else:
            self._player = pyspiel.PlayerId.TERMINAL

    def current_player(self) -> int:
        return self._player

    def is_terminal(self) -> bool:
        return not self._legal

    def legal_actions(self, player: int | None = None) -> list[int]:
        if player is not None and player != self._player:
            return []
        return list(self._legal)

    def _legal_actions(self, player: int) -> list[int]:
        return list(self._legal)

    def _apply_action(self, action: int) -> None:
        self.game_state.play_action(action)
        self._after_move()

    def _action_to_string(self, player: int, action: int) -> str:
        try:
            return self.game_state.action_to_move(int(action))
        except IllegalMove:
            return f"action {action}"

    def returns(self) -> list[float]:
        if not self.game_state.is_over():
            return [0.0, 0.0]
        south, north = self.game_state.captured
        if self._returns_kind == "margin":
            return [float(south - north), float(north - south)]
        winner = self.game_state.winner()
        if winner == "south":
            return [1.0, -1.0]
        if winner == "north":
            return [-1.0, 1.0]
        return [0.0, 0.0]

    def __str__(self) -> str:
        return self.game_state.notation()


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
        return state.game_state.rollouts(self.n_rollouts, seed, state._returns_kind)

    def prior(self, state: HoyitoState) -> list[tuple[int, float]]:
        legal = state.legal_actions(state.current_player())
        return [(a, 1.0 / len(legal)) for a in legal]


pyspiel.register_game(_GAME_TYPE, HoyitoGame)
