"""Reference solution for exercise 06 (BM25 by hand, then time decay)."""

from __future__ import annotations

import math
from collections import Counter
from datetime import datetime
from typing import Mapping, Sequence


def bm25_scores(
    query_tokens: Sequence[str], docs: Mapping[str, Sequence[str]], *, k1: float = 1.5, b: float = 0.75
) -> dict[str, float]:
    terms = list(dict.fromkeys(query_tokens))
    if not docs or not terms:
        return {}
    n = len(docs)
    avg_len = sum(len(tokens) for tokens in docs.values()) / n
    counts = {doc_id: Counter(tokens) for doc_id, tokens in docs.items()}
    df = {t: sum(1 for c in counts.values() if t in c) for t in terms}
    idf = {t: math.log(1 + (n - df[t] + 0.5) / (df[t] + 0.5)) for t in terms}
    scores: dict[str, float] = {}
    for doc_id, tokens in docs.items():
        norm = k1 * (1 - b + b * len(tokens) / avg_len) if avg_len else k1
        score = 0.0
        for t in terms:
            tf = counts[doc_id][t]
            if tf:
                score += idf[t] * tf / (tf + norm)
        if score > 0:
            scores[doc_id] = score
    return scores


def decay_rank(
    scores: Mapping[str, float],
    last_used: Mapping[str, datetime],
    now: datetime,
    *,
    lam: float = 0.05,
) -> list[tuple[str, float]]:
    ranked = []
    for doc_id, score in scores.items():
        days = max(0.0, (now - last_used[doc_id]).total_seconds() / 86_400)
        ranked.append((doc_id, score * math.exp(-lam * days)))
    return sorted(ranked, key=lambda pair: (-pair[1], pair[0]))
