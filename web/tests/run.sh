#!/usr/bin/env bash
# End-to-end browser tests of `hoyito serve`. Needs the release binary
# (cargo build --release -p hoyito-cli) or HOYITO_BIN; installs Debian's
# chromium and playwright-core (npm ci) when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x "${CHROMIUM:-/usr/bin/chromium}" ]; then
  apt-get update -qq && apt-get install -y -qq chromium >/dev/null
fi
if [ ! -d node_modules/playwright-core ]; then
  npm ci --no-audit --no-fund --loglevel=error
fi
export HOYITO_BIN="${HOYITO_BIN:-$(cd .. && pwd)/target/release/hoyito}"
exec node --test --test-concurrency=1 tests/
