"""``memcourse grade``: run the graded exercise tests and show a score table.

Each exercise ``exercises/exNN_<topic>.py`` has one graded test file,
``tests/graded/test_exNN_<topic>.py``. Grading runs those tests with pytest in a child process
(so a broken exercise cannot break the grader, and a notebook kernel never imports half-edited
code), reads pytest's JUnit XML report, and prints per exercise how many tests pass. A failing
test is shown as its assertion message, one or two lines, never a traceback; an untouched stub
is shown once, as the hint its ``NotImplementedError`` carries.

From a notebook::

    from memcourse.course.grading import show_progress
    show_progress()          # every exercise
    show_progress(["03"])    # just one

From a shell: ``memcourse grade``, ``memcourse grade 03 04``, ``memcourse grade --target solutions``.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

TARGETS = ("exercises", "solutions")
#: Shown next to each exercise number; modules not listed here fall back to their file name.
TITLES = {
    "ex00_warmup": "Warm-up: memories are typed records",
    "ex01_three_layers": "Checkpoint vs memory: save, restore, promote",
    "ex02_typed_records": "Upsert by subject (update, don't append)",
    "ex03_policy_gate": "The write gate and the read gate",
    "ex04_memory_ids": "Memory ids that survive Chinese",
    "ex05_safe_store": "Full write-back and atomic saves",
    "ex06_ranking_and_recall": "BM25 by hand, then time decay",
    "ex07_hybrid_fusion": "RRF fusion, Recall@k and MRR",
    "ex08_memories_change": "Update or supersede, history chains, forget the chain",
    "ex09_trust_boundary": "The read-time guard: tenants, rules, injection, secrets",
    "ex10_memory_aware_agent": "A context packer: by type, with provenance, in budget",
    "ex11_production": "A batched writer with honest retries",
    "ex12_langgraph_memory": "The memory nodes: recall for the user, ground on documents",
}
_TEST_FILE = re.compile(r"^test_ex(\d{2})_(\w+)\.py$")
BAR_WIDTH = 10


class GradingError(RuntimeError):
    """Grading itself could not run (no graded tests found, pytest crashed, ...)."""


@dataclass
class CaseOutcome:
    name: str
    passed: bool
    message: str = ""  # short: the assertion message or the NotImplementedError hint
    not_implemented: bool = False


@dataclass
class ExerciseScore:
    number: str
    module: str
    title: str
    outcomes: list[CaseOutcome] = field(default_factory=list)

    @property
    def total(self) -> int:
        return len(self.outcomes)

    @property
    def passed(self) -> int:
        return sum(outcome.passed for outcome in self.outcomes)

    @property
    def complete(self) -> bool:
        return self.total > 0 and self.passed == self.total

    @property
    def not_started(self) -> bool:
        return self.total > 0 and all(o.not_implemented for o in self.outcomes)

    @property
    def failures(self) -> list[CaseOutcome]:
        return [outcome for outcome in self.outcomes if not outcome.passed]

    @property
    def percent(self) -> int:
        return _percent(self.passed, self.total)


@dataclass
class GradeReport:
    target: str
    exercises: list[ExerciseScore]

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


# -- finding things -----------------------------------------------------------------------
def course_root() -> Path:
    """The course folder (the one holding ``tests/graded``): next to the installed package,
    else the current directory or one of its parents."""
    cwd = Path.cwd().resolve()
    candidates = [cwd, *cwd.parents, Path(__file__).resolve().parents[2]]
    for candidate in candidates:
        if (candidate / "tests" / "graded").is_dir():
            return candidate
    raise GradingError(
        "cannot find tests/graded: run `memcourse grade` from the course folder "
        "(memcourse must be installed with `pip install -e .`, which `make setup` does)"
    )


def available_exercises(root: Path | None = None) -> dict[str, str]:
    """``{"00": "ex00_warmup", ...}`` from the graded test files, in order."""
    graded = (root or course_root()) / "tests" / "graded"
    found = {}
    for path in sorted(graded.glob("test_ex*.py")):
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
            raise GradingError(f"no exercise {raw!r}; available: {known}")
        if number not in chosen:
            chosen.append(number)
    return chosen


def default_target() -> str:
    target = os.environ.get("MEMCOURSE_TARGET") or "exercises"
    if target not in TARGETS:
        raise GradingError(f"MEMCOURSE_TARGET must be one of {', '.join(TARGETS)}, got {target!r}")
    return target


# -- running ------------------------------------------------------------------------------
def pytest_command(files: list[Path], target: str, junit_path: Path) -> list[str]:
    """The child pytest: only the graded files, no notebooks (nbval off, and the project's
    addopts, which name nbval options, cleared), no cache, quiet."""
    return [
        sys.executable, "-m", "pytest", *map(str, files),
        "-p", "no:nbval", "-p", "no:cacheprovider", "-o", "addopts=", "-o", "timeout=60",
        "-q", "--no-header", "-rN", "--tb=no",
        f"--target={target}", f"--junitxml={junit_path}",
    ]


def run_grading(
    numbers: list[str] | None = None,
    *,
    target: str | None = None,
    root: Path | None = None,
    timeout: float = 300,
) -> GradeReport:
    """Run the graded tests of the chosen exercises against ``target`` and score them."""
    root = root or course_root()
    target = target or default_target()
    if target not in TARGETS:
        raise GradingError(f"target must be one of {', '.join(TARGETS)}, got {target!r}")
    available = available_exercises(root)
    if not available:
        raise GradingError(f"no graded tests in {root / 'tests' / 'graded'}")
    chosen = normalise_numbers(numbers, available)
    files = [root / "tests" / "graded" / f"test_{available[n]}.py" for n in chosen]
    with tempfile.TemporaryDirectory(prefix="memcourse-grade-") as tmp:
        junit = Path(tmp) / "junit.xml"
        env = dict(os.environ, MEMCOURSE_TARGET=target, PYTHONDONTWRITEBYTECODE="1")
        env.pop("PYTEST_ADDOPTS", None)  # e.g. nbval options meant for the outer run
        try:
            proc = subprocess.run(
                pytest_command(files, target, junit), cwd=root, env=env,
                capture_output=True, text=True, timeout=timeout,
            )
        except subprocess.TimeoutExpired:
            raise GradingError(f"the graded tests did not finish within {timeout:.0f}s (an infinite loop?)") from None
        if not junit.exists():
            tail = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-15:])
            raise GradingError(f"pytest could not run the graded tests (exit code {proc.returncode}):\n{tail}")
        outcomes = parse_junit(junit.read_text(encoding="utf-8"))
    scores = []
    for number in chosen:
        module = available[number]
        score = ExerciseScore(number, module, TITLES.get(module, module), outcomes.get(module, []))
        if not score.outcomes:  # the file did not even import: report it, do not score 0/0 silently
            score.outcomes = [CaseOutcome("collection", False, _collection_problem(proc.stdout, module))]
        scores.append(score)
    return GradeReport(target, scores)


def _collection_problem(output: str, module: str) -> str:
    for line in output.splitlines():
        if module in line and ("ERROR" in line or "Error" in line):
            return line.strip()
    return "the graded test file could not be collected; run pytest on it to see why"


def parse_junit(xml_text: str) -> dict[str, list[CaseOutcome]]:
    """``{"ex03_policy_gate": [CaseOutcome, ...]}`` from a pytest JUnit XML report."""
    results: dict[str, list[CaseOutcome]] = {}
    for case in ET.fromstring(xml_text).iter("testcase"):
        where = f"{case.get('classname', '')}.{case.get('file', '')}"
        match = re.search(r"test_(ex\d{2}_\w+?)(?:\.py)?(?:\.|$)", where)
        if not match:
            continue
        problem = case.find("failure")
        if problem is None:
            problem = case.find("error")
        skipped = case.find("skipped")
        name = case.get("name", "?")
        if problem is None and skipped is None:
            outcome = CaseOutcome(name, True)
        elif problem is None:
            outcome = CaseOutcome(name, False, "skipped: " + (skipped.get("message") or ""))
        else:
            raw = problem.get("message") or (problem.text or "")
            details = problem.text or ""
            outcome = CaseOutcome(name, False, short_message(raw), _is_stub(raw, details))
        results.setdefault(match.group(1), []).append(outcome)
    return results


def _is_stub(message: str, details: str) -> bool:
    if "NotImplementedError" in message:
        return True
    # Some failures wrap the real error; the last "E   ..." line of the details says what raised.
    errors = [line for line in details.splitlines() if line.startswith("E ")]
    return bool(errors) and "NotImplementedError" in errors[-1]


def short_message(message: str, width: int = 240) -> str:
    """The assertion, not the traceback: the first line, plus pytest's ``assert ...`` line."""
    lines = [line.strip() for line in message.strip().splitlines() if line.strip()]
    if not lines:
        return "failed (no message)"
    kept = [lines[0]]
    if len(lines) > 1 and lines[1].startswith("assert ") and not lines[0].startswith("assert "):
        kept.append(lines[1])
    kept = [line if len(line) <= width else line[: width - 1] + "…" for line in kept]
    return "\n".join(kept)


# -- showing ------------------------------------------------------------------------------
def _bar(percent: int) -> str:
    filled = round(BAR_WIDTH * percent / 100)
    return "[" + "#" * filled + "." * (BAR_WIDTH - filled) + "]"


def _hint(message: str) -> str:
    return re.sub(r"^NotImplementedError:\s*", "", message.splitlines()[0])


def format_report(report: GradeReport, *, max_failures: int = 3) -> str:
    """The score table; under each unfinished exercise, what to do next."""
    folder = "your work in exercises/" if report.target == "exercises" else "reference solutions in solutions/"
    lines = [f"memcourse grade · target: {report.target} ({folder})", ""]
    width = max([len(e.title) for e in report.exercises] + [8])
    lines.append(f"  {'#':<3} {'exercise':<{width}}  {'tests':>7}  progress")
    for exercise in report.exercises:
        status = "done" if exercise.complete else ("not started" if exercise.not_started else "")
        lines.append(
            f"  {exercise.number:<3} {exercise.title:<{width}}  {exercise.passed:>3}/{exercise.total:<3}  "
            f"{_bar(exercise.percent)} {exercise.percent:>3}%  {status}".rstrip()
        )
        lines.extend(_advice(exercise, max_failures))
    lines.append("")
    lines.append(
        f"  overall: {report.passed}/{report.total} tests passed ({report.percent}%) · "
        f"{report.complete} of {len(report.exercises)} exercises complete"
    )
    return "\n".join(lines)


def _advice(exercise: ExerciseScore, max_failures: int) -> list[str]:
    if exercise.complete:
        return []
    pad = " " * 6
    stubs = list(dict.fromkeys(_hint(o.message) for o in exercise.failures if o.not_implemented))
    real = [o for o in exercise.failures if not o.not_implemented]
    lines = []
    if stubs:
        lines.append(pad + ("still a stub:" if real or exercise.passed else "to start, open "
                            f"exercises/{exercise.module}.py; hints:"))
        lines += [f"{pad}  → {hint}" for hint in stubs]
    for outcome in real[:max_failures]:
        message = outcome.message.splitlines()
        lines.append(f"{pad}✗ {outcome.name}")
        lines += [f"{pad}    {line}" for line in message]
    if len(real) > max_failures:
        lines.append(f"{pad}  … and {len(real) - max_failures} more failing test(s): memcourse grade {exercise.number} -v")
    return lines


def show_progress(numbers: list[str] | None = None, *, target: str | None = None) -> GradeReport:
    """For notebooks: grade and print the table; returns the report for further use."""
    report = run_grading(numbers, target=target)
    print(format_report(report))
    return report


# -- the command --------------------------------------------------------------------------
def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="memcourse grade",
        description="Run the graded tests for your exercises and show your progress.",
    )
    parser.add_argument("numbers", nargs="*", metavar="NN", help="exercise numbers (default: all), e.g. 03 or 3")
    parser.add_argument("--target", choices=TARGETS, default=None,
                        help="grade your exercises/ (default) or the reference solutions/")
    parser.add_argument("-v", "--verbose", action="store_true", help="show every failing test, not just the first 3")
    parser.add_argument("--strict", action="store_true", help="exit with status 1 unless everything passes (for CI)")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        report = run_grading(args.numbers, target=args.target or default_target())
    except GradingError as error:
        print(f"memcourse grade: {error}", file=sys.stderr)
        return 2
    print(format_report(report, max_failures=10_000 if args.verbose else 3))
    if args.strict and report.passed != report.total:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
