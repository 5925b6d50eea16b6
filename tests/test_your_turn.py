"""The "your turn" tasks inside the notebooks: each check accepts its example, rejects plausible
mistakes, speaks both languages, and every notebook has at least two tasks that resolve."""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

from memcourse.course import inline_tasks as module
from memcourse.course.inline_tasks import all_turns, choice, find_turn, your_turn

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("[0-9][0-9]_*.ipynb"))
CALL = re.compile(r"""your_turn\(\s*["'](\d\d\.\d+)["']""")
TURNS = all_turns()


def _context(turn):
    return turn.example_context() if turn.example_context else {}


@pytest.mark.parametrize("turn", TURNS, ids=lambda turn: turn.key)
def test_the_example_passes_and_every_wrong_answer_fails(turn):
    verdict = turn.check(turn.example, **_context(turn))
    assert verdict.correct, f"{turn.key}: its own example is judged wrong: {verdict.feedback}"
    assert turn.wrong_answers, f"{turn.key}: no wrong answers to prove the check rejects anything"
    for answer in turn.wrong_answers:
        verdict = turn.check(answer, **_context(turn))
        assert not verdict.correct, f"{turn.key}: the wrong answer {answer!r} is accepted"
        assert verdict.feedback["en"].strip() and verdict.feedback["zh"].strip()


@pytest.mark.parametrize("turn", TURNS, ids=lambda turn: turn.key)
def test_feedback_and_explanation_in_both_languages(turn, monkeypatch):
    assert set(turn.explain) == {"en", "zh"} and all(text.strip() for text in turn.explain.values())
    assert re.search(r"[\u4e00-\u9fff]", turn.explain["zh"]), f"{turn.key}: the Chinese explanation is not Chinese"
    monkeypatch.setenv("MEMCOURSE_LANG", "zh")
    verdict = turn.check(turn.example, **_context(turn))
    assert verdict.text() == verdict.feedback["zh"]


def test_an_unanswered_task_waits_and_reveal_shows_the_answer(capsys):
    assert not your_turn("00.1")
    assert "waiting for your answer" in capsys.readouterr().out
    your_turn("00.1", reveal=True)
    assert find_turn("00.1").explain["en"] in capsys.readouterr().out
    assert your_turn("00.1", True)
    assert capsys.readouterr().out.startswith("✓ 00.1")


def test_a_check_that_raises_is_reported_not_raised(capsys, monkeypatch):
    turn = module.Turn(key="00.9", check=lambda answer: 1 / 0, example=1, wrong_answers=(2,),
                       explain={"en": "", "zh": ""})
    monkeypatch.setattr(module, "find_turn", lambda key: turn)
    assert not module.your_turn("00.9", 5)
    assert "ZeroDivisionError" in capsys.readouterr().out


def test_missing_context_is_named(capsys, monkeypatch):
    turn = module.Turn(key="00.9", check=lambda answer, store: module.right("", ""), example=1, wrong_answers=(),
                       explain={"en": "", "zh": ""}, context=("store",))
    monkeypatch.setattr(module, "find_turn", lambda key: turn)
    assert not module.your_turn("00.9", 5)
    assert "store=store" in capsys.readouterr().out


def test_unknown_keys_are_clear_errors():
    with pytest.raises(KeyError, match="07.1"):
        find_turn("7.1")
    with pytest.raises(KeyError, match="00.1"):
        find_turn("00.99")


def test_choice_needs_a_nudge_for_every_wrong_option():
    with pytest.raises(ValueError, match="nudge"):
        choice("00.9", "a", options="abc", explain={"en": "x", "zh": "x"}, nudges={"b": ("no", "不")})


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.stem)
def test_each_notebook_has_two_tasks_that_resolve_and_no_orphans(path):
    nb = nbformat.read(path, as_version=4)
    called = [key for cell in nb.cells if cell.cell_type == "code" for key in CALL.findall(cell.source)]
    number = path.name[:2]
    assert len(set(called)) >= 2, f"{path.name}: {len(set(called))} your-turn task(s); the course wants at least two"
    for key in called:
        assert key.startswith(number + "."), f"{path.name} calls {key}, a task of another notebook"
        find_turn(key)
    defined = {turn.key for turn in TURNS if turn.key.startswith(number + ".")}
    assert defined == set(called), f"{path.name}: tasks defined but never asked: {sorted(defined - set(called))}"
    first_call = min(index for index, cell in enumerate(nb.cells) if CALL.search(cell.source))
    imports = [index for index, cell in enumerate(nb.cells)
               if cell.cell_type == "code" and re.search(r"import [^\n]*\byour_turn\b", cell.source)]
    assert imports and imports[0] < first_call, f"{path.name}: your_turn is called before it is imported"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.stem)
def test_each_task_is_asked_in_markdown_just_above_it(path):
    """The task is prose (translated in the Chinese edition); the code cell holds only the answer."""
    nb = nbformat.read(path, as_version=4)
    for index, cell in enumerate(nb.cells):
        for key in CALL.findall(cell.source) if cell.cell_type == "code" else ():
            above = nb.cells[index - 1]
            assert above.cell_type == "markdown" and f"Your turn {key}" in above.source, (
                f"{path.name}: the markdown cell above your_turn({key!r}) should start '**Your turn {key}.**'")


def test_the_result_shows_nothing_in_a_notebook():
    """IPython calls _ipython_display_ instead of printing the repr: no stray False under a task."""
    result = your_turn("00.1", False)
    assert not result and result._ipython_display_() is None and "correct=False" in repr(result)
