"""Speed of the Python package, with the figures docs/PERFORMANCE.md quotes.

    python crates/hoyito-py/bench/bench.py                # everything, about a minute
    python crates/hoyito-py/bench/bench.py --hoyito target/release/hoyito

1. A Python loop of ``legal_moves()`` + ``play()`` over random games of
   Hoyito II on 2x6 (one thread): plies per second.
2. ``random_playouts`` against ``hoyito bench`` on the same games (same
   seed, same number): the ratio of their plies per second. The command
   runs ``cargo run --release -p hoyito-cli -- bench ...`` unless
   ``--hoyito`` names a built binary.
3. ``VectorGame.step``: environment steps per second (one step = one move
   in one game), with a random legal action per game chosen by numpy.
4. OpenSpiel (if installed): random games through ``pyspiel`` states
   (``legal_actions`` + ``apply_action``), plies per second and plies per
   game, of ``python_hoyito`` (Hoyito I, 2x6) and of OpenSpiel's C++
   ``mancala``; and ``mcts.MCTSBot`` (200 simulations, one random rollout
   each) seconds per move over the first moves from the start, on
   ``mancala`` and on ``python_hoyito`` with OpenSpiel's
   ``RandomRolloutEvaluator`` and with ``hoyito.openspiel.RolloutEvaluator``
   (rollouts in Rust), interleaved run by run; then, for the runs with
   ``RandomRolloutEvaluator``, the plies its rollouts play a move (counted
   in a separate, untimed search that draws the same numbers), the time a
   move per rollout ply, and the time of the evaluator's numpy draw
   (``RandomState.choice`` of a list of 6 actions) a call.

Each figure is the best of ``--repeat`` runs (the machine may be shared).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

import hoyito

ROOT = Path(__file__).resolve().parents[3]


def python_loop(seconds: float, variant: str, holes: int, seed: int) -> tuple[int, float]:
    """Random games by legal_moves() + play() for about `seconds`."""
    rng = random.Random(seed)
    choice = rng.choice
    Game = hoyito.Game
    plies = 0
    began = time.perf_counter()
    while time.perf_counter() - began < seconds:
        g = Game(variant, holes)
        legal = g.legal_moves
        play = g.play
        while True:
            moves = legal()
            if not moves:
                break
            play(choice(moves))
            plies += 1
    return plies, time.perf_counter() - began


def hoyito_bench(cmd: list[str], variant: str, games: int, seed: int) -> dict:
    out = subprocess.run(
        [*cmd, "bench", "--variant", variant, "--games", str(games), "--seed", str(seed), "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return json.loads(out.splitlines()[0])


def vector_steps(n: int, steps: int, variant: str, seed: int) -> tuple[int, float, float]:
    """(env steps, seconds in step(), seconds in all) over `steps` batched steps."""
    v = hoyito.VectorGame(n, variant=variant)
    _, mask = v.reset()
    rng = np.random.default_rng(seed)
    in_step = 0.0
    began = time.perf_counter()
    for _ in range(steps):
        # A random legal action per game: the largest of random keys on legal actions.
        actions = (mask * rng.random(mask.shape, dtype=np.float32)).argmax(axis=1)
        t = time.perf_counter()
        _, _, _, mask = v.step(actions)
        in_step += time.perf_counter() - t
    return n * steps, in_step, time.perf_counter() - began


def openspiel_random_games(name: str, seconds: float, seed: int) -> tuple[int, int, float]:
    """(plies, games, seconds) of random games through pyspiel states."""
    import pyspiel

    game = pyspiel.load_game(name)
    rng = random.Random(seed)
    plies = games = 0
    began = time.perf_counter()
    while time.perf_counter() - began < seconds:
        st = game.new_initial_state()
        while not st.is_terminal():
            st.apply_action(rng.choice(st.legal_actions()))
            plies += 1
        games += 1
    return plies, games, time.perf_counter() - began


def openspiel_mcts_move_seconds(name: str, evaluator: str, moves: int, seed: int) -> float:
    """Mean seconds of an MCTSBot move (200 simulations) over `moves` moves."""
    import pyspiel
    from open_spiel.python.algorithms import mcts

    from hoyito.openspiel import RolloutEvaluator

    game = pyspiel.load_game(name)
    if evaluator == "rust":
        ev = RolloutEvaluator(1, seed)
    else:
        ev = mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed))
    bot = mcts.MCTSBot(game, 2, 200, ev, random_state=np.random.RandomState(seed))
    st = game.new_initial_state()
    n = 0
    began = time.perf_counter()
    while not st.is_terminal() and n < moves:
        st.apply_action(bot.step(st))
        n += 1
    return (time.perf_counter() - began) / n


def openspiel_mcts_rollout_plies(name: str, moves: int, seed: int) -> float:
    """Mean plies played by RandomRolloutEvaluator's rollouts a move, in the
    searches of openspiel_mcts_move_seconds(name, "python", moves, seed):
    the same loop, counting, with the same random numbers (untimed)."""
    import pyspiel
    from open_spiel.python.algorithms import mcts

    class Counting(mcts.RandomRolloutEvaluator):
        plies = 0

        def evaluate(self, state):
            # mcts.RandomRolloutEvaluator.evaluate for n_rollouts=1, no
            # chance nodes and no max_length, counting the plies.
            working_state = state.clone()
            while not working_state.is_terminal():
                working_state.apply_action(self._random_state.choice(working_state.legal_actions()))
                self.plies += 1
            return np.array(working_state.returns())

    game = pyspiel.load_game(name)
    ev = Counting(1, np.random.RandomState(seed))
    bot = mcts.MCTSBot(game, 2, 200, ev, random_state=np.random.RandomState(seed))
    st = game.new_initial_state()
    n = 0
    while not st.is_terminal() and n < moves:
        st.apply_action(bot.step(st))
        n += 1
    return ev.plies / n


def numpy_choice_seconds(calls: int = 200_000) -> float:
    """Seconds of RandomState.choice on a list of 6 actions, a call."""
    rng = np.random.RandomState(0)
    legal = [0, 1, 2, 3, 4, 5]
    choice = rng.choice
    began = time.perf_counter()
    for _ in range(calls):
        choice(legal)
    return (time.perf_counter() - began) / calls


def openspiel_figures(args, results: dict[str, float]) -> None:
    try:
        import hoyito.openspiel  # noqa: F401  (registers python_hoyito)
    except ImportError:
        print("4. OpenSpiel: not installed, skipped")
        return
    for name in ("mancala", "python_hoyito"):
        best, per_game = 0.0, 0.0
        for _ in range(args.repeat):
            plies, games, secs = openspiel_random_games(name, args.seconds, args.seed)
            best = max(best, plies / secs)
            per_game = plies / games
        results[f"openspiel_{name}_plies_per_s"] = round(best)
        print(f"4. OpenSpiel random games, {name}: {best:,.0f} plies/s, {per_game:.1f} plies a game")
    runs = {("mancala", "python"): [], ("python_hoyito", "python"): [], ("python_hoyito", "rust"): []}
    for _ in range(args.repeat):
        for key in runs:
            runs[key].append(openspiel_mcts_move_seconds(*key, moves=6, seed=args.seed))
    for (name, ev), secs in runs.items():
        label = {"python": "RandomRolloutEvaluator", "rust": "hoyito RolloutEvaluator"}[ev]
        best = min(secs)
        results[f"mcts_{name}_{ev}_s_per_move"] = round(best, 4)
        print(f"4. MCTSBot(200) on {name} with {label}: {best:.3f} s a move (runs: "
              + ", ".join(f"{x:.3f}" for x in secs) + ")")
    choice = min(numpy_choice_seconds() for _ in range(args.repeat))
    results["numpy_choice_us"] = round(choice * 1e6, 2)
    for name in ("mancala", "python_hoyito"):
        plies = openspiel_mcts_rollout_plies(name, moves=6, seed=args.seed)
        per_ply = results[f"mcts_{name}_python_s_per_move"] / plies
        results[f"mcts_{name}_rollout_plies_per_move"] = round(plies)
        results[f"mcts_{name}_us_per_rollout_ply"] = round(per_ply * 1e6, 2)
        print(f"4. MCTSBot(200) on {name} with RandomRolloutEvaluator: {plies:,.0f} rollout plies a move, "
              f"{per_ply * 1e6:.2f} us a move per rollout ply; RandomState.choice alone {choice * 1e6:.2f} us "
              f"a call, {plies * choice:.3f} s for that many plies")


def puct_sims_per_s(variant: str, sims: int, batch: int, searches: int = 3) -> tuple[float, float]:
    """Simulations a second of PuctSearch and the share of its time in the evaluator."""
    in_eval = 0.0

    def evaluator(obs, masks):
        nonlocal in_eval
        t = time.perf_counter()
        out = masks.astype(np.float32), np.zeros(len(obs), np.float32)
        in_eval += time.perf_counter() - t
        return out

    search = hoyito.PuctSearch(evaluator, simulations=sims, batch_size=batch)
    g = hoyito.Game(variant, 6)
    began = time.perf_counter()
    for _ in range(searches):
        search.search(g)
    secs = time.perf_counter() - began
    return searches * sims / secs, in_eval / secs


def puct_figures(args, results: dict[str, float]) -> None:
    for batch in (1, 16):
        best, share = 0.0, 0.0
        for _ in range(args.repeat):
            rate, s = puct_sims_per_s(args.variant, args.puct_sims, batch)
            if rate > best:
                best, share = rate, s
        results[f"puct_batch{batch}_sims_per_s"] = round(best)
        print(f"5. PuctSearch({args.puct_sims} simulations, batch_size={batch}), numpy evaluator, "
              f"Hoyito {args.variant} 2x6: {best:,.0f} simulations/s ({share:.0%} of it in the evaluator)")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--variant", default="II")
    p.add_argument("--seconds", type=float, default=5.0, help="duration of each Python-loop run")
    p.add_argument("--games", type=int, default=200_000, help="games of random_playouts and hoyito bench")
    p.add_argument("--envs", type=int, default=4096, help="games in the VectorGame")
    p.add_argument("--steps", type=int, default=300, help="batched steps per VectorGame run")
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--hoyito", help="the hoyito binary (default: cargo run --release -p hoyito-cli --)")
    p.add_argument("--json", action="store_true", help="print one JSON object at the end")
    p.add_argument("--puct-sims", type=int, default=4000, help="simulations of each PuctSearch search")
    p.add_argument("--parts", default="12345", help="which figures to measure, e.g. 4 for OpenSpiel only")
    args = p.parse_args(argv)
    cmd = [args.hoyito] if args.hoyito else ["cargo", "run", "--release", "--quiet", "-p", "hoyito-cli", "--"]

    print(f"hoyito {hoyito.__version__}, Python {platform.python_version()}, {platform.machine()}, "
          f"{os.cpu_count()} CPUs, load {os.getloadavg()[0]:.2f}")
    results: dict[str, float] = {}

    if "1" in args.parts:
        python_loop_figures(args, results)
    if "2" in args.parts and random_playouts_figures(args, cmd, results):
        return 1
    if "3" in args.parts:
        vector_figures(args, results)
    if "4" in args.parts:
        openspiel_figures(args, results)
    if "5" in args.parts:
        puct_figures(args, results)
    if args.json:
        print(json.dumps(results))
    return 0


def python_loop_figures(args, results: dict[str, float]) -> None:
    best = 0.0
    for _ in range(args.repeat):
        plies, secs = python_loop(args.seconds, args.variant, 6, args.seed)
        best = max(best, plies / secs)
    results["python_loop_plies_per_s"] = round(best)
    print(f"1. Python loop legal_moves()+play(), Hoyito {args.variant} 2x6: {best:,.0f} plies/s (target >= 200,000)")


def random_playouts_figures(args, cmd: list[str], results: dict[str, float]) -> bool:
    """Measures 2.; True if the two programs played different games."""
    best_rust = best_py = 0.0
    for _ in range(args.repeat):
        b = hoyito_bench(cmd, args.variant, args.games, args.seed)
        r = hoyito.random_playouts(args.games, variant=args.variant, seed=args.seed)
        if (r["plies"], r["south_wins"], r["north_wins"]) != (b["plies"], b["south_wins"], b["north_wins"]):
            print("random_playouts and hoyito bench played different games", file=sys.stderr)
            return True
        best_rust = max(best_rust, b["plies_per_s"])
        best_py = max(best_py, r["plies_per_s"])
    ratio = best_py / best_rust
    results.update(hoyito_bench_plies_per_s=round(best_rust), random_playouts_plies_per_s=round(best_py),
                   random_playouts_ratio=round(ratio, 3))
    print(f"2. random_playouts({args.games}): {best_py:,.0f} plies/s; hoyito bench: {best_rust:,.0f} plies/s; "
          f"ratio {ratio:.2f} (target >= 0.5)")
    return False


def vector_figures(args, results: dict[str, float]) -> None:
    best_all = best_step = 0.0
    for _ in range(args.repeat):
        n, in_step, total = vector_steps(args.envs, args.steps, args.variant, args.seed)
        best_step = max(best_step, n / in_step)
        best_all = max(best_all, n / total)
    results.update(vector_env_steps_per_s=round(best_step), vector_env_steps_per_s_with_policy=round(best_all))
    print(f"3. VectorGame({args.envs}).step: {best_step:,.0f} env steps/s "
          f"({best_all:,.0f} with the numpy random policy) (target >= 1,000,000)")


if __name__ == "__main__":
    sys.exit(main())
