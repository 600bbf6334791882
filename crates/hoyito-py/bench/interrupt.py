"""How soon Ctrl-C stops the package's long calls.

    python crates/hoyito-py/bench/interrupt.py [--repeat 5]

For each long call (analyze, best_move, Engine.search, an MCTS analysis,
a PuctSearch with a NumPy evaluator, Tablebase.build of 2x6 Hoyito II to 40 seeds), a thread sends this process
SIGINT once the call has used 0.3 s of CPU; the figure is the time from the
signal to the KeyboardInterrupt in the caller (the worst of --repeat runs).
"""

from __future__ import annotations

import argparse
import os
import platform
import signal
import tempfile
import threading
import time

import numpy as np

import hoyito


def interrupt_when_busy(sent: list[float]) -> None:
    start = time.process_time()
    while time.process_time() < start + 0.3:
        time.sleep(0.005)
    sent.append(time.perf_counter())
    os.kill(os.getpid(), signal.SIGINT)


def latency(call) -> float:
    sent: list[float] = []
    threading.Thread(target=interrupt_when_busy, args=(sent,), daemon=True).start()
    try:
        call()
    except KeyboardInterrupt:
        return time.perf_counter() - sent[0]
    raise SystemExit("the call finished before it was interrupted")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    g = hoyito.Game()
    calls = {
        "Game.analyze(time=86400)": lambda: g.analyze(time=86400),
        "Game.best_move(time=86400)": lambda: g.best_move(time=86400),
        "Engine().search(time=86400)": lambda: hoyito.Engine().search(g, time=86400),
        "Engine(engine='mcts').analyze(time=86400)": lambda: hoyito.Engine(engine="mcts").analyze(g, time=86400),
        "PuctSearch(simulations=2**24).search": lambda: hoyito.PuctSearch(
            lambda obs, masks: (masks.astype(np.float32), np.zeros(len(obs), np.float32)),
            simulations=2**24,
            batch_size=16,
        ).search(g),
    }
    print(f"# {platform.processor() or platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}")
    print(f"# seconds from SIGINT to KeyboardInterrupt, worst of {args.repeat}")
    for name, call in calls.items():
        print(f"{name:45s} {max(latency(call) for _ in range(args.repeat)):.3f}")
    worst = 0.0
    for _ in range(args.repeat):
        with tempfile.TemporaryDirectory() as d:
            worst = max(worst, latency(lambda: hoyito.Tablebase.build(d, 40, variant="II", holes=6)))
    print(f"{'Tablebase.build(2x6 II, 40 seeds)':45s} {worst:.3f}")


if __name__ == "__main__":
    main()
