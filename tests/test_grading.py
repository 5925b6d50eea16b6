"""memcourse.course.grading and .progress: parsing pytest's report, the score tables, the command
end to end, and a course copy with a syntax error, an import error and a half-done exercise."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from graded_runs import GRADED_FILES, shared_graded_junit

from memcourse.course import grading
from memcourse.course.grading import (
    GradingError,
    parse_junit,
    readable_name,
    short_message,
    unwritten_functions,
)
from memcourse.course.layout import (
    CourseError,
    available_exercises,
    course_root,
    normalise_numbers,
)
from memcourse.course.progress import format_report, render_html
from memcourse.course.report import CaseOutcome, ExerciseScore, GradeReport, LoadProblem

ROOT = Path(__file__).resolve().parent.parent

JUNIT = (
    """<?xml version="1.0" encoding="utf-8"?>
<testsuites><testsuite name="pytest" tests="5">
  <testcase classname="tests.graded.test_ex02_typed_records" name="test_new_subject_is_appended" time="0.01"/>
  <testcase classname="tests.graded.test_ex02_typed_records" name="test_update_keeps_identity" time="0.01">
    <failure
      message="AssertionError: an update keeps the original creation time&#10;assert 1 == 2&#10; +  where 1 = f()">"""
    """Traceback (most recent call last):
  File "/x/y.py", line 3, in test
E   AssertionError: an update keeps the original creation time</failure>
  </testcase>
  <testcase classname="tests.graded.test_ex03_policy_gate" name="test_gate_candidate[\\u5ba2\\u670d]" time="0.01">
    <failure message="NotImplementedError: ex03 gate_candidate: not written yet">long traceback</failure>
  </testcase>
  <testcase classname="tests.graded.test_ex03_policy_gate" name="test_usable_memory[ok]" time="0.01">
    <error
      message="failed on setup with &quot;ModuleNotFoundError: No module named 'exercises.ex03_policy_gate'&quot;">"""
    """E   ModuleNotFoundError</error>
  </testcase>
  <testcase classname="tests.test_other" name="test_unrelated" time="0.01"/>
</testsuite></testsuites>
"""
)


def test_parse_junit_groups_by_exercise_and_keeps_the_assertion_message():
    results = parse_junit(JUNIT)
    assert sorted(results) == ["ex02_typed_records", "ex03_policy_gate"], "non-graded tests are ignored"
    passed, failed = results["ex02_typed_records"]
    assert passed.passed and not failed.passed
    assert failed.message == "AssertionError: an update keeps the original creation time\nassert 1 == 2"
    assert not failed.not_implemented
    stub, error = results["ex03_policy_gate"]
    assert stub.not_implemented and stub.name == "test_gate_candidate[客服]", "Chinese test ids are shown as written"
    assert not error.passed and not error.not_implemented and "ModuleNotFoundError" in error.message


def test_readable_name_unescapes_only_unicode_escapes():
    assert readable_name(r"test_x[\u5ba2\u670d-ok]") == "test_x[客服-ok]"
    assert readable_name("test_plain[a-b]") == "test_plain[a-b]"


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("AssertionError: 两条中文记忆必须有两个 id\nassert 'a' != 'a'\n+ where "
         "...", "AssertionError: 两条中文记忆必须有两个 id\nassert 'a' != 'a'"),
        ("assert 1 == 2\n +  where 1 = len([])", "assert 1 == 2"),
        ("", "failed (no message)"),
        ("AssertionError: the old content is kept\nassert [] == "
         "[HistoryEntry...imezone.utc))]", "AssertionError: the old content is kept"),
        ("AssertionError: expected\nthree lines\nof explanation\nassert "
         "x", "AssertionError: expected\nthree lines\nof explanation\nassert x"),
    ],
)
def test_short_message_keeps_the_explanation_and_drops_pytest_internals(raw, expected):
    assert short_message(raw) == expected


def test_a_long_message_is_cut_at_a_word_never_inside_one():
    message = "ValueError: " + " ".join(["budget"] * 200)
    short = short_message(message, max_chars=100)
    assert short.endswith(" …") and len(short) <= 102
    assert all(word in ("ValueError:", "budget", "…") for word in short.split()), short


def test_normalise_numbers():
    available = {"00": "ex00_warmup", "03": "ex03_policy_gate"}
    assert normalise_numbers(None, available) == ["00", "03"]
    assert normalise_numbers(["3", "03", "ex03", "ex03_policy_gate", "0"], available) == ["03", "00"]
    with pytest.raises(CourseError, match="available: 00, 03"):
        normalise_numbers(["7"], available)
    with pytest.raises(CourseError):
        normalise_numbers(["three"], available)


def test_exercises_are_discovered_from_the_graded_files(tmp_path):
    graded = tmp_path / "tests" / "graded"
    graded.mkdir(parents=True)
    for name in ("test_ex00_warmup.py", "test_ex14_new_topic.py", "conftest.py", "test_helper.py"):
        (graded / name).write_text("", encoding="utf-8")
    assert available_exercises(tmp_path) == {"00": "ex00_warmup", "14": "ex14_new_topic"}
    assert grading.title_of("ex14_new_topic") == "New topic", "an exercise without a title entry still reads well"


def test_course_root_prefers_the_folder_you_are_in(tmp_path, monkeypatch):
    """A second copy of the course must be graded when the learner works in it."""
    copy = tmp_path / "my-copy"
    (copy / "tests" / "graded").mkdir(parents=True)
    (copy / "exercises").mkdir()
    (copy / "notebooks").mkdir()
    monkeypatch.chdir(copy / "notebooks")  # where a notebook's kernel runs
    assert course_root() == copy.resolve()
    monkeypatch.chdir(tmp_path)  # outside any copy: the installed package's folder
    assert course_root() == ROOT


def test_unwritten_functions_reads_the_source_without_importing(tmp_path):
    path = tmp_path / "ex.py"
    path.write_text(
        'def a():\n    """doc"""\n    raise NotImplementedError("ex00 a: not written yet")\n'
        "def b():\n    return 1\n"
        "def c():\n    if True:\n        raise NotImplementedError\n    return 2\n"
        'import os\nos.remove("/nonexistent")  # never runs: the file is parsed, not imported\n',
        encoding="utf-8",
    )
    assert unwritten_functions(path) == ["a"]
    path.write_text("def broken(:\n", encoding="utf-8")
    assert unwritten_functions(path) == []


def _report() -> GradeReport:
    done = ExerciseScore("00", "ex00_warmup", "Warm-up", [CaseOutcome("a", True), CaseOutcome("b", True)])
    stub = ExerciseScore("01", "ex01_three_layers", "Three layers", [
        CaseOutcome("a", False, "NotImplementedError: ex01 save_checkpoint: not written yet", True),
        CaseOutcome("b", False, "NotImplementedError: ex01 finish_run: not written yet", True),
    ], unwritten=["save_checkpoint", "load_checkpoint", "finish_run"])
    partial = ExerciseScore("02", "ex02_typed_records", "Upsert", [
        CaseOutcome("test_ok", True),
        CaseOutcome("test_history", False, "AssertionError: history grows: oldest first\nassert [] == ['x']"),
        *[CaseOutcome(f"test_more_{i}", False, f"AssertionError: failure {i}") for i in range(4)],
    ])
    broken = ExerciseScore(
        "03",
        "ex03_policy_gate",
        "Gates",
        [CaseOutcome("t", False, "SyntaxError") for _ in range(4)],
        LoadProblem("SyntaxError", "invalid syntax", "/c/exercises/ex03_policy_gate.py", 60, "def f(:"),
    )
    return GradeReport("exercises", [done, stub, partial, broken], Path("/course"))


def test_terminal_table_names_the_folder_and_shows_failures_but_never_hints():
    text = format_report(_report())
    assert "graded: your work in /course/exercises" in text
    assert "2/2" in text and "100%  done" in text
    assert "0/2" in text and "not started" in text
    assert "still to write: save_checkpoint, load_checkpoint, finish_run" in text
    assert "1/6" in text and " 16%  in progress" in text
    assert "✗ test_history" in text and "AssertionError: history grows: oldest first" in text
    assert "… and 2 more failing test(s): memcourse grade 02 -v" in text, "at most 3 failures per exercise"
    assert "hint on request: memcourse hint 02" in text
    assert "overall: 3/14 tests passed (21%) · 1 of 4 exercises complete" in text
    assert "Traceback" not in text and 'File "' not in text
    assert "not written yet" not in text, "the stub's message is summarised, not repeated per test"


def test_a_load_problem_is_reported_once_with_its_message_and_line():
    text = format_report(_report())
    assert text.count("SyntaxError") == 1
    assert "SyntaxError: invalid syntax (ex03_policy_gate.py, line 60)" in text
    assert "def f(:" in text and "does not load" in text
    assert "0/4" in text


def test_no_line_of_the_terminal_table_is_cut_inside_a_word():
    long = "AssertionError: " + " ".join(f"word{i}" for i in range(80))
    report = GradeReport("exercises", [ExerciseScore("05", "ex05_x", "X", [CaseOutcome("t", False, long)])], Path("/c"))
    text = format_report(report)
    words = {w for line in text.splitlines() for w in line.split()}
    assert {f"word{i}" for i in range(80)} <= words, "every word of the message appears whole"


def test_html_view_has_bars_collapsed_failures_and_the_folder():
    page = render_html(_report())
    assert "/course/exercises" in page
    assert page.count('class="mc-row"') == 4
    assert "width:100%" in page and "width:16%" in page, "one bar per exercise, filled to its percentage"
    assert re.search(r'<details style="[^"]*"><summary[^>]*>5 failing test\(s\)</summary>', page), (
        "failures folded (closed) under their exercise")
    assert re.search(r'<details open[^>]*><summary>exercises/ex03_policy_gate.py does not load</summary>', page)
    assert "test_history" in page and "history grows: oldest first" in page
    assert "hint(&quot;NN&quot;)" in page or 'hint("NN")' in page
    assert "<script" not in page and "<style" not in page, "inline styles only: an untrusted notebook drops <style>"


def test_html_escapes_what_the_tests_print():
    report = GradeReport("exercises", [ExerciseScore("05", "ex05_x", "X", [CaseOutcome("<b>t</b>", False, "<img "
                         "src=x>")])])
    page = render_html(report)
    assert "<img src=x>" not in page and "&lt;img src=x&gt;" in page


def test_percentages_floor_so_nearly_done_is_not_done():
    score = ExerciseScore("04", "m", "t", [CaseOutcome(str(i), True) for i in range(199)] + [CaseOutcome("x", False)])
    assert score.percent == 99 and not score.complete


def test_grading_the_solutions_is_100_percent():
    report = grading.run_grading(["00", "04"], target="solutions")
    assert [e.number for e in report.exercises] == ["00", "04"]
    assert report.total >= 10 and report.passed == report.total and report.percent == 100
    assert report.folder == ROOT / "solutions"


@pytest.fixture
def shared_full_runs(monkeypatch, tmp_path_factory):
    """Grading this repository whole takes its child pytest run from the session's shared one
    (tests/graded_runs.py, also read by test_exercise_stubs.py); any other run is real."""
    real = grading.graded_junit

    def graded_junit(root, files, target, timeout):
        if Path(root).resolve() == ROOT and sorted(map(Path, files)) == GRADED_FILES:
            return shared_graded_junit(target, tmp_path_factory, timeout)
        return real(root, files, target, timeout)

    monkeypatch.setattr(grading, "graded_junit", graded_junit)


def test_grading_the_stubs_is_0_percent_with_every_exercise_listed(capsys, monkeypatch, shared_full_runs):
    monkeypatch.chdir(ROOT)
    assert grading.main(["--target", "exercises"]) == 0
    out = capsys.readouterr().out
    assert "graded: your work in" in out and "exercises" in out.splitlines()[0]
    assert "overall: 0/" in out and "(0%)" in out
    for number in available_exercises(ROOT):
        assert f"  {number}  " in out
    assert "Traceback" not in out


def test_main_refuses_unknown_exercises_and_strict_fails_when_incomplete(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    assert grading.main(["42"]) == 2
    assert "no exercise '42'" in capsys.readouterr().err
    assert grading.main(["00", "--strict"]) == 1
    assert grading.main(["00", "--strict", "--target", "solutions"]) == 0


def _copy_course(tmp_path: Path, numbers: list[str]) -> Path:
    (tmp_path / "tests" / "graded").mkdir(parents=True)
    (tmp_path / "exercises").mkdir()
    shutil.copy(ROOT / "tests" / "graded" / "conftest.py", tmp_path / "tests" / "graded" / "conftest.py")
    (tmp_path / "exercises" / "__init__.py").write_text("", encoding="utf-8")
    for number in numbers:
        (test,) = (ROOT / "tests" / "graded").glob(f"test_ex{number}_*.py")
        shutil.copy(test, tmp_path / "tests" / "graded" / test.name)
    return tmp_path


def test_a_course_copy_with_a_syntax_error_an_import_error_and_a_half_done_exercise(tmp_path):
    root = _copy_course(tmp_path, ["00", "02", "07"])
    solution = (ROOT / "solutions" / "ex02_typed_records.py").read_text(encoding="utf-8")
    buggy = solution.replace("list(old.history) + [", "[] and [")
    assert buggy != solution
    (root / "exercises" / "ex02_typed_records.py").write_text(buggy, encoding="utf-8")
    stub07 = (ROOT / "exercises" / "ex07_hybrid_fusion.py").read_text(encoding="utf-8")
    (root / "exercises" / "ex07_hybrid_fusion.py").write_text(stub07.replace("def "
            "recall_at_k(ranked", "def recall_at_k(ranked,,", 1), encoding="utf-8")
    stub00 = (ROOT / "exercises" / "ex00_warmup.py").read_text(encoding="utf-8")
    (root / "exercises" / "ex00_warmup.py").write_text(stub00 + "\nimport "
            "no_such_module_for_memcourse\n", encoding="utf-8")

    report = grading.run_grading(None, target="exercises", root=root)
    scores = report.by_number()
    assert 0 < scores["02"].passed < scores["02"].total
    assert scores["07"].load_problem.kind == "SyntaxError" and scores["07"].load_problem.line
    assert scores["00"].load_problem.kind == "ModuleNotFoundError"
    assert scores["07"].total >= 4, "the tests of a module that does not load are still counted"
    text = format_report(report)
    assert "✗ test_update_keeps_the_old_content_as_history" in text
    assert "the replaced version is kept as one HistoryEntry" in text
    assert text.count("SyntaxError") == 1 and text.count("no_such_module_for_memcourse") == 2  # message + source line
    assert f"line {scores['07'].load_problem.line}" in text
    assert "Traceback" not in text and "def test_" not in text


def test_a_file_written_without_an_encoding_fails_grading(tmp_path):
    """Graded code that opens a text file without ``encoding=`` works here and breaks on Windows."""
    root = _copy_course(tmp_path, ["01"])
    solution = (ROOT / "solutions" / "ex01_three_layers.py").read_text(encoding="utf-8")
    sloppy = solution.replace('Path(path).write_text(text, encoding="utf-8")', "Path(path).write_text(text)")
    assert sloppy != solution
    (root / "exercises" / "ex01_three_layers.py").write_text(sloppy, encoding="utf-8")
    (score,) = grading.run_grading(None, target="exercises", root=root).exercises
    assert not score.complete
    assert any("EncodingWarning" in o.message or "encoding" in o.message for o in score.failures), score.failures


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
    assert [e.number for e in report.exercises] == list(available_exercises(ROOT))
    assert report.percent == 100 and report.complete == len(report.exercises)
    assert f"overall: {report.total}/{report.total} tests passed (100%)" in format_report(report)


def test_a_test_that_times_out_says_so_in_plain_words():
    junit = """<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest" tests="1">
    <testcase classname="tests.graded.test_ex09_memories_change" name="test_chain" time="30.0">
    <failure message="Failed: Timeout (&gt;30.0s) from pytest-timeout.">+++ Timeout +++ stack ...</failure></testcase>
    </testsuite></testsuites>"""
    (outcome,) = parse_junit(junit)["ex09_memories_change"]
    assert outcome.message == "still running after 30 s: an endless loop, or a wait that never ends?"


# -- messages show the record --------------------------------------------------------------------
def test_describe_record_shows_every_field_a_gate_depends_on():
    from datetime import datetime, timezone

    from memcourse import MemoryRecord, MemoryType, Source, Status
    from memcourse.course.describe import describe_record

    now = datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)
    record = MemoryRecord(MemoryType.ENTITY, "wifi password: hunter2x", "用户的偏好", source=Source.LLM_INFERRED,
                          confidence=0.85, status=Status.SUPERSEDED, expires_at=now, user_id="mallory",
                          tags=["x"])
    text = describe_record(record, now=now)
    for part in ("entity", "subject='wifi password: hunter2x'", "content='用户的偏好'", "source=llm_inferred",
                 "confidence=0.85", "status=superseded", "expires_at=2026-03-01T12:00:00+00:00 (= now)",
                 "owner=mallory/", "tags=['x']"):
        assert part in text, (part, text)
    plain = describe_record(MemoryRecord(MemoryType.PREFERENCE, "s", "c"))
    assert plain.endswith("expires_at=None") and "owner=" not in plain and "tags=" not in plain
    later = MemoryRecord(MemoryType.EVENT, "trip", "x", expires_at=datetime(2026, 3, 1, 13, 0, tzinfo=timezone.utc))
    assert "(1 hour after now)" in describe_record(later, now=now)


def test_a_gate_failure_names_the_field_it_depends_on(tmp_path):
    """The learner's gate misses a secret in the subject, or treats expires_at == now as valid:
    the grader's message shows the subject and the expiry, which explain the failure."""
    root = _copy_course(tmp_path, ["03"])
    solution = (ROOT / "solutions" / "ex03_policy_gate.py").read_text(encoding="utf-8")
    wrong = (solution.replace(" or find_secrets(candidate.subject)", "")
             .replace("record.expires_at <= now", "record.expires_at < now"))
    assert wrong.count("find_secrets(candidate.subject)") == 0 and "expires_at < now" in wrong
    (root / "exercises" / "ex03_policy_gate.py").write_text(wrong, encoding="utf-8")
    (score,) = grading.run_grading(None, target="exercises", root=root).exercises
    messages = "\n".join(outcome.message for outcome in score.failures)
    assert "subject='wifi password: hunter2x'" in messages and "content='用户的偏好'" in messages, messages
    assert "expires_at=2026-03-01T12:00:00+00:00 (= now)" in messages, messages
    assert "source=user_stated" in messages and "status=active" in messages
