"""A memory store on Chroma, with hybrid recall and a real lifecycle.

Same contract as :class:`~memcourse.stores.json_store.JsonMemoryStore` (one test suite checks
both), plus what a vector database makes possible and what production memory needs.

**Where things are kept** depends on how Chroma runs, because forgetting and concurrency
have different answers in each case:

* *Embedded* (``ChromaMemoryStore(path)``, or a ``PersistentClient``/``EphemeralClient``):
  records (subject, content, history, everything a person wrote) live in a SQLite database
  of ours next to Chroma's files, with ``secure_delete``; Chroma gets only vectors under
  opaque random ids and filter scalars with random tenant tokens
  (:mod:`memcourse.stores.record_db`). Forgetting is one ``DELETE`` in our database; Chroma's
  own log and free pages never held text. One process per path (a second one is refused
  at open, see :mod:`memcourse.stores.chroma_locks`).
* *Server* (``client=chromadb.HttpClient(...)`` against ``chroma run``): many processes share
  one collection, so records live in Chroma as append-only version rows
  (:mod:`memcourse.stores.chroma_rows`): concurrent updates cannot lose a version. The
  server keeps deleted bytes until its operator runs ``chroma vacuum``.

Either way, every store object and thread of this process that opens the same collection
shares one lock, one keyword index and one record connection, so they behave as one store.

**Recall** (``search(..., mode="hybrid"|"vector"|"keyword")``): the vector channel asks
Chroma for neighbours of this user's active memories the model could read (cosine ≥
``similarity_floor``), the keyword channel asks BM25 (jieba-aware) restricted to the same
user, and :func:`memcourse.recall.hybrid.rank_hits` fuses, decays, boosts and admits.

**Lifecycle.** Upsert by id updates in place (``created_at`` kept, replaced content kept in
``history``). A *near-duplicate* (cosine ≥ 0.92, same user, agent and type, different id,
both texts readable by the model; the decision is :func:`memcourse.recall.dedupe.may_supersede`)
supersedes the older record: it becomes ``superseded`` with ``superseded_by`` pointing at the
new one. An upsert whose ``memory_id`` already belongs to another user or agent is refused:
ids are not a way into another tenant's memories. ``forget`` removes every copy.

**Search scopes live in this process.** The BM25 index and the catalog of which active
memory belongs to which user, agent and type are kept in memory and rebuilt when a store
opens. Processes sharing a server call :meth:`refresh` to see each other's new memories in
search; until then a search fails closed (it misses them, never leaks them), and every
record is checked again after loading. ``get``, ``list_all`` and ``history`` always read
the stored records.
"""

from __future__ import annotations

import atexit
import os
import threading
import time
import weakref
from datetime import datetime
from pathlib import Path
from contextlib import contextmanager
from typing import Any, Callable, Iterable, Iterator, Sequence

import numpy as np

from memcourse.embeddings import Embedder, chroma_embedding_function_class, default_embedder
from memcourse.recall.bm25 import BM25Index
from memcourse.recall.as_of import rank_versions
from memcourse.recall.dedupe import may_supersede, merged_by_similarity
from memcourse.recall.passages import best_of, passage_similarity, passage_texts, passage_vectors
from memcourse.recall.hit import Hit
from memcourse.recall.verdicts import VERDICTS
from memcourse.recall.hybrid import (
    BM25_PARAMS,
    KEYWORD_DEPTH,
    MIN_KNOWN_TOKENS,
    MODES,
    SIMILARITY_FLOOR,
    VECTOR_DEPTH,
    check_fusion,
    rank_hits,
)
from memcourse.records import DEFAULT_USER, MemoryRecord, MemoryType, Status, parse_timestamp, utc_now
from memcourse.stores import chroma_locks
from memcourse.stores.base import StoreError
from memcourse.stores.contract import BATCH, FUSION, SUPERSEDE, StoreBase, merge_update, prepare_batch, search_arguments, visible
from memcourse.stores.contract import MODES as SEARCH_MODES
from memcourse.stores.chroma_catalog import SearchCatalog
from memcourse.stores.chroma_rows import VersionedRows
from memcourse.stores.record_db import LocalRecords
from memcourse.validity import version_as_of

__all__ = ["ChromaMemoryStore", "MODES"]

#: Tenant share of the collection above which the vector channel post-filters (see _vector_channel).
POST_FILTER_SHARE = 0.1
#: Records per write batch.
CHUNK = 1000
#: Stored near-duplicates a new memory is compared with, and how many unfiltered neighbours
#: are asked for to find them (see _stored_near_duplicates).
NEAR_DUPLICATES, DUPLICATE_PROBE = 3, 10


class _Shared:
    """The state every store object on one collection in this process shares."""

    def __init__(self, records: LocalRecords | VersionedRows):
        self.lock = threading.RLock()
        self.records = records
        self.catalog = SearchCatalog(BM25Index(**BM25_PARAMS))  # the keyword index and allow-lists
        self.row_count = 0
        # Access statistics are written behind (see flush()): id -> record with new counts.
        self.pending: dict[str, MemoryRecord] = {}
        self.pending_since = 0.0
        self.loaded = False


class ChromaMemoryStore(StoreBase):
    """Long-term memories in a Chroma collection, recalled by hybrid search.

    The verbs every store shares (``get``, ``history``, ``list_all``, ``forget``,
    ``forget_chain``, ``forget_user``, the checks and the update merge) come from
    :class:`~memcourse.stores.contract.StoreBase`; this class is Chroma."""

    capabilities = StoreBase.capabilities | {SEARCH_MODES, BATCH, FUSION, SUPERSEDE}

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
        fusion: str = "weighted",
        min_confidence: float = 0.6,
        dedupe_threshold: float = 0.92,
        similarity_floor: float = SIMILARITY_FLOOR,
        access_flush_seconds: float = 1.0,
    ):
        if client is None and path is None:
            raise TypeError("ChromaMemoryStore needs path= (a data directory) or client= (a chromadb client)")
        if client is not None and path is not None:
            raise TypeError("give path= or client=, not both")
        if not isinstance(collection, str):
            raise TypeError(f"collection must be a string, got {type(collection).__name__}")
        self.path = Path(path) if path is not None else None
        self._shared: _Shared | None = None
        if self.path is not None:
            path_key = chroma_locks.lock_directory(self.path)
            try:
                client = chroma_locks.open_embedded(self.path)
            except BaseException:
                chroma_locks.release_path(path_key)
                raise
        mode, directory, key = chroma_locks.where_chroma_runs(client, collection)
        if self.path is None and directory is not None:
            path_key = chroma_locks.hold_path(directory)
        elif self.path is None:
            path_key = None
        self.client = client
        # close() (or garbage collection) gives back what this object took: its share of
        # the path lock, and the client if we made it.
        self._release = weakref.finalize(self, _release, path_key, client if self.path is not None else None)
        self.server = mode == "server"
        self.embedder = embedder or default_embedder()
        self._clock = clock
        self.rrf_k = rrf_k
        self.decay_lambda = decay_lambda
        self.fusion = check_fusion(fusion)  # "weighted" (default) or "rrf": see recall.hybrid
        self.min_confidence = min_confidence
        self.dedupe_threshold = dedupe_threshold
        self.similarity_floor = similarity_floor
        self.access_flush_seconds = access_flush_seconds
        try:
            self._connect(collection, directory, key)
        except BaseException:
            self._shared = None
            self._release()  # a store that failed to open holds nothing
            raise

    def _connect(self, collection: str, directory: Path | None, key: tuple) -> None:
        """Open the collection, check its model, join (or build) the shared state."""
        client = self.client
        function_class = chroma_embedding_function_class()
        try:
            self.collection = client.get_or_create_collection(
                collection,
                embedding_function=function_class(embedder=self.embedder),
                configuration={"hnsw": {"space": "cosine"}},
            )
        except Exception as error:
            if type(error).__module__.startswith("chromadb") and "Validation" not in str(error):
                where = directory or getattr(client, "_identifier", "the Chroma client")
                raise StoreError(f"{where}: Chroma could not open collection {collection!r}: {error}") from None
            raise ValueError(f"collection: {error}") from None
        self._check_embedding_model()

        def build() -> _Shared:
            if self.server:
                return _Shared(VersionedRows(self.collection, f"Chroma server collection {collection!r}"))
            return _Shared(LocalRecords(self.collection, directory))

        self._shared = chroma_locks.shared(key, build)
        atexit.register(_flush_at_exit, weakref.ref(self))
        with self._shared.lock:
            if not self._shared.loaded:
                self._repair()
                self.refresh()
                self._shared.loaded = True

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

    @property
    def _records(self) -> LocalRecords | VersionedRows:
        return self._state().records

    def _state(self) -> _Shared:
        if self._shared is None:
            raise StoreError(f"{self!r} is closed; open a new ChromaMemoryStore to use it again")
        return self._shared

    @property
    def _bm25(self) -> BM25Index:
        return self._state().catalog.bm25

    @property
    def _pending(self) -> dict[str, MemoryRecord]:
        return self._state().pending

    def _repair(self) -> None:
        """After a crash: Chroma is made to agree with the record database (see
        :meth:`LocalRecords.reconcile`); records left without a vector get one again."""
        missing = self._records.reconcile()
        if missing:
            vectors = self.embedder.embed([r.content for r in missing])
            self._records.write(
                missing,
                vectors={r.memory_id: vectors[i] for i, r in enumerate(missing)},
                readable={r.memory_id: self.embedder.known_token_ratio(r.content) for r in missing},
                existing={r.memory_id: r for r in missing},
            )

    # -- writing --------------------------------------------------------------------------
    def upsert(self, record: MemoryRecord) -> MemoryRecord:
        """Insert, update by id, or supersede a near-duplicate; returns the stored version."""
        if not isinstance(record, MemoryRecord):
            raise TypeError(f"upsert expects a MemoryRecord, got {type(record).__name__}")
        return self.upsert_many([record])[0]

    def upsert_many(self, records: Sequence[MemoryRecord]) -> list[MemoryRecord]:
        """Upsert a batch: one embedding call, a few Chroma calls per 1,000 records.

        Same result as upserting one by one, in order. All records are validated, and
        checked against the owners of the ids they reuse, before anything is written; two
        records with the same id in one batch are refused.
        """
        batch = prepare_batch(records)
        stored: list[MemoryRecord] = []
        with self._transaction() as view:
            self._check_writes(batch, view)
            self.flush()
            for start in range(0, len(batch), CHUNK):
                stored.extend(self._upsert_chunk(batch[start : start + CHUNK]))
        return stored  # our own copies (made above); the store keeps nothing that aliases them

    def _upsert_chunk(self, chunk: list[MemoryRecord]) -> list[MemoryRecord]:
        now = self._now()
        existing = self._fetch([r.memory_id for r in chunk])
        # 1. Merge updates by id (the contract's merge: created_at and access statistics kept,
        #    updated_at moved, the replaced content kept in history).
        needs_vector: list[MemoryRecord] = []  # new records, and updates that changed content
        for new in chunk:
            old = existing.get(new.memory_id)
            if old is None:
                needs_vector.append(new)
                continue
            merge_update(old, new, now)  # the old value keeps its validity interval
            if old.content != new.content:
                needs_vector.append(new)
        # 2. Vectors (cached by content hash) and how much of each text the model could read.
        vectors = self.embedder.embed([r.content for r in needs_vector])
        vector_of = {r.memory_id: vectors[i] for i, r in enumerate(needs_vector)}
        readable = dict(zip((r.memory_id for r in chunk), self.embedder.known_token_ratios([r.content for r in chunk])))
        # The vectors recall scores a multi-sentence memory's passages by (recall.passages).
        passage_matrix = passage_vectors(
            {r.memory_id: r.content for r in needs_vector if readable[r.memory_id] >= MIN_KNOWN_TOKENS},
            self.embedder, min_known=MIN_KNOWN_TOKENS,
        )
        # 3. New active records supersede their near-duplicates (stored, or earlier in the chunk).
        fresh = [r for r in needs_vector if r.memory_id not in existing and r.status is Status.ACTIVE]
        in_chunk = {r.memory_id for r in chunk}
        outside = [p for p in self._supersede(fresh, vector_of, readable, now) if p.memory_id not in in_chunk]
        for record in outside:
            readable.setdefault(record.memory_id, self.embedder.known_token_ratio(record.content))
        # 4. Write (the backend decides how: see record_db and chroma_rows).
        self._records.write(
            chunk + outside,
            vectors=vector_of,
            readable=readable,
            existing={**existing, **{r.memory_id: r for r in outside}},
            passages=passage_matrix,
        )
        # 5. Keep the keyword channel and the scope catalog in step (an update that changed
        #    neither the indexed text nor the scope leaves them as they are).
        catalog = self._state().catalog
        for record in chunk + outside:
            old = existing.get(record.memory_id)
            if old is not None and catalog.unchanged(old, record):
                continue
            catalog.index(record, readable[record.memory_id])
        self._state().row_count = self._records.row_count()
        return chunk

    def _supersede(
        self, fresh: list[MemoryRecord], vector_of: dict[str, np.ndarray], readable: dict[str, float], now: datetime
    ) -> list[MemoryRecord]:
        """Mark older near-duplicates of ``fresh`` records superseded; return the changed ones.

        Compared within the same user, agent and type, against stored active rows and against
        earlier records of the same batch. Events are never merged by similarity (two
        meetings are two facts: :func:`~memcourse.recall.dedupe.may_supersede`), so they are
        not compared at all; nor are texts the model cannot read (their vectors are [UNK]
        soup: "用户喜欢猫" and "用户讨厌狗" would look identical).
        """
        if self.dedupe_threshold > 1 or not fresh:
            return []
        groups: dict[tuple[str, str, str], list[MemoryRecord]] = {}
        for record in fresh:
            if not merged_by_similarity(record.memory_type) or readable[record.memory_id] < MIN_KNOWN_TOKENS:
                continue
            groups.setdefault((record.user_id, record.agent_id, record.memory_type.value), []).append(record)
        stored = self._stored_near_duplicates([m for members in groups.values() for m in members], vector_of)
        changed: dict[str, MemoryRecord] = {}
        for members in groups.values():
            successor: dict[str, MemoryRecord] = {}  # predecessor id -> newest near-duplicate
            for member in members:
                for candidate, similarity in stored[member.memory_id]:
                    candidate = changed.get(candidate.memory_id, candidate)
                    if candidate.memory_id == member.memory_id or candidate.status is not Status.ACTIVE:
                        continue
                    if not may_supersede(candidate, member, similarity, threshold=self.dedupe_threshold):
                        continue
                    successor[candidate.memory_id] = member  # later members overwrite: newest wins
                    changed.setdefault(candidate.memory_id, candidate)
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

    def _stored_near_duplicates(
        self, members: list[MemoryRecord], vector_of: dict[str, np.ndarray]
    ) -> dict[str, list[tuple[MemoryRecord, float]]]:
        """For each member, up to ``NEAR_DUPLICATES`` stored active memories of its user, agent
        and type that the model could read, at cosine ≥ ``dedupe_threshold``, nearest first.

        The same choice as the vector channel's (``_vector_channel``): a kNN query filtered
        by tenant and type costs Chroma a pass over every row the filter matches (hundreds of
        milliseconds at 100k rows), once per (user, agent, type) group in the batch. So the
        whole batch asks one *unfiltered* query for its ``DUPLICATE_PROBE`` nearest rows each,
        and the scope is checked on the few that are close enough. That answer is complete
        when the probe reached a row below the threshold (every row at or above it was
        returned) or the whole collection; only a member whose probe was close all the way
        down (a crowd of near-identical rows, of anyone) is asked again with the filter.
        """
        count = self._state().row_count
        if not members or not count:
            return {m.memory_id: [] for m in members}
        found: dict[str, list[tuple[str, float]]] = {}
        probe = min(DUPLICATE_PROBE, count)
        answers = self._records.nearest_unfiltered(np.stack([vector_of[m.memory_id] for m in members]), probe)
        unsure: dict[tuple[str, str, str], list[MemoryRecord]] = {}
        for member, (pairs, returned, last) in zip(members, answers):
            found[member.memory_id] = [(cid, 1.0 - d) for cid, d in pairs if 1.0 - d >= self.dedupe_threshold]
            if returned >= probe and probe < count and 1.0 - last >= self.dedupe_threshold:
                unsure.setdefault((member.user_id, member.agent_id, member.memory_type.value), []).append(member)
        for (user, agent, kind), group in unsure.items():
            scope = {"user_id": user, "agent_id": agent, "memory_type": kind, "active": True, "readable": True}
            vectors = np.stack([vector_of[m.memory_id] for m in group])
            for member, pairs in zip(group, self._records.nearest(vectors, min(NEAR_DUPLICATES, count), scope)):
                found[member.memory_id] = [(cid, 1.0 - d) for cid, d in pairs if 1.0 - d >= self.dedupe_threshold]
        loaded = self._fetch({cid for close in found.values() for cid, _ in close})
        result: dict[str, list[tuple[MemoryRecord, float]]] = {}
        for member in members:
            kept = []
            for cid, similarity in found[member.memory_id]:
                record = loaded.get(cid)
                if (
                    record is None
                    or (record.user_id, record.agent_id, record.memory_type) != (member.user_id, member.agent_id, member.memory_type)
                    or record.status is not Status.ACTIVE
                    or self.embedder.known_token_ratio(record.content) < MIN_KNOWN_TOKENS
                ):
                    continue
                kept.append((record, similarity))
            result[member.memory_id] = kept[:NEAR_DUPLICATES]
        return result

    def _delete(self, records: Sequence[MemoryRecord]) -> None:
        """Every copy of the records goes: the stored rows (and their passage vectors), the
        buffered access statistics, the keyword index and scope catalog, the read gate's
        cached verdicts and the cached embeddings of every text they held. On an embedded
        store nothing else ever held the text (:mod:`memcourse.stores.record_db`); a server
        keeps deleted bytes until its operator runs ``chroma vacuum``."""
        ids = [r.memory_id for r in records]
        for doc_id in ids:
            self._state().pending.pop(doc_id, None)  # never write a forgotten record back
        self._records.delete(ids)
        self._state().row_count = self._records.row_count()
        for record in records:
            self._state().catalog.unindex(record.memory_id)
            VERDICTS.forget(record)
            texts = [record.content, *(entry.content for entry in record.history)]
            self.embedder.evict([*texts, *passage_texts(texts)])

    # -- reading --------------------------------------------------------------------------
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
        as_of: datetime | str | None = None,
    ) -> list[Hit]:
        """Up to ``limit`` hits of one user (optionally one agent, one type), best first, each
        with its score breakdown; records the access of the returned ones, unless
        ``record_access=False`` (evaluations and explanations must not tilt later rankings).
        ``as_of=<time>`` searches the facts as they held then (see :meth:`_search_as_of`).

        ``mode`` picks the channels: ``"vector"`` (dense, English-capable by default),
        ``"keyword"`` (BM25, Chinese-aware) or ``"hybrid"`` (both, fused as the store's ``fusion`` says: weighted by default, plain RRF on request). Bad
        arguments raise before anything is read or written."""
        args = search_arguments(query, limit=limit, memory_type=memory_type, user_id=user_id, agent_id=agent_id,
                                record_access=record_access, as_of=as_of, mode=mode, modes=MODES)
        wanted = args.memory_type
        if args.as_of is not None:
            return self._search_as_of(query, args.as_of, limit=limit, wanted=wanted, user_id=user_id,
                                      agent_id=agent_id, mode=mode)
        now = self._now()
        shared = self._state()
        with shared.lock:
            rankings: dict[str, list[str]] = {}
            distance: dict[str, float] = {}
            keyword_score: dict[str, float] = {}
            catalog = shared.catalog
            allowed = catalog.allowed(user_id, agent_id, wanted.value if wanted else None)
            # Both the vector channel and the ranking read records, and only what the search may
            # return is read: the current-view filter runs *before* the ranking cuts to `limit`.
            fetch = self._memo_fetch(lambda record: visible(record, now, args))
            if mode in ("hybrid", "vector"):
                rankings["vector"] = self._vector_channel(
                    query, user_id, allowed, max(limit * 4, VECTOR_DEPTH), distance, fetch)
            if mode in ("hybrid", "keyword"):
                # The BM25 index holds exactly the active memories; when this scope owns all of
                # them (a single-tenant store) the allow-list filters nothing, so skip it.
                scope = None if len(allowed) == len(catalog.active) else allowed
                pairs = catalog.bm25.search(query, limit=max(limit * 4, KEYWORD_DEPTH), allowed=scope) if allowed else []
                rankings["keyword"] = [doc_id for doc_id, _ in pairs]
                keyword_score = dict(pairs)
            hits = rank_hits(
                query,
                rankings=rankings,
                fetch=fetch,
                type_of=catalog.type_of,
                user_id=user_id,
                now=now,
                limit=limit,
                mode=mode,
                similarity={doc_id: 1.0 - d for doc_id, d in distance.items()},
                keyword_score=keyword_score,
                rrf_k=self.rrf_k,
                decay_lambda=self.decay_lambda,
                min_confidence=self.min_confidence,
                fusion=self.fusion,
                readability=self.embedder.known_token_ratio(query) if mode == "hybrid" else 1.0,
                similarity_floor=self.similarity_floor,
            )
            for hit in hits if record_access else ():
                hit.record.access_count += 1
                hit.record.last_accessed_at = now
                if not shared.pending:
                    shared.pending_since = time.monotonic()
                shared.pending[hit.record.memory_id] = hit.record.copy()
            if shared.pending and time.monotonic() - shared.pending_since >= self.access_flush_seconds:
                self.flush()
        return [Hit(h.record.copy(), h.score, h.breakdown) for h in hits]

    def _vector_channel(
        self, query: str, user_id: str, allowed: set[str], depth: int, distance: dict[str, float],
        fetch: Callable[[Iterable[str]], dict[str, MemoryRecord]],
    ) -> list[str]:
        """Ids of ``allowed`` memories whose vectors are close to the query's, best first
        (a memory of several sentences re-scored by its best passage, see
        :mod:`memcourse.recall.passages`: their vectors are read from the record database, or
        computed from the records ``fetch`` loads when none are stored).

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
        shared = self._state()
        if not allowed or self.embedder.known_token_ratio(query) < MIN_KNOWN_TOKENS:
            return []  # nothing to compare, or the model cannot read this query (noise)

        def keep(doc_id: str) -> bool:
            return doc_id in allowed and shared.catalog.readable(doc_id)

        vector = self.embedder.embed_one(query)[None, :]
        rows = max(shared.row_count, 1)
        share = len(allowed) / rows
        pairs: list[tuple[str, float]] | None = None
        if share >= POST_FILTER_SHARE:
            n = min(rows, int(depth / share * 2) + 1)
            found, returned, last = self._records.nearest_unfiltered(vector, n)[0]
            pairs = [(i, d) for i, d in found if keep(i)]
            exhausted = returned >= rows or (returned and 1.0 - last < self.similarity_floor)
            if len(pairs) < min(depth, len(allowed)) and not exhausted:
                pairs = None  # too few survivors and more could be close: ask Chroma to filter
        if pairs is None:
            scope = {"user_id": user_id, "active": True, "readable": True}
            pairs = [(i, d) for i, d in self._records.nearest(vector, min(depth * 2, rows), scope)[0] if keep(i)]
        found = [(doc_id, 1.0 - float(d)) for doc_id, d in pairs[:depth] if 1.0 - d >= self.similarity_floor]
        # A memory of several sentences is also scored by its best passage (recall.passages):
        # the whole text's cosine found it, the passage decides how close it really is.
        several = [doc_id for doc_id, _ in found if shared.catalog.has_passages(doc_id)]
        matrices = self._records.passage_vectors(several, vector.shape[1]) if several else {}
        missing = [doc_id for doc_id in several if doc_id not in matrices]  # a server, or written before passages
        if missing:
            texts = {doc_id: record.content for doc_id, record in fetch(missing).items()}
            matrices.update(passage_vectors(texts, self.embedder, min_known=MIN_KNOWN_TOKENS))
        best = best_of(vector[0], matrices)
        rescored = sorted(((doc_id, passage_similarity(s, best.get(doc_id))) for doc_id, s in found),
                          key=lambda pair: -pair[1])
        for doc_id, s in rescored:
            distance[doc_id] = 1.0 - s
        return [doc_id for doc_id, _ in rescored]

    def _search_as_of(
        self, query: str, moment: datetime, *, limit: int, wanted: MemoryType | None, user_id: str,
        agent_id: str | None, mode: str,
    ) -> list[Hit]:
        """Recall among the versions that held at ``moment`` (:mod:`memcourse.validity`).

        The indexes hold today's texts only, so the versions valid then are ranked directly
        (:func:`memcourse.recall.as_of.rank_versions`), and no access is recorded.
        """
        with self._state().lock:
            rows = self._records.select(user_id=user_id, agent_id=agent_id,
                                        memory_type=wanted.value if wanted else None)
        views = {}
        for record, _ in rows:
            view = version_as_of(record, moment)
            if view is not None and view.confidence >= self.min_confidence:
                views[view.memory_id] = view
        return rank_versions(query, views, moment=moment, limit=limit, mode=mode, embedder=self.embedder,
                             rrf_k=self.rrf_k, similarity_floor=self.similarity_floor)

    # -- keeping the keyword channel in step ----------------------------------------------------
    def refresh(self) -> None:
        """Rebuild the keyword index and scope catalog from the stored records (on open, or
        after another process wrote to the same server collection)."""
        shared = self._state()
        with shared.lock:
            shared.catalog.rebuild(self._records.select(status="active"))
            shared.row_count = self._records.row_count()

    def keyword_tokens(self, memory_id: str) -> list[str]:
        """The tokens the keyword channel holds for a memory (``[]`` if none)."""
        return self._state().catalog.bm25.tokens_of(memory_id)

    # -- the contract's primitives ---------------------------------------------------------------
    @contextmanager
    def _transaction(self, *, purge: bool = False) -> Iterator[_View]:
        """The collection's lock, shared by every store object and thread of this process on
        it (and, embedded, the path's ``flock``: one process per path), so a read-check-write
        inside is atomic here. ``purge`` needs nothing more: no debris holds text."""
        with self._state().lock:
            yield _View(self)

    # -- plumbing ---------------------------------------------------------------------------------
    def _now(self) -> datetime:
        return parse_timestamp(self._clock(), "clock()")

    def _with_pending(self, record: MemoryRecord) -> MemoryRecord:
        """A stored record with the access statistics not yet written behind."""
        pending = self._state().pending.get(record.memory_id)
        if pending is not None:
            record.access_count, record.last_accessed_at = pending.access_count, pending.last_accessed_at
        return record

    def _fetch(self, ids: Iterable[str]) -> dict[str, MemoryRecord]:
        with self._state().lock:
            return {mid: self._with_pending(r) for mid, r in self._records.fetch(ids).items()}

    def _memo_fetch(self, keep: Callable[[MemoryRecord], bool]) -> Callable[[Iterable[str]], dict[str, MemoryRecord]]:
        """A ``_fetch`` for one search: each record is read at most once, and only records
        ``keep`` accepts are returned (to the ranking, they do not exist)."""
        loaded: dict[str, MemoryRecord | None] = {}

        def fetch(ids: Iterable[str]) -> dict[str, MemoryRecord]:
            ids = list(ids)
            missing = [doc_id for doc_id in ids if doc_id not in loaded]
            if missing:
                found = self._fetch(missing)
                loaded.update({doc_id: r if (r := found.get(doc_id)) is not None and keep(r) else None
                               for doc_id in missing})
            return {doc_id: loaded[doc_id] for doc_id in ids if loaded[doc_id] is not None}

        return fetch

    # -- write-behind of access statistics -------------------------------------------------------
    def flush(self) -> int:
        """Write buffered access statistics; returns how many records were written.

        Every search records which memories it returned (``access_count``,
        ``last_accessed_at``). Writing that synchronously costs a write on every search,
        more than the search itself, so it is *written behind*: kept in memory (and already
        visible to ``get``/``list_all``/``search`` of every store object on this collection
        in this process), then written at the first search after ``access_flush_seconds``,
        before any other write, and at :meth:`close` or interpreter exit. A crash can lose
        the last second of access counts, never a memory.
        """
        shared = self._state()
        with shared.lock:
            if not shared.pending:
                return 0
            records = list(shared.pending.values())
            shared.pending.clear()
            current = self._records.fetch([r.memory_id for r in records])
            merged = []
            for record in records:
                stored = current.get(record.memory_id)
                if stored is None:
                    continue  # forgotten meanwhile (by another process): nothing to count
                stored.access_count = max(stored.access_count, record.access_count)
                stored.last_accessed_at = record.last_accessed_at or stored.last_accessed_at
                merged.append(stored)
            self._records.write_access(merged)
            return len(merged)

    def close(self) -> None:
        """Write what is buffered and let go: this object's share of the embedded path's
        lock (the last store of the process on a path releases it, so another process may
        open it) and the Chroma client if the store created it. Using the store afterwards
        raises :class:`StoreError`; closing twice is harmless."""
        if self._shared is None:
            return
        try:
            self.flush()
        finally:
            self._shared = None
            self._release()

    def __enter__(self) -> "ChromaMemoryStore":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


class _View:
    """The store's records as the contract sees them (:class:`~memcourse.stores.contract.
    Records`): read with the access statistics not yet written behind; deleted with every copy."""

    def __init__(self, store: ChromaMemoryStore):
        self.store = store

    def fetch(self, ids: Iterable[str]) -> dict[str, MemoryRecord]:
        return self.store._fetch(ids)

    def select(self, **filters: Any) -> list[MemoryRecord]:
        return [self.store._with_pending(r) for r, _ in self.store._records.select(**filters)]

    def delete(self, records: Sequence[MemoryRecord]) -> None:
        self.store._delete(records)
        self.store.flush()


def _flush_at_exit(ref: "weakref.ref[ChromaMemoryStore]") -> None:
    store = ref()
    if store is not None and store._shared is not None:
        try:
            store.flush()
        except Exception:  # the server may be gone or the directory deleted: nothing to save to
            pass


def _release(path_key: str | None, own_client: Any) -> None:
    if own_client is not None:
        try:
            own_client.close()  # chromadb stops its system when its last client closes
        except Exception:
            pass
    if path_key is not None:
        chroma_locks.release_path(path_key)
