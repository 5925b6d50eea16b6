"""memcourse.course.grading: parsing pytest's report, the score table, and the command end to end."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from memcourse.course import grading
from memcourse.course.grading import (
    ExerciseScore,
    GradeReport,
    GradingError,
    CaseOutcome,
    format_report,
    normalise_numbers,
    parse_junit,
    short_message,
)

ROOT = Path(__file__).resolve().parent.parent

JUNIT = """<?xml version="1.0" encoding="utf-8"?>
<testsuites><testsuite name="pytest" tests="5">
  <testcase classname="tests.graded.test_ex02_typed_records" name="test_new_subject_is_appended" time="0.01"/>
  <testcase classname="tests.graded.test_ex02_typed_records" name="test_update_keeps_identity" time="0.01">
    <failure message="AssertionError: an update keeps the original creation time&#10;assert 1 == 2&#10; +  where 1 = f()">Traceback (most recent call last):
  File "/x/y.py", line 3, in test
E   AssertionError: an update keeps the original creation time</failure>
  </testcase>
  <testcase classname="tests.graded.test_ex03_policy_gate" name="test_gate_candidate[ok]" time="0.01">
    <failure message="NotImplementedError: ex03 gate_candidate: run the checks in order">long traceback</failure>
  </testcase>
  <testcase classname="tests.graded.test_ex03_policy_gate" name="test_usable_memory[ok]" time="0.01">
    <error message="failed on setup with &quot;ModuleNotFoundError: No module named 'exercises.ex03_policy_gate'&quot;">E   ModuleNotFoundError</error>
  </testcase>
  <testcase classname="tests.test_other" name="test_unrelated" time="0.01"/>
</testsuite></testsuites>
"""


def test_parse_junit_groups_by_exercise_and_keeps_short_messages():
    results = parse_junit(JUNIT)
    assert sorted(results) == ["ex02_typed_records", "ex03_policy_gate"], "non-graded tests are ignored"
    passed, failed = results["ex02_typed_records"]
    assert passed.passed and not failed.passed
    assert failed.message == "AssertionError: an update keeps the original creation time\nassert 1 == 2"
    assert not failed.not_implemented
    stub, error = results["ex03_policy_gate"]
    assert stub.not_implemented and stub.message.startswith("NotImplementedError: ex03 gate_candidate")
    assert not error.passed and not error.not_implemented and "ModuleNotFoundError" in error.message


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("AssertionError: 两条中文记忆必须有两个 id\nassert 'a' != 'a'\n+ where ...", "AssertionError: 两条中文记忆必须有两个 id\nassert 'a' != 'a'"),
        ("assert 1 == 2\n +  where 1 = len([])", "assert 1 == 2"),
        ("", "failed (no message)"),
        ("ValueError: " + "x" * 500, "ValueError: " + "x" * 227 + "…"),
    ],
)
def test_short_message(raw, expected):
    assert short_message(raw) == expected


def test_normalise_numbers():
    available = {"00": "ex00_warmup", "03": "ex03_policy_gate"}
    assert normalise_numbers(None, available) == ["00", "03"]
    assert normalise_numbers(["3", "03", "ex03", "ex03_policy_gate", "0"], available) == ["03", "00"]
    with pytest.raises(GradingError, match="available: 00, 03"):
        normalise_numbers(["7"], available)
    with pytest.raises(GradingError):
        normalise_numbers(["three"], available)


def _report() -> GradeReport:
    done = ExerciseScore("00", "ex00_warmup", "Warm-up", [CaseOutcome("a", True), CaseOutcome("b", True)])
    stub = ExerciseScore("01", "ex01_three_layers", "Three layers", [
        CaseOutcome("a", False, "NotImplementedError: ex01 save_checkpoint: json.dumps it", True),
        CaseOutcome("b", False, "NotImplementedError: ex01 save_checkpoint: json.dumps it", True),
        CaseOutcome("c", False, "NotImplementedError: ex01 finish_run: loop over messages", True),
    ])
    partial = ExerciseScore("02", "ex02_typed_records", "Upsert", [
        CaseOutcome("test_ok", True),
        CaseOutcome("test_history", False, "AssertionError: history grows: oldest first\nassert [] == ['x']"),
        *[CaseOutcome(f"test_more_{i}", False, f"AssertionError: failure {i}") for i in range(4)],
    ])
    return GradeReport("exercises", [done, stub, partial])


def test_format_report_shows_scores_hints_and_assertions_not_tracebacks():
    text = format_report(_report())
    assert "target: exercises" in text
    assert "2/2" in text and "100%  done" in text
    assert "0/3" in text and "not started" in text
    assert text.count("→ ex01 save_checkpoint: json.dumps it") == 1, "one hint per stub function, not per test"
    assert "→ ex01 finish_run: loop over messages" in text
    assert "1/6" in text and " 16%" in text
    assert "✗ test_history" in text and "AssertionError: history grows: oldest first" in text
    assert "… and 2 more failing test(s): memcourse grade 02 -v" in text, "at most 3 failures per exercise"
    assert "overall: 3/11 tests passed (27%) · 1 of 3 exercises complete" in text
    assert "Traceback" not in text and 'File "' not in text


def test_percentages_floor_so_nearly_done_is_not_done():
    score = ExerciseScore("04", "m", "t", [CaseOutcome(str(i), True) for i in range(199)] + [CaseOutcome("x", False)])
    assert score.percent == 99 and not score.complete


def test_grading_the_solutions_is_100_percent():
    report = grading.run_grading(["00", "04"], target="solutions")
    assert [e.number for e in report.exercises] == ["00", "04"]
    assert report.total >= 10 and report.passed == report.total and report.percent == 100


def test_grading_the_stubs_is_0_percent_with_every_exercise_listed(capsys):
    assert grading.main(["--target", "exercises"]) == 0
    out = capsys.readouterr().out
    assert "overall: 0/" in out and "(0%)" in out
    for number, module in grading.available_exercises(ROOT).items():
        assert f"  {number}  " in out and f"exercises/{module}.py" in out
    assert "Traceback" not in out


def test_main_refuses_unknown_exercises_and_strict_fails_when_incomplete(capsys):
    assert grading.main(["42"]) == 2
    assert "no exercise '42'" in capsys.readouterr().err
    assert grading.main(["00", "--strict"]) == 1
    assert grading.main(["00", "--strict", "--target", "solutions"]) == 0


def test_a_half_done_exercise_shows_the_failing_assertion(tmp_path):
    """A course copy whose ex02 forgets the history: the table names the test and its message."""
    (tmp_path / "tests" / "graded").mkdir(parents=True)
    (tmp_path / "exercises").mkdir()
    for name in ("conftest.py", "test_ex02_typed_records.py"):
        shutil.copy(ROOT / "tests" / "graded" / name, tmp_path / "tests" / "graded" / name)
    (tmp_path / "exercises" / "__init__.py").write_text("", encoding="utf-8")
    solution = (ROOT / "solutions" / "ex02_typed_records.py").read_text(encoding="utf-8")
    buggy = solution.replace("list(old.history) + [", "[] and [")
    assert buggy != solution
    (tmp_path / "exercises" / "ex02_typed_records.py").write_text(buggy, encoding="utf-8")

    report = grading.run_grading(None, target="exercises", root=tmp_path)
    (score,) = report.exercises
    assert 0 < score.passed < score.total
    text = format_report(report)
    assert "✗ test_update_keeps_the_old_content_as_history" in text
    assert "the replaced version is kept as one HistoryEntry" in text
    assert "Traceback" not in text and "def test_" not in text


def test_missing_graded_folder_is_a_clear_error(tmp_path):
    (tmp_path / "tests" / "graded").mkdir(parents=True)
    with pytest.raises(GradingError, match="no graded tests"):
        grading.run_grading(target="exercises", root=tmp_path)


def test_solutions_copied_over_the_exercises_grade_100_percent(tmp_path):
    """The acceptance check: a learner who wrote the reference answers sees 100% for everything."""
    shutil.copytree(ROOT / "tests" / "graded", tmp_path / "tests" / "graded",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "solutions", tmp_path / "exercises", ignore=shutil.ignore_patterns("__pycache__"))
    report = grading.run_grading(target="exercises", root=tmp_path)
    assert [e.number for e in report.exercises] == list(grading.available_exercises(ROOT))
    assert report.percent == 100 and report.complete == len(report.exercises)
    assert f"overall: {report.total}/{report.total} tests passed (100%)" in format_report(report)
