"""Ranking the past: recall among the versions of memories that held at some moment.

A store's indexes (BM25, vectors) hold today's texts. "Where did I live in February?" must be
answered from the value that held in February, which may be an old value kept in a record's
history, so it cannot be looked up in those indexes. The versions valid at that moment are
few (one per record at most), so they are ranked directly, by the same channels: BM25 over
their texts and, when an embedder is given, cosine similarity of their embeddings (computed
on demand; the embedder caches by content hash; a text of several sentences also by its best
passage, as in the store: :mod:`memcourse.recall.passages`), fused by Reciprocal Rank Fusion.

No decay and no access boost: those describe how memories are used *today*, and looking at
the past is not a use. What the versions are comes from :func:`memcourse.validity.version_as_of`.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Mapping

from memcourse.recall.bm25 import BM25Index
from memcourse.recall.config import RecallConfig, check_recall
from memcourse.recall.fusion import rrf
from memcourse.recall.hit import Hit
from memcourse.recall.passages import best_passage_similarity, passage_similarity
from memcourse.records import MemoryRecord


def rank_versions(
    query: str,
    versions: Mapping[str, MemoryRecord],
    *,
    moment: datetime,
    limit: int,
    mode: str = "hybrid",
    embedder: Any = None,
    recall: RecallConfig | None = None,
) -> list[Hit]:
    """At most ``limit`` hits among ``versions`` (id -> the record as it stood at ``moment``).

    ``mode`` is a store's search mode: ``keyword`` uses BM25 only, ``vector`` the embeddings
    only (needs ``embedder``), ``hybrid`` both. Texts the embedder cannot read (mostly unknown
    tokens) take no part in the vector channel, as in the store's own recall. ``recall`` gives
    the knobs (RRF's ``k``, the similarity floor, the known-token guard, the passage weight, the
    depths; default ``RecallConfig()``): the search's own config, as in the store.
    """
    config = RecallConfig() if recall is None else check_recall(recall)
    min_known = config.min_known_tokens
    rankings: dict[str, list[str]] = {}
    keyword_score: dict[str, float] = {}
    similarity: dict[str, float] = {}
    if versions and mode in ("hybrid", "keyword"):
        index = BM25Index()
        # Subject, content and tags only: the date a memory was written (which the store's
        # keyword channel adds, for "what did we discuss in May?") would match the date the
        # question names, and that date is already the as-of filter, not a topic.
        index.add_many((memory_id, " ".join([v.subject, v.content, *v.tags])) for memory_id, v in versions.items())
        pairs = index.search(query, limit=max(limit * 4, config.keyword_depth))
        rankings["keyword"], keyword_score = [doc_id for doc_id, _ in pairs], dict(pairs)
    if embedder is not None and mode in ("hybrid", "vector") and embedder.known_token_ratio(query) >= min_known:
        readable = [i for i, v in versions.items() if embedder.known_token_ratio(v.content) >= min_known]
        if readable:
            query_vector = embedder.embed_query(query)  # e5: with its query prefix
            scores = embedder.embed([versions[i].content for i in readable]) @ query_vector
            best = best_passage_similarity(query_vector, {i: versions[i].content for i in readable}, embedder,
                                           min_known=min_known)
            scores = [passage_similarity(s, best.get(i), weight=config.passage_weight)
                      for i, s in zip(readable, scores.tolist(), strict=True)]
            ranked = sorted(zip(readable, scores, strict=True), key=lambda pair: (-pair[1], pair[0]))
            similarity = dict(ranked)
            above = [i for i, score in ranked if score >= config.similarity_floor]
            rankings["vector"] = above[: max(limit * 4, config.vector_depth)]
    hits = []
    for doc_id, fused, ranks in rrf(rankings, k=config.rrf_k)[:limit]:
        breakdown = {"mode": mode, "as_of": moment.isoformat(), "vector_rank": ranks.get("vector"),
                     "keyword_rank": ranks.get("keyword"), "similarity": similarity.get(doc_id),
                     "keyword_score": keyword_score.get(doc_id), "fused": fused, "final": fused}
        hits.append(Hit(versions[doc_id].copy(), fused, breakdown))
    return hits
