"""BM25 over the candidates PostgreSQL found, with the library's formula and parameters.

The database finds the rows holding any query token (a GIN index on the hashed tokens); BM25
needs, besides, how many of the user's rows hold each term (``df``), how many rows there are
(``N``) and their mean length. Every row holding a term is a candidate, so ``df`` is counted
among the candidates exactly, and ``N`` and the mean come from one aggregate. The scores are
then :class:`memcourse.recall.bm25.BM25Index`'s (bm25s, "lucene" variant, the stores' ``k1``
and ``b``) computed over the user's own rows: statistics never mix tenants, so one user's
words cannot move another user's ranking (the Chroma store's index is shared by all tenants;
with one tenant the two are the same).
"""

from __future__ import annotations

import math
from collections import Counter

from memcourse.recall.hybrid import BM25_PARAMS

__all__ = ["bm25_rank"]


def bm25_rank(terms: list[str], candidates: dict[str, list[str]], *, n_docs: int, mean_length: float,
              limit: int, k1: float = BM25_PARAMS["k1"], b: float = BM25_PARAMS["b"]) -> list[tuple[str, float]]:
    """``(id, score)`` best first (equal scores by id), scores > 0, at most ``limit``.

    ``terms`` are the query's distinct (hashed) terms, ``candidates`` each candidate's (hashed)
    tokens with repeats."""
    terms = list(dict.fromkeys(terms))
    df = Counter(term for tokens in candidates.values() for term in set(tokens) & set(terms))
    n = max(n_docs, len(candidates))
    mean = mean_length or 1.0
    idf = {term: math.log(1 + (n - count + 0.5) / (count + 0.5)) for term, count in df.items()}
    scored = []
    for doc_id, tokens in candidates.items():
        counts = Counter(tokens)
        norm = k1 * (1 - b + b * len(tokens) / mean)
        score = sum(idf[t] * counts[t] / (counts[t] + norm) for t in terms if counts.get(t))
        if score > 0:
            scored.append((doc_id, score))
    scored.sort(key=lambda pair: (-pair[1], pair[0]))
    return scored[:limit]
