"""Short "your turn" tasks inside a notebook, each checked the moment the learner runs it.

Why: reading and running cells is passive; one exercise at the end of an hour is too late to find
out that a section did not land. Two or three small tasks in the body of each notebook (a choice
with a reason, a query to write, a number to predict and then compute) give feedback while the
idea is fresh, the way ARENA puts a test after every exercise and fast.ai ends each chapter with
questions.

How a notebook uses it. The task itself is Markdown (so the Chinese edition translates it); the
code cell holds only the learner's answer and the call::

    answer = ...          # replace ... with your answer
    your_turn("07.1", answer)

Run as it stands, the cell says the task is waiting for an answer; with an answer it prints ✓
and why, or ✗ and a nudge that does not give the answer away. ``your_turn("07.1", reveal=True)``
shows the expected answer and the reasoning. A check may need what the notebook built (a store,
a policy): pass it by keyword, ``your_turn("07.2", query, store=store)``.

The tasks live in ``memcourse.course.turns``, one module a notebook (``nb07.py`` holds the
``"07.*"`` keys). Each :class:`Turn` carries one correct example and some plausible wrong answers,
so ``tests/test_your_turn.py`` proves every check accepts the first and rejects the others.
Feedback is written in English and Chinese; :func:`memcourse.course.i18n.language` picks one.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from memcourse.course.i18n import language, t

__all__ = ["Checked", "Turn", "Verdict", "all_turns", "choice", "find_turn", "right", "wrong", "your_turn"]


@dataclass(frozen=True)
class Verdict:
    """What a check says about one answer: right or not, and the sentence to show."""

    correct: bool
    feedback: Mapping[str, str]  # {"en": ..., "zh": ...}

    def text(self) -> str:
        return self.feedback.get(language()) or self.feedback["en"]


def right(en: str, zh: str) -> Verdict:
    return Verdict(True, {"en": en, "zh": zh})


def wrong(en: str, zh: str) -> Verdict:
    return Verdict(False, {"en": en, "zh": zh})


@dataclass(frozen=True)
class Turn:
    """One task: its key (``"NN.k"``), the check, and the answers the tests try on it.

    ``check(answer, **context)`` returns a :class:`Verdict`. ``context`` names what the check
    needs from the notebook (``("store",)``): a call without them is told what to pass.
    ``example`` is a correct answer; ``wrong_answers`` are plausible mistakes the check must
    reject. ``explain`` is what ``reveal=True`` shows: the answer and why.
    """

    key: str
    check: Callable[..., Verdict]
    example: Any
    wrong_answers: tuple[Any, ...]
    explain: Mapping[str, str]
    context: tuple[str, ...] = ()
    example_context: Callable[[], dict[str, Any]] | None = field(default=None, compare=False)


def choice(key: str, correct: str, *, options: str, explain: Mapping[str, str],
           nudges: Mapping[str, tuple[str, str]]) -> Turn:
    """A multiple-choice task: the options are in the Markdown, the answer is a letter.

    ``options`` are the valid letters (``"abc"``); ``nudges`` maps each wrong letter to the
    (English, Chinese) sentence that says why it is wrong without naming the right one.
    """
    valid = options.lower()
    if correct not in valid or set(nudges) != set(valid) - {correct}:
        raise ValueError(f"{key}: every wrong option of {valid!r} needs a nudge, and {correct!r} must be one")

    def check(answer: Any) -> Verdict:
        letter = str(answer).strip().strip("()").lower()
        if letter not in valid:
            return wrong(f"answer with one letter of {', '.join(valid)}", f"请用 {', '.join(valid)} 中的一个字母作答")
        if letter == correct:
            return Verdict(True, explain)
        return wrong(*nudges[letter])

    wrongs = tuple(sorted(set(valid) - {correct})) + ("z",)
    return Turn(key=key, check=check, example=correct, wrong_answers=wrongs, explain=explain)


def _module_for(key: str) -> str:
    notebook = key.split(".", 1)[0]
    if not (len(notebook) == 2 and notebook.isdigit()):
        raise KeyError(t("A your-turn key looks like '07.1' (notebook, task); got {key!r}", key=key))
    return f"memcourse.course.turns.nb{notebook}"


def find_turn(key: str) -> Turn:
    """The task with this key, from its notebook's module."""
    try:
        module = importlib.import_module(_module_for(key))
    except ModuleNotFoundError:
        raise KeyError(t("No your-turn tasks for notebook {notebook}", notebook=key.split(".", 1)[0])) from None
    turns: dict[str, Turn] = {turn.key: turn for turn in module.TURNS}
    if key not in turns:
        known = ", ".join(sorted(turns))
        raise KeyError(t("No task {key!r}; this notebook has: {known}", key=key, known=known))
    return turns[key]


def all_turns() -> list[Turn]:
    """Every task of every notebook (the tests walk them)."""
    from memcourse.course import turns as package

    found: list[Turn] = []
    for name in package.MODULES:
        found.extend(importlib.import_module(f"{package.__name__}.{name}").TURNS)
    return found


class Checked:
    """What :func:`your_turn` returns: true when the answer was right. It shows nothing in a
    notebook (the printed verdict says it all; a bare ``False`` under "True or False?" would
    read as the answer)."""

    def __init__(self, correct: bool):
        self.correct = bool(correct)

    def __bool__(self) -> bool:
        return self.correct

    def __repr__(self) -> str:
        return f"Checked(correct={self.correct})"

    def _ipython_display_(self) -> None:
        pass


def your_turn(key: str, answer: Any = ..., *, reveal: bool = False, **context: Any) -> Checked:
    """Check the learner's answer to task ``key`` and print the verdict; true when it is right."""
    turn = find_turn(key)
    if reveal:
        print(t("Task {key}, the answer:", key=key), turn.explain.get(language()) or turn.explain["en"])
        return Checked(False)
    if answer is ...:
        print(t("✎ Task {key} is waiting for your answer: replace the ... in this cell, then run it again.",
                key=key))
        return Checked(False)
    missing = [name for name in turn.context if name not in context]
    if missing:
        print(t("Task {key} also needs {names} from the notebook: your_turn({key!r}, answer, {call})",
                key=key, names=", ".join(missing), call=", ".join(f"{n}={n}" for n in missing)))
        return Checked(False)
    try:
        verdict = turn.check(answer, **context)
    except Exception as error:  # the learner's answer may be any value; say what went wrong
        print(t("✗ Task {key}: checking your answer raised {kind}: {error}", key=key,
                kind=type(error).__name__, error=error))
        return Checked(False)
    mark = "✓" if verdict.correct else "✗"
    print(f"{mark} {key}: {verdict.text()}")
    return Checked(verdict.correct)
