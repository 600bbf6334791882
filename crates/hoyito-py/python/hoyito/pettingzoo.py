"""Hoyito as a PettingZoo AEC environment.

>>> from hoyito.pettingzoo import env
>>> e = env(variant="II")
>>> e.reset(seed=0)
>>> for agent in e.agent_iter():
...     obs, reward, terminated, truncated, info = e.last()
...     action = None if terminated or truncated else e.action_space(agent).sample(obs["action_mask"])
...     e.step(action)

Agents are ``"south"`` (moves first) and ``"north"``. In Hoyito II and III
a capture gives the mover another turn: the same agent is selected again.

Observation (a dict): ``"observation"``, float32 of ``4 * holes + 3``
numbers -- the board in hole-index order (closed holes 0), the closed holes
(0/1), South's and North's captured seeds, the side to move (0 South, 1
North) -- and ``"action_mask"``, int8 of ``num_actions`` (1 = legal; all 0
for the agent not to move and once the game is over).

Actions are integers numbering the move tokens (see ``docs/PYTHON.md``):
with ``direction="fixed"``, action ``k`` is the mover's hole ``k + 1``.

Rewards (option ``reward``): ``"seeds"`` (default) -- the seeds each agent
gained with the step (captures, the last-four award, its share when a game
ends by repetition); ``"margin"`` -- own gain minus the opponent's;
``"win_loss"`` -- +1 / -1 / 0 for each agent when the game ends.

An illegal action raises :class:`hoyito.IllegalMove` and changes nothing.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils import wrappers

from . import _env
from ._hoyito import Game, action_count, observation_size

__all__ = ["env", "raw_env", "parallel_env", "HoyitoAEC", "HoyitoParallel"]


class HoyitoAEC(AECEnv):
    """The raw PettingZoo AEC environment (see the module documentation)."""

    metadata = {"render_modes": ["human", "ansi"], "name": "hoyito_v0", "is_parallelizable": False}

    def __init__(self, render_mode: str | None = None, reward: str = "seeds", **rules: Any) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"unknown render_mode {render_mode!r}: expected None, 'human' or 'ansi'")
        self.render_mode = render_mode
        self.reward_kind = _env.check_reward(reward)
        self.rules = _env.validated_rules(rules)
        self.possible_agents = ["south", "north"]
        self.agents = self.possible_agents[:]
        n_actions = action_count(**self.rules)
        n_obs = observation_size(**self.rules)
        high = float(max(_env.total_seeds(self.rules), 1))
        space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, high, (n_obs,), np.float32),
                "action_mask": spaces.Box(0, 1, (n_actions,), np.int8),
            }
        )
        self.observation_spaces = {a: space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(n_actions) for a in self.possible_agents}
        self.game = Game(**self.rules)
        self._reset_bookkeeping()

    def _reset_bookkeeping(self) -> None:
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.game.to_move() or "south"

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        # The game has no chance: the seed only seeds the action spaces' sampling.
        if seed is not None:
            for i, a in enumerate(self.possible_agents):
                self.action_spaces[a].seed(seed + i)
        self.game = Game(**self.rules)
        self._reset_bookkeeping()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        obs = self.game.observation()
        if agent == self.agent_selection and not self.game.is_over():
            mask = self.game.action_mask()
        else:
            mask = np.zeros(self.action_spaces[agent].n, np.int8)
        return {"observation": obs, "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to move: an action is required, not None")
        before = self.game.captured
        self.game.play_action(_env.action_index(action))
        self._cumulative_rewards[agent] = 0.0
        south, north = _env.rewards(self.reward_kind, before, self.game)
        self.rewards = {"south": south, "north": north}
        if self.game.is_over():
            self.terminations = {a: True for a in self.agents}
            winner = self.game.winner()
            self.infos = {a: {"winner": winner} for a in self.agents}
        else:
            self.agent_selection = self.game.to_move()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text = _env.board_text(self.game)
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self) -> None:
        pass


def raw_env(render_mode: str | None = None, reward: str = "seeds", **rules: Any) -> HoyitoAEC:
    """The environment without PettingZoo's wrappers."""
    return HoyitoAEC(render_mode=render_mode, reward=reward, **rules)


def env(render_mode: str | None = None, reward: str = "seeds", **rules: Any) -> AECEnv:
    """The environment with PettingZoo's order-enforcing wrapper.

    ``rules`` are the options of :class:`hoyito.Game` (``variant``,
    ``holes``, ``seeds``, ``skip_origin``, ``direction``,
    ``two_hole_opening``, ``repetition``, ``capture_side``).
    """
    e: AECEnv = raw_env(render_mode=render_mode, reward=reward, **rules)
    e = wrappers.OrderEnforcingWrapper(e)
    return e


class HoyitoParallel(ParallelEnv):
    """The PettingZoo parallel form: each step takes a dict of actions and
    plays the action of the agent to move (the other agent's action is
    ignored, and may be left out; its action mask is all 0). In Hoyito II
    and III a capture gives the same agent the next step too. Rewards,
    observations and spaces are those of :class:`HoyitoAEC`; ``infos`` tell
    each agent whether it is to move (``"to_move"``), and the winner at the
    end. An illegal or missing action of the agent to move raises
    :class:`hoyito.IllegalMove` / ``ValueError`` and changes nothing."""

    metadata = {"render_modes": ["human", "ansi"], "name": "hoyito_parallel_v0"}

    def __init__(self, render_mode: str | None = None, reward: str = "seeds", **rules: Any) -> None:
        self._aec = HoyitoAEC(render_mode=render_mode, reward=reward, **rules)
        self.render_mode = render_mode
        self.possible_agents = self._aec.possible_agents[:]
        self.agents = self.possible_agents[:]
        self.observation_spaces = self._aec.observation_spaces
        self.action_spaces = self._aec.action_spaces

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    @property
    def game(self) -> Game:
        """The game being played."""
        return self._aec.game

    def _observations(self) -> dict[str, dict[str, np.ndarray]]:
        return {a: self._aec.observe(a) for a in self.agents}

    def _infos(self, extra: dict[str, Any] | None = None) -> dict[str, dict[str, Any]]:
        mover = None if self.game.is_over() else self.game.to_move()
        return {a: {"to_move": a == mover, **(extra or {})} for a in self.agents}

    def reset(self, seed: int | None = None, options: dict | None = None):
        self._aec.reset(seed=seed, options=options)
        self.agents = self.possible_agents[:]
        return self._observations(), self._infos()

    def step(self, actions: dict[str, Any]):
        if not self.agents:
            raise RuntimeError("the game is over: call reset()")
        mover = self.game.to_move()
        if actions.get(mover) is None:
            raise ValueError(f"{mover} is to move: an action is required for it")
        before = self.game.captured
        self.game.play_action(_env.action_index(actions[mover]))
        self._aec.agent_selection = self.game.to_move() or mover
        south, north = _env.rewards(self._aec.reward_kind, before, self.game)
        rewards = {"south": south, "north": north}
        over = self.game.is_over()
        extra = {"winner": self.game.winner()} if over else None
        obs, infos = self._observations(), self._infos(extra)
        terminations = {a: over for a in self.agents}
        truncations = {a: False for a in self.agents}
        if over:
            self.agents = []
        if self.render_mode == "human":
            self.render()
        return obs, rewards, terminations, truncations, infos

    def render(self) -> str | None:
        return self._aec.render()

    def close(self) -> None:
        pass


def parallel_env(render_mode: str | None = None, reward: str = "seeds", **rules: Any) -> HoyitoParallel:
    """The PettingZoo parallel environment (:class:`HoyitoParallel`)."""
    return HoyitoParallel(render_mode=render_mode, reward=reward, **rules)
