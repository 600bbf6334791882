#!/usr/bin/env bash
# The Python package's tests: a virtual environment in target/py-venv, the
# packages the tests use (from PyPI), the `hoyito` package built from
# crates/hoyito-py by pip (maturin) with Cargo's py-test profile (the test
# profile's settings: optimised, no LTO; HOYITO_PY_PROFILE, default py-test; `pip install ./crates/hoyito-py`
# alone builds the release profile), then pytest.
#
# The differential tests compare with two Rust programs: the core's
# `random_trace` example (HOYITO_TRACE_BIN, or built here) and the `hoyito`
# command (HOYITO_BIN, or built here); `cargo test` builds both (profile
# test), and scripts/test.sh passes those.
#
# `--build` does only the set-up and the build, `--test` only what follows
# (scripts/test.sh builds the package while the browser tests run).
set -euo pipefail
part=${1:-all}
case "$part" in --build | --test | all) ;; *) echo "usage: $0 [--build | --test]" >&2; exit 2 ;; esac
cd "$(dirname "$0")/.."

started=$SECONDS
step() { printf '\n== python: %s == (%ds)\n' "$*" $((SECONDS - started)); }

PYTHON=${PYTHON:-python3}
VENV=target/py-venv

if [ "$part" != --test ]; then
  step "virtual environment and packages"
  if [ ! -x "$VENV/bin/python" ]; then
    if ! "$PYTHON" -m venv "$VENV"; then
      # Debian's python3 makes virtual environments only with python3-venv.
      rm -rf "$VENV"
      pkg="python$("$PYTHON" -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')-venv"
      if [ "$(id -u)" = 0 ]; then
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$pkg" >/dev/null
      else
        sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$pkg" >/dev/null
      fi
      "$PYTHON" -m venv "$VENV"
    fi
  fi
  "$VENV/bin/python" -m pip install -q --disable-pip-version-check \
    "maturin>=1.9,<2" "numpy>=1.22" pytest "pettingzoo>=1.24" "gymnasium>=1.0" "open_spiel>=1.4"

  profile=${HOYITO_PY_PROFILE:-py-test}
  step "pip install ./crates/hoyito-py (cargo profile $profile)"
  MATURIN_PEP517_ARGS="--profile $profile --locked" "$VENV/bin/python" -m pip install -q \
    --disable-pip-version-check --force-reinstall --no-deps ./crates/hoyito-py

fi
[ "$part" = --build ] && exit 0

step "the Rust programs of the differential tests"
target=${CARGO_TARGET_DIR:-$PWD/target}
if [ -z "${HOYITO_TRACE_BIN:-}" ]; then
  cargo build --locked --quiet --profile test -p hoyito-core --example random_trace
  export HOYITO_TRACE_BIN="$target/debug/examples/random_trace"
fi
if [ -z "${HOYITO_BIN:-}" ]; then
  cargo build --locked --quiet --profile test -p hoyito-cli
  export HOYITO_BIN="$target/debug/hoyito"
fi
ls -l "$HOYITO_TRACE_BIN" "$HOYITO_BIN" >/dev/null

step "pytest"
(cd crates/hoyito-py && "../../$VENV/bin/python" -m pytest -q)

step "done"
