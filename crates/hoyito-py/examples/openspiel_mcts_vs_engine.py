"""OpenSpiel's MCTS bot against the Hoyito engine on the OpenSpiel game
`python_hoyito`.

    python examples/openspiel_mcts_vs_engine.py --games 4 --variant II --level 3 --simulations 200

OpenSpiel plays South in even games and North in odd ones; the engine's
moves are turned into OpenSpiel actions with `Game.move_to_action`.
"""

from __future__ import annotations

import argparse

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

import hoyito
import hoyito.openspiel  # registers python_hoyito


def play(game: pyspiel.Game, bot: mcts.MCTSBot, engine: hoyito.Engine, mcts_player: int) -> list[float]:
    """One game; returns OpenSpiel's returns [south, north]."""
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.current_player() == mcts_player:
            action = bot.step(state)
        else:
            token = engine.best_move(state.game_state)
            action = state.game_state.move_to_action(token)
        state.apply_action(action)
    return state.returns()


def main(argv: list[str] | None = None) -> dict[str, int]:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=4)
    p.add_argument("--variant", default="II")
    p.add_argument("--holes", type=int, default=6)
    p.add_argument("--level", type=int, default=3, help="engine level 1..10")
    p.add_argument("--simulations", type=int, default=200, help="MCTS simulations per move")
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)
    game = pyspiel.load_game("python_hoyito", {"variant": args.variant, "holes": args.holes})
    rng = np.random.RandomState(args.seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=args.simulations, evaluator=evaluator, random_state=rng)
    engine = hoyito.Engine(level=args.level, seed=args.seed)
    tally = {"mcts": 0, "engine": 0, "draw": 0}
    for i in range(args.games):
        mcts_player = i % 2
        returns = play(game, bot, engine, mcts_player)
        if returns[mcts_player] > 0:
            tally["mcts"] += 1
        elif returns[mcts_player] < 0:
            tally["engine"] += 1
        else:
            tally["draw"] += 1
        side = "South" if mcts_player == 0 else "North"
        print(f"game {i + 1}: MCTS as {side}: returns {returns}")
    print(f"MCTS ({args.simulations} simulations) {tally['mcts']}, engine level {args.level} {tally['engine']}, draws {tally['draw']}")
    return tally


if __name__ == "__main__":
    main()
