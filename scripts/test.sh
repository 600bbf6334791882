#!/usr/bin/env bash
# The whole test suite, from a fresh machine: installs what the tests need
# (Debian's chromium, the npm packages of the browser tests), then runs the
# format check, clippy with warnings as errors, the API docs with warnings as
# errors, every Rust test and doctest,
# the PostgreSQL tests against a throwaway server (scripts/postgres.sh),
# the end-to-end browser tests against an optimised build of the binary,
# and the Python package's tests (scripts/test-python.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

started=$SECONDS
step() { printf '\n== %s == (%ds)\n' "$*" $((SECONDS - started)); }

step "system packages (chromium for the browser tests, postgresql)"
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1 && command -v psql >/dev/null || missing+=(postgresql)
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  else
    sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
fi
/usr/bin/chromium --version

step "WebAssembly tools (wasm32 target, wasm-bindgen-cli of Cargo.lock, wasm-opt)"
rustup target add wasm32-unknown-unknown
wasm_bindgen=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/[^0-9.]/, ""); print; exit }' Cargo.lock)
if [ "$(wasm-bindgen --version 2>/dev/null | awk '{ print $2 }')" != "$wasm_bindgen" ]; then
  # Its own lock file first; a registry mirror may lack one of its pinned versions.
  cargo install wasm-bindgen-cli --version "$wasm_bindgen" --locked || cargo install wasm-bindgen-cli --version "$wasm_bindgen"
fi
if ! command -v wasm-opt >/dev/null; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq binaryen >/dev/null
  else
    sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq binaryen >/dev/null
  fi
fi

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

step "PostgreSQL: storage against SQLite, two server nodes, kill -9 rounds"
pg_dir=$(mktemp -d)
trap 'bash scripts/postgres.sh stop "$pg_dir"; rm -rf "$pg_dir"' EXIT
eval "$(bash scripts/postgres.sh start "$pg_dir")"
cargo test --locked -p hoyito-server --test postgres -- --ignored
cargo test --locked -p hoyito-cli --test reliability -- --ignored
bash scripts/postgres.sh stop "$pg_dir"

step "WebAssembly module: a rebuild gives the files in web/wasm/"
wasm_out=$(mktemp -d)
bash scripts/build-wasm.sh "$wasm_out"
for f in hoyito_wasm.js hoyito_wasm_bg.wasm; do
  if ! cmp -s "web/wasm/$f" "$wasm_out/$f"; then
    echo "web/wasm/$f differs from a rebuild of crates/hoyito-wasm: run scripts/build-wasm.sh and commit web/wasm/" >&2
    echo "(tools: $(rustc -V); wasm-bindgen $wasm_bindgen; $(wasm-opt --version))" >&2
    exit 1
  fi
done
rm -rf "$wasm_out"

step "WebAssembly module against the native crates (node --test)"
node --test crates/hoyito-wasm/tests/

step "optimised build for the browser tests (profile e2e: release without LTO)"
cargo build --profile e2e --locked -p hoyito-cli

step "end-to-end browser tests"
HOYITO_BIN="$PWD/target/e2e/hoyito" bash web/tests/run.sh

step "Python package (crates/hoyito-py): build, install, pytest"
HOYITO_BIN="$PWD/target/e2e/hoyito" bash scripts/test-python.sh

step "done"
