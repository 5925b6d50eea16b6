"""Reciprocal Rank Fusion: merging rankings whose scores cannot be compared.

Hybrid recall asks two channels the same question. The vector channel answers with cosine
similarities (0.2–0.9, bunched together); BM25 answers with unbounded sums of IDF weights
(0–30, and a query with rarer words scores higher across the board). Adding the two scores
is meaningless: whichever channel has the bigger numbers wins, and "bigger" changes from
query to query. A weighted sum needs weights tuned per channel *and* per query type.

RRF sidesteps the problem by throwing the scores away and keeping only the **ranks**::

    rrf(d) = Σ over channels c that returned d of  1 / (k + rank_c(d))     (rank is 1-based)

A rank means the same thing in every channel ("the best this channel has"), so it can be
added across channels. A memory that two channels both rank highly beats one that a single
channel loves; a memory only one channel found still gets a score, so a channel that is
blind to a query (the English embedding model on Chinese text) costs recall only where the
other channel is blind too.

**Why k = 60.** ``k`` flattens the curve. With k = 0, rank 1 is worth 1.0 and rank 2 only
0.5: the top of any single channel dominates everything else. With k = 60, rank 1 is worth
1/61 ≈ 0.0164 and rank 10 is worth 1/70 ≈ 0.0143, so being found by *both* channels
(e.g. ranks 5 and 5: 2/65 ≈ 0.0308) beats being first in one (1/61 ≈ 0.0164). 60 is the value
Cormack, Clarke and Büttcher (SIGIR 2009) found to work well across TREC collections, and it
is not sensitive: anything from about 20 to 100 ranks similarly. It is a default, not a
law; the evaluation notebook lets you change it and measure.

**What RRF throws away.** Ranks hide *how sure* a channel is. When BM25's best match scores
14 and its second 3, RRF still treats them as neighbours (1/61 vs 1/62); when a channel
is blind to a query (the English model on a half-Chinese query) its rank 1 still counts as
much as the other channel's rank 1. On data nobody here wrote (LoCoMo, docs/benchmarks.md)
equal-weight RRF lands *below* BM25 alone: a weak dense channel dilutes a strong keyword one.
:func:`weighted_fusion` keeps the scores instead: each channel's scores are normalised to
[0, 1] (divided by that query's best, measured from a floor), sharpened (raised to a power,
which may differ per channel: see ``memcourse.recall.hybrid.SHARPEN`` for why BM25 gets a
steeper one than cosine), and mixed with weights that the caller sets per query from the
evidence each channel has (see ``memcourse.recall.hybrid``). This is the "convex combination" that the fusion-function
literature (Bruch, Gai and Ingber, "An Analysis of Fusion Functions for Hybrid Retrieval",
ACM TOIS 2023) finds better than RRF once scores are normalised. RRF stays here as the
baseline to beat, and the one to reach for when the scores really cannot be trusted.

**Careful with multipliers after fusion.** The same flatness means fused scores sit close
together: rank 1 beats rank r by a factor of only ``(60 + r) / 61``. So anything multiplied
in afterwards (time decay, access boost, a task priority) is strong: a ×1.10 access boost
lifts rank 7 over rank 1 (1.10/67 = 0.01642 > 1/61 = 0.01639), a ×1.5 priority lifts rank 31
over rank 1, and three days of decay at λ = 0.05 (×0.86) is worth about ten ranks. Decide
those factors knowing that, and measure them.
"""

from __future__ import annotations

import math
from typing import Mapping, Sequence

__all__ = ["DEFAULT_K", "DEFAULT_SHARPEN", "normalise", "rrf", "weighted_fusion"]

DEFAULT_K = 60
#: Exponent applied to normalised scores before they are mixed (see weighted_fusion).
DEFAULT_SHARPEN = 1.5


def rrf(
    rankings: Mapping[str, Sequence[str]], *, k: float = DEFAULT_K
) -> list[tuple[str, float, dict[str, int | None]]]:
    """Fuse several best-first id lists into one.

    ``rankings`` maps a channel name to the ids that channel returned, best first. The result
    is ``(id, fused_score, {channel: 1-based rank or None})`` for every id any channel
    returned, best first. ``None`` means the channel did not return that id. An id listed
    twice by one channel counts once, at its better rank.

    Ties (equal fused scores) are broken by the best single-channel rank, then by id, so
    the order never depends on dict or set iteration order.

    >>> [(i, round(s, 5)) for i, s, _ in rrf({"vector": ["a", "b"], "bm25": ["b", "c"]})]
    [('b', 0.03252), ('a', 0.01639), ('c', 0.01613)]
    """
    if isinstance(k, bool) or not isinstance(k, (int, float)) or not math.isfinite(k) or k <= 0:
        raise ValueError(f"k must be a finite number > 0, got {k!r}")
    if not isinstance(rankings, Mapping):
        raise TypeError(f"rankings must map channel name -> list of ids, got {type(rankings).__name__}")
    channels = list(rankings)
    ranks: dict[str, dict[str, int | None]] = {}
    for channel in channels:
        ids = rankings[channel]
        if isinstance(ids, (str, bytes)) or not isinstance(ids, Sequence):
            raise TypeError(f"ranking {channel!r} must be a sequence of ids, got {type(ids).__name__}")
        for position, doc_id in enumerate(ids, start=1):
            entry = ranks.setdefault(doc_id, dict.fromkeys(channels))
            if entry[channel] is None:  # first (best) occurrence wins
                entry[channel] = position
    fused = []
    for doc_id, by_channel in ranks.items():
        present = [rank for rank in by_channel.values() if rank is not None]
        # fsum is exactly rounded, so the score does not depend on the channel order.
        score = math.fsum(1.0 / (k + rank) for rank in present)
        fused.append((doc_id, score, by_channel, min(present)))
    fused.sort(key=lambda item: (-item[1], item[3], str(item[0])))
    return [(doc_id, score, by_channel) for doc_id, score, by_channel, _ in fused]


def normalise(scores: Mapping[str, float], *, floor: float = 0.0) -> dict[str, float]:
    """Map scores to [0, 1]: ``(score - floor) / (best - floor)``, clipped at 0.

    The floor is a fixed "means nothing" level (0 for BM25, the similarity floor for cosine),
    not the worst candidate: with the worst candidate as the floor, a list of five equally
    poor matches would still stretch from 0 to 1.

    >>> normalise({"a": 8.0, "b": 2.0})
    {'a': 1.0, 'b': 0.25}
    """
    if not scores:
        return {}
    best = max(scores.values())
    if not best > floor:
        return {doc_id: 0.0 for doc_id in scores}
    return {doc_id: max(0.0, (score - floor) / (best - floor)) for doc_id, score in scores.items()}


def weighted_fusion(
    scores: Mapping[str, Mapping[str, float]],
    weights: Mapping[str, float],
    *,
    floors: Mapping[str, float] | None = None,
    sharpen: float | Mapping[str, float] = DEFAULT_SHARPEN,
) -> list[tuple[str, float, dict[str, float]]]:
    """Mix channels by their normalised scores: ``Σ w_c · norm_c(d)^p_c / Σ w_c``.

    ``scores`` maps a channel to ``{id: raw score}`` for the ids it returned; ``weights`` maps
    a channel to its weight (>= 0) for this query. Only channels that returned something
    count in ``Σ w_c``, so a channel with nothing to say does not drag the others down: with
    one channel, the result is that channel's own order. The exponent ``p_c`` (``sharpen``:
    one number for every channel, or ``{channel: exponent}``) > 1 widens the gap between a
    channel's best and its middling matches (normalised scores of 0.9 and 0.6 become 0.85
    and 0.46 at 1.5, 0.73 and 0.22 at 3). Read ``norm^p`` as a guess at "how likely is this
    candidate relevant, compared with the channel's best": a channel whose runners-up are
    rarely relevant deserves a steeper curve. Returns ``(id, fused, {channel: normalised
    score})``, best first, ties broken by id.

    >>> fused = weighted_fusion({"keyword": {"a": 10.0, "b": 5.0}, "vector": {"b": 0.8}},
    ...                         {"keyword": 0.6, "vector": 0.4}, floors={"vector": 0.3}, sharpen=1.0)
    >>> [(doc_id, round(score, 2)) for doc_id, score, _ in fused]
    [('b', 0.7), ('a', 0.6)]
    >>> fused = weighted_fusion({"keyword": {"a": 10.0, "b": 5.0}, "vector": {"b": 0.8}},
    ...                         {"keyword": 0.6, "vector": 0.4}, floors={"vector": 0.3},
    ...                         sharpen={"keyword": 2.0, "vector": 1.0})
    >>> [(doc_id, round(score, 2)) for doc_id, score, _ in fused]   # b: 0.6 x 0.5² + 0.4 x 1
    [('a', 0.6), ('b', 0.55)]
    """
    if not isinstance(scores, Mapping) or not isinstance(weights, Mapping):
        raise TypeError("scores and weights must be mappings keyed by channel name")
    exponents = _exponents(sharpen, scores)
    floors = floors or {}
    parts: dict[str, dict[str, float]] = {}
    total = 0.0
    for channel, channel_scores in scores.items():
        weight = weights.get(channel, 0.0)
        if isinstance(weight, bool) or not isinstance(weight, (int, float)) or not math.isfinite(weight) or weight < 0:
            raise ValueError(f"weight of {channel!r} must be a finite number >= 0, got {weight!r}")
        if not channel_scores or weight == 0:
            continue
        total += weight
        for doc_id, value in normalise(channel_scores, floor=floors.get(channel, 0.0)).items():
            parts.setdefault(doc_id, {})[channel] = value
    if total == 0:
        return []
    fused = []
    for doc_id, by_channel in parts.items():
        score = math.fsum(weights[c] * value ** exponents[c] for c, value in by_channel.items()) / total
        fused.append((doc_id, score, by_channel))
    fused.sort(key=lambda item: (-item[1], str(item[0])))
    return fused


def _exponents(sharpen: float | Mapping[str, float], channels: Mapping[str, object]) -> dict[str, float]:
    """``sharpen`` as ``{channel: exponent}`` for every channel in ``channels``; refuses a
    non-number, a value <= 0 or not finite, and a mapping that leaves a channel out (a
    silent default would hide a typo in a channel name)."""

    def check(value: object, where: str) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value <= 0:
            raise ValueError(f"sharpen must be a finite number > 0{where}, got {value!r}")
        return float(value)

    if not isinstance(sharpen, Mapping):
        return dict.fromkeys(channels, check(sharpen, ""))
    missing = [c for c in channels if c not in sharpen]
    if missing:
        raise ValueError(f"sharpen has no exponent for channel(s) {', '.join(map(repr, missing))}")
    return {c: check(sharpen[c], f" (channel {c!r})") for c in channels}
