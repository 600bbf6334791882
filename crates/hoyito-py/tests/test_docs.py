"""Every Python example of docs/PYTHON.md runs as it is written, each in a
fresh namespace (the environments' examples need their packages, which the
test environment has)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
TEXT = (ROOT / "docs" / "PYTHON.md").read_text(encoding="utf-8")


def examples() -> list[tuple[str, str]]:
    """(section heading, code) of each ```python block."""
    out = []
    heading = ""
    block: list[str] | None = None
    for line in TEXT.splitlines():
        if block is None and line.startswith("#"):
            heading = line.lstrip("#").strip()
        elif block is None and line.strip() == "```python":
            block = []
        elif block is not None and line.strip() == "```":
            out.append((heading, "\n".join(block) + "\n"))
            block = None
        elif block is not None:
            block.append(line)
    return out


EXAMPLES = examples()


def test_the_docs_have_examples():
    assert len(EXAMPLES) >= 6, [h for h, _ in EXAMPLES]


@pytest.mark.parametrize(
    "code", [c for _, c in EXAMPLES], ids=[re.sub(r"\W+", "-", h).strip("-").lower() for h, _ in EXAMPLES]
)
def test_a_python_md_example_runs(code):
    exec(compile(code, "docs/PYTHON.md", "exec"), {"__name__": "__docs__"})
