"""The Chroma store's public verbs and lifecycle: open, upsert, close, and the primitives the
shared contract (:mod:`memcourse.stores.contract`) runs every other verb on.

Search, supersede and the access write-behind are their own ideas, in :mod:`.search`,
:mod:`.supersede` and :mod:`.access`; this class puts them together. The package docstring
(:mod:`memcourse.stores.chroma`) says where records are kept and why.
"""

from __future__ import annotations

import atexit
import os
import threading
import weakref
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Sequence

from memcourse.embeddings import Embedder, chroma_embedding_function_class, default_embedder
from memcourse.recall.bm25 import BM25Index
from memcourse.recall.config import RecallConfig
from memcourse.recall.hybrid import BM25_PARAMS, MODES
from memcourse.recall.passages import passage_texts, passage_vectors
from memcourse.recall.verdicts import VERDICTS
from memcourse.records import MemoryRecord, Status, parse_timestamp, utc_now
from memcourse.stores.base import StoreError
from memcourse.stores.chroma import locks as chroma_locks
from memcourse.stores.chroma.access import AccessWriteBehind
from memcourse.stores.chroma.catalog import SearchCatalog
from memcourse.stores.chroma.embedded import EmbeddedRecords
from memcourse.stores.chroma.records import RecordKeeper
from memcourse.stores.chroma.search import ChannelSearch
from memcourse.stores.chroma.server import ServerRecords
from memcourse.stores.chroma.supersede import NearDuplicates
from memcourse.stores.contract import BATCH, FUSION, SUPERSEDE, StoreBase, merge_update, prepare_batch
from memcourse.stores.contract import MODES as SEARCH_MODES
from memcourse.stores.recall_defaults import RecallDefaults, store_recall

__all__ = ["ChromaMemoryStore", "MODES"]

#: Records per write batch.
CHUNK = 1000


class SharedState:
    """The state every store object on one collection in this process shares."""

    def __init__(self, records: RecordKeeper):
        self.lock = threading.RLock()
        self.records = records
        self.catalog = SearchCatalog(BM25Index(**BM25_PARAMS))  # the keyword index and allow-lists
        self.row_count = 0
        # Access statistics are written behind (see flush()): id -> record with new counts.
        self.pending: dict[str, MemoryRecord] = {}
        self.pending_since = 0.0
        self.loaded = False


class ChromaMemoryStore(ChannelSearch, NearDuplicates, AccessWriteBehind, RecallDefaults, StoreBase):
    """Long-term memories in a Chroma collection, recalled by hybrid search.

    The verbs every store shares (``get``, ``history``, ``list_all``, ``forget``,
    ``forget_chain``, ``forget_user``, the checks and the update merge) come from
    :class:`~memcourse.stores.contract.StoreBase`; this class is Chroma.

    ``recall``: the default :class:`~memcourse.recall.config.RecallConfig` (else the embedder's
    model profile's: :mod:`memcourse.stores.recall_defaults`); ``rrf_k=``, ``fusion=``,
    ``similarity_floor=``, ``dedupe_threshold=``, ... change one knob of it. A search's
    ``recall=`` overrides it for that call."""

    capabilities = StoreBase.capabilities | {SEARCH_MODES, BATCH, FUSION, SUPERSEDE}

    def __init__(
        self,
        path: str | os.PathLike[str] | None = None,
        *,
        client: Any = None,
        collection: str = "memcourse",
        embedder: Embedder | None = None,
        clock: Callable[[], datetime] = utc_now,
        recall: RecallConfig | None = None,
        rrf_k: float | None = None,
        decay_lambda: float | None = None,
        fusion: str | None = None,
        min_confidence: float | None = None,
        dedupe_threshold: float | None = None,
        similarity_floor: float | None = None,
        access_flush_seconds: float = 1.0,
    ):
        if client is None and path is None:
            raise TypeError("ChromaMemoryStore needs path= (a data directory) or client= (a chromadb client)")
        if client is not None and path is not None:
            raise TypeError("give path= or client=, not both")
        if not isinstance(collection, str):
            raise TypeError(f"collection must be a string, got {type(collection).__name__}")
        self.embedder = embedder or default_embedder()
        # The default knobs, checked before anything is opened: the model's profile's unless given.
        self.recall = store_recall(recall, self.embedder, rrf_k=rrf_k, decay_lambda=decay_lambda, fusion=fusion,
                                   min_confidence=min_confidence, dedupe_threshold=dedupe_threshold,
                                   similarity_floor=similarity_floor)
        self.path = Path(path) if path is not None else None
        path_key: str | None = None  # the path lock this object holds a share of, if any
        self._shared: SharedState | None = None
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
        self.client = client
        # close() (or garbage collection) gives back what this object took: its share of
        # the path lock, and the client if we made it.
        self._release = weakref.finalize(self, _release, path_key, client if self.path is not None else None)
        self.server = mode == "server"
        self._clock = clock
        self.access_flush_seconds = access_flush_seconds
        try:
            self._connect(collection, directory, key)
        except BaseException:
            self._shared = None
            self._release()  # a store that failed to open holds nothing
            raise

    def _connect(self, collection: str, directory: Path | None, key: chroma_locks.StateKey) -> None:
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
                where = directory if directory is not None else getattr(client, "_identifier", "the Chroma client")
                raise StoreError(f"{where}: Chroma could not open collection {collection!r}: {error}") from None
            raise ValueError(f"collection: {error}") from None
        self._check_embedding_model()

        def build() -> SharedState:
            if self.server:
                return SharedState(ServerRecords(self.collection, f"Chroma server collection {collection!r}"))
            return SharedState(EmbeddedRecords(self.collection, directory))

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
    def _records(self) -> RecordKeeper:
        return self._state().records

    def _state(self) -> SharedState:
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
        :meth:`EmbeddedRecords.reconcile`); records left without a vector get one again."""
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
        ratios = self.embedder.known_token_ratios([r.content for r in chunk])
        readable = dict(zip((r.memory_id for r in chunk), ratios, strict=True))
        # The vectors recall scores a multi-sentence memory's passages by (recall.passages).
        passage_matrix = passage_vectors(
            {r.memory_id: r.content for r in needs_vector if readable[r.memory_id] >= self.recall.min_known_tokens},
            self.embedder, min_known=self.recall.min_known_tokens,
        )
        # 3. New active records supersede their near-duplicates (stored, or earlier in the chunk).
        fresh = [r for r in needs_vector if r.memory_id not in existing and r.status is Status.ACTIVE]
        in_chunk = {r.memory_id for r in chunk}
        outside = [p for p in self._supersede(fresh, vector_of, readable, now) if p.memory_id not in in_chunk]
        for record in outside:
            readable.setdefault(record.memory_id, self.embedder.known_token_ratio(record.content))
        # 4. Write (the keeper decides how: see .embedded and .server).
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

    def _delete(self, records: Sequence[MemoryRecord]) -> None:
        """Every copy of the records goes: the stored rows (and their passage vectors), the
        buffered access statistics, the keyword index and scope catalog, the read gate's
        cached verdicts and the cached embeddings of every text they held. On an embedded
        store nothing else ever held the text (:mod:`memcourse.stores.chroma.embedded`); a server
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

    def _fetch(self, ids: Iterable[str]) -> dict[str, MemoryRecord]:
        with self._state().lock:
            return {mid: self._with_pending(r) for mid, r in self._records.fetch(ids).items()}

    # -- write-behind of access statistics -------------------------------------------------------
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
