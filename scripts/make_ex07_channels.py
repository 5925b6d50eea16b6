"""Write ``memcourse/data/ex07_fusion_channels.json``: exercise 07's labelled channel outputs.

Exercise 07 asks the learner to design a fusion of two channels' *raw* scores and to beat plain
RRF on labelled queries. The graded tests must not load a model, so this script records what
the two channels return, once, for every query of the course's shipped bilingual recall set
(:func:`memcourse.evaluations.recall_set.load_eval_set`, every distractor included):

- ``vector``: ``[id, cosine]`` pairs, best first, from ``search_hits(mode="vector")`` with the
  English model notebook 07 uses (``Embedder("minilm")``); the cosine is the hit breakdown's
  ``similarity`` (passage-aware, as the store's fusion sees it);
- ``keyword``: ``[id, bm25]`` pairs, best first, from ``search_hits(mode="keyword")``; the
  score is the breakdown's ``keyword_score``;
- ``relevant``: the labelled answer ids.

Each channel is cut to its best ``DEPTH`` by raw score (ties by id), after the store's own
admission gate. A store per run, in a temporary folder; every record is written at one moment,
searched a day later, and no access is recorded, so nothing but the channels decides.

Run from the repository root::

    .venv/bin/python scripts/make_ex07_channels.py          # writes the file
    .venv/bin/python scripts/make_ex07_channels.py --check  # prints the MRRs, writes nothing
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from datetime import datetime, timedelta, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "memcourse" / "data" / "ex07_fusion_channels.json"
DEPTH = 20
#: How many hits to ask each channel for before cutting to DEPTH by raw score (the store
#: orders hits by their final score, decay and boosts included; we want the raw order).
ASK = 60
T0 = datetime(2026, 3, 1, 9, 0, tzinfo=timezone.utc)
NOW = T0 + timedelta(days=1)


def channel(store, query, mode: str, key: str) -> list[list]:
    hits = store.search_hits(query.text, limit=ASK, user_id=query.user_id, mode=mode, record_access=False)
    pairs = [(hit.record.memory_id, hit.breakdown[key]) for hit in hits if hit.breakdown[key] is not None]
    pairs.sort(key=lambda pair: (-pair[1], pair[0]))
    return [[doc_id, round(float(score), 6)] for doc_id, score in pairs[:DEPTH]]


def build() -> dict:
    from memcourse.embeddings import Embedder
    from memcourse.evaluations.recall_set import load_eval_set
    from memcourse.stores.chroma import ChromaMemoryStore

    recall_set = load_eval_set()
    records = recall_set.records()
    for record in records:
        record.created_at = record.updated_at = T0
    embedder = Embedder("minilm")
    queries = []
    with tempfile.TemporaryDirectory(prefix="memcourse-ex07-") as folder:
        store = ChromaMemoryStore(path=folder, embedder=embedder, clock=lambda: NOW)
        for start in range(0, len(records), 100):
            store.upsert_many(records[start : start + 100])
        for query in recall_set.queries:
            queries.append({
                "id": query.id,
                "kind": query.kind,
                "text": query.text,
                "vector": channel(store, query, "vector", "similarity"),
                "keyword": channel(store, query, "keyword", "keyword_score"),
                "relevant": sorted(recall_set.relevant_ids(query)),
            })
        store.close()
    return {
        "about": ("Exercise 07's graded data: per query of the shipped recall set, the vector channel's "
                  "(id, cosine) and the keyword channel's (id, BM25) candidates, best first, and the "
                  "labelled answers. Written by scripts/make_ex07_channels.py (model: minilm, depth "
                  f"{DEPTH}); do not edit by hand."),
        "model": "minilm",
        "depth": DEPTH,
        "queries": queries,
    }


def report(data: dict) -> None:
    """Print the MRR of each baseline on ``data`` (the numbers the graded bar is set from)."""
    sys.path.insert(0, str(ROOT))
    from memcourse.recall.fusion import rrf, weighted_fusion
    from memcourse.recall.hybrid import SHARPEN, SIMILARITY_FLOOR
    from solutions.ex07_hybrid_fusion import fuse_scores, mean_reciprocal_rank

    def mrr(rank) -> float:
        return mean_reciprocal_rank([(rank(q), set(q["relevant"])) for q in data["queries"]])

    def ids(pairs):
        return [doc_id for doc_id, _ in pairs]

    def channels(q):
        return {"vector": [tuple(p) for p in q["vector"]], "keyword": [tuple(p) for p in q["keyword"]]}

    def library(q):  # the library's weighted fusion with fixed weights (no per-query evidence)
        scores = {c: dict(pairs) for c, pairs in channels(q).items()}
        fused = weighted_fusion(scores, {"vector": 0.5, "keyword": 0.5},
                                floors={"vector": SIMILARITY_FLOOR}, sharpen=SHARPEN)
        return [doc_id for doc_id, _, _ in fused]

    def raw_sum(q):
        total: dict[str, float] = {}
        for pairs in channels(q).values():
            for doc_id, score in pairs:
                total[doc_id] = total.get(doc_id, 0.0) + score
        return sorted(total, key=lambda d: (-total[d], d))

    def weighted_rrf(q, k=1, keyword=0.6):  # rank-only, tuned: clears the bar, fails the gap test
        fused: dict[str, float] = {}
        for c, pairs in channels(q).items():
            weight = keyword if c == "keyword" else 1 - keyword
            for rank, doc_id in enumerate(dict.fromkeys(ids(pairs)), start=1):
                fused[doc_id] = fused.get(doc_id, 0.0) + weight / (k + rank)
        return sorted(fused, key=lambda d: (-fused[d], d))

    rows = {
        "vector only": lambda q: ids(q["vector"]),
        "keyword only": lambda q: ids(q["keyword"]),
        "raw sum": raw_sum,
        "plain RRF (k=60)": lambda q: [d for d, _, _ in rrf({c: ids(p) for c, p in channels(q).items()})],
        "weighted RRF (k=1, keyword 0.6)": weighted_rrf,
        "library weighted fusion (0.5/0.5)": library,
        "solutions/ fuse_scores": lambda q: fuse_scores(channels(q)),
    }
    print(f"{len(data['queries'])} queries, depth {data['depth']}, model {data['model']}")
    for name, rank in rows.items():
        print(f"  MRR {mrr(rank):.3f}  {name}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="print the MRRs of the stored file, write nothing")
    args = parser.parse_args(argv)
    if args.check:
        report(json.loads(OUT.read_text(encoding="utf-8")))
        return 0
    data = build()
    OUT.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)}")
    report(data)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
