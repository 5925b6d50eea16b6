"""Hints on request, one level at a time: ``memcourse hint 07 [FUNCTION] [--level 1|2|3]``.

A hint shown before the learner has tried is an answer, so nothing prints hints unasked:
``memcourse grade`` and the progress view only point here. Level 1 is a nudge (which idea, which
part of the notebook), level 2 names the steps, level 3 is close to the answer.

Where hints live (one Markdown file per exercise, next to the exercises)::

    exercises/hints/ex07_hybrid_fusion.md

    # Hints · ex07

    ## rrf_fuse

    ### 1
    A nudge, in a sentence or two.

    ### 2
    The steps.

    ### 3
    Close to the answer.

    ## recall_at_k
    ...

In Chinese (``MEMCOURSE_LANG=zh``, or a Chinese locale: see :mod:`memcourse.course.i18n`), the
hints come from ``exercises/hints/zh/exNN_<topic>.md``, in the same format with the same sections
and levels (``tests/test_hints_zh.py`` checks that); an exercise without Chinese hints yet shows
the English ones, saying so.

Every public function of ``exercises/exNN_<topic>.py`` has a ``## name`` section with the three
levels; ``tests/test_exercise_stubs.py`` checks that. Write prose, ``- `` items and `inline code`
(no code blocks: a hint that is a code block is the answer). Text outside the sections is ignored.

From a notebook: ``from memcourse.course import hint``, then ``hint("07")`` or
``hint("07", "rrf_fuse", level=2)``.
"""

from __future__ import annotations

import argparse
import re
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

from memcourse.course.i18n import language, t
from memcourse.course.layout import CourseError, available_exercises, course_root, normalise_numbers

LEVELS = (1, 2, 3)
LEVEL_NAMES = {1: "a nudge", 2: "the steps", 3: "close to the answer"}
_FUNCTION = re.compile(r"^##\s+`?([A-Za-z_]\w*)`?\s*$", re.MULTILINE)
_LEVEL = re.compile(r"^###\s+(?:level\s+)?([1-3])\s*$", re.MULTILINE | re.IGNORECASE)


@dataclass
class ExerciseHints:
    number: str
    module: str
    path: Path
    functions: dict[str, dict[int, str]]  # function -> {level: text}
    fallback: bool = False  # the learner's language has no hints for this exercise: these are English


def hints_path(root: Path, module: str, lang: str = "en") -> Path:
    """``exercises/hints/<module>.md`` (English) or ``exercises/hints/<lang>/<module>.md``."""
    folder = root / "exercises" / "hints"
    return folder / f"{module}.md" if lang == "en" else folder / lang / f"{module}.md"


def parse_hints(text: str) -> dict[str, dict[int, str]]:
    """``{"rrf_fuse": {1: "...", 2: "...", 3: "..."}}`` from a hints file's Markdown."""
    functions: dict[str, dict[int, str]] = {}
    heads = list(_FUNCTION.finditer(text))
    for index, head in enumerate(heads):
        end = heads[index + 1].start() if index + 1 < len(heads) else len(text)
        body = text[head.end():end]
        levels = list(_LEVEL.finditer(body))
        functions[head.group(1)] = {
            int(level.group(1)): body[level.end():(levels[i + 1].start() if i + 1 < len(levels) else len(body))].strip()
            for i, level in enumerate(levels)
        }
    return functions


def load_hints(number: str, *, root: Path | None = None) -> ExerciseHints:
    root = root or course_root()
    available = available_exercises(root)
    (number,) = normalise_numbers([number], available)
    module = available[number]
    path, fallback = hints_path(root, module, language()), False
    if not path.is_file() and language() != "en":
        path, fallback = hints_path(root, module), True
    if not path.is_file():
        raise CourseError(t("no hints for ex{number} yet (expected {path})", number=number, path=path))
    return ExerciseHints(number, module, path, parse_hints(path.read_text(encoding="utf-8")), fallback)


def level_name(level: int) -> str:
    return t(LEVEL_NAMES[level])


def _fallback_note(hints: ExerciseHints) -> list[str]:
    return [t("(no hints in your language for ex{number} yet: these are the English ones)", number=hints.number)] \
        if hints.fallback else []


def format_hints(hints: ExerciseHints, *, level: int = 1, function: str | None = None, width: int = 88) -> str:
    """The hints of one level, wrapped at word boundaries (never cut), with how to get more."""
    if level not in LEVELS:
        raise CourseError(t("level must be 1, 2 or 3, got {level!r}", level=level))
    names = list(hints.functions)
    if function is not None:
        if function not in hints.functions:
            raise CourseError(t("ex{number} has no function {function!r}; hints exist for: {names}",
                                number=hints.number, function=function, names=", ".join(names)))
        names = [function]
    lines = [t("Hints for ex{number} ({module}.py), level {level} of 3: {name}", number=hints.number,
               module=hints.module, level=level, name=level_name(level)), *_fallback_note(hints), ""]
    for name in names:
        text = hints.functions[name].get(level) or t("(no hint at this level)")
        lines.append(f"{name}:")
        lines.extend(_wrap(text, width=width, indent="  "))
        lines.append("")
    if level < 3:
        more = f"memcourse hint {hints.number}{' ' + function if function else ''} --level {level + 1}"
        lines.append(t("Still stuck after trying? {command}", command=more))
    else:
        lines.append(t("The reference answer is solutions/{module}.py (compare after your own attempt).",
                       module=hints.module))
    return "\n".join(lines)


def _wrap(text: str, *, width: int, indent: str) -> list[str]:
    """Wrap each paragraph and each ``- `` list item at word boundaries; never cut a word."""
    out: list[str] = []
    for paragraph in re.split(r"\n\s*\n", text):
        for item in re.split(r"\n(?=\s*- )", paragraph):
            bullet = item.lstrip().startswith("- ")
            out.extend(textwrap.wrap(
                " ".join(item.split()), width=width, initial_indent=indent,
                subsequent_indent=indent + ("  " if bullet else ""),
                break_long_words=False, break_on_hyphens=False,
            ))
        out.append("")
    while out and not out[-1]:
        out.pop()
    return out


def exercise_menu(*, root: Path | None = None) -> str:
    """What ``hint()`` without a number shows: every exercise, and how to ask for its hints."""
    lines = [t('Which exercise? Give its number: hint("03") in a notebook, memcourse hint 03 in a terminal '
               '(more help: level=2 or --level 2).'), ""]
    exercises = available_exercises(root or course_root())
    lines += [f"  {number}  exercises/{module}.py" for number, module in exercises.items()]
    return "\n".join(lines)


def hint(number: str | None = None, function: str | None = None, *, level: int = 1) -> None:
    """For notebooks: show one level of hints for an exercise (as Markdown when in Jupyter);
    without a number, the list of exercises to choose from."""
    if number is None:
        print(exercise_menu())
        return
    hints = load_hints(number)
    text = format_hints(hints, level=level, function=function)
    try:
        from IPython import get_ipython
        from IPython.display import Markdown, display
    except ImportError:
        get_ipython = None
    if get_ipython is not None and get_ipython() is not None:
        display(Markdown(_as_markdown(hints, level=level, function=function)))
    else:
        print(text)


def _as_markdown(hints: ExerciseHints, *, level: int, function: str | None) -> str:
    names = [function] if function else list(hints.functions)
    parts = [t("**Hints for ex{number}, level {level} of 3** ({name})", number=hints.number, level=level,
               name=level_name(level)), *_fallback_note(hints)]
    for name in names:
        parts.append(f"**`{name}`**\n\n" + (hints.functions[name].get(level) or t("(no hint at this level)")))
    if level < 3:
        call = f'hint("{hints.number}"{", " + repr(function) if function else ""}, level={level + 1})'
        parts.append(t("Still stuck after trying? {command}", command=f"`{call}`"))
    else:
        parts.append(t("The reference answer is `solutions/{module}.py`, for after your own attempt.",
                       module=hints.module))
    return "\n\n".join(parts)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="memcourse hint",
        description=t("Show a hint for an exercise: level 1 is a nudge, level 3 is close to the answer."),
    )
    parser.add_argument("number", metavar="NN", nargs="?", default=None,
                        help=t("exercise number, e.g. 07 (none: the list of exercises)"))
    parser.add_argument("function", nargs="?", default=None, help=t("only this function's hint"))
    parser.add_argument("--level", type=int, choices=LEVELS, default=1, help=t("1 (default), 2 or 3"))
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        if args.number is None:
            print(exercise_menu())
            return 0
        print(format_hints(load_hints(args.number), level=args.level, function=args.function))
    except CourseError as error:
        print(f"memcourse hint: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
