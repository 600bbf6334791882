#!/usr/bin/env python3
"""Spot-check one tablebase layer against the exact search.

Draws random positions of one layer (uniform over the boards, either side
to move), probes each in the layer (`hoyito tablebase probe`) and proves it
again with `hoyito tablebase search` over a directory that holds only the
lower layers, and compares the value and every move's value. The search
shares no code with the retrograde solver but the rules and the indexing
and file code through which it reads the lower layers.

Example (2x6 Hoyito I, 28-seed layer; LOWER holds I-2x6/seeds-004.htb ...
seeds-024.htb, e.g. as symbolic links):

    scripts/tablebase-spot-check.py --variant I --holes 6 --layer 28 \
        --count 1000 --seed 28 --tables ./tablebases --lower LOWER

Exits with 1 if any position disagrees.
"""
import argparse
import random
import re
import subprocess
import sys
import time


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hoyito", default="target/release/hoyito", help="the hoyito binary")
    ap.add_argument("--variant", default="I", choices=["I", "II", "III"])
    ap.add_argument("--holes", type=int, default=6, help="holes per row")
    ap.add_argument("--layer", type=int, required=True, help="seeds in play")
    ap.add_argument("--count", type=int, default=1000, help="positions to check")
    ap.add_argument("--seed", type=int, default=1, help="random seed")
    ap.add_argument("--tables", required=True, help="tablebase directory with the layer")
    ap.add_argument("--lower", required=True, help="tablebase directory with the lower layers only")
    a = ap.parse_args()

    rng = random.Random(a.seed)
    holes = 2 * a.holes
    captured = 4 * holes - a.layer
    if captured < 0 or a.layer % 4:
        sys.exit(f"--layer must be a multiple of 4 and at most {4 * holes}")
    south = 4 * (captured // 8)
    score = f"{south}-{captured - south}"

    def position():
        # Stars and bars: a uniform distribution of the seeds over the holes.
        bars = sorted(rng.sample(range(a.layer + holes - 1), holes - 1))
        counts, prev = [], -1
        for b in bars + [a.layer + holes - 1]:
            counts.append(b - prev - 1)
            prev = b
        row = lambda c: ",".join(map(str, c))
        return f"{row(counts[:a.holes])}/{row(counts[a.holes:])} {rng.choice('sn')} {score}"

    def answer(cmd):
        out = subprocess.run(cmd, capture_output=True, text=True)
        text = out.stdout + out.stderr
        value = re.search(r"value ([+-]?\d+)", text)
        moves = re.search(r"moves: (.*)", text)
        if out.returncode != 0 or not value:
            sys.exit(f"{' '.join(cmd)} failed: {text.strip()}")
        return value.group(1), moves.group(1).strip() if moves else ""

    rules = ["--variant", a.variant, "--holes", str(a.holes)]
    agree, start = 0, time.time()
    for i in range(a.count):
        p = position()
        probed = answer([a.hoyito, "tablebase", "probe", *rules, "--dir", a.tables, p])
        proved = answer([a.hoyito, "tablebase", "search", *rules, "--dir", a.lower, "--hash", "64", "--quiet", p])
        if probed == proved:
            agree += 1
        else:
            print(f"differ: {p}: layer {probed}, search {proved}", flush=True)
        if (i + 1) % 100 == 0:
            print(f"{i + 1}/{a.count} checked, {agree} agree", file=sys.stderr, flush=True)
    print(f"{a.count} positions of {a.layer} seeds (seed {a.seed}): {agree} agree on the value "
          f"and every move's value, {a.count - agree} differ ({time.time() - start:.0f} s)")
    sys.exit(0 if agree == a.count else 1)


if __name__ == "__main__":
    main()
