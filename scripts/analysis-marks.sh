#!/usr/bin/env bash
# How the marks of the post-game review (hoyito-engine's review.rs, the
# server's analysis and `hoyito analyze --annotate`) tell players apart:
# games of level 3 against random play (`hoyito selfplay`, fixed seed), each
# variant, 2×6, every record annotated at each engine time per position;
# prints each player's moves by mark and average loss.
#
#   scripts/analysis-marks.sh [path/to/hoyito] [games per variant] [times in s, e.g. "0.03 0.25"]
#
# Needs an optimised build (cargo build --profile e2e -p hoyito-cli, or the
# test profile's target/debug/hoyito). Figures depend on the machine's load
# (the searches are timed).
set -euo pipefail
bin=${1:-target/e2e/hoyito}
games=${2:-4}
times=${3:-"0.03 0.25"}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
printf '| variant | time (ms) | player | moves | best | inaccuracy | mistake | blunder | average loss |\n|---|---|---|---|---|---|---|---|---|\n'
for v in I II III; do
  "$bin" selfplay --variant "$v" --a level:3 --b random --games "$games" --movetime-ms 50 --seed 26 \
    --records "$dir/$v" --threads 1 >/dev/null 2>&1
  for t in $times; do
    for f in "$dir/$v"/game-*.hoy; do
      "$bin" analyze --record "$f" --annotate --time "$t" 2>/dev/null
    done | awk -v v="$v" -v ms="$(awk -v t="$t" 'BEGIN { printf "%d", t * 1000 }')" '
      /^\[South "/ { south = ($0 ~ /\(A\)/) ? "level 3" : "random" }
      /^\[(South|North)Review "/ {
        who = ($0 ~ /^\[South/) ? south : (south == "level 3" ? "random" : "level 3")
        match($0, /average loss [0-9.]+ over [0-9]+ moves/); split(substr($0, RSTART, RLENGTH), w, " ")
        loss[who] += w[3] * w[5]; moves[who] += w[5]
        n = split($0, parts, /; |, /)
        for (i = 1; i <= n; i++) if (match(parts[i], /^[0-9]+ (best|inaccuracy|mistake|blunder)/)) {
          split(parts[i], kv, " "); sub(/".*/, "", kv[2]); count[who, kv[2]] += kv[1]
        }
      }
      END {
        for (p = 1; p <= 2; p++) {
          who = (p == 1) ? "level 3" : "random"
          printf "| %s | %s | %s | %d | %d | %d | %d | %d | %.2f |\n", v, ms, who, moves[who],
            count[who, "best"], count[who, "inaccuracy"], count[who, "mistake"], count[who, "blunder"],
            moves[who] ? loss[who] / moves[who] : 0
        }
      }'
  done
done
