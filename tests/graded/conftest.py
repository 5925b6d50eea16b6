"""Graded exercise tests: the same tests run against your ``exercises/`` or the ``solutions/``.

Choose the target with ``--target exercises|solutions`` (when pytest is run on ``tests/graded``)
or the environment variable ``MEMCOURSE_TARGET``; learners get ``exercises`` by default.
``memcourse grade`` runs these for you and prints a score table.

Files must be read and written with an explicit encoding (``encoding="utf-8"``): the default
differs between machines, so code that works here breaks on a Windows laptop. Python reports a
missing encoding as an ``EncodingWarning`` when started with ``-X warn_default_encoding`` (or
``PYTHONWARNDEFAULTENCODING=1``), which ``memcourse grade`` and the project's runners do; this
conftest makes such a warning raised by the graded code (``exercises.*`` / ``solutions.*``) an
error. The tests that write files also check it in a child process, so it holds however pytest
was started.

A plain ``pytest`` from the repository root does not collect these files: against the untouched
stubs they are *meant* to fail. ``tests/test_exercise_stubs.py`` runs them in a subprocess
against both targets instead (all pass on solutions; all fail with NotImplementedError on stubs).
"""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
TARGETS = ("exercises", "solutions")

# `exercises` and `solutions` are top-level folders of the course, not installed packages.
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--target",
        choices=TARGETS,
        default=None,
        help="which implementation the graded tests import (default: $MEMCOURSE_TARGET or exercises)",
    )


#: EncodingWarning attributed to the learner's (or the reference) code is an error.
ENCODING_FILTER = r"error::EncodingWarning:(exercises|solutions)\."


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("filterwarnings", ENCODING_FILTER)


def pytest_make_parametrize_id(config: pytest.Config, val: object, argname: str) -> str | None:
    """Test ids as written: pytest would show a Chinese parameter as ``\u5ba2\u670d``."""
    if isinstance(val, str) and not val.isascii():
        return val
    return None


def chosen_target(config: pytest.Config) -> str | None:
    """The target asked for explicitly (option, then environment), or None."""
    target = config.getoption("--target", default=None) or os.environ.get("MEMCOURSE_TARGET") or None
    if target is not None and target not in TARGETS:
        raise pytest.UsageError(f"MEMCOURSE_TARGET must be one of {', '.join(TARGETS)}, got {target!r}")
    return target


def _graded_run_requested(config: pytest.Config) -> bool:
    if chosen_target(config) is not None:
        return True
    for arg in config.invocation_params.args:
        path = Path(str(arg).split("::")[0])
        if not path.is_absolute():
            path = Path(config.invocation_params.dir) / path
        try:
            path.resolve().relative_to(HERE)
        except ValueError:
            continue
        return True
    return False


def pytest_ignore_collect(collection_path: Path, config: pytest.Config):
    if collection_path.name.startswith("test_") and not _graded_run_requested(config):
        return True
    return None


@pytest.fixture(scope="session")
def target(pytestconfig: pytest.Config) -> str:
    return chosen_target(pytestconfig) or "exercises"


@pytest.fixture(scope="session")
def exercise(target: str):
    """``exercise("ex04_memory_ids")`` imports that module from the chosen target."""

    def load(name: str):
        return importlib.import_module(f"{target}.{name}")

    return load


@pytest.fixture
def run_with_encoding_checks(target: str):
    """Run ``code`` in a fresh Python that reports every text file the graded code opens without
    an explicit ``encoding=`` (``EncodingWarning``, as an error). Returns ``(ok, message)``.

    ``code`` may use the name ``ex`` for the exercise module (``module`` argument)."""

    def run(module: str, code: str, *, cwd: Path) -> tuple[bool, str]:
        program = textwrap.dedent(f"""
            import importlib, sys, warnings
            sys.path.insert(0, {str(ROOT)!r})
            warnings.filterwarnings("error", category=EncodingWarning, module=r"(exercises|solutions)\\.")
            ex = importlib.import_module("{target}.{module}")
        """) + textwrap.dedent(code)
        env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
        proc = subprocess.run([sys.executable, "-X", "warn_default_encoding", "-c", program], cwd=cwd, env=env,
                              capture_output=True, text=True, timeout=120)
        errors = [line for line in proc.stderr.strip().splitlines() if "Error" in line or "Warning" in line]
        return proc.returncode == 0, (errors[-1] if errors else proc.stderr.strip()[-300:])

    return run
