#!/usr/bin/env bash
# End-to-end browser tests of `hoyito serve`, at a desktop's and a phone's
# screen size (HOYITO_E2E_VIEWPORT). Needs the release binary
# (cargo build --release -p hoyito-cli) or HOYITO_BIN (scripts/test.sh
# passes the optimised target/debug/hoyito that `cargo test` builds);
# installs Debian's chromium and playwright-core (npm ci) when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x "${CHROMIUM:-/usr/bin/chromium}" ]; then
  apt-get update -qq && apt-get install -y -qq chromium >/dev/null
fi
if [ ! -d node_modules/playwright-core ]; then
  npm ci --no-audit --no-fund --loglevel=error
fi
export HOYITO_BIN="${HOYITO_BIN:-$(cd .. && pwd)/target/release/hoyito}"
# Every test at a phone's screen size (phone first: every flow is tested
# there, two test files at a time); at a desktop's, the tests of what the
# page looks like and how it is laid out (accessibility, widths, the
# one-screen game, the pages, the game page, the analysis board,
# preferences, the ratings pages and the puzzle page: the flows in those
# files, marked `once`, run at the phone's size only, as the flows behind
# them are the same code); the screen, layout, puzzle and ratings tests
# also at a small phone's and turned. The runs go at once (each server,
# browser and test process waits on the page much of the time, so the
# runs share the cores). Each run's report is printed whole when all have
# ended.
logs=$(mktemp -d)
pids=()
# An interrupted run stops the test runs (and, with them, their servers and browsers).
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$logs"' EXIT
desktop=()
for name in a11y layout screen pages player board prefs ratings puzzle; do
  desktop+=("tests/$name.test.mjs")
done
sizes=(1366x768 390x844)
HOYITO_E2E_VIEWPORT=1366x768 node --test --test-concurrency=1 "${desktop[@]}" >"$logs/1366x768" 2>&1 &
pids+=($!)
HOYITO_E2E_VIEWPORT=390x844 node --test --test-concurrency=2 tests/ >"$logs/390x844" 2>&1 &
pids+=($!)
# The whole game on one screen at a small phone's size and turned: the
# screen and layout tests, the puzzle page and the ratings pages (player,
# leaderboard: tables and a chart that must fit) only (the rest is the same
# page as at 390x844).
small=(360x640 844x390)
(
  for size in "${small[@]}"; do
    HOYITO_E2E_VIEWPORT=$size node --test --test-concurrency=1 tests/screen.test.mjs tests/layout.test.mjs tests/puzzle.test.mjs tests/ratings.test.mjs || exit 1
  done
) >"$logs/small" 2>&1 &
pids+=($!)
sizes+=("${small[*]} (screen, layout, puzzle, ratings)")
failed=()
for i in "${!sizes[@]}"; do
  wait "${pids[$i]}" || failed+=("${sizes[$i]}")
done
for i in "${!sizes[@]}"; do
  echo "# screen ${sizes[$i]}"
  if [ "$i" -lt 2 ]; then cat "$logs/${sizes[$i]}"; else cat "$logs/small"; fi
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "browser tests failed at ${failed[*]}" >&2
  exit 1
fi
