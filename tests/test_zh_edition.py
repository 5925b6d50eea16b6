"""The Chinese edition is built from one source and is never stale (scripts/build_zh.py).

- every markdown cell of every English notebook has a translation whose ``en_sha256`` is the
  hash of that cell's text now (parametrised per notebook: a failure names the notebook and
  each missing or stale cell);
- the committed ``notebooks/zh/*.ipynb`` equal a fresh build, and their code cells (source,
  outputs, ids, execution counts) are byte-identical to the English ones: nbval does not run
  the Chinese notebooks (pyproject ignores ``notebooks/zh``), because this proves they carry
  exactly the code and outputs that nbval checks in the English edition;
- every measured figure of an English cell (a decimal, a percentage, a number of three or more
  digits) appears in its translation: "numbers exactly as the English".
"""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location("build_zh", ROOT / "scripts" / "build_zh.py")
build_zh = importlib.util.module_from_spec(spec)
spec.loader.exec_module(build_zh)

ENGLISH = build_zh.english_notebooks()
IDS = [path.stem for path in ENGLISH]
_FIGURE = re.compile(r"(?<![\w.])\d+\.\d+(?![\w.])|\d+(?:\.\d+)?%|(?<![\w.])\d{3,}(?![\w.])")


def _english(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def test_there_is_a_notebook_per_translation_file():
    stems = {path.stem for path in ENGLISH}
    orphans = sorted(p.name for p in build_zh.TRANSLATIONS.glob("*.json") if p.stem not in stems)
    assert not orphans, f"translation files for notebooks that do not exist: {orphans}"


@pytest.mark.parametrize("notebook", ENGLISH, ids=IDS)
def test_every_markdown_cell_has_a_fresh_translation(notebook):
    found = build_zh.problems(_english(notebook), build_zh.load_translation(notebook), notebook.name)
    assert not found, "translate (or re-translate) these cells, then run scripts/build_zh.py:\n" + "\n".join(found)


@pytest.mark.parametrize("notebook", ENGLISH, ids=IDS)
def test_committed_chinese_notebook_equals_a_fresh_build(notebook):
    built = build_zh.build(notebook)  # raises, naming cells, while the translation is incomplete
    target = build_zh.OUTPUT / notebook.name
    assert target.is_file(), f"notebooks/zh/{notebook.name} is not committed: run scripts/build_zh.py"
    assert target.read_text(encoding="utf-8") == built, (
        f"notebooks/zh/{notebook.name} differs from a fresh build: run scripts/build_zh.py and commit it")


@pytest.mark.parametrize("notebook", ENGLISH, ids=IDS)
def test_chinese_code_cells_are_the_english_ones(notebook):
    target = build_zh.OUTPUT / notebook.name
    assert target.is_file(), f"notebooks/zh/{notebook.name} is not built yet"
    english, chinese = _english(notebook), json.loads(target.read_text(encoding="utf-8"))
    assert [c["id"] for c in chinese["cells"]] == [c["id"] for c in english["cells"]], "cell ids or order differ"
    assert [c["cell_type"] for c in chinese["cells"]] == [c["cell_type"] for c in english["cells"]]
    for en, zh in zip(english["cells"], chinese["cells"], strict=True):
        if en["cell_type"] != "markdown":
            assert json.dumps(zh, sort_keys=True) == json.dumps(en, sort_keys=True), f"{en['id']} differs"
    extra = {k: v for k, v in chinese["metadata"].items() if k != "memcourse_edition"}
    assert extra == english["metadata"], "notebook metadata differs beyond the edition marker"


@pytest.mark.parametrize("notebook", ENGLISH, ids=IDS)
def test_translations_keep_every_measured_figure(notebook):
    translation = build_zh.load_translation(notebook)
    missing = []
    for cell in _english(notebook)["cells"]:
        entry = translation["cells"].get(cell["id"])
        if cell["cell_type"] != "markdown" or entry is None:
            continue
        text = re.sub(r"`[^`]*`", "", build_zh.cell_text(cell))  # code spans are copied as they are
        gone = sorted({f for f in _FIGURE.findall(text) if f not in entry["zh"]})
        if gone:
            missing.append(f"{cell['id']}: {', '.join(gone)}")
    assert not missing, f"{notebook.name}: figures of the English text missing from the translation:\n" + "\n".join(
        missing
    )


def test_stale_and_missing_translations_are_named(tmp_path):
    """The rule itself: a changed English cell makes its translation stale; an absent one is missing."""
    english = {"cells": [
        {"cell_type": "markdown", "id": "a", "metadata": {}, "source": ["# One\n", "two"]},
        {"cell_type": "markdown", "id": "b", "metadata": {}, "source": "three"},
        {"cell_type": "code", "id": "c", "metadata": {}, "source": "x = 1", "outputs": [], "execution_count": 1},
    ], "metadata": {}}
    fresh = {"en_sha256": build_zh.cell_sha256(english["cells"][0]), "zh": "# 一\n二"}
    translation = {"notebook": "99_x.ipynb", "cells": {"a": fresh}}
    assert build_zh.problems(english, translation, "99_x.ipynb") == ["99_x.ipynb b: missing translation"]
    english["cells"][0]["source"] = ["# One\n", "two!"]
    translation["cells"]["b"] = {"en_sha256": build_zh.cell_sha256(english["cells"][1]), "zh": "三"}
    assert build_zh.problems(english, translation, "99_x.ipynb") == [
        "99_x.ipynb a: stale translation (the English cell changed since it was translated)"]
    with pytest.raises(build_zh.TranslationError, match="99_x.ipynb a: stale"):
        build_zh.build_notebook(english, translation, "99_x.ipynb")
    english["cells"][0]["source"] = ["# One\n", "two"]
    built = build_zh.build_notebook(english, translation, "99_x.ipynb")
    assert built["cells"][0]["source"] == ["# 一\n", "二"] and built["cells"][2] == english["cells"][2]


def test_links_are_rebased_for_the_zh_folder():
    name = ENGLISH[0].name
    text = f"[d](../docs/security.md) [n]({ENGLISH[1].name}) [e](../{name}) [u](https://example.org/x)"
    assert build_zh.rebase_links(text, name, "x") == (
        f"[d](../../docs/security.md) [n]({ENGLISH[1].name}) [e](../{name}) [u](https://example.org/x)")
    with pytest.raises(build_zh.TranslationError, match="no-such-file"):
        build_zh.rebase_links("[x](no-such-file.md)", name, "x")


def test_build_check_fails_naming_what_is_missing(capsys):
    assert build_zh.main(["--check", *[p.name[:2] for p in ENGLISH]]) in (0, 1)
    err = capsys.readouterr().err
    for path in ENGLISH:
        if build_zh.problems(_english(path), build_zh.load_translation(path), path.name):
            assert path.name in err
