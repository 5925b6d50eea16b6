"""Run another benchmark script with this process patched: the shared tail of the experiment scripts.

An experiment that changes the ranking (``keyword_ceiling.py``, ``fill_below_floor.py``) patches the
library in its own process only and then runs an ordinary command (``memcourse/cli.py eval``,
``benchmarks/locomo.py``) after ``--``, so its figures come from the same code path as the library's.
"""

from __future__ import annotations

import argparse
import runpy
import sys
from typing import Callable


def add_command(parser: argparse.ArgumentParser) -> None:
    """The ``-- SCRIPT [ARGS]`` argument every experiment takes."""
    parser.add_argument("command", nargs=argparse.REMAINDER, help="-- SCRIPT [ARGS]: what to run patched")


def run_patched(parser: argparse.ArgumentParser, command: list[str], patch: Callable[[], None]) -> None:
    """Apply ``patch``, then run ``command`` (what followed ``--``) as ``__main__`` in this process."""
    command = command[1:] if command[:1] == ["--"] else command
    if not command:
        parser.error("give the script to run after --")
    patch()
    sys.argv = command
    runpy.run_path(command[0], run_name="__main__")
