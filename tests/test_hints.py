"""memcourse.course.hints: hints on request, level by level, never cut, never in the grade table."""

from __future__ import annotations

from pathlib import Path

import pytest

from memcourse.cli import main as cli_main
from memcourse.course.hints import format_hints, hint, load_hints, parse_hints
from memcourse.course.layout import CourseError

ROOT = Path(__file__).resolve().parent.parent

SAMPLE = """# Hints · ex99

Intro text that is not a hint.

## first_function

### 1
A nudge.

### 2
- step one, which is long enough that it has to wrap onto a second line when the width is small
- step two

### 3
Close to `the answer`.

## `second`

### Level 1
Only a nudge here.
"""


def test_parse_hints_reads_functions_and_levels():
    hints = parse_hints(SAMPLE)
    assert list(hints) == ["first_function", "second"]
    assert hints["first_function"][1] == "A nudge."
    assert hints["first_function"][3] == "Close to `the answer`."
    assert hints["second"] == {1: "Only a nudge here."}


def _hints(tmp_path: Path):
    (tmp_path / "tests" / "graded").mkdir(parents=True)
    (tmp_path / "tests" / "graded" / "test_ex99_sample.py").write_text("", encoding="utf-8")
    (tmp_path / "exercises" / "hints").mkdir(parents=True)
    (tmp_path / "exercises" / "hints" / "ex99_sample.md").write_text(SAMPLE, encoding="utf-8")
    return load_hints("99", root=tmp_path)


def test_levels_are_shown_one_at_a_time_with_the_way_to_the_next(tmp_path):
    hints = _hints(tmp_path)
    one = format_hints(hints, level=1)
    assert "A nudge." in one and "Only a nudge here." in one
    assert "step one" not in one and "the answer" not in one, "level 1 does not give away level 2 or 3"
    assert "memcourse hint 99 --level 2" in one
    three = format_hints(hints, level=3, function="first_function")
    assert "Close to `the answer`." in three and "second" not in three
    assert "solutions/ex99_sample.py" in three


def test_hints_wrap_at_words_and_never_cut_one(tmp_path):
    text = format_hints(_hints(tmp_path), level=2, width=40)
    words = text.split()
    for word in "step one, which is long enough that it has to wrap onto a second line".split():
        assert word in words
    body = [line for line in text.splitlines() if line.startswith("  ")]
    assert body and all(len(line) <= 40 for line in body), "hint text is wrapped to the width"
    assert "…" not in text


def test_unknown_function_level_or_exercise_is_a_clear_error(tmp_path):
    hints = _hints(tmp_path)
    with pytest.raises(CourseError, match="no function 'nope'.*first_function, second"):
        format_hints(hints, function="nope")
    with pytest.raises(CourseError, match="level must be 1, 2 or 3"):
        format_hints(hints, level=4)
    with pytest.raises(CourseError, match="no exercise '42'"):
        load_hints("42", root=tmp_path)


def test_every_real_exercise_with_a_hints_file_gives_three_levels_per_function():
    for path in sorted((ROOT / "exercises" / "hints").glob("ex*.md")):
        hints = parse_hints(path.read_text(encoding="utf-8"))
        assert hints, f"{path.name} has no '## function' sections"
        for name, levels in hints.items():
            assert sorted(levels) == [1, 2, 3], f"{path.name}: {name} needs levels 1, 2 and 3"
            assert all(levels[level].strip() for level in levels), f"{path.name}: {name} has an empty level"


def test_memcourse_hint_command(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    assert cli_main(["hint", "07", "--level", "2"]) == 0
    out = capsys.readouterr().out
    assert "level 2 of 3" in out and "rrf_fuse" in out and "--level 3" in out
    assert cli_main(["hint", "07", "rrf_fuse"]) == 0
    assert "recall_at_k" not in capsys.readouterr().out
    assert cli_main(["hint", "42"]) == 2
    assert "no exercise '42'" in capsys.readouterr().err


def test_hint_in_a_plain_python_session_prints(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    hint("07")
    out = capsys.readouterr().out
    assert "level 1 of 3" in out and "rrf_fuse" in out


def test_in_a_notebook_hints_are_markdown_with_the_way_to_the_next_level(tmp_path):
    from memcourse.course.hints import _as_markdown

    text = _as_markdown(_hints(tmp_path), level=2, function=None)
    assert "**Hints for ex99, level 2 of 3**" in text
    assert "**`first_function`**\n\n- step one" in text, "a list hint starts on its own line, under its function"
    assert 'hint("99", level=3)' in text


def test_without_a_number_the_learner_gets_the_list_of_exercises_not_an_error(capsys, monkeypatch):
    """Notebooks and the progress panel say "use hint()": called bare, it lists what to ask for."""
    monkeypatch.chdir(ROOT)
    hint()
    out = capsys.readouterr().out
    assert 'hint("03")' in out and "memcourse hint 03" in out
    assert "03  exercises/ex03_policy_gate.py" in out and "16  exercises/ex16_" in out
    assert cli_main(["hint"]) == 0
    assert "exercises/ex07_" in capsys.readouterr().out
