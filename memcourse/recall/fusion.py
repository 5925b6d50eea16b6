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

__all__ = ["DEFAULT_K", "rrf"]

DEFAULT_K = 60


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
