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
# Every test at a desktop's screen size, then at a phone's.
for size in 1366x768 390x844; do
  echo "# screen $size"
  HOYITO_E2E_VIEWPORT=$size node --test --test-concurrency=1 tests/
done
