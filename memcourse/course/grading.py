"""``memcourse grade``: run the graded exercise tests and score them.

Each exercise ``exercises/exNN_<topic>.py`` has one graded test file,
``tests/graded/test_exNN_<topic>.py`` (discovered from the files: a new exercise needs no change
here). Grading works in three steps, each in a child process so that a broken exercise cannot
break the grader and a notebook kernel never imports half-edited code:

1. *Can it load?* Each chosen module is imported once. A syntax or import error is reported
   once, with its message and line, instead of as the same failure under every test.
2. *Run the tests* of the modules that load, with pytest, reading its JUnit XML report. Graded
   tests run with ``EncodingWarning`` as an error: a file opened without ``encoding="utf-8"``
   works on your machine and breaks on a Windows one, so it fails here.
3. *Score*: per exercise, how many tests pass, and for each failing test its assertion message
   (what was expected, and why), never a traceback.

Hints are never printed here. They are given on request, in levels, by :mod:`memcourse.course.hints`
(``memcourse hint NN``; read that module's docstring for where hints live and their format).
Showing the result, in a terminal or as HTML in a notebook, is :mod:`memcourse.course.progress`.

From a notebook::

    from memcourse.course import show_progress, hint
    show_progress()          # every exercise
    show_progress(["03"])    # just one
    hint("03")               # level 1; hint("03", level=2) when still stuck

From a shell: ``memcourse grade``, ``memcourse grade 03 04``, ``memcourse grade --target solutions``,
``memcourse hint 03 --level 2``.

The course folder graded is the one you are in (see :mod:`memcourse.course.layout`); every report
names it.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

from memcourse.course.i18n import t
from memcourse.course.layout import (
    CourseError,
    available_exercises,
    course_root,
    normalise_numbers,
)
from memcourse.course.report import CaseOutcome, ExerciseScore, GradeReport, LoadProblem

TARGETS = ("exercises", "solutions")
#: Shown next to each exercise number; modules not listed here show their topic from the file name.
TITLES = {
    "ex00_warmup": "Warm-up: memories are typed records",
    "ex01_three_layers": "Checkpoint vs memory: save, restore, promote",
    "ex02_typed_records": "Upsert by subject (update, don't append)",
    "ex03_policy_gate": "The write gate and the read gate",
    "ex04_memory_ids": "Memory ids that survive Chinese",
    "ex05_safe_store": "Full write-back and atomic saves",
    "ex06_ranking_and_recall": "BM25 by hand, then time decay",
    "ex07_hybrid_fusion": "A fusion that beats RRF, measured",
    "ex08_reading_chinese": "Calibrate a near-duplicate threshold per model",
    "ex09_memories_change": "Update or supersede, history chains, forget the chain",
    "ex10_trust_boundary": "The fence: escape every field, quote recalled memories",
    "ex11_memory_aware_agent": "A context packer: by type, with provenance, in budget",
    "ex12_production": "A batched writer with honest retries",
    "ex13_langgraph_memory": "The memory nodes: recall for the user, ground on documents",
    "ex14_extraction_and_reconciliation": "Read a model's reply strictly, then reconcile",
    "ex15_agent_managed_memory": "Memory tools: scope from the runtime, writes through the gate",
    "ex16_measuring_memory": "Grade answers fairly, recall as of a time",
}
#: Python reports a text file opened without an explicit encoding (EncodingWarning) only when
#: asked at start-up; tests/graded/conftest.py turns those raised by the graded code into errors.
WARNING_FLAGS = ["-X", "warn_default_encoding"]


class GradingError(CourseError):
    """Grading itself could not run (no graded tests found, pytest crashed, ...)."""


def title_of(module: str) -> str:
    return t(TITLES[module]) if module in TITLES else module.split("_", 1)[-1].replace("_", " ").capitalize()


def default_target() -> str:
    target = os.environ.get("MEMCOURSE_TARGET") or "exercises"
    if target not in TARGETS:
        raise GradingError(t("MEMCOURSE_TARGET must be one of {choices}, got {value!r}",
                             choices=", ".join(TARGETS), value=target))
    return target


# -- step 1: does each module load? --------------------------------------------------------
_LOAD_CHECK = r"""
import importlib, json, sys, traceback
sys.path.insert(0, sys.argv[1])
problems = {}
for name in sys.argv[3:]:
    try:
        importlib.import_module(f"{sys.argv[2]}.{name}")
    except BaseException as error:  # a learner's module may raise anything at import time
        frames = [f for f in traceback.extract_tb(error.__traceback__) if name in f.filename]
        frame = frames[-1] if frames else None
        problems[name] = {
            "kind": type(error).__name__,
            "message": getattr(error, "msg", None) or str(error),
            "file": getattr(error, "filename", None) or (frame.filename if frame else ""),
            "line": getattr(error, "lineno", None) or (frame.lineno if frame else None),
            "text": getattr(error, "text", None) or (frame.line if frame else "") or "",
        }
print(json.dumps(problems))
"""


def load_problems(root: Path, target: str, modules: list[str], *, timeout: float = 120) -> dict[str, LoadProblem]:
    """Import each module in a child process; ``{module: LoadProblem}`` for those that fail."""
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    try:
        proc = subprocess.run(
            [sys.executable, "-c", _LOAD_CHECK, str(root), target, *modules],
            cwd=root, env=env, capture_output=True, text=True, timeout=timeout,
        )
    except subprocess.TimeoutExpired:
        raise GradingError(t("importing the exercises took over {seconds:.0f}s (a loop at module level?)",
                             seconds=timeout)) from None
    try:
        found = json.loads(proc.stdout.strip().splitlines()[-1])
    except (IndexError, ValueError):
        raise GradingError(
            t("could not check the exercises load:\n{details}", details=proc.stderr.strip()[-2000:])
        ) from None
    return {name: LoadProblem(**details) for name, details in found.items()}


def unwritten_functions(path: Path) -> list[str]:
    """Top-level functions whose body is still just the stub's raise of ``NotImplementedError`` (read
    from the source, not imported; ``[]`` when the file does not parse)."""
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"))
    except (OSError, SyntaxError, ValueError):
        return []
    names = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and not node.name.startswith("_"):
            body = [b for b in node.body if not (isinstance(b, ast.Expr) and isinstance(b.value, ast.Constant))]
            if len(body) == 1 and isinstance(body[0], ast.Raise) and "NotImplementedError" in ast.unparse(body[0]):
                names.append(node.name)
    return names


# -- step 2: run the graded tests ----------------------------------------------------------
#: The pytest plugins a graded run uses, loaded by name. Every other installed plugin stays off
#: (``PYTEST_DISABLE_PLUGIN_AUTOLOAD``): nbval, xdist, anyio and langsmith's plugins cost three
#: seconds of imports per run, more than most exercises' tests take, and every notebook ends
#: by grading its exercise.
GRADED_PLUGINS = ("pytest_timeout", "_hypothesis_pytestplugin")


def pytest_command(files: list[Path], target: str, junit_path: Path) -> list[str]:
    """The child pytest: only the graded files and the plugins they use (no nbval; the project's
    addopts, which name nbval options, cleared), no cache, quiet, EncodingWarning an error.
    Run it with ``PYTEST_DISABLE_PLUGIN_AUTOLOAD=1`` (:func:`graded_junit` does)."""
    plugins = [arg for name in GRADED_PLUGINS for arg in ("-p", name)]
    return [
        sys.executable, *WARNING_FLAGS, "-m", "pytest", *map(str, files), *plugins,
        "-p", "no:cacheprovider", "-o", "addopts=", "-o", "timeout=30",  # per test: a loop fails it
        "-q", "--no-header", "-rN", "--tb=no",
        f"--target={target}", f"--junitxml={junit_path}",
    ]


def _run_pytest(root: Path, files: list[Path], target: str, timeout: float) -> tuple[dict[str, list[CaseOutcome]], str]:
    xml_text, output = graded_junit(root, files, target, timeout)
    return parse_junit(xml_text), output


def graded_junit(root: Path, files: list[Path], target: str, timeout: float) -> tuple[str, str]:
    """The child pytest's JUnit XML report and its printed output."""
    with tempfile.TemporaryDirectory(prefix="memcourse-grade-") as tmp:
        junit = Path(tmp) / "junit.xml"
        env = dict(os.environ, MEMCOURSE_TARGET=target, PYTHONDONTWRITEBYTECODE="1", PYTHONWARNDEFAULTENCODING="1",
                   PYTEST_DISABLE_PLUGIN_AUTOLOAD="1")
        env.pop("PYTEST_ADDOPTS", None)  # e.g. nbval options meant for the outer run
        try:
            proc = subprocess.run(
                pytest_command(files, target, junit), cwd=root, env=env,
                capture_output=True, text=True, timeout=timeout,
            )
        except subprocess.TimeoutExpired:
            raise GradingError(t("the graded tests did not finish within {seconds:.0f}s (an infinite loop?)",
                                 seconds=timeout)) from None
        if not junit.exists():
            tail = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-15:])
            raise GradingError(t("pytest could not run the graded tests (exit code {code}):\n{tail}",
                                 code=proc.returncode, tail=tail))
        return junit.read_text(encoding="utf-8"), proc.stdout


def run_grading(
    numbers: list[str] | None = None,
    *,
    target: str | None = None,
    root: Path | None = None,
    timeout: float = 600,
) -> GradeReport:
    """Run the graded tests of the chosen exercises against ``target`` and score them."""
    root = (root or course_root()).resolve()
    target = target or default_target()
    if target not in TARGETS:
        raise GradingError(
            t("target must be one of {choices}, got {value!r}", choices=", ".join(TARGETS), value=target)
        )
    available = available_exercises(root)
    if not available:
        raise GradingError(t("no graded tests in {folder}", folder=root / "tests" / "graded"))
    chosen = normalise_numbers(numbers, available)
    problems = load_problems(root, target, [available[n] for n in chosen])
    # The tests of a module that does not load still run (they fail): that counts them.
    files = [root / "tests" / "graded" / f"test_{available[n]}.py" for n in chosen]
    outcomes, output = _run_pytest(root, files, target, timeout)
    scores = []
    for number in chosen:
        module = available[number]
        score = ExerciseScore(number, module, title_of(module), outcomes.get(module, []), problems.get(module),
                              unwritten_functions(root / target / f"{module}.py"))
        if not score.outcomes:  # the test file itself did not import
            score.outcomes = [CaseOutcome("collection", False, _collection_problem(output, module))]
        scores.append(score)
    return GradeReport(target, scores, root)


def _collection_problem(output: str, module: str) -> str:
    for line in output.splitlines():
        if module in line and ("ERROR" in line or "Error" in line):
            return line.strip()
    return t("tests/graded/test_{module}.py could not be collected; run pytest on it to see why", module=module)


# -- step 3: read pytest's report ------------------------------------------------------------
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
        name = readable_name(case.get("name", "?"))
        if problem is None and skipped is None:
            outcome = CaseOutcome(name, True)
        elif problem is None and skipped is not None:
            outcome = CaseOutcome(name, False, "skipped: " + (skipped.get("message") or ""))
        elif problem is not None:
            raw = problem.get("message") or (problem.text or "")
            details = problem.text or ""
            message = short_message(raw)
            timeout = re.match(r"Failed: Timeout \(?>([\d.]+)s", raw.strip())
            if timeout:  # pytest-timeout's own words say nothing about why
                message = t("still running after {seconds:.0f} s: an endless loop, or a wait that never ends?",
                            seconds=float(timeout.group(1)))
            outcome = CaseOutcome(name, False, message, _is_stub(raw, details))
        results.setdefault(match.group(1), []).append(outcome)
    return results


def readable_name(name: str) -> str:
    r"""pytest escapes non-ASCII test ids (``test_x[\u5ba2\u670d]``); show them as written."""
    return re.sub(r"\\u([0-9a-fA-F]{4})|\\U([0-9a-fA-F]{8})",
                  lambda m: chr(int(m.group(1) or m.group(2), 16)), name)


def _is_stub(message: str, details: str) -> bool:
    if "NotImplementedError" in message:
        return True
    # Some failures wrap the real error; the last "E   ..." line of the details says what raised.
    errors = [line for line in details.splitlines() if line.startswith("E ")]
    return bool(errors) and "NotImplementedError" in errors[-1]


def short_message(message: str, *, max_lines: int = 4, max_chars: int = 600) -> str:
    """The assertion, not the traceback: the message lines up to pytest's ``assert ...`` line
    (or its ``where`` explanations), at most ``max_lines``; a longer text ends at a word with …"""
    lines = [line.rstrip() for line in message.strip().splitlines() if line.strip()]
    if not lines:
        return "failed (no message)"
    kept: list[str] = []
    for line in lines:
        if line.lstrip().startswith(("+", "where ", "and ")) or len(kept) == max_lines:
            break
        if line.lstrip().startswith("assert "):
            # pytest shortens long values with "..." (cutting words); the author's message above
            # already says what was expected, so keep the comparison only when it is whole.
            if "..." not in line or not kept:
                kept.append(line.strip())
            break
        kept.append(line.strip())
    text = "\n".join(kept)
    if len(text) > max_chars:
        cut = text[:max_chars].rsplit(None, 1)[0] if " " in text[:max_chars] else text[:max_chars]
        text = cut.rstrip(",;:") + " …"
    return text


# -- the command and the notebook entry point -----------------------------------------------
def show_progress(numbers: list[str] | None = None, *, target: str | None = None) -> GradeReport:
    """For notebooks: grade, then show the progress table (HTML in Jupyter, text elsewhere)."""
    from memcourse.course.progress import display_report

    report = run_grading(numbers, target=target)
    display_report(report)
    return report


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="memcourse grade",
        description=t("Run the graded tests for your exercises and show your progress."),
    )
    parser.add_argument("numbers", nargs="*", metavar="NN", help=t("exercise numbers (default: all), e.g. 03 or 3"))
    parser.add_argument("--target", choices=TARGETS, default=None,
                        help=t("grade your exercises/ (default) or the reference solutions/"))
    parser.add_argument("-v", "--verbose", action="store_true", help=t("show every failing test, not just the first 3"))
    parser.add_argument("--strict", action="store_true", help=t("exit with status 1 unless everything passes (for CI)"))
    return parser


def main(argv: list[str] | None = None) -> int:
    from memcourse.course.progress import format_report

    args = build_parser().parse_args(argv)
    try:
        report = run_grading(args.numbers, target=args.target or default_target())
    except CourseError as error:
        print(f"memcourse grade: {error}", file=sys.stderr)
        return 2
    print(format_report(report, max_failures=10_000 if args.verbose else 3))
    if args.strict and report.passed != report.total:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
