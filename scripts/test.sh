#!/usr/bin/env bash
# The whole test suite, from a fresh machine: installs what the tests need
# (Debian's chromium, the npm packages of the browser tests), then runs the
# format check, clippy with warnings as errors, the API docs with warnings as
# errors, every Rust test and doctest,
# the end-to-end browser tests against an optimised build of the binary,
# and the Python package's tests (scripts/test-python.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

started=$SECONDS
step() { printf '\n== %s == (%ds)\n' "$*" $((SECONDS - started)); }

step "system packages (chromium for the browser tests)"
if [ ! -x /usr/bin/chromium ]; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  fi
fi
/usr/bin/chromium --version

step "npm packages (playwright-core)"
(cd web && npm ci --no-audit --no-fund --loglevel=error)

step "cargo fmt --check"
cargo fmt --all -- --check

step "cargo clippy -D warnings"
cargo clippy --workspace --all-targets --locked -- -D warnings

step "cargo doc -D warnings"
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --locked

step "cargo test (all crates, doctests included)"
cargo test --workspace --locked

step "optimised build for the browser tests (profile e2e: release without LTO)"
cargo build --profile e2e --locked -p hoyito-cli

step "end-to-end browser tests"
HOYITO_BIN="$PWD/target/e2e/hoyito" bash web/tests/run.sh

step "Python package (crates/hoyito-py): build, install, pytest"
HOYITO_BIN="$PWD/target/e2e/hoyito" bash scripts/test-python.sh

step "done"
