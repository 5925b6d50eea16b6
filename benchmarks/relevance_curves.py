"""How likely is a candidate to be the answer, given its channel's normalised score?

Weighted fusion (``memcourse.recall.fusion.weighted_fusion``) normalises each channel's
scores for a query to 0..1 (BM25 divided by its best; cosine measured from the similarity
floor up to its best) and raises them to a power per channel before mixing
(``memcourse.recall.hybrid.SHARPEN``). Read ``norm^p`` as a guess at "how likely is this
candidate relevant, compared with the channel's best candidate". This script measures that
likelihood on LoCoMo, so the exponents are read off data instead of guessed:

* every turn of every conversation is indexed the way the store indexes it (one BM25 index
  over all users with the store's parameters and ``keyword_text``; the store's embedder);
* for each question (categories 1-4), each channel's top 50 candidates of that
  conversation are normalised as the fusion does, and marked "evidence" or not;
* candidates are binned by normalised score; the share of evidence in each bin, divided by
  the share among each query's best candidates (norm = 1), is fitted to ``norm^p`` by least
  squares on logs (bins above 0.15). ``p`` is the exponent that curve suggests.

Tune on some conversations and check on others: ``--groups`` takes ``;``-separated lists.

Run (from the repository root)::

    .venv/bin/python benchmarks/relevance_curves.py --data ../shared/benchmarks/locomo/locomo-dev.json \\
        --groups "conv-26,conv-30,conv-41;conv-42,conv-43"
"""

from __future__ import annotations

import argparse
import sys
from itertools import pairwise
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from locomo import load_locomo, turn_record  # noqa: E402

from memcourse.recall.bm25 import BM25Index  # noqa: E402
from memcourse.recall.fusion import normalise  # noqa: E402
from memcourse.recall.hybrid import (  # noqa: E402
    BM25_PARAMS,
    KEYWORD_DEPTH,
    MIN_KNOWN_TOKENS,
    SIMILARITY_FLOOR,
    VECTOR_DEPTH,
    keyword_text,
)
from memcourse.recall.passages import best_passage_similarity, passage_similarity  # noqa: E402

BINS = np.linspace(0.0, 1.0, 11)


def candidates(conversations, embedder) -> dict[str, list[tuple[str, float, bool]]]:
    """Per channel: (conversation, normalised score, is evidence) for every candidate."""
    index = BM25Index(**BM25_PARAMS)
    records = {c.sample_id: [turn_record(c, t) for t in c.turns] for c in conversations}
    index.add_many((r.memory_id, keyword_text(r)) for rs in records.values() for r in rs)
    found: dict[str, list[tuple[str, float, bool]]] = {"keyword": [], "vector": []}
    for conv in conversations:
        turns = records[conv.sample_id]
        turn_of = {r.memory_id: t.dia_id for r, t in zip(turns, conv.turns, strict=True)}
        vectors = embedder.embed([r.content for r in turns])
        allowed = set(turn_of)
        for q in (q for q in conv.questions if q.category in (1, 2, 3, 4)):
            evidence = set(q.evidence)
            keyword = dict(index.search(q.text, limit=KEYWORD_DEPTH, allowed=allowed))
            query_vector = embedder.embed_query(q.text)
            cosines = vectors @ query_vector
            top = [i for i in np.argsort(-cosines)[:VECTOR_DEPTH] if cosines[i] >= SIMILARITY_FLOOR]
            # as the store scores them: a turn of several sentences also by its best passage
            best = best_passage_similarity(query_vector, {turns[i].memory_id: turns[i].content for i in top},
                                           embedder, min_known=MIN_KNOWN_TOKENS)
            vector = {turns[i].memory_id: passage_similarity(float(cosines[i]), best.get(turns[i].memory_id))
                      for i in top}
            for channel, scores, floor in (("keyword", keyword, 0.0), ("vector", vector, SIMILARITY_FLOOR)):
                for doc_id, norm in normalise(scores, floor=floor).items():
                    found[channel].append((conv.sample_id, norm, turn_of[doc_id] in evidence))
    return found


def curve(rows: list[tuple[float, bool]]) -> tuple[list[float], float, float]:
    """Share of evidence per bin, share among the best candidates, fitted exponent."""
    x = np.array([r[0] for r in rows])
    y = np.array([r[1] for r in rows], dtype=float)
    shares = []
    for lo, hi in pairwise(BINS):
        inside = (x >= lo) & ((x < hi) if hi < 1 else (x <= hi))
        shares.append(float(y[inside].mean()) if inside.any() else float("nan"))
    best = float(y[x >= 0.999].mean())
    mids = (BINS[:-1] + BINS[1:]) / 2
    points = [(m, s) for m, s in zip(mids, shares, strict=True) if m > 0.15 and s == s and s > 0]
    slope = np.polyfit(np.log([m for m, _ in points]), np.log([s / best for _, s in points]), 1)[0]
    return shares, best, float(slope)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", required=True, type=Path, help="a LoCoMo JSON file")
    parser.add_argument("--groups", default="", help='";"-separated groups of comma-separated '
                        'sample_ids (default: all as one)')
    args = parser.parse_args(argv)
    conversations, _ = load_locomo(args.data)
    groups = [[s.strip() for s in g.split(",") if s.strip()] for g in args.groups.split(";") if g.strip()]
    groups = groups or [[c.sample_id for c in conversations]]
    unknown = sorted({s for g in groups for s in g} - {c.sample_id for c in conversations})
    if unknown:
        print(f"relevance_curves: unknown conversation(s) {', '.join(unknown)}", file=sys.stderr)
        return 2
    from memcourse.embeddings import default_embedder

    found = candidates(conversations, default_embedder())
    print("share of evidence among candidates, by normalised score (bins of 0.1); best = norm 1")
    print(f"{'group':<28} {'channel':<8} " + " ".join(f"{lo:4.1f}" for lo in BINS[:-1]) + "   best  exponent")
    for group in groups:
        for channel, rows in found.items():
            shares, best, slope = curve([(n, e) for conv, n, e in rows if conv in group])
            cells = " ".join(f"{s:4.2f}" if s == s else "   -" for s in shares)
            print(f"{','.join(group):<28} {channel:<8} {cells}   {best:4.2f}  {slope:8.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
