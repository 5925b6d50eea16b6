"""Reference solution for exercise 07 (RRF fusion and the recall metrics)."""

from __future__ import annotations

from typing import Iterable, Mapping, Sequence


def rrf_fuse(rankings: Mapping[str, Sequence[str]], *, k: float = 60) -> list[tuple[str, float]]:
    if not k > 0:
        raise ValueError(f"k must be > 0, got {k!r}")
    best: dict[str, dict[str, int]] = {}
    for channel, ids in rankings.items():
        for rank, doc_id in enumerate(ids, start=1):
            per_channel = best.setdefault(doc_id, {})
            per_channel.setdefault(channel, rank)  # first occurrence is the better rank
    fused = []
    for doc_id, ranks in best.items():
        score = sum(1.0 / (k + rank) for rank in ranks.values())
        fused.append((doc_id, score, min(ranks.values())))
    fused.sort(key=lambda item: (-item[1], item[2], item[0]))
    return [(doc_id, score) for doc_id, score, _ in fused]


def recall_at_k(ranked: Sequence[str], relevant: Iterable[str], k: int) -> float:
    relevant = set(relevant)
    if not relevant:
        raise ValueError("a query needs at least one relevant id")
    if k < 1:
        raise ValueError(f"k must be >= 1, got {k}")
    return len(relevant & set(ranked[:k])) / len(relevant)


def mean_reciprocal_rank(results: Sequence[tuple[Sequence[str], Iterable[str]]]) -> float:
    if not results:
        return 0.0
    total = 0.0
    for ranked, relevant in results:
        relevant = set(relevant)
        for position, doc_id in enumerate(ranked, start=1):
            if doc_id in relevant:
                total += 1.0 / position
                break
    return total / len(results)
