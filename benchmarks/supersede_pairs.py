"""Which near-duplicates would supersede each other, at 0.85 and at 0.92?

"Remember right, not more" merges near-duplicate memories at cosine 0.85; the engineering
guide uses 0.92. This script counts, for a set of memories, the pairs a store would compare
(same user, agent and type, both texts readable by the embedding model) at or above each
threshold, and how many of them each rule would merge:

* ``similarity only``: the rule before this change (``similarity >= threshold``);
* ``may_supersede``: the library's rule (never events, never when numbers, identifiers or
  dates differ; see ``memcourse.recall.dedupe``);

and how many merged pairs are *exact restatements* (same text), the only merges that are
certainly right. Everything else merged is a distinct fact swallowed, unless a human says
otherwise; a few examples of each are printed to read.

Run (from the repository root):

    .venv/bin/python benchmarks/supersede_pairs.py                       # the shipped recall set
    .venv/bin/python benchmarks/supersede_pairs.py --locomo PATH         # LoCoMo turns, as events and as entities
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from memcourse.recall.dedupe import may_supersede  # noqa: E402
from memcourse.recall.hybrid import MIN_KNOWN_TOKENS  # noqa: E402
from memcourse.records import MemoryRecord  # noqa: E402

THRESHOLDS = (0.85, 0.92)


def pairs_above(records: list[MemoryRecord], embedder, floor: float) -> list[tuple[MemoryRecord, MemoryRecord, float]]:
    """Same-scope, same-type, readable pairs with cosine >= floor (older first in each pair)."""
    readable = [r for r in records if embedder.known_token_ratio(r.content) >= MIN_KNOWN_TOKENS]
    groups: dict[tuple[str, str, str], list[MemoryRecord]] = {}
    for record in readable:
        groups.setdefault((record.user_id, record.agent_id, record.memory_type.value), []).append(record)
    found = []
    for members in groups.values():
        if len(members) < 2:
            continue
        vectors = embedder.embed([m.content for m in members])
        similarity = vectors @ vectors.T
        for i, j in np.argwhere(np.triu(similarity >= floor, k=1)):
            found.append((members[i], members[j], float(similarity[i, j])))
    return found


def report(name: str, records: list[MemoryRecord], embedder) -> None:
    found = pairs_above(records, embedder, min(THRESHOLDS))
    print(f"\n{name}: {len(records)} memories")
    print(f"{'threshold':>9} {'pairs':>6} | {'similarity only':>15} {'(restated)':>10} "
          f"| {'may_supersede':>13} {'(restated)':>10}")
    for threshold in THRESHOLDS:
        above = [p for p in found if p[2] >= threshold]
        plain = above
        safe = [p for p in above if may_supersede(p[0], p[1], p[2], threshold=threshold)]
        same = lambda ps: sum(1 for a, b, _ in ps if a.content == b.content)  # noqa: E731
        print(f"{threshold:>9.2f} {len(above):>6} | {len(plain):>15} {same(plain):>10} "
              f"| {len(safe):>13} {same(safe):>10}")
    wrong = sorted((p for p in found if p[2] >= max(THRESHOLDS) and p[0].content != p[1].content), key=lambda p: -p[2])
    for a, b, sim in wrong[:4]:
        verdict = "merged" if may_supersede(a, b, sim) else "kept apart"
        print(f"  {sim:.3f} {a.memory_type.value}: {a.content[:60]!r} / {b.content[:60]!r} -> {verdict}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--locomo", type=Path, help="also count pairs among a LoCoMo file's turns")
    args = parser.parse_args(argv)
    from memcourse.embeddings import default_embedder
    from memcourse.evaluation import load_eval_set

    embedder = default_embedder()
    report("shipped bilingual recall set", load_eval_set().records(), embedder)
    if args.locomo:
        from locomo import load_locomo, turn_record

        conversations, _ = load_locomo(args.locomo)
        turns = [turn_record(c, t) for c in conversations for t in c.turns]
        report("LoCoMo turns stored as events (what benchmarks/locomo.py does)", turns, embedder)
        as_entities = []
        for turn in turns:
            copy = turn.copy()
            copy.memory_type = "entity"
            copy.validate()
            as_entities.append(copy)
        report("LoCoMo turns stored as entities (what the event rule protects)", as_entities, embedder)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
