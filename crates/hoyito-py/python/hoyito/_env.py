"""What the three environment modules share: spaces, rewards, a text board."""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from ._hoyito import Game, rules_dict

#: Reward schemes of the environments.
REWARDS = ("seeds", "margin", "win_loss")


def check_reward(reward: str) -> str:
    """Returns `reward` if it is one of :data:`REWARDS`, else raises ValueError."""
    if reward not in REWARDS:
        raise ValueError(f"unknown reward {reward!r}: expected one of {', '.join(REWARDS)}")
    return reward


def action_index(action: Any) -> int:
    """`action` as an int: a Python or NumPy integer, or a 0-d integer
    array. Anything else (a float such as 2.7, a bool, a string) raises
    TypeError rather than being rounded to some move."""
    if not isinstance(action, (bool, np.bool_)):
        try:
            return operator.index(action)
        except TypeError:
            pass
    raise TypeError(f"an action is an integer, not {type(action).__name__} {action!r}"[:200])


def total_seeds(rules: dict[str, Any]) -> int:
    """Seeds on the board at the start of a game of `rules`."""
    return 2 * rules["holes"] * rules["seeds"]


def rewards(reward: str, before: tuple[int, int], game: Game) -> tuple[float, float]:
    """(south, north) rewards of one step from the captures before it and the
    game after it: seeds each gained, the margin each gained (own gain minus
    the opponent's), or +1/-1/0 when the game ends (win_loss)."""
    after = game.captured
    gain = (after[0] - before[0], after[1] - before[1])
    if reward == "seeds":
        return float(gain[0]), float(gain[1])
    if reward == "margin":
        return float(gain[0] - gain[1]), float(gain[1] - gain[0])
    winner = game.winner()
    if winner == "south":
        return 1.0, -1.0
    if winner == "north":
        return -1.0, 1.0
    return 0.0, 0.0


def board_text(game: Game) -> str:
    """The board as two rows, North's (right to left) above South's, with
    the captured seeds and who is to move."""
    state = game.state()
    n = state["holes_per_row"]
    board = state["board"]
    closed = set(state["closed"])

    def cell(i: int) -> str:
        return "  x" if i in closed else f"{board[i]:3d}"

    north = "".join(cell(i) for i in range(2 * n - 1, n - 1, -1))
    south = "".join(cell(i) for i in range(n))
    s, nn = state["captured"]
    if state["over"]:
        status = f"game over: {state['winner']}"
    else:
        status = f"{state['to_move']} to move"
    return f"North {nn:3d} |{north} |\nSouth {s:3d} |{south} |\n{status}"


def validated_rules(rules: dict[str, Any]) -> dict[str, Any]:
    """All eight rules options, validated (RulesError for a bad value)."""
    return rules_dict(**rules)
