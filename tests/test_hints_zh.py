"""The Chinese hints and exercise statements (``MEMCOURSE_LANG=zh``).

Chinese hints live in ``exercises/hints/zh/exNN_<topic>.md``, in the format of the English ones
(``memcourse/course/hints.py``): the same ``## function`` sections, each with levels 1, 2 and 3,
and no code blocks (a hint that is a code block is the answer). Each stub's docstring carries a
Chinese paragraph (``中文说明``) under the English statement. An exercise without either fails
here by name until it is translated; the hint command falls back to English meanwhile.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from memcourse.course.hints import hints_path, parse_hints

ROOT = Path(__file__).resolve().parent.parent
STUBS = sorted((ROOT / "exercises").glob("ex[0-9][0-9]_*.py"))
IDS = [stub.stem for stub in STUBS]
_CJK = re.compile(r"[\u4e00-\u9fff]")


def _sections(path: Path) -> dict[str, list[int]]:
    return {name: sorted(levels) for name, levels in parse_hints(path.read_text(encoding="utf-8")).items()}


@pytest.mark.parametrize("stub", STUBS, ids=IDS)
def test_chinese_hints_have_the_english_sections_and_levels(stub):
    english, chinese = hints_path(ROOT, stub.stem), hints_path(ROOT, stub.stem, "zh")
    assert chinese.is_file(), (
        f"no Chinese hints yet: write {chinese.relative_to(ROOT)} (same sections as {english.name})"
    )
    assert _sections(chinese) == _sections(english), (
        f"{chinese.relative_to(ROOT)} must have the sections and levels of {english.name}: "
        f"{_sections(english)}, has {_sections(chinese)}")
    text = chinese.read_text(encoding="utf-8")
    assert "```" not in text, f"{chinese.name}: no code blocks in hints"
    empty = [f"{name} level {level}" for name, levels in parse_hints(text).items()
             for level, hint in levels.items() if not _CJK.search(hint)]
    assert not empty, f"{chinese.name}: levels with no Chinese text: {empty}"


@pytest.mark.parametrize("stub", STUBS, ids=IDS)
def test_stub_docstring_has_a_chinese_paragraph(stub):
    docstring = ast.get_docstring(ast.parse(stub.read_text(encoding="utf-8"))) or ""
    english, _, chinese = docstring.partition("中文说明")
    assert chinese and _CJK.search(chinese), (
        f"{stub.name}: add a Chinese paragraph starting with 中文说明 under the English statement")
    assert english.strip(), f"{stub.name}: the English statement comes first"
