"""A memory store on Chroma, with hybrid recall and a real lifecycle.

Same contract as :class:`~memcourse.stores.json_store.JsonMemoryStore` (one test suite checks
both), plus what a vector database makes possible and what production memory needs:

**Storage.** One Chroma row per memory: id = ``memory_id``, document = content, the vector we
computed (never Chroma's default embedding function: it downloads a model), and metadata.
Chroma metadata holds scalars only, so the whole record is kept as JSON in ``record``, next
to the scalars we filter on (``user_id``, ``agent_id``, ``memory_type``, ``status``).
Embedded by default (``PersistentClient`` under ``path``, telemetry off); pass ``client=`` to
use any chromadb client, e.g. ``chromadb.HttpClient`` against ``chroma run``.

**Recall** (``search(..., mode="hybrid"|"vector"|"keyword")``):

1. *Vector channel*: a Chroma kNN query restricted to this user's active memories (by a
   ``where`` filter or by post-filtering, whichever is cheaper: see :meth:`_vector_channel`).
   A hit counts only if its cosine similarity is at least ``similarity_floor`` (0.40: for
   all-MiniLM-L6-v2, unrelated English sentences measure ≤ 0.36, paraphrases ≥ 0.5), and only
   if the model could read both texts (``known_token_ratio ≥ 0.5``, stored per memory as
   ``readable``): the English default turns Chinese into ``[UNK]``, and two ``[UNK]`` soups
   look 0.4–0.5 alike whatever they say. Chinese recall comes from the keyword channel.
2. *Keyword channel*: BM25 (jieba-aware tokens) over subject + content + tags, restricted to
   the ids this user may see *before* the top-k is taken.
3. *Fusion*: Reciprocal Rank Fusion of the two rankings (k = 60).
4. *Product rules*: ``final = fused × decay × boost × task_priority``. Decay is
   ``exp(-λ·days since last use)``; boost a small capped bonus per past access; task priority
   (×1.5) applies to a *task* memory when the query names its subject (a token of
   ``phase4_current_task`` such as ``phase4``) or speaks of tasks ("任务", "progress"): a
   question about ongoing work needs that work's state before anything else (seed 000's
   "Phase4 memory Python 示例" puts the Phase4 task before the style preference).
5. *Admission gate*: relevant, active, unexpired, confident (≥ 0.6), permitted, safe.

Every :class:`~memcourse.stores.base.Hit` carries the numbers: ``vector_rank``,
``keyword_rank``, ``vector_distance``, ``fused``, ``decay``, ``boost``, ``final``, ``mode``
(plus ``similarity``, ``keyword_score``, ``task_priority``).

**Lifecycle.** Upsert by id updates in place (``created_at`` kept, replaced content kept in
``history``). A *near-duplicate* (cosine ≥ 0.92, same user, agent and type, different id,
both texts readable by the model) supersedes the older record: it becomes ``superseded``
with ``superseded_by`` pointing at the new one, so exactly one version is active and the
chain is kept for :meth:`history`. ``forget`` removes every copy (see :meth:`forget`).

**Search scopes live in this process.** The BM25 index and the catalog of which active
memory belongs to which user, agent and type (the allow-lists both channels filter by) are
kept in memory and rebuilt from Chroma when a store opens. Several processes writing one
collection (a shared Chroma server) call :meth:`refresh` to see each other's new memories in
search; until then a search fails closed (it misses them, it never leaks them), and every
loaded record is checked again against Chroma's copy. ``get``, ``list_all`` and ``history``
always read Chroma.
"""

from __future__ import annotations

import atexit
import json
import os
import sqlite3
import threading
import time
import weakref
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

import numpy as np

from memcourse.embeddings import Embedder, chroma_embedding_function_class, default_embedder
from memcourse.recall.bm25 import BM25Index
from memcourse.recall.dedupe import may_supersede
from memcourse.records import (
    DEFAULT_USER,
    HistoryEntry,
    MemoryRecord,
    MemoryType,
    Status,
    parse_timestamp,
    utc_now,
)
from memcourse.recall.hit import Hit
from memcourse.recall.hybrid import (
    KEYWORD_DEPTH,
    MIN_KNOWN_TOKENS,
    MODES,
    SIMILARITY_FLOOR,
    VECTOR_DEPTH,
    keyword_text,
    rank_hits,
)
from memcourse.stores.base import StoreError, check_limit, check_memory_type, check_query

#: Tenant share of the collection above which the vector channel post-filters (see _vector_channel).
POST_FILTER_SHARE = 0.1
#: Rows per Chroma call (Chroma refuses batches above ``get_max_batch_size()``, ~5,000).
CHUNK = 1000
#: Chroma's operation code for a delete in its write-ahead log (add 0, update 1, upsert 2).
_LOG_DELETE = 3


@dataclass
class _Scope:
    """What the keyword channel needs to know about an active memory without a Chroma call."""

    user_id: str
    agent_id: str
    memory_type: str
    readable: bool  # could the embedding model read the content (see MIN_KNOWN_TOKENS)?


class ChromaMemoryStore:
    """Long-term memories in a Chroma collection, recalled by hybrid search."""

    def __init__(
        self,
        path: str | os.PathLike[str] | None = None,
        *,
        client: Any = None,
        collection: str = "memcourse",
        embedder: Embedder | None = None,
        clock: Callable[[], datetime] = utc_now,
        rrf_k: float = 60,
        decay_lambda: float = 0.05,
        min_confidence: float = 0.6,
        dedupe_threshold: float = 0.92,
        similarity_floor: float = SIMILARITY_FLOOR,
        access_flush_seconds: float = 1.0,
    ):
        import chromadb  # lazy: ~2 s, only when a Chroma store is actually built
        from chromadb.config import Settings

        if client is None and path is None:
            raise TypeError("ChromaMemoryStore needs path= (a data directory) or client= (a chromadb client)")
        if client is not None and path is not None:
            raise TypeError("give path= or client=, not both")
        self.path = Path(path) if path is not None else None
        if self.path is not None:
            if self.path.exists() and not self.path.is_dir():
                raise StoreError(f"{self.path} is a file; ChromaMemoryStore needs a directory")
            self.path.mkdir(parents=True, exist_ok=True)
            client = chromadb.PersistentClient(path=str(self.path), settings=Settings(anonymized_telemetry=False))
        self.client = client
        self.embedder = embedder or default_embedder()
        self._clock = clock
        self.rrf_k = rrf_k
        self.decay_lambda = decay_lambda
        self.min_confidence = min_confidence
        self.dedupe_threshold = dedupe_threshold
        self.similarity_floor = similarity_floor
        function_class = chroma_embedding_function_class()
        self.collection = client.get_or_create_collection(
            collection,
            embedding_function=function_class(embedder=self.embedder),
            configuration={"hnsw": {"space": "cosine"}},
        )
        self._check_embedding_model()
        self._lock = threading.RLock()
        self._bm25 = BM25Index()
        self._active: dict[str, _Scope] = {}
        # (user, agent or None, type or None) -> active ids: the keyword channel's allow-lists.
        self._by_scope: dict[tuple[str, str | None, str | None], set[str]] = {}
        self._row_count = 0
        # Access statistics are written behind (see flush()): id -> record with new counts.
        self.access_flush_seconds = access_flush_seconds
        self._pending: dict[str, MemoryRecord] = {}
        self._pending_since = 0.0
        atexit.register(_flush_at_exit, weakref.ref(self))
        self.refresh()

    def _check_embedding_model(self) -> None:
        """Refuse to mix models in one collection.

        Vectors from two models live in different spaces, even when (as for two MiniLM
        variants) they have the same number of dimensions and nothing would fail: searches
        would quietly compare apples with oranges. The collection remembers the model it was
        built with; opening it with another one is an error, not a silent degradation.
        """
        configured = (self.collection.configuration or {}).get("embedding_function")
        get_config = getattr(configured, "get_config", None)
        built_with = (get_config() if callable(get_config) else {}).get("model")
        if built_with and built_with != self.embedder.model_id:
            raise StoreError(
                f"collection {self.collection.name!r} was built with embedding model {built_with!r}, "
                f"but this store was opened with {self.embedder.model_id!r}. Open it with the same model, "
                "or build a new collection (another collection= name or path=) and upsert the records into it."
            )

    def __repr__(self) -> str:
        where = str(self.path) if self.path else type(self.client).__name__
        return f"ChromaMemoryStore({where!r}, collection={self.collection.name!r})"

    # -- writing --------------------------------------------------------------------------
    def upsert(self, record: MemoryRecord) -> MemoryRecord:
        """Insert, update by id, or supersede a near-duplicate; returns the stored version."""
        if not isinstance(record, MemoryRecord):
            raise TypeError(f"upsert expects a MemoryRecord, got {type(record).__name__}")
        return self.upsert_many([record])[0]

    def upsert_many(self, records: Sequence[MemoryRecord]) -> list[MemoryRecord]:
        """Upsert a batch: one embedding call, a few Chroma calls per 1,000 records.

        Same result as upserting one by one, in order. All records are validated before
        anything is written; two records with the same id in one batch are refused.
        """
        batch = []
        for record in records:
            if not isinstance(record, MemoryRecord):
                raise TypeError(f"upsert expects a MemoryRecord, got {type(record).__name__}")
            record.validate()
            batch.append(record.copy())
        ids = [r.memory_id for r in batch]
        if len(set(ids)) != len(ids):
            raise ValueError("the same memory_id appears twice in one batch; upsert them one at a time")
        stored: list[MemoryRecord] = []
        with self._lock:
            self.flush()
            for start in range(0, len(batch), CHUNK):
                stored.extend(self._upsert_chunk(batch[start : start + CHUNK]))
        return stored  # our own copies (made above); the store keeps nothing that aliases them

    def _upsert_chunk(self, chunk: list[MemoryRecord]) -> list[MemoryRecord]:
        now = self._now()
        existing = self._fetch([r.memory_id for r in chunk])
        # 1. Merge updates by id, like the JSON store: keep created_at and access statistics,
        #    move updated_at, keep the replaced content in history.
        needs_vector: list[MemoryRecord] = []  # new records, and updates that changed content
        metadata_only: list[MemoryRecord] = []  # updates with the same content: vector unchanged
        for new in chunk:
            old = existing.get(new.memory_id)
            if old is None:
                needs_vector.append(new)
                continue
            new.created_at = old.created_at
            new.updated_at = now
            new.access_count = max(old.access_count, new.access_count)
            new.last_accessed_at = old.last_accessed_at or new.last_accessed_at
            new.history = list(old.history)
            if (old.content, old.confidence, old.source) != (new.content, new.confidence, new.source):
                new.history.append(HistoryEntry(old.content, old.confidence, old.source.value, now))
            (metadata_only if old.content == new.content else needs_vector).append(new)
        # 2. Vectors (cached by content hash) and how much of each text the model could read.
        vectors = self.embedder.embed([r.content for r in needs_vector])
        vector_of = {r.memory_id: vectors[i] for i, r in enumerate(needs_vector)}
        readable = {r.memory_id: self.embedder.known_token_ratio(r.content) for r in needs_vector}
        # 3. New active records supersede their near-duplicates (stored, or earlier in the chunk).
        fresh = [r for r in needs_vector if r.memory_id not in existing and r.status is Status.ACTIVE]
        in_chunk = {r.memory_id for r in chunk}
        outside = [p for p in self._supersede(fresh, vector_of, readable, now) if p.memory_id not in in_chunk]
        # 4. Write. Insertion order is written once (Chroma merges metadata, so later writes
        #    keep it): list_all() is oldest first, and one clock tick needs a tiebreak.
        first_write = time.time_ns()
        inserted = {r.memory_id: first_write + i for i, r in enumerate(chunk) if r.memory_id not in existing}
        if needs_vector:
            self.collection.upsert(
                ids=[r.memory_id for r in needs_vector],
                embeddings=vectors,
                documents=[r.content for r in needs_vector],
                metadatas=[
                    _metadata(r, readable=readable[r.memory_id], inserted_ns=inserted.get(r.memory_id))
                    for r in needs_vector
                ],
            )
        rewrite = metadata_only + outside
        if rewrite:
            self.collection.update(ids=[r.memory_id for r in rewrite], metadatas=[_metadata(r) for r in rewrite])
        # 5. Keep the keyword channel and the scope catalog in step (an update that changed
        #    neither the indexed text nor the scope leaves them as they are).
        for record in chunk + outside:
            old = existing.get(record.memory_id)
            if old is not None and record.memory_id in self._active and _same_index_entry(old, record):
                continue
            ratio = readable.get(record.memory_id)
            self._index(record, None if ratio is None else ratio >= MIN_KNOWN_TOKENS)
        self._row_count = self.collection.count()
        return chunk

    def _supersede(
        self, fresh: list[MemoryRecord], vector_of: dict[str, np.ndarray], readable: dict[str, float], now: datetime
    ) -> list[MemoryRecord]:
        """Mark older near-duplicates of ``fresh`` records superseded; return the changed ones.

        Compared within the same user, agent and type, against stored active rows and against
        earlier records of the same batch. Texts the model cannot read are never compared
        (their vectors are [UNK] soup: "用户喜欢猫" and "用户讨厌狗" would look identical).
        """
        if self.dedupe_threshold > 1 or not fresh:
            return []
        groups: dict[tuple[str, str, str], list[MemoryRecord]] = {}
        for record in (r for r in fresh if readable[r.memory_id] >= MIN_KNOWN_TOKENS):
            groups.setdefault((record.user_id, record.agent_id, record.memory_type.value), []).append(record)
        changed: dict[str, MemoryRecord] = {}
        count = self.collection.count()
        for (user, agent, kind), members in groups.items():
            successor: dict[str, MemoryRecord] = {}  # predecessor id -> newest near-duplicate
            if count:
                result = self.collection.query(
                    query_embeddings=np.stack([vector_of[m.memory_id] for m in members]),
                    n_results=min(3, count),
                    where=_where(user_id=user, agent_id=agent, memory_type=kind, readable=True),
                    include=["distances", "metadatas"],
                )
                for member, ids, distances, metas in zip(members, result["ids"], result["distances"], result["metadatas"]):
                    for cid, distance, meta in zip(ids, distances, metas):
                        if cid == member.memory_id:
                            continue
                        candidate = changed.get(cid) or _record_from(meta)
                        if not may_supersede(candidate, member, 1.0 - distance, threshold=self.dedupe_threshold):
                            continue
                        successor[cid] = member  # later members overwrite: newest wins
                        changed.setdefault(cid, candidate)
            # Near-duplicates inside the batch: the later record supersedes the earlier.
            matrix = np.stack([vector_of[m.memory_id] for m in members])
            similarities = matrix @ matrix.T
            pairs = np.argwhere(np.triu(similarities >= self.dedupe_threshold, k=1))
            for i, j in sorted(pairs.tolist(), key=lambda pair: pair[1]):  # i < j; the later j wins
                if not may_supersede(members[i], members[j], float(similarities[i, j]), threshold=self.dedupe_threshold):
                    continue
                successor[members[i].memory_id] = members[j]
                changed[members[i].memory_id] = members[i]
            for old_id, new in successor.items():
                old = changed[old_id]
                old.status = Status.SUPERSEDED
                old.superseded_by = new.memory_id
                old.updated_at = now
        return list(changed.values())

    def forget(self, memory_id: str) -> bool:
        """Delete a memory and every copy of it; returns whether it existed.

        "Every copy" means: the Chroma row, the rows of the versions it superseded and of any
        version that superseded it (the whole near-duplicate chain is one fact), their BM25
        entries, their cached embeddings (content and every history text), and, for an
        embedded store, the text Chroma still keeps in its write-ahead log and in free space
        of its SQLite file (see :meth:`_scrub`).
        """
        if not isinstance(memory_id, str) or not memory_id.strip():
            raise ValueError("memory_id must be a non-empty string")
        with self._lock:
            chain = self._chain(memory_id)
            if not chain:
                return False
            self._delete(chain)
            self.flush()
        return True

    def forget_user(self, user_id: str) -> int:
        """Delete every memory of one user (all agents, every version); returns how many
        records were removed."""
        if not isinstance(user_id, str) or not user_id.strip():
            raise ValueError("user_id must be a non-empty string")
        with self._lock:
            records = self._where_records({"user_id": user_id})
            if records:
                self._delete(records)
            self.flush()
            return len(records)

    def _delete(self, records: list[MemoryRecord]) -> None:
        ids = [r.memory_id for r in records]
        for doc_id in ids:
            self._pending.pop(doc_id, None)  # never write a forgotten record back
        for start in range(0, len(ids), CHUNK):
            self.collection.delete(ids=ids[start : start + CHUNK])
        self._row_count = self.collection.count()
        for record in records:
            self._unindex(record.memory_id)
            self.embedder.forget(record.content)
            for entry in record.history:
                self.embedder.forget(entry.content)
        self._scrub(ids)

    def _scrub(self, ids: list[str]) -> None:
        """Remove deleted text that Chroma keeps after a delete (embedded stores only).

        Chroma 1.5 writes every add/update into a write-ahead log (``embeddings_queue`` in
        ``chroma.sqlite3``) and purges it only after the vector index flushes, every
        ``sync_threshold`` (1,000) writes; and SQLite leaves deleted rows' bytes in free page
        space. So after the API delete we (1) drop the deleted ids' add/update entries from the
        log (their delete entries stay, so replaying the log still ends with the delete),
        (2) merge the full-text index so its deleted terms go, (3) ``VACUUM`` the file. This
        reaches into Chroma's internals, so it checks the schema first and fails loudly if a
        future Chroma changed it; the forget-canary test greps the bytes to prove it works.

        Not possible through ``HttpClient``: a server's operator runs ``chroma vacuum``.
        The HNSW files hold vectors (floats, no text); a deleted vector is unlinked from the
        graph and its slot reused by later inserts.
        """
        if self.path is None:
            return
        database = self.path / "chroma.sqlite3"
        if not database.exists():
            return
        connection = sqlite3.connect(database, timeout=60, isolation_level=None)
        try:
            columns = {row[1] for row in connection.execute("PRAGMA table_info(embeddings_queue)")}
            if not {"id", "operation", "topic"} <= columns:
                raise StoreError(f"{database}: unexpected Chroma log schema {sorted(columns)}; cannot scrub")
            connection.execute("PRAGMA secure_delete = ON")
            connection.execute("BEGIN IMMEDIATE")
            topic = f"%{self.collection.id}"
            for start in range(0, len(ids), 500):
                part = ids[start : start + 500]
                marks = ",".join("?" * len(part))
                connection.execute(
                    f"DELETE FROM embeddings_queue WHERE operation != {_LOG_DELETE} AND topic LIKE ? AND id IN ({marks})",
                    [topic, *part],
                )
            tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            if "embedding_fulltext_search" in tables:
                connection.execute("INSERT INTO embedding_fulltext_search(embedding_fulltext_search) VALUES('optimize')")
            connection.execute("COMMIT")
            connection.execute("VACUUM")
        finally:
            connection.close()

    # -- reading --------------------------------------------------------------------------
    def search(self, query: str, **kwargs: Any) -> list[MemoryRecord]:
        """The best-matching records, best first (arguments as :meth:`search_hits`)."""
        return [hit.record for hit in self.search_hits(query, **kwargs)]

    def search_hits(
        self,
        query: str,
        *,
        limit: int = 5,
        memory_type: MemoryType | str | None = None,
        user_id: str = DEFAULT_USER,
        agent_id: str | None = None,
        mode: str = "hybrid",
        record_access: bool = True,
    ) -> list[Hit]:
        """Up to ``limit`` hits of one user (optionally one agent, one type), best first, each
        with its score breakdown; records the access of the returned ones, unless
        ``record_access=False`` (evaluations and explanations must not tilt later rankings).

        ``mode`` picks the channels: ``"vector"`` (dense, English-capable by default),
        ``"keyword"`` (BM25, Chinese-aware) or ``"hybrid"`` (both, fused by RRF). Bad
        arguments raise before anything is read or written."""
        check_query(query)
        check_limit(limit)
        wanted = check_memory_type(memory_type)
        if mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}; got {mode!r}")
        if not isinstance(user_id, str) or not user_id.strip():
            raise ValueError("user_id must be a non-empty string")
        now = self._now()
        with self._lock:
            rankings: dict[str, list[str]] = {}
            distance: dict[str, float] = {}
            keyword_score: dict[str, float] = {}
            allowed = self._allowed(user_id, agent_id, wanted)
            if mode in ("hybrid", "vector"):
                rankings["vector"] = self._vector_channel(query, user_id, allowed, max(limit * 4, VECTOR_DEPTH), distance)
            if mode in ("hybrid", "keyword"):
                # The BM25 index holds exactly the active memories; when this scope owns all of
                # them (a single-tenant store) the allow-list filters nothing, so skip it.
                scope = None if len(allowed) == len(self._active) else allowed
                pairs = self._bm25.search(query, limit=max(limit * 4, KEYWORD_DEPTH), allowed=scope) if allowed else []
                rankings["keyword"] = [doc_id for doc_id, _ in pairs]
                keyword_score = dict(pairs)
            hits = rank_hits(
                query,
                rankings=rankings,
                fetch=self._fetch,
                type_of=lambda doc_id: getattr(self._active.get(doc_id), "memory_type", None),
                user_id=user_id,
                now=now,
                limit=limit,
                mode=mode,
                similarity={doc_id: 1.0 - d for doc_id, d in distance.items()},
                keyword_score=keyword_score,
                rrf_k=self.rrf_k,
                decay_lambda=self.decay_lambda,
                min_confidence=self.min_confidence,
            )
            for hit in hits if record_access else ():
                hit.record.access_count += 1
                hit.record.last_accessed_at = now
                if not self._pending:
                    self._pending_since = time.monotonic()
                self._pending[hit.record.memory_id] = hit.record.copy()
            if self._pending and time.monotonic() - self._pending_since >= self.access_flush_seconds:
                self.flush()
        return [Hit(h.record.copy(), h.score, h.breakdown) for h in hits]

    def _vector_channel(self, query: str, user_id: str, allowed: set[str], depth: int, distance: dict[str, float]) -> list[str]:
        """Ids of ``allowed`` memories whose vectors are close to the query's, best first.

        Two ways to restrict a kNN search to one tenant, and the right one depends on how
        much of the collection the tenant owns:

        * *pre-filter* (Chroma ``where``): Chroma first evaluates the metadata filter in
          SQLite, then searches among the matches. Cheap when the tenant is a small share of
          the collection; expensive when the filter matches most rows (measured at 10k rows,
          one tenant: 36 ms, against 2 ms without a filter).
        * *post-filter*: ask for more neighbours without a filter and keep the allowed ones.
          Cheap when the tenant owns a large share, hopeless when it owns 0.1 %.

        We post-filter when the tenant owns at least ``POST_FILTER_SHARE`` of the rows, asking
        for ``depth / share`` (×2) neighbours, and fall back to the pre-filter if that did not
        yield ``depth`` allowed ids while the neighbours were still above the similarity
        floor. Either way, only ids in ``allowed`` (this tenant's active memories the model
        could read) survive, and every record is checked again after loading.
        """
        if not allowed or self.embedder.known_token_ratio(query) < MIN_KNOWN_TOKENS:
            return []  # nothing to compare, or the model cannot read this query (noise)

        def keep(doc_id: str) -> bool:
            return doc_id in allowed and self._active[doc_id].readable

        vector = self.embedder.embed_one(query)[None, :]
        rows = max(self._row_count, 1)
        share = len(allowed) / rows
        pairs: list[tuple[str, float]] | None = None
        if share >= POST_FILTER_SHARE:
            n = min(rows, int(depth / share * 2) + 1)
            result = self.collection.query(query_embeddings=vector, n_results=n, include=["distances"])
            ids, dists = result["ids"][0], result["distances"][0]
            pairs = [(i, d) for i, d in zip(ids, dists) if keep(i)]
            exhausted = len(ids) >= rows or (dists and 1.0 - dists[-1] < self.similarity_floor)
            if len(pairs) < min(depth, len(allowed)) and not exhausted:
                pairs = None  # too few survivors and more could be close: ask Chroma to filter
        if pairs is None:
            result = self.collection.query(
                query_embeddings=vector,
                n_results=min(depth * 2, rows),
                where={"user_id": user_id},
                include=["distances"],
            )
            pairs = [(i, d) for i, d in zip(result["ids"][0], result["distances"][0]) if keep(i)]
        ranked = []
        for doc_id, d in pairs[:depth]:
            if 1.0 - d >= self.similarity_floor:
                ranked.append(doc_id)
                distance[doc_id] = float(d)
        return ranked

    def _allowed(self, user_id: str, agent_id: str | None, wanted: MemoryType | None) -> set[str]:
        """The active memories a search may return (kept per scope, so no scan per query)."""
        return self._by_scope.get((user_id, agent_id, wanted.value if wanted else None), set())

    def list_all(
        self,
        *,
        memory_type: MemoryType | str | None = None,
        user_id: str | None = None,
        agent_id: str | None = None,
    ) -> list[MemoryRecord]:
        """Active records, oldest first; every user's unless ``user_id`` is given (admin view)."""
        wanted = check_memory_type(memory_type)
        rows = self._where_rows(
            _where_dict(user_id=user_id, agent_id=agent_id, memory_type=wanted.value if wanted else None, status="active")
        )
        rows.sort(key=lambda row: (row[0].created_at, row[1].get("inserted_ns", 0), row[0].memory_id))
        return [record for record, _ in rows]

    def get(self, memory_id: str) -> MemoryRecord | None:
        if not isinstance(memory_id, str):
            raise TypeError(f"memory_id must be a string, got {type(memory_id).__name__}")
        return self._fetch([memory_id]).get(memory_id)

    def history(self, memory_id: str) -> list[MemoryRecord]:
        """Every version of one memory, oldest first, the current one last.

        A version is either an earlier content of the same record (an update by id) or an
        earlier record that a near-duplicate superseded; both kinds are returned in order.
        """
        chain = self._chain(memory_id)
        if not chain:
            raise KeyError(f"no memory with id {memory_id!r}")
        versions: list[MemoryRecord] = []
        for record in chain:
            for entry in record.history:
                version = record.copy()
                version.content, version.confidence = entry.content, entry.confidence
                version.source = entry.source  # type: ignore[assignment]
                version.status, version.updated_at, version.history = Status.SUPERSEDED, entry.replaced_at, []
                version.validate()
                versions.append(version)
            versions.append(record)
        return versions

    def _chain(self, memory_id: str) -> list[MemoryRecord]:
        """The supersede chain through ``memory_id``, oldest first (empty if unknown)."""
        start = self.get(memory_id)
        if start is None:
            return []
        head, seen = start, {start.memory_id}
        while head.superseded_by and head.superseded_by not in seen:
            successor = self.get(head.superseded_by)
            if successor is None:
                break
            seen.add(successor.memory_id)
            head = successor
        chain, frontier, seen = [head], [head.memory_id], {head.memory_id}
        while frontier:  # walk back: every record superseded by one already in the chain
            older = self._where_records({"superseded_by": {"$in": frontier}})
            older = [r for r in older if r.memory_id not in seen]
            seen.update(r.memory_id for r in older)
            chain.extend(older)
            frontier = [r.memory_id for r in older]
        return sorted(chain, key=lambda r: (r.status is Status.ACTIVE, r.updated_at, r.created_at))

    # -- keeping the keyword channel in step ----------------------------------------------------
    def refresh(self) -> None:
        """Rebuild the keyword index and scope catalog from Chroma (on open, or after another
        process wrote to the same collection)."""
        with self._lock:
            self._bm25.clear()
            self._active.clear()
            self._by_scope.clear()
            rows = self._where_rows({"status": "active"})
            for record, meta in rows:
                self._catalog(record, float(meta.get("readable", 0.0)) >= MIN_KNOWN_TOKENS)
            self._bm25.add_many((r.memory_id, keyword_text(r)) for r, _ in rows)
            self._row_count = self.collection.count()

    def _index(self, record: MemoryRecord, readable: bool | None = None) -> None:
        """Bring the catalog and BM25 in step with a written record (``readable=None``: the
        content did not change, keep what we knew)."""
        if record.status is Status.ACTIVE:
            if readable is None:
                known = self._active.get(record.memory_id)
                readable = known.readable if known else self.embedder.known_token_ratio(record.content) >= MIN_KNOWN_TOKENS
            self._catalog(record, readable)
            self._bm25.add(record.memory_id, keyword_text(record))
        else:
            self._unindex(record.memory_id)

    def _catalog(self, record: MemoryRecord, readable: bool) -> None:
        self._unindex_catalog(record.memory_id)
        self._active[record.memory_id] = _Scope(record.user_id, record.agent_id, record.memory_type.value, readable)
        for key in _scope_keys(self._active[record.memory_id]):
            self._by_scope.setdefault(key, set()).add(record.memory_id)

    def _unindex_catalog(self, memory_id: str) -> None:
        scope = self._active.pop(memory_id, None)
        if scope is not None:
            for key in _scope_keys(scope):
                self._by_scope.get(key, set()).discard(memory_id)

    def _unindex(self, memory_id: str) -> None:
        self._unindex_catalog(memory_id)
        self._bm25.remove(memory_id)

    def keyword_tokens(self, memory_id: str) -> list[str]:
        """The tokens the keyword channel holds for a memory (``[]`` if none)."""
        return self._bm25.tokens_of(memory_id)

    # -- Chroma plumbing ---------------------------------------------------------------------------
    def _now(self) -> datetime:
        return parse_timestamp(self._clock(), "clock()")

    def _load(self, meta: dict[str, Any]) -> MemoryRecord:
        """A record from its Chroma metadata, with access statistics not yet written behind."""
        record = _record_from(meta)
        pending = self._pending.get(record.memory_id)
        if pending is not None:
            record.access_count, record.last_accessed_at = pending.access_count, pending.last_accessed_at
        return record

    # -- write-behind of access statistics -------------------------------------------------------
    def flush(self) -> int:
        """Write buffered access statistics to Chroma; returns how many records were written.

        Every search records which memories it returned (``access_count``,
        ``last_accessed_at``). Writing that synchronously costs a Chroma write (~25 ms) on
        every search, more than the search itself, so it is *written behind*: kept in memory
        (and already visible to ``get``/``list_all``/``search`` of this store), then written
        at the first search after ``access_flush_seconds``, before any other write, and at
        :meth:`close` or interpreter exit. A crash can lose the last second of access
        counts, never a memory.
        """
        with self._lock:
            if not self._pending:
                return 0
            records = list(self._pending.values())
            self._pending.clear()
            for start in range(0, len(records), CHUNK):
                part = records[start : start + CHUNK]
                self.collection.update(ids=[r.memory_id for r in part], metadatas=[_metadata(r) for r in part])
            return len(records)

    def close(self) -> None:
        """Write what is buffered. The store stays usable (Chroma clients need no closing)."""
        self.flush()

    def __enter__(self) -> "ChromaMemoryStore":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def _fetch(self, ids: Iterable[str]) -> dict[str, MemoryRecord]:
        ids = list(dict.fromkeys(ids))
        found: dict[str, MemoryRecord] = {}
        for start in range(0, len(ids), CHUNK):
            result = self.collection.get(ids=ids[start : start + CHUNK], include=["metadatas"])
            for doc_id, meta in zip(result["ids"], result["metadatas"]):
                found[doc_id] = self._load(meta)
        return found

    def _where_records(self, where: dict[str, Any] | None) -> list[MemoryRecord]:
        return [record for record, _ in self._where_rows(where)]

    def _where_rows(self, where: dict[str, Any] | None) -> list[tuple[MemoryRecord, dict[str, Any]]]:
        """Every row matching ``where``, as (record, raw metadata), paged."""
        rows, offset = [], 0
        while True:
            result = self.collection.get(where=where or None, include=["metadatas"], limit=CHUNK * 5, offset=offset)
            rows.extend((self._load(meta), meta) for meta in result["metadatas"])
            if len(result["ids"]) < CHUNK * 5:
                return rows
            offset += CHUNK * 5


def _flush_at_exit(ref: "weakref.ref[ChromaMemoryStore]") -> None:
    store = ref()
    if store is not None:
        try:
            store.flush()
        except Exception:  # the server may be gone or the directory deleted: nothing to save to
            pass


# -- record <-> Chroma row -------------------------------------------------------------------------
def _metadata(record: MemoryRecord, *, readable: float | None = None, inserted_ns: int | None = None) -> dict[str, Any]:
    """Scalars to filter on, plus the full record as JSON (the source of truth).

    ``readable`` is the share of the content the embedding model could read, written with
    each new vector; ``inserted_ns`` orders ``list_all``, written once. Both are left alone
    by later metadata-only writes, because Chroma merges metadata on update and upsert."""
    meta: dict[str, Any] = {
        "record": json.dumps(record.to_dict(), ensure_ascii=False, separators=(",", ":")),
        "user_id": record.user_id,
        "agent_id": record.agent_id,
        "memory_type": record.memory_type.value,
        "status": record.status.value,
        "subject": record.subject,
        "updated_ts": record.updated_at.timestamp(),
        # Always present: Chroma merges metadata on update, so a stale link must be overwritten.
        "superseded_by": record.superseded_by or "",
    }
    if readable is not None:
        meta["readable"] = float(readable)
    if inserted_ns is not None:
        meta["inserted_ns"] = inserted_ns
    return meta


def _record_from(meta: dict[str, Any]) -> MemoryRecord:
    return MemoryRecord.from_dict(json.loads(meta["record"]))


def _scope_keys(scope: _Scope) -> list[tuple[str, str | None, str | None]]:
    return [
        (scope.user_id, None, None),
        (scope.user_id, scope.agent_id, None),
        (scope.user_id, None, scope.memory_type),
        (scope.user_id, scope.agent_id, scope.memory_type),
    ]


def _same_index_entry(old: MemoryRecord, new: MemoryRecord) -> bool:
    return (old.status, old.user_id, old.agent_id, old.memory_type, keyword_text(old)) == (
        new.status, new.user_id, new.agent_id, new.memory_type, keyword_text(new)
    )


def _where_dict(**conditions: Any) -> dict[str, Any] | None:
    clauses = [{key: value} for key, value in conditions.items() if value is not None]
    if not clauses:
        return None
    return clauses[0] if len(clauses) == 1 else {"$and": clauses}


def _where(
    *, user_id: str, agent_id: str | None = None, memory_type: str | None = None, readable: bool = False
) -> dict[str, Any]:
    """Chroma filter for one tenant's active memories (``readable``: only those whose vector
    the model could build from real tokens)."""
    where = _where_dict(user_id=user_id, agent_id=agent_id, memory_type=memory_type, status="active")
    if readable:
        where = {"$and": [*where.get("$and", [where]), {"readable": {"$gte": MIN_KNOWN_TOKENS}}]}  # type: ignore[union-attr]
    return where  # type: ignore[return-value]
