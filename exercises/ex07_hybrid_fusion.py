"""Exercise 07 — fuse two rankings with RRF, and measure the result.

Difficulty: ★★★☆ · Expected time: 35 minutes · Notebook: 07_hybrid_recall_chroma.ipynb

Why: the vector channel answers with cosine similarities (0.2–0.9), BM25 with unbounded sums
(0–30). Adding them is meaningless; Reciprocal Rank Fusion keeps only the ranks. And "hybrid is
better" is a claim until Recall@k and MRR say so on labelled queries.

Build three functions.

``rrf_fuse(rankings, *, k=60) -> list[tuple[str, float]]``
    ``rankings`` maps a channel name ("vector", "keyword", …) to the ids it returned, best
    first. Every id any channel returned gets ``Σ 1 / (k + rank)`` over the channels that
    returned it (rank is 1-based; an id listed twice by one channel counts once, at its better
    rank). Return ``(id, score)`` pairs, best first. Ties: the better *best single-channel*
    rank first, then the id. ``k`` must be > 0 (else ``ValueError``).

``recall_at_k(ranked, relevant, k) -> float``
    The share of the ``relevant`` ids found in ``ranked[:k]`` (``ValueError`` when ``relevant``
    is empty or ``k < 1``).

``mean_reciprocal_rank(results) -> float``
    ``results`` is a list of ``(ranked, relevant)`` pairs, one per query. For each query take
    ``1 / rank`` of the first relevant id in ``ranked`` (0 if none is there), and return the
    mean over queries (``0.0`` for no queries).

Done when ``memcourse grade 07`` shows 07 at 100%.
"""

from __future__ import annotations

from typing import Iterable, Mapping, Sequence


def rrf_fuse(rankings: Mapping[str, Sequence[str]], *, k: float = 60) -> list[tuple[str, float]]:
    raise NotImplementedError("ex07 rrf_fuse: not written yet (stuck? memcourse hint 07)")


def recall_at_k(ranked: Sequence[str], relevant: Iterable[str], k: int) -> float:
    raise NotImplementedError("ex07 recall_at_k: not written yet (stuck? memcourse hint 07)")


def mean_reciprocal_rank(results: Sequence[tuple[Sequence[str], Iterable[str]]]) -> float:
    raise NotImplementedError("ex07 mean_reciprocal_rank: not written yet (stuck? memcourse hint 07)")
