"""Exercise 06 — BM25 scoring by hand, then time decay on top.

Difficulty: ★★★☆ · Expected time: 40 minutes · Notebook: 06_ranking_and_recall.ipynb

Why: keyword overlap counts shared words, so "的" and a rare order number weigh the same, and a
memory used yesterday ranks like one untouched for a year. BM25 fixes the first, decay the
second. Writing both yourself is the fastest way to trust (and tune) the library's versions.

Build two functions.

``bm25_scores(query_tokens, docs, *, k1=1.5, b=0.75) -> dict[str, float]``
    ``docs`` maps a document id to its token list (already tokenised, e.g. by
    ``memcourse.text.tokenize``). For every document, sum over the query's *distinct* tokens
    ``t`` that the document contains::

        idf(t)  = ln(1 + (N - df + 0.5) / (df + 0.5))     N = number of documents,
                                                            df = documents containing t
        part(t) = tf / (tf + k1 * (1 - b + b * len / avg_len))
        score   = Σ idf(t) * part(t)

    where ``tf`` is how often ``t`` occurs in the document, ``len`` its token count and
    ``avg_len`` the mean token count over all documents. Return only documents scoring > 0
    (no shared token, no entry). No documents, or no query tokens: ``{}``.
    (These are the numbers ``memcourse.recall.bm25.BM25Index`` computes with bm25s.)

``decay_rank(scores, last_used, now, *, lam=0.05) -> list[tuple[str, float]]``
    Multiply each ``scores[doc_id]`` by ``exp(-lam * days)``, where ``days`` is the fractional
    number of days from ``last_used[doc_id]`` to ``now`` (a ``last_used`` in the future counts
    as 0 days: clock skew must never *boost* a memory). Return ``(doc_id, decayed score)``
    pairs, highest first; equal scores ordered by doc_id.

Done when ``memcourse grade 06`` shows 06 at 100%.
"""

from __future__ import annotations

from datetime import datetime
from typing import Mapping, Sequence


def bm25_scores(
    query_tokens: Sequence[str], docs: Mapping[str, Sequence[str]], *, k1: float = 1.5, b: float = 0.75
) -> dict[str, float]:
    raise NotImplementedError("ex06 bm25_scores: not written yet (stuck? memcourse hint 06)")


def decay_rank(
    scores: Mapping[str, float],
    last_used: Mapping[str, datetime],
    now: datetime,
    *,
    lam: float = 0.05,
) -> list[tuple[str, float]]:
    raise NotImplementedError("ex06 decay_rank: not written yet (stuck? memcourse hint 06)")
