#!/usr/bin/env bash
# The whole test suite, from a fresh machine: installs what the tests need
# (Debian's chromium and postgresql, in the background while Rust compiles;
# the npm packages of the browser tests), then runs the format check, the
# check that web/wasm/ was built from the current sources, the check that
# every path docs/ARCHITECTURE.md names exists, clippy with warnings as
# errors, the API docs with warnings as errors, every Rust test
# (cargo nextest when installed, else cargo test) and doctest, the
# PostgreSQL tests against throwaway servers (scripts/postgres.sh), the full
# disk test on a small tmpfs (as root), the WebAssembly module against the native crates, the end-to-end browser tests
# and the Python package's tests (scripts/test-python.sh). The browser and
# Python tests drive the `hoyito` binary that the Rust tests build (profile
# test: optimised, see Cargo.toml). Ends with a table of each stage's time.
set -euo pipefail
cd "$(dirname "$0")/.."
target=${CARGO_TARGET_DIR:-$PWD/target}

started=$SECONDS
stage="" stage_started=$SECONDS
stages=()
end_stage() {
  if [ -n "$stage" ]; then stages+=("$((SECONDS - stage_started))|$stage$1"); fi
  stage=""
}
step() {
  end_stage ""
  stage=$*
  stage_started=$SECONDS
  printf '\n== %s == (%ds)\n' "$*" $((SECONDS - started))
}
cleanup=()
on_exit() {
  local rc=$1 c s
  for c in "${cleanup[@]}"; do eval "$c" || true; done
  if [ "$rc" = 0 ]; then end_stage ""; else end_stage " (FAILED)"; fi
  printf '\n== stage times ==\n'
  for s in "${stages[@]}"; do printf '%6ds  %s\n' "${s%%|*}" "${s#*|}"; done
  printf '%6ds  total%s\n' $((SECONDS - started)) "$(if [ "$rc" != 0 ]; then echo ", exit status $rc"; fi)"
}
trap 'on_exit $?' EXIT

sudo_() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

step "system packages (chromium, postgresql): started in the background"
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1 && command -v psql >/dev/null || missing+=(postgresql)
apt_log=$(mktemp)
cleanup+=('rm -f "$apt_log"')
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing ${missing[*]} (log: $apt_log)"
  (sudo_ apt-get update -qq && sudo_ env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}") >"$apt_log" 2>&1 &
  apt_pid=$!
else
  apt_pid=""
fi
wait_for_packages() {
  if [ -n "$apt_pid" ]; then
    wait "$apt_pid" || { cat "$apt_log" >&2; echo "installing ${missing[*]} failed" >&2; exit 1; }
    apt_pid=""
  fi
}

step "cargo fmt --check"
cargo fmt --all -- --check

step "WebAssembly module: web/wasm/ built from the current sources (web/wasm/SOURCES)"
bash scripts/wasm-sources.sh --check

step "third-party notices: web/THIRD-PARTY.md lists what Cargo.lock ships"
python3 scripts/third-party.py --check

step "docs: every path docs/ARCHITECTURE.md names exists"
python3 scripts/doc-paths.py docs/ARCHITECTURE.md

step "npm packages (playwright-core)"
(cd web && npm ci --no-audit --no-fund --loglevel=error)

step "cargo clippy -D warnings"
cargo clippy --workspace --all-targets --locked -- -D warnings

step "cargo doc -D warnings"
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --locked

if cargo nextest --version >/dev/null 2>&1; then
  step "build the Rust tests (cargo nextest run --no-run)"
  cargo nextest run --workspace --locked --no-run
  step "run the Rust tests (cargo nextest run)"
  cargo nextest run --workspace --locked --no-fail-fast
  step "doctests (cargo test --doc)"
  cargo test --workspace --locked --doc
  # The ignored tests of the modules named, CRATE::MODULE: module MODULE of
  # the one test binary (`tests/it/`) of package hoyito-CRATE.
  ignored() {
    local filter="" t
    for t in "$@"; do
      filter="${filter:+$filter | }(package(hoyito-${t%%::*}) & binary(it) & test(/^${t#*::}::/))"
    done
    cargo nextest run --workspace --locked --no-fail-fast --run-ignored only -E "$filter"
  }
else
  step "cargo test (all crates, doctests included)"
  cargo test --workspace --locked
  ignored() {
    local t crate modules
    for crate in $(printf '%s\n' "$@" | sed 's/::.*//' | sort -u); do
      modules=()
      for t in "$@"; do [ "${t%%::*}" = "$crate" ] && modules+=("${t#*::}::"); done
      cargo test --locked -p "hoyito-$crate" --test it -- --ignored "${modules[@]}"
    done
  }
fi

step "PostgreSQL: storage against SQLite, two server nodes, kill -9 rounds, a frozen server, TLS"
wait_for_packages
pg_dir=$(mktemp -d)
cleanup+=('bash scripts/postgres.sh stop "$pg_dir"; rm -rf "$pg_dir"')
eval "$(bash scripts/postgres.sh start "$pg_dir")"
# postgres_faults and postgres_tls start PostgreSQL servers of their own.
ignored server::postgres server::expiry cli::reliability cli::postgres_faults cli::postgres_tls
bash scripts/postgres.sh stop "$pg_dir"

step "a full disk under SQLite (a small tmpfs: as root only)"
if [ "$(id -u)" = 0 ]; then
  ignored cli::disk_full
else
  echo "skipped: mounting a tmpfs needs root (CI runs as root); the server's storage_faults tests cover the same answers"
fi

step "WebAssembly module against the native crates (node --test)"
HOYITO_BIN="$target/debug/hoyito" node --test crates/hoyito-wasm/tests/

step "end-to-end browser tests (the hoyito that the Rust tests built; the Python package builds meanwhile)"
/usr/bin/chromium --version
# The browser tests wait on pages much of the time: the Python package's
# virtual environment and build (cargo, profile py-test) use the cores then.
py_log=$(mktemp)
cleanup+=('rm -f "$py_log"')
bash scripts/test-python.sh --build >"$py_log" 2>&1 &
py_pid=$!
cleanup+=('kill "$py_pid" 2>/dev/null')
HOYITO_BIN="$target/debug/hoyito" bash web/tests/run.sh

step "Python package (crates/hoyito-py): pytest (built during the browser tests)"
py_ok=0
wait "$py_pid" || py_ok=$?
cat "$py_log"
if [ "$py_ok" != 0 ]; then echo "building the Python package failed" >&2; exit 1; fi
HOYITO_BIN="$target/debug/hoyito" HOYITO_TRACE_BIN="$target/debug/examples/random_trace" \
  bash scripts/test-python.sh --test

end_stage ""
