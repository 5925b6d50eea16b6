"""The guard corpora's totals, saved once and read by notebooks 03 and 10.

Evaluating the four splits the notebooks show takes half a minute, and every run of those
notebooks (the test suite runs notebook 03 three times: nbval and two browser tests) would pay
it again. ``memcourse eval --guards --save-summary benchmarks/results/guards.json`` saves their
totals once; ``tests/test_guard_corpus.py`` re-runs the gate and fails when a saved figure is
not what the gate gives now, so the file cannot drift from the code. Only totals are saved: a
held-out split's texts and misses stay unread.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Iterable

from memcourse.evaluations.guards import GuardReport, evaluate, load_corpus
from memcourse.stores.files import atomic_write

__all__ = ["SUMMARY_PATH", "SUMMARY_SPLITS", "load_summaries", "save_summaries", "summaries", "summary"]

#: The splits whose figures notebooks 03 and 10 show.
SUMMARY_SPLITS = ("dev", "heldout", "fresh", "blind")
SUMMARY_PATH = "benchmarks/results/guards.json"  # relative to the course folder


def summary(report: GuardReport) -> dict:
    """The figures of ``report`` that the notebooks show, as plain JSON: totals only, so a
    held-out split's texts and misses stay unread."""
    attacks = [r for r in report.results if r.case.expect == "refuse"]
    missed_by_both = [r.case.label for r in attacks if not r.ok and r.read_refused is False]
    return {
        "cases": len(report.results),
        "groups": {group: list(report.rate(group)) for group in sorted({r.case.group for r in report.results})},
        "attacks refused at write": [sum(r.ok for r in attacks), len(attacks)],
        "attacks refused at read": list(report.read_gate()),
        "attacks past both gates, by label": dict(sorted(Counter(missed_by_both).items())),
    }


def summaries(names: Iterable[str] = SUMMARY_SPLITS) -> dict[str, dict]:
    """:func:`summary` of each packaged split in ``names``, evaluated now."""
    return {name: summary(evaluate(load_corpus(name=name), corpus=name)) for name in names}


def save_summaries(path: str | Path, names: Iterable[str] = SUMMARY_SPLITS) -> dict[str, dict]:
    """Evaluate ``names`` and write their summaries to ``path`` atomically (a reader never sees
    half a file, and a failed run leaves the old one)."""
    figures = summaries(names)
    path = Path(path).resolve()
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, (json.dumps(figures, indent=1, ensure_ascii=False) + "\n").encode("utf-8"))
    return figures


def load_summaries(path: str | Path | None = None) -> dict[str, dict]:
    """The saved summaries (see :data:`SUMMARY_SPLITS`; by default the course folder's
    :data:`SUMMARY_PATH`), with a clear error when they are missing."""
    path = Path(path) if path is not None else Path(__file__).resolve().parents[2] / SUMMARY_PATH
    if not path.exists():
        raise FileNotFoundError(f"{path} is missing: `memcourse eval --guards --save-summary {SUMMARY_PATH}` "
                                "writes it (about half a minute)")
    return json.loads(path.read_text(encoding="utf-8"))
