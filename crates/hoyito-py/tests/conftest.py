"""Shared fixtures: the Rust programs the differential tests compare with."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


def _cargo_build(args: list[str]) -> None:
    cargo = shutil.which("cargo")
    if cargo is None:
        pytest.fail("cargo is needed to build the Rust side of the differential tests")
    subprocess.run([cargo, "build", "--quiet", *args], cwd=ROOT, check=True)


@pytest.fixture(scope="session")
def trace_bin() -> Path:
    """The core crate's `random_trace` example (HOYITO_TRACE_BIN, or built now)."""
    given = os.environ.get("HOYITO_TRACE_BIN")
    if given:
        return Path(given)
    _cargo_build(["-p", "hoyito-core", "--example", "random_trace"])
    return ROOT / "target" / "debug" / "examples" / "random_trace"


@pytest.fixture(scope="session")
def hoyito_bin() -> Path:
    """The `hoyito` command (HOYITO_BIN, or the debug build, built now)."""
    given = os.environ.get("HOYITO_BIN")
    if given:
        return Path(given)
    _cargo_build(["-p", "hoyito-cli"])
    return ROOT / "target" / "debug" / "hoyito"
