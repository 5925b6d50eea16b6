"""Hybrid ranking: from each channel's candidates to a final, explained list of hits.

A store finds candidates (the vector channel asks Chroma for neighbours, the keyword
channel asks BM25); this module decides the order. Keeping the decision here, away from
storage, means the ranking can be read, tested and improved without touching how records
are kept, and every store that has channels ranks the same way.

The steps, each visible in a hit's ``breakdown``:

1. *Fusion* of the channels' rankings (Reciprocal Rank Fusion, k = 60: see ``fusion``).
2. *Product rules*: ``final = fused × decay × boost × task_priority``. Decay is
   ``exp(-λ·days since last use)``; boost a small capped bonus per past access; task
   priority (×1.5) applies to a *task* memory when the query names its subject or speaks
   of tasks ("任务", "progress").
3. *Admission gate*: relevant, active, unexpired, confident, permitted, safe.
"""

from __future__ import annotations

from datetime import datetime
from typing import Callable, Iterable, Mapping

from memcourse.recall.admission import admit
from memcourse.recall.decay import access_boost, decay_factor, last_used
from memcourse.recall.fusion import rrf
from memcourse.recall.hit import Hit
from memcourse.recall.keyword import TASK_CUES
from memcourse.records import MemoryRecord, MemoryType
from memcourse.text import token_set

MODES = ("hybrid", "vector", "keyword")
#: Below this cosine similarity a vector hit is not evidence of relevance (all-MiniLM-L6-v2:
#: unrelated English sentences measure <= 0.36, paraphrases >= 0.5).
SIMILARITY_FLOOR = 0.40
#: A text whose model tokens are mostly [UNK] has a vector that means nothing.
MIN_KNOWN_TOKENS = 0.5
#: Multiplier for a task memory the query is about.
TASK_PRIORITY = 1.5
#: How deep each channel looks before fusion (the "top 50 vector, top 20 keyword" advice).
VECTOR_DEPTH, KEYWORD_DEPTH = 50, 20
#: The largest access boost (it is capped); decay is <= 1, so fused × this × task priority
#: bounds a candidate's final score.
MAX_BOOST = access_boost(10**9)


def keyword_text(record: MemoryRecord) -> str:
    """What the keyword channel indexes for a memory: its subject, content and tags."""
    return " ".join([record.subject, record.content, *record.tags])


def names_task(query_tokens: set[str], record: MemoryRecord) -> bool:
    """Is the query about this task? It names the task's subject, or talks about tasks."""
    if record.memory_type is not MemoryType.TASK:
        return False
    return bool(query_tokens & token_set(record.subject)) or bool(query_tokens & TASK_CUES)


def best_multiplier(memory_type: str | None) -> float:
    """The most the product rules can lift a fused score (unknown type: assume a task)."""
    task = memory_type is None or memory_type == MemoryType.TASK.value
    return MAX_BOOST * (TASK_PRIORITY if task else 1.0)


def rank_hits(
    query: str,
    *,
    rankings: Mapping[str, list[str]],
    fetch: Callable[[Iterable[str]], dict[str, MemoryRecord]],
    type_of: Callable[[str], str | None],
    user_id: str,
    now: datetime,
    limit: int,
    mode: str,
    similarity: Mapping[str, float] | None = None,
    keyword_score: Mapping[str, float] | None = None,
    rrf_k: float = 60,
    decay_lambda: float = 0.05,
    min_confidence: float = 0.6,
) -> list[Hit]:
    """Fuse channel rankings into at most ``limit`` admitted hits, best first.

    ``rankings`` maps a channel name (``"vector"``, ``"keyword"``) to candidate ids, best
    first; ``similarity``/``keyword_score`` give each channel's raw score for the breakdown.
    ``fetch(ids)`` loads records (a store's read); ``type_of(id)`` says a candidate's memory
    type without loading it (``None`` if unknown), so that loading can stop early.
    """
    similarity = similarity or {}
    keyword_score = keyword_score or {}
    fused = rrf(rankings, k=rrf_k)
    query_tokens = token_set(query)
    hits: list[Hit] = []
    # Load records in two steps. First the top 2×limit fused candidates. Then only those
    # of the rest that could still reach the top `limit`: the product rules multiply a
    # fused score by at most access_boost's cap (× TASK_PRIORITY for a task), and decay
    # only lowers it, so a candidate whose best case is below the current limit-th
    # final score cannot climb into the result. Exact, and it skips most loads.
    head, rest = fused[: 2 * limit], fused[2 * limit :]
    for step in (head, rest):
        if step is rest and len(hits) >= limit:
            kth = sorted((h.score for h in hits), reverse=True)[limit - 1]
            step = [c for c in rest if c[1] * best_multiplier(type_of(c[0])) >= kth]
        if not step:
            continue
        records = fetch([doc_id for doc_id, _, _ in step])
        for doc_id, fused_score, ranks in step:
            record = records.get(doc_id)
            if record is None or record.user_id != user_id:
                continue  # deleted by another process since the index was built
            if not admit(record, now=now, min_confidence=min_confidence, relevant=True):
                continue
            decay = decay_factor(last_used(record), now, lam=decay_lambda)
            boost = access_boost(record.access_count)
            priority = TASK_PRIORITY if names_task(query_tokens, record) else 1.0
            final = fused_score * decay * boost * priority
            sim = similarity.get(doc_id)
            breakdown = {
                "mode": mode,
                "vector_rank": ranks.get("vector"),
                "keyword_rank": ranks.get("keyword"),
                "vector_distance": None if sim is None else 1.0 - sim,
                "similarity": sim,
                "keyword_score": keyword_score.get(doc_id),
                "fused": fused_score,
                "decay": decay,
                "boost": boost,
                "task_priority": priority,
                "final": final,
            }
            hits.append(Hit(record, final, breakdown))
    hits.sort(key=lambda h: (-h.score, -h.record.updated_at.timestamp(), h.record.memory_id))
    return hits[:limit]
