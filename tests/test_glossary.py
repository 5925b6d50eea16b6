"""The English glossary (docs/glossary.md) is a fresh run of scripts/glossary.py and every term
is introduced by some notebook."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
spec = importlib.util.spec_from_file_location("glossary", ROOT / "scripts" / "glossary.py")
glossary = importlib.util.module_from_spec(spec)
spec.loader.exec_module(glossary)


def test_the_committed_glossary_is_a_fresh_run():
    assert (ROOT / "docs" / "glossary.md").read_text(encoding="utf-8") == glossary.render(), (
        "docs/glossary.md is stale: run python scripts/glossary.py")


def test_every_term_is_introduced_by_some_notebook():
    texts = {path.name: glossary.prose(path) for path in glossary.notebooks()}
    unknown = [term for term, pattern, _ in glossary.TERMS if not glossary.introduced_in(pattern, texts)]
    assert not unknown, f"no notebook's prose matches these terms: {unknown}"


def test_notebook_00_links_the_glossary():
    assert "../docs/glossary.md" in glossary.prose(ROOT / "notebooks" / "00_start_here.ipynb")
