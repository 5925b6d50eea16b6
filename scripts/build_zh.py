"""Build the Chinese edition (``notebooks/zh/``) from the English notebooks and their translations.

One source, two languages. The English notebooks are the source of everything a learner runs:
code cells, their outputs, cell ids and notebook metadata are copied from them *verbatim* into
the Chinese notebooks. Only prose is translated, and a translation is keyed by cell, never by
position, and pinned to the exact English text it translates::

    notebooks/translations/zh/07_hybrid_recall_chroma.json
    {"notebook": "07_hybrid_recall_chroma.ipynb",
     "cells": {"cell-00": {"en_sha256": "<sha256 of the English cell's text>", "zh": "# 07 · …"}}}

The staleness rule: a translation counts only while its ``en_sha256`` equals the SHA-256 of the
English markdown cell's text (``"".join(cell["source"])``, UTF-8) *now*. Edit an English
sentence and its translation is stale: the build refuses (exit status 1) and names the notebook
and cell, so a Chinese reader never reads last month's lesson next to this month's code.

Links: a translation is written with the English cell's links (relative to ``notebooks/``). The
built notebook lives one folder deeper, so a link that leaves ``notebooks/`` (``../docs/x.md``)
gets one more ``../``; a link to a course notebook (``09_memories_change.ipynb``) stays as it is
and opens the Chinese one next to it; a link that already works from ``notebooks/zh/`` (such as
``../00_start_here.ipynb``, the English edition) is kept. A link that resolves from neither
place fails the build.

Usage::

    python scripts/build_zh.py            # write notebooks/zh/*.ipynb (all notebooks)
    python scripts/build_zh.py 00 07      # only these
    python scripts/build_zh.py --check    # build in memory, compare with the committed files
"""

from __future__ import annotations

import argparse
import copy
import hashlib
import json
import os
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
TRANSLATIONS = NOTEBOOKS / "translations" / "zh"
OUTPUT = NOTEBOOKS / "zh"
EDITION = {"language": "zh-CN", "built_by": "scripts/build_zh.py"}
_LINK = re.compile(r"(\]\(|<img [^>]*src=\")([^)\s\"]+)")


class TranslationError(RuntimeError):
    """A translation is missing, stale or broken: the message names the notebook and the cell."""


def english_notebooks() -> list[Path]:
    return sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))


def cell_text(cell: dict) -> str:
    source = cell["source"]
    return "".join(source) if isinstance(source, list) else source


def cell_sha256(cell: dict) -> str:
    """The hash a translation carries: of the English markdown cell's text, as UTF-8."""
    return hashlib.sha256(cell_text(cell).encode("utf-8")).hexdigest()


def translation_path(notebook: Path) -> Path:
    return TRANSLATIONS / f"{notebook.stem}.json"


def load_translation(notebook: Path) -> dict:
    path = translation_path(notebook)
    if not path.is_file():
        return {"notebook": notebook.name, "cells": {}, "missing_file": True}
    data = json.loads(path.read_text(encoding="utf-8"))
    if data.get("notebook") != notebook.name or not isinstance(data.get("cells"), dict):
        raise TranslationError(f"{path.relative_to(ROOT)}: must be "
                               f'{{"notebook": "{notebook.name}", "cells": {{...}}}}')
    return data


def problems(english: dict, translation: dict, name: str) -> list[str]:
    """Every reason the translation cannot be used, one line each, naming notebook and cell."""
    found = []
    if translation.get("missing_file"):
        found.append(f"{name}: no translation file (expected {translation_path(Path(name)).relative_to(ROOT)})")
    cells = translation["cells"]
    markdown_ids = set()
    for cell in english["cells"]:
        if cell["cell_type"] != "markdown":
            continue
        markdown_ids.add(cell["id"])
        entry = cells.get(cell["id"])
        if entry is None or not str(entry.get("zh", "")).strip():
            found.append(f"{name} {cell['id']}: missing translation")
        elif entry.get("en_sha256") != cell_sha256(cell):
            found.append(f"{name} {cell['id']}: stale translation (the English cell changed since it was translated)")
    for cell_id in sorted(set(cells) - markdown_ids):
        found.append(f"{name} {cell_id}: translation of a cell that is not a markdown cell of the English notebook")
    return found


def rebase_links(text: str, name: str, cell_id: str) -> str:
    """Links written relative to ``notebooks/``, made to work from ``notebooks/zh/`` (see the module docstring)."""
    course = {path.name for path in english_notebooks()}

    def fix(match: re.Match) -> str:
        target = match.group(2)
        path = target.split("#", 1)[0]
        if not path or re.match(r"^[a-z][a-z0-9+.-]*:", path) or path.startswith("/"):
            return match.group(0)  # an anchor, a URL or an absolute path
        if path in course or Path(os.path.normpath(OUTPUT / path)).exists():
            return match.group(0)
        if Path(os.path.normpath(NOTEBOOKS / path)).exists():
            return match.group(1) + "../" + target
        raise TranslationError(
            f"{name} {cell_id}: link {target!r} resolves neither from notebooks/ nor from notebooks/zh/"
        )

    return _LINK.sub(fix, text)


def as_source(text: str) -> list[str]:
    """Notebook JSON keeps text as a list of lines, each but the last ending in a newline."""
    return text.splitlines(keepends=True)


def build_notebook(english: dict, translation: dict, name: str) -> dict:
    """The Chinese notebook: the English one with each markdown cell's text replaced."""
    found = problems(english, translation, name)
    if found:
        raise TranslationError("\n".join(found))
    built = copy.deepcopy(english)
    for cell in built["cells"]:
        if cell["cell_type"] == "markdown":
            text = translation["cells"][cell["id"]]["zh"]
            cell["source"] = as_source(rebase_links(text, name, cell["id"]))
    built["metadata"]["memcourse_edition"] = dict(EDITION, source=f"notebooks/{name}")
    return built


def serialise(notebook: dict) -> str:
    """The way the English notebooks are written (nbformat's layout), so diffs stay small."""
    return json.dumps(notebook, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def build(notebook: Path) -> str:
    english = json.loads(notebook.read_text(encoding="utf-8"))
    return serialise(build_notebook(english, load_translation(notebook), notebook.name))


def chosen(numbers: list[str]) -> list[Path]:
    every = english_notebooks()
    if not numbers:
        return every
    picked = [path for path in every if path.name[:2] in {n.zfill(2) for n in numbers}]
    unknown = {n.zfill(2) for n in numbers} - {path.name[:2] for path in picked}
    if unknown:
        raise TranslationError(f"no English notebook numbered {', '.join(sorted(unknown))}")
    return picked


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("numbers", nargs="*", metavar="NN", help="notebook numbers (default: all)")
    parser.add_argument("--check", action="store_true",
                        help="build in memory and compare with notebooks/zh/ (writes nothing)")
    args = parser.parse_args(argv)
    failures, failed = [], set()
    try:
        notebooks = chosen(args.numbers)
    except TranslationError as error:
        print(f"build_zh: {error}", file=sys.stderr)
        return 2
    for notebook in notebooks:
        target = OUTPUT / notebook.name
        try:
            text = build(notebook)
        except TranslationError as error:
            failures.append(str(error))
            failed.add(notebook.name)
            continue
        if args.check:
            if not target.is_file() or target.read_text(encoding="utf-8") != text:
                failed.add(notebook.name)
            if not target.is_file():
                failures.append(f"{notebook.name}: notebooks/zh/{notebook.name} is not built (run scripts/build_zh.py)")
            elif target.read_text(encoding="utf-8") != text:
                failures.append(f"{notebook.name}: notebooks/zh/{notebook.name} differs from a fresh build "
                                "(run scripts/build_zh.py and commit the result)")
        else:
            OUTPUT.mkdir(parents=True, exist_ok=True)
            if not target.is_file() or target.read_text(encoding="utf-8") != text:
                target.write_text(text, encoding="utf-8")
                print(f"built notebooks/zh/{notebook.name}")
    for failure in failures:
        print(f"build_zh: {failure}", file=sys.stderr)
    done = len(notebooks) - len(failed)
    print(f"{done} of {len(notebooks)} notebooks {'match their build' if args.check else 'built'}"
          + (f"; {len(failures)} problem(s) above" if failures else ""), file=sys.stderr if failures else sys.stdout)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
