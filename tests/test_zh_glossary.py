"""The Chinese glossary (docs/zh/glossary.md) covers the terminology table and is never stale."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location("zh_glossary", ROOT / "scripts" / "zh_glossary.py")
zh_glossary = importlib.util.module_from_spec(spec)
spec.loader.exec_module(zh_glossary)


def table_rows(path: Path) -> list[tuple[str, str]]:
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        header_or_rule = cells[0] in ("English", "") or set(cells[0]) <= set("-")
        if line.startswith("|") and len(cells) >= 2 and not header_or_rule:
            rows.append((cells[0], cells[1]))
    return rows


def test_every_term_of_the_terminology_table_is_in_the_glossary():
    terms = table_rows(ROOT / "docs" / "zh" / "terminology.md")
    assert len(terms) > 40
    glossary = [(zh, en) for zh, en, _, _ in zh_glossary.TERMS]
    swapped = [(zh, en) for en, zh in terms]
    missing = [f"{en} = {zh}" for zh, en in swapped if (zh, en) not in glossary]
    assert not missing, f"terms of docs/zh/terminology.md without a glossary entry (same English and 中文): {missing}"
    extra = [f"{en} = {zh}" for zh, en in glossary if (zh, en) not in swapped]
    assert not extra, f"glossary entries that are not in the terminology table: {extra}"


def test_every_term_is_introduced_by_some_notebook():
    texts = {path.name: zh_glossary.prose(path) for path in zh_glossary.notebooks()}
    unknown = [en for _, en, pattern, _ in zh_glossary.TERMS if not zh_glossary.introduced_in(pattern, texts)]
    assert not unknown, f"no notebook's prose matches these terms' patterns: {unknown}"


def test_committed_glossary_equals_a_fresh_run():
    assert (ROOT / "docs" / "zh" / "glossary.md").read_text(encoding="utf-8") == zh_glossary.render(), (
        "docs/zh/glossary.md is stale: run python scripts/zh_glossary.py")
