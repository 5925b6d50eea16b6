"""Where the learner's course folder is, and which exercises it holds.

A learner may have two copies of the course (a fresh clone next to an old one, say). Grading
and hints must use the copy the learner is working in, so the current directory (a notebook's
kernel runs in ``notebooks/``) and its parents come first; the folder next to the installed
``memcourse`` package is only the fallback. Whatever was chosen is named in every report.

Exercises are discovered from the files, never listed here: ``tests/graded/test_exNN_<topic>.py``
defines exercise ``NN``, so a new exercise needs no change in this package.
"""

from __future__ import annotations

import re
from pathlib import Path

from memcourse.errors import MemcourseError

_TEST_FILE = re.compile(r"^test_ex(\d{2})_(\w+)\.py$")


class CourseError(MemcourseError, RuntimeError):
    """The course folder or an exercise in it could not be found."""


def is_course_root(folder: Path) -> bool:
    return (folder / "tests" / "graded").is_dir() and (folder / "exercises").is_dir()


def course_root(start: Path | None = None) -> Path:
    """The course folder: ``start`` (default: the current directory) or its nearest parent that
    holds ``tests/graded`` and ``exercises/``; else the folder the installed package lives in."""
    here = (start or Path.cwd()).resolve()
    for candidate in (here, *here.parents, Path(__file__).resolve().parents[2]):
        if is_course_root(candidate):
            return candidate
    raise CourseError(
        f"no course folder (one with tests/graded and exercises/) at or above {here}: "
        "run this from the course folder you cloned"
    )


def available_exercises(root: Path) -> dict[str, str]:
    """``{"00": "ex00_warmup", ...}`` from the graded test files, in number order."""
    found = {}
    for path in sorted((root / "tests" / "graded").glob("test_ex*.py")):
        match = _TEST_FILE.match(path.name)
        if match:
            found[match.group(1)] = f"ex{match.group(1)}_{match.group(2)}"
    return found


def normalise_numbers(numbers: list[str] | None, available: dict[str, str]) -> list[str]:
    """Accept ``3``, ``03``, ``ex03`` or ``ex03_policy_gate``; refuse unknown numbers."""
    if not numbers:
        return list(available)
    chosen = []
    for raw in numbers:
        match = re.fullmatch(r"(?:ex)?(\d{1,2})(?:_\w+)?", str(raw).strip().lower())
        number = f"{int(match.group(1)):02d}" if match else None
        if number not in available:
            known = ", ".join(available) or "none"
            raise CourseError(f"no exercise {raw!r}; available: {known}")
        if number not in chosen:
            chosen.append(number)
    return chosen


def display_path(path: Path) -> str:
    """A path as the learner would type it: ``exercises`` or ``../exercises`` from where they
    are (a notebook's kernel runs in ``notebooks/``), else ``~/…`` under home, else as given.
    Never the author's absolute path in a stored notebook output."""
    resolved = path.resolve()
    here = Path.cwd().resolve()
    for base, prefix in ((here, ""), (here.parent, "../")):
        try:
            return prefix + resolved.relative_to(base).as_posix()
        except ValueError:
            continue
    try:
        return "~/" + resolved.relative_to(Path.home().resolve()).as_posix()
    except (ValueError, RuntimeError):
        return path.as_posix()
