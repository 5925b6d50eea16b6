"""The lint and type checks, run inside the test suite so that `make test` (and CI) enforces them.

Both tools read their configuration from ``pyproject.toml`` (``[tool.ruff]``, ``[tool.mypy]``): ruff's
rules E, F, I, B at a line length of 120 over every folder of Python code, and mypy over the library
with ``check_untyped_defs`` everywhere and ``strict`` for ``memcourse.stores`` and ``memcourse.recall``.
They run from this interpreter's environment (``python -m ruff``, ``python -m mypy``), the versions
the ``dev`` extra pins. mypy keeps its incremental cache in ``.mypy_cache/`` (ignored by git): the first
run on a fresh clone reads the third-party packages once, later runs take about a second.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# Every folder that holds Python code; notebooks are checked by executing them, not linted.
LINTED = ["memcourse", "tests", "exercises", "solutions", "scripts", "benchmarks"]


def _run(*args: str, timeout: float) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=timeout)


def test_ruff_finds_nothing():
    result = _run("ruff", "check", "--no-cache", "--output-format", "concise", *LINTED, timeout=120)
    assert result.returncode == 0, f"ruff check failed:\n{result.stdout}{result.stderr}"


def test_mypy_finds_nothing():
    # `packages = ["memcourse"]` in [tool.mypy] names what is checked.
    result = _run("mypy", "--cache-dir", str(ROOT / ".mypy_cache"), timeout=600)
    assert result.returncode == 0, f"mypy failed:\n{result.stdout}{result.stderr}"
