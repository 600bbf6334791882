#!/usr/bin/env bash
# The Python package's tests: a virtual environment in target/py-venv, the
# packages the tests use (from PyPI), the `hoyito` package built from
# crates/hoyito-py by pip (maturin, release profile), then pytest.
#
# The differential tests compare with two Rust programs: the core's
# `random_trace` example (built here) and the `hoyito` command (HOYITO_BIN,
# or an e2e-profile build made here).
set -euo pipefail
cd "$(dirname "$0")/.."

started=$SECONDS
step() { printf '\n== python: %s == (%ds)\n' "$*" $((SECONDS - started)); }

PYTHON=${PYTHON:-python3}
VENV=target/py-venv

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
  "maturin>=1.7,<2" "numpy>=1.22" pytest "pettingzoo>=1.24" "gymnasium>=1.0" "open_spiel>=1.4"

step "pip install ./crates/hoyito-py"
"$VENV/bin/python" -m pip install -q --disable-pip-version-check --force-reinstall --no-deps ./crates/hoyito-py

step "the Rust programs of the differential tests"
cargo build --locked --quiet -p hoyito-core --example random_trace
export HOYITO_TRACE_BIN="$PWD/target/debug/examples/random_trace"
if [ -z "${HOYITO_BIN:-}" ]; then
  cargo build --locked --quiet --profile e2e -p hoyito-cli
  export HOYITO_BIN="$PWD/target/e2e/hoyito"
fi

step "pytest"
(cd crates/hoyito-py && "../../$VENV/bin/python" -m pytest -q)

step "done"
