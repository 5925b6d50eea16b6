"""Numbers that name a notebook, an exercise or a task stay right in both editions.

Renumbering notebooks (07 was split, 08-15 became 09-16) is the moment these go stale: a
notebook whose title, ``hint("NN")``, ``memcourse grade NN``, "Done when" or task labels still
carry its old number sends the learner to the wrong exercise. The Chinese translations are
pinned to the English text, so a renumbering that updates the pins without the Chinese text
passes the staleness check; here each translated cell must name the same notebooks, exercises
and tasks as the English cell it translates.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ENGLISH = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
CHINESE = sorted((ROOT / "notebooks" / "zh").glob("[0-9][0-9]_*.ipynb"))

#: Places where a notebook can only mean itself: its title, its hint and grade commands, its
#: own "Done when" line, its own in-notebook tasks, its progress cell and its scratch folder.
OWN_NUMBER = [
    re.compile(r"^#\s+(\d\d)\s+·", re.M),
    re.compile(r"\bhint\(\"(\d\d)\"\)"),
    re.compile(r"memcourse (?:grade|hint) (\d\d)\b"),
    re.compile(r"\*\*Done (?:when|looks like):\*\*[^\n]*?\b(?:exercise )?(\d\d)\b"),
    re.compile(r"\*\*完成标准：\*\*[^\n]*?(?<!\d)(\d\d)(?!\d)"),
    re.compile(r"\b(?:Task|Your turn) (\d\d)\.\d"),
    re.compile(r"任务 ?(\d\d)\.\d"),
    re.compile(r"your_turn\(\"(\d\d)\.\d"),
    re.compile(r"show_progress\(\[\"(\d\d)\"\]"),
    re.compile(r"scratch_dir\(\"memcourse-(\d\d)-"),
]

#: References to other notebooks, exercises and tasks, per language.
_GLOSS = r"(?:\s*[（(][^）)\n]{0,80}[）)])?"  # "07 (Chroma hybrid recall)", "07（Chroma 混合召回）"
_LIST = r"(\d\d)" + _GLOSS + r"((?:\s*(?:,|、|，|and|or|和|与|及|或|–|-|to|至|到)\s*\d\d" + _GLOSS + r")*)"
REFERENCES = {
    "en": {
        "notebook": re.compile(r"\bnotebooks?\s+" + _LIST, re.I),
        "exercise": re.compile(r"\bexercises?\s+" + _LIST, re.I),
        "task": re.compile(r"\b(?:tasks?|your turn)\s+(\d\d\.\d)", re.I),
    },
    "zh": {
        "notebook": re.compile(r"(?:笔记本|notebook)\s*" + _LIST, re.I),
        "exercise": re.compile(r"(?:练习|exercise)\s*" + _LIST, re.I),
        "task": re.compile(r"(?:任务|task|your turn)\s*(\d\d\.\d)", re.I),
    },
}


def own_number_problems(path: Path) -> list[str]:
    number = path.name[:2]
    notebook = json.loads(path.read_text(encoding="utf-8"))
    problems = []
    for cell in notebook["cells"]:
        text = "".join(cell["source"])
        for pattern in OWN_NUMBER[:1] if number == "00" else OWN_NUMBER:  # 00 shows exercise 03 as the example
            for match in pattern.finditer(text):
                if match.group(1) != number:
                    problems.append(f"{path.name} {cell['id']}: “{match.group(0)}” names {match.group(1)}")
    return problems


def referenced(text: str, language: str) -> dict[str, set[str]]:
    """{kind: numbers} a text refers to: "notebooks 06 and 07" gives {"06", "07"}."""
    found: dict[str, set[str]] = {}
    for kind, pattern in REFERENCES[language].items():
        numbers = found.setdefault(kind, set())
        for match in pattern.finditer(text):
            listed = re.sub(r"[（(][^）)]*[）)]", " ", match.group(0))  # a gloss's own numbers are not references
            numbers.update(re.findall(r"\d\d(?:\.\d)?" if kind == "task" else r"(?<!\d)\d\d(?!\d)", listed))
    return found


@pytest.mark.parametrize("path", ENGLISH + CHINESE, ids=lambda p: str(p.relative_to(ROOT / "notebooks")))
def test_a_notebook_names_itself_by_its_own_number(path):
    assert not own_number_problems(path), "\n".join(own_number_problems(path))


@pytest.mark.parametrize("path", ENGLISH, ids=lambda p: p.stem)
def test_a_translation_refers_to_the_notebooks_exercises_and_tasks_its_english_does(path):
    english = {cell["id"]: "".join(cell["source"]) for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]}
    translation = ROOT / "notebooks" / "translations" / "zh" / f"{path.stem}.json"
    cells = json.loads(translation.read_text(encoding="utf-8"))["cells"]
    problems = []
    for cell_id, entry in cells.items():
        en, zh = referenced(english.get(cell_id, ""), "en"), referenced(entry["zh"], "zh")
        for kind in en:
            if zh[kind] - en[kind]:
                problems.append(f"{cell_id}: the Chinese names {kind} {sorted(zh[kind] - en[kind])}, "
                                f"the English {sorted(en[kind])}")
    assert not problems, f"{translation.relative_to(ROOT)}:\n" + "\n".join(problems)


def test_the_checks_catch_a_stale_number(tmp_path):
    stale = tmp_path / "12_production.ipynb"
    stale.write_text(json.dumps({"cells": [
        {"id": "a", "cell_type": "markdown", "source": ["# 11 · Production\n", "Run `hint(\"11\")`."]},
        {"id": "b", "cell_type": "markdown", "source": ["**完成标准：** 11 达到 100%"]},
        {"id": "c", "cell_type": "code",
         "source": ["WORK = scratch_dir(\"memcourse-11-\")\n", "show_progress([\"11\"])"]},
    ]}), encoding="utf-8")
    assert len([p for p in own_number_problems(stale) if "names 11" in p]) == 5
    assert referenced("see notebooks 06 and 07, exercise 03, task 01.2", "en") == {
        "notebook": {"06", "07"}, "exercise": {"03"}, "task": {"01.2"}}
    glossed = "笔记本 05（安全的存储）、07（Chroma 混合召回）和 11（智能体）"
    assert referenced(glossed, "zh")["notebook"] == {"05", "07", "11"}
    assert referenced("见笔记本 06 和 07、练习 03 与任务 01.2", "zh") == {
        "notebook": {"06", "07"}, "exercise": {"03"}, "task": {"01.2"}}
