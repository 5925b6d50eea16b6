"""What grading found: the grade report's data, apart from how it is produced or shown.

:mod:`memcourse.course.grading` runs the tests and fills these in; :mod:`memcourse.course.progress`
draws them as a terminal or HTML table. Both import this module and neither imports the other
at module level, so the classroom has no import cycle.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["CaseOutcome", "ExerciseScore", "GradeReport", "LoadProblem"]


@dataclass
class CaseOutcome:
    name: str
    passed: bool
    message: str = ""  # the assertion message (what was expected, and why), never a traceback
    not_implemented: bool = False


@dataclass
class LoadProblem:
    """The exercise module could not even be imported: reported once, not per test."""

    kind: str  # "SyntaxError", "ImportError", ...
    message: str
    file: str = ""
    line: int | None = None
    text: str = ""  # the offending source line, when known

    def describe(self) -> str:
        where = f"{Path(self.file).name}, line {self.line}" if self.line else Path(self.file).name
        head = f"{self.kind}: {self.message}" + (f" ({where})" if where else "")
        return head + (f"\n    {self.text.strip()}" if self.text.strip() else "")


@dataclass
class ExerciseScore:
    number: str
    module: str
    title: str
    outcomes: list[CaseOutcome] = field(default_factory=list)
    load_problem: LoadProblem | None = None
    unwritten: list[str] = field(default_factory=list)  # functions still raising NotImplementedError

    @property
    def total(self) -> int:
        return len(self.outcomes)

    @property
    def complete(self) -> bool:
        return self.load_problem is None and self.total > 0 and self.passed == self.total

    @property
    def passed(self) -> int:
        return 0 if self.load_problem is not None else sum(outcome.passed for outcome in self.outcomes)

    @property
    def not_started(self) -> bool:
        return self.load_problem is None and self.total > 0 and all(o.not_implemented for o in self.outcomes)

    @property
    def failures(self) -> list[CaseOutcome]:
        """Failing tests that are not just an untouched stub (those say nothing new)."""
        return [o for o in self.outcomes if not o.passed and not o.not_implemented]

    @property
    def percent(self) -> int:
        return _percent(self.passed, self.total)

    @property
    def status(self) -> str:
        if self.load_problem is not None:
            return "does not load"
        if self.complete:
            return "done"
        if self.not_started:
            return "not started"
        return "in progress"


@dataclass
class GradeReport:
    target: str
    exercises: list[ExerciseScore]
    root: Path = field(default_factory=Path.cwd)

    @property
    def folder(self) -> Path:
        """The folder whose code was graded: ``<course>/exercises`` or ``<course>/solutions``."""
        return self.root / self.target

    @property
    def passed(self) -> int:
        return sum(exercise.passed for exercise in self.exercises)

    @property
    def total(self) -> int:
        return sum(exercise.total for exercise in self.exercises)

    @property
    def percent(self) -> int:
        return _percent(self.passed, self.total)

    @property
    def complete(self) -> int:
        return sum(exercise.complete for exercise in self.exercises)

    def by_number(self) -> dict[str, ExerciseScore]:
        return {exercise.number: exercise for exercise in self.exercises}


def _percent(part: int, whole: int) -> int:
    return int(100 * part / whole) if whole else 0  # floor: 99.9% is not done
