#!/usr/bin/env bash
# Regenerates the shipped puzzle set, data/puzzles/<variant>-<holes>.jsonl,
# byte for byte (docs/PUZZLES.md): 1,100 puzzles a variant on the standard
# 2×6 board (positions with up to 16 seeds in play, the server's default
# tables) and 150 beginner puzzles a variant on 2×4 (any position), each
# from seeded self-play games and proved by tables solved in memory. The
# output depends neither on the machine nor on the number of threads.
#
#   bash scripts/generate-puzzles.sh [HOYITO]   (default: cargo run --release)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -gt 0 ]; then
  hoyito=("$1")
else
  cargo build --release -p hoyito-cli
  hoyito=(target/release/hoyito)
fi
mkdir -p data/puzzles
for variant in I II III; do
  "${hoyito[@]}" puzzles generate --variant "$variant" --holes 6 --seed 1 --levels 3-6 --per-game 2 \
    --max-seeds 16 --count 1100 --out "data/puzzles/$variant-6.jsonl"
  "${hoyito[@]}" puzzles generate --variant "$variant" --holes 4 --seed 1 --levels 3-6 --per-game 2 \
    --max-seeds 32 --count 150 --out "data/puzzles/$variant-4.jsonl"
done
