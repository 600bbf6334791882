"""Hoyito as a single-agent Gymnasium environment against the engine.

>>> import gymnasium as gym
>>> import hoyito.gymnasium  # registers hoyito/Hoyito-v0
>>> env = gym.make("hoyito/Hoyito-v0", variant="II", opponent_level=3)
>>> obs, info = env.reset(seed=0)
>>> done = False
>>> while not done:
...     action = env.action_space.sample(info["action_mask"])
...     obs, reward, terminated, truncated, info = env.step(action)
...     done = terminated or truncated

The agent plays ``player`` (``"south"``, ``"north"`` or ``"random"``, drawn
at each reset); the engine at ``opponent_level`` (1 random ... 10 full
strength, seeded from the reset seed) plays the other side, including its
extra turns, so every step returns at the agent's next turn or at the end.

Observation: float32 of ``4 * holes + 3`` numbers (board, closed holes,
captured seeds of South and North, side to move; see ``docs/PYTHON.md``).
Actions: integers numbering the move tokens; ``info["action_mask"]`` and
``env.action_masks()`` give the legal ones. Rewards (``reward``):
``"seeds"`` (default) -- the seeds the agent gained since its last step;
``"margin"`` -- that minus the opponent's gain; ``"win_loss"`` -- +1 / -1
/ 0 at the end. An illegal action ends the episode with reward
``illegal_reward`` (``info["illegal"]`` is True), or raises
:class:`hoyito.IllegalMove` with ``illegal="raise"``.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from . import _env
from ._hoyito import Engine, Game, VectorGame, action_count, observation_size

__all__ = ["HoyitoEnv", "HoyitoVectorEnv"]

_SIDES = ("south", "north")


class HoyitoEnv(gymnasium.Env):
    """A game of Hoyito against the engine (see the module documentation)."""

    metadata = {"render_modes": ["human", "ansi"], "render_fps": 1}

    def __init__(
        self,
        opponent_level: int = 3,
        player: str = "south",
        reward: str = "seeds",
        illegal: str = "lose",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
        **rules: Any,
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"unknown render_mode {render_mode!r}: expected None, 'human' or 'ansi'")
        if player not in (*_SIDES, "random"):
            raise ValueError(f"unknown player {player!r}: expected 'south', 'north' or 'random'")
        if illegal not in ("lose", "raise"):
            raise ValueError(f"unknown illegal {illegal!r}: expected 'lose' or 'raise'")
        # Checks the level now (EngineError for a bad one).
        Engine(level=opponent_level)
        self.render_mode = render_mode
        self.opponent_level = opponent_level
        self.player = player
        self.reward_kind = _env.check_reward(reward)
        self.illegal = illegal
        self.illegal_reward = float(illegal_reward)
        self.rules = _env.validated_rules(rules)
        high = float(max(_env.total_seeds(self.rules), 1))
        self.observation_space = spaces.Box(0.0, high, (observation_size(**self.rules),), np.float32)
        self.action_space = spaces.Discrete(action_count(**self.rules))
        self.game = Game(**self.rules)
        self.side = "south"
        self._engine: Engine | None = None

    def _info(self, **extra: Any) -> dict[str, Any]:
        info: dict[str, Any] = {
            "action_mask": self.action_masks(),
            "side": self.side,
            "notation": self.game.notation(),
        }
        if self.game.is_over():
            info["winner"] = self.game.winner()
        info.update(extra)
        return info

    def action_masks(self) -> np.ndarray:
        """The legal actions now (int8, 1 = legal; all 0 once the game is over)."""
        return self.game.action_mask()

    def _opponent_moves(self) -> None:
        assert self._engine is not None
        while not self.game.is_over() and self.game.to_move() != self.side:
            token = self._engine.best_move(self.game)
            if token is None:
                break
            self.game.play(token)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        super().reset(seed=seed)
        self.game = Game(**self.rules)
        if self.player == "random":
            self.side = _SIDES[int(self.np_random.integers(2))]
        else:
            self.side = self.player
        self._engine = Engine(level=self.opponent_level, seed=int(self.np_random.integers(2**63)))
        self._opponent_moves()
        if self.render_mode == "human":
            self.render()
        return self.game.observation(), self._info()

    def step(self, action: Any):
        if self._engine is None:
            raise RuntimeError("call reset() before step()")
        if self.game.is_over():
            raise RuntimeError("the episode is over: call reset()")
        me = _SIDES.index(self.side)
        before = self.game.captured
        mask = self.game.action_mask()
        a = _env.action_index(action)
        if not (0 <= a < len(mask)) or mask[a] == 0:
            if self.illegal == "raise":
                self.game.play_action(a)  # raises IllegalMove with the reason
            return self.game.observation(), self.illegal_reward, True, False, self._info(illegal=True)
        self.game.play_action(a)
        self._opponent_moves()
        r = _env.rewards(self.reward_kind, before, self.game)[me]
        if self.render_mode == "human":
            self.render()
        return self.game.observation(), float(r), self.game.is_over(), False, self._info()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text = _env.board_text(self.game)
        if self.render_mode == "ansi":
            return text
        print(text)
        return None


gymnasium.register(id="hoyito/Hoyito-v0", entry_point="hoyito.gymnasium:HoyitoEnv")


class HoyitoVectorEnv(gymnasium.vector.VectorEnv):
    """``num_envs`` games stepped together in Rust (:class:`hoyito.VectorGame`)
    for self-play: each step plays one action in every game for whoever is
    to move there, so one policy plays both sides.

    Observations: float32 ``(num_envs, 4 * holes + 3)``, from the player to
    move with ``perspective="mover"`` (default) or South's with
    ``"absolute"``. Rewards: float32 for the player who moved (``reward``
    ``"seeds"``, ``"margin"`` or ``"win_loss"``, as ``VectorGame``). A game
    that ends is restarted in the same step (``autoreset_mode`` SAME_STEP):
    ``infos["final_obs"]`` holds its last observation where
    ``infos["_final_obs"]`` is True. ``infos`` also has ``action_mask``
    (int8, the legal actions of the next mover), ``mover`` (0 South, 1
    North: who moved), ``rewards`` (float32 ``(num_envs, 2)``: South's and
    North's) and ``results`` (how each slot's last finished game ended: 1
    South, -1 North, 0 a draw). No game is truncated.
    """

    metadata = {"autoreset_mode": gymnasium.vector.AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(self, num_envs: int = 16, reward: str = "seeds", perspective: str = "mover", **rules: Any) -> None:
        self.rules = _env.validated_rules(rules)
        self._vector = VectorGame(num_envs, reward=reward, perspective=perspective, **self.rules)
        self.num_envs = num_envs
        total = float(_env.total_seeds(self.rules))
        self.single_observation_space = spaces.Box(
            0.0, total, shape=(observation_size(**self.rules),), dtype=np.float32
        )
        self.single_action_space = spaces.Discrete(action_count(**self.rules))
        self.observation_space = gymnasium.vector.utils.batch_space(self.single_observation_space, num_envs)
        self.action_space = gymnasium.vector.utils.batch_space(self.single_action_space, num_envs)
        self._mask = None
        self._obs = None

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        obs, mask = self._vector.reset()
        self._obs, self._mask = obs, mask
        return obs, {"action_mask": mask}

    def step(self, actions):
        if self._mask is None:
            raise RuntimeError("call reset() before step()")
        acts = np.asarray(actions)
        if acts.dtype.kind not in "iu":
            raise TypeError(f"actions must be integers, not {acts.dtype}")
        # The last number of an observation is the side to move (1 North).
        mover = self._obs[:, -1].astype(np.int8)
        obs, reward, done, mask = self._vector.step(acts.astype(np.int64, copy=False))
        self._obs, self._mask = obs, mask
        infos = {
            "action_mask": mask,
            "mover": mover,
            "rewards": self._vector.last_rewards(),
            "results": self._vector.results(),
            "final_obs": self._vector.final_observations(),
            "_final_obs": done.copy(),
        }
        return obs, reward, done, np.zeros(self.num_envs, bool), infos
