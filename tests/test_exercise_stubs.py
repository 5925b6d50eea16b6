"""CI's two directions for the graded exercise tests.

- Against ``solutions/`` every graded test passes: the tests are satisfiable and the reference
  answers are right.
- Against the untouched ``exercises/`` every graded test fails, and fails *because of*
  ``NotImplementedError``: proof that each test really calls the learner's code (no test passes
  on a stub), and that the stubs are stubs (none half-implemented by accident).

Each direction runs pytest on ``tests/graded`` in a child process, as ``memcourse grade`` does, and reads
its JUnit XML; the run is shared with ``test_grading.py`` (``tests/graded_runs.py``).
"""

from __future__ import annotations

import ast
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from graded_runs import shared_graded_junit

ROOT = Path(__file__).resolve().parent.parent
GRADED = ROOT / "tests" / "graded"
NUMBERS = sorted(re.match(r"test_ex(\d{2})_", p.name).group(1) for p in GRADED.glob("test_ex??_*.py"))


def run_graded(target: str, tmp_path_factory) -> list[dict]:
    """Every graded test's outcome against ``target``, from the session's one run (tests/graded_runs.py)."""
    xml_text, _ = shared_graded_junit(target, tmp_path_factory)
    cases = []
    for case in ET.fromstring(xml_text).iter("testcase"):
        problem = case.find("failure")
        if problem is None:
            problem = case.find("error")
        cases.append(
            {
                "id": f"{case.get('classname')}::{case.get('name')}",
                "outcome": "skipped"
                if case.find("skipped") is not None
                else ("passed" if problem is None else problem.tag),
                "message": "" if problem is None else (problem.get("message") or ""),
                "details": "" if problem is None else (problem.text or ""),
            }
        )
    return cases


@pytest.fixture(scope="module")
def solution_cases(tmp_path_factory):
    return run_graded("solutions", tmp_path_factory)


@pytest.fixture(scope="module")
def stub_cases(tmp_path_factory):
    return run_graded("exercises", tmp_path_factory)


def test_every_exercise_has_a_stub_a_solution_and_graded_tests():
    stubs = {p.stem for p in (ROOT / "exercises").glob("ex??_*.py")}
    solutions = {p.stem for p in (ROOT / "solutions").glob("ex??_*.py")}
    graded = {p.stem.removeprefix("test_") for p in GRADED.glob("test_ex??_*.py")}
    assert stubs == solutions == graded, (stubs, solutions, graded)
    assert NUMBERS == [f"{n:02d}" for n in range(len(NUMBERS))], "exercise numbers run 00, 01, ... without gaps"
    assert len(NUMBERS) >= 6


def _public_functions(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {node.name for node in tree.body if isinstance(node, ast.FunctionDef) and not node.name.startswith("_")}


@pytest.mark.parametrize("number", NUMBERS)
def test_stub_and_solution_agree_and_the_stub_describes_itself(number):
    stub = next((ROOT / "exercises").glob(f"ex{number}_*.py"))
    solution = ROOT / "solutions" / stub.name
    assert _public_functions(stub) == _public_functions(solution), "same function names in both"
    doc = ast.get_docstring(ast.parse(stub.read_text(encoding="utf-8"))) or ""
    assert re.search(r"Difficulty: ★+☆*", doc), "the exercise states its difficulty"
    assert re.search(r"Expected time: \d+ minutes", doc), "the exercise states its expected time"
    assert f"memcourse grade {number}" in doc, "the exercise says how to grade it"


@pytest.mark.parametrize("number", NUMBERS)
def test_stubs_point_to_hints_instead_of_giving_them(number):
    """A hint printed before the learner has tried is an answer: stubs only say where to ask."""
    stub = next((ROOT / "exercises").glob(f"ex{number}_*.py"))
    messages = [
        ast.literal_eval(node.exc.args[0]) for node in ast.walk(ast.parse(stub.read_text(encoding="utf-8")))
        if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call)
        and getattr(node.exc.func, "id", "") == "NotImplementedError" and node.exc.args
    ]
    assert messages, f"{stub.name} has no NotImplementedError stubs"
    for message in messages:
        assert re.fullmatch(rf"ex{number} \w+: not written yet \(stuck\? memcourse hint {number}\)", message), (
            f"{stub.name}: stub message {message!r} should be 'ex{number} <function>: not written yet "
            f"(stuck? memcourse hint {number})'; the hint itself goes in exercises/hints/{stub.stem}.md"
        )


@pytest.mark.parametrize("number", NUMBERS)
def test_every_function_has_hints_at_three_levels(number):
    from memcourse.course.hints import hints_path, parse_hints

    stub = next((ROOT / "exercises").glob(f"ex{number}_*.py"))
    path = hints_path(ROOT, stub.stem)
    assert path.is_file(), f"missing {path.relative_to(ROOT)} (format: memcourse/course/hints.py docstring)"
    hints = parse_hints(path.read_text(encoding="utf-8"))
    for name in sorted(_public_functions(stub)):
        assert sorted(hints.get(name, {})) == [1, 2, 3], f"{path.name}: '## {name}' needs '### 1', '### 2', '### 3'"


def test_all_graded_tests_pass_against_solutions(solution_cases):
    assert len(solution_cases) >= 6 * 4, "each exercise has several graded tests"
    failing = [f"{c['id']}: {c['outcome']} {c['message'][:200]}" for c in solution_cases if c["outcome"] != "passed"]
    assert not failing, "graded tests failing against solutions/:\n" + "\n".join(failing)


def test_every_graded_test_fails_against_the_stubs_with_not_implemented(stub_cases, solution_cases):
    assert sorted(c["id"] for c in stub_cases) == sorted(c["id"] for c in solution_cases), (
        "both targets run the same tests"
    )
    passing = [c["id"] for c in stub_cases if c["outcome"] in ("passed", "skipped")]
    assert not passing, "these graded tests pass (or skip) on an untouched stub, so they test nothing:\n" + "\n".join(
        passing
    )
    wrong = [
        f"{c['id']}: {c['message'][:200]}"
        for c in stub_cases
        if "NotImplementedError" not in c["message"]
        and "NotImplementedError" not in "\n".join(row for row in c["details"].splitlines() if row.startswith("E "))
    ]
    assert not wrong, "these graded tests fail on a stub for another reason than NotImplementedError:\n" + "\n".join(
        wrong
    )


@pytest.mark.parametrize("number", NUMBERS)
def test_each_exercise_has_several_graded_tests(number, solution_cases):
    mine = [c for c in solution_cases if f"test_ex{number}_" in c["id"]]
    assert len(mine) >= 4, f"exercise {number} has only {len(mine)} graded tests"
