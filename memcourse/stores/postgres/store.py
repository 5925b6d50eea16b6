"""``PostgresMemoryStore``: the store contract on PostgreSQL + pgvector, one database for all.

The engineering guide's advice (§2.1, §6.2): keep structured data and vectors in one
PostgreSQL with pgvector, so they can never be "two sets of data out of step". Here a memory is
one row of ``agent_memory`` (:mod:`.database`): its vector, its keyword tokens and its record
change in the same transaction, and every decision is one transaction (:mod:`.rows` says which
locks, in which order), so across any number of processes:

- the owner check and the write are atomic (no other process can take the id in between);
- an update's history is read and written under the row's lock (no version is lost);
- a forget and a racing write are serialised by the id's lock: the write lands before the
  forget (and is deleted with it) or after (and is a new memory with no past): a forgotten
  version never comes back.

Recall is the library's: vector candidates from the HNSW index (tenant filter inside the query,
iterative scan), keyword candidates ranked by BM25 inside the database over the hashed tokens of
:func:`memcourse.text.keyword_tokens` (:mod:`.keyword`), fused, decayed, boosted
and admitted by :func:`memcourse.recall.hybrid.rank_hits`, as in the Chroma store. Forgetting is
crypto-shredding (:mod:`.sealing`): the text is never stored in clear, nor are memory ids
(a row's key is a keyed hash of its id; :meth:`row_key` turns one into the other at every
boundary with the database).

This module is the glue: a :class:`~memcourse.stores.contract.StoreBase` whose shared verbs
(``get``, ``history``, ``list_all``, the write checks and merge, what a forget removes) read
through a :class:`.view.View` on one transaction. ``upsert_many``, ``forget_chain`` and
``forget_user`` run their body through :meth:`.database.Database.transaction` instead of
``with self._transaction()``: a deadlock rolls the body back and runs it *again*, which a
context manager cannot do, and they take the locks in the one order that keeps concurrent
decisions from deadlocking (the user's advisory lock, the sorted id locks, ``FOR UPDATE``).
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from datetime import datetime, timezone
from typing import Any, Callable, Iterable, Iterator, Sequence

import numpy as np
import psycopg
from cryptography.exceptions import InvalidTag

from memcourse.embeddings import Embedder, default_embedder
from memcourse.recall.as_of import rank_versions
from memcourse.recall.config import RecallConfig
from memcourse.recall.dedupe import may_supersede, merged_by_similarity
from memcourse.recall.hit import Hit
from memcourse.recall.hybrid import MODES, keyword_text, rank_hits
from memcourse.recall.passages import best_of, passage_similarity, passage_texts, passage_vectors, sentences
from memcourse.recall.verdicts import VERDICTS
from memcourse.records import DEFAULT_USER, MemoryRecord, MemoryType, Status, parse_timestamp, utc_now
from memcourse.stores.arguments import check_id, check_scope_id
from memcourse.stores.contract import (
    BATCH,
    FUSION,
    SUPERSEDE,
    StoreBase,
    doomed_by,
    merge_update,
    prepare_batch,
    search_arguments,
    visible,
)
from memcourse.stores.contract import MODES as SEARCH_MODES
from memcourse.stores.postgres import rows
from memcourse.stores.postgres.candidates import Candidates
from memcourse.stores.postgres.database import Database
from memcourse.stores.postgres.keyword import bm25_ranking
from memcourse.stores.postgres.sealing import KeyStore, UserKeys
from memcourse.stores.postgres.server import EmbeddedServer, database_url
from memcourse.stores.postgres.view import View
from memcourse.stores.recall_defaults import RecallDefaults, store_recall
from memcourse.text import keyword_tokens
from memcourse.validity import version_as_of

__all__ = ["PostgresMemoryStore", "KEY_STORE_ENV"]

KEY_STORE_ENV = "MEMCOURSE_KEY_STORE"
#: Stored near-duplicates a new memory is compared with (as in the Chroma store).
NEAR_DUPLICATES = 3


class PostgresMemoryStore(RecallDefaults, StoreBase):
    """Long-term memories in PostgreSQL with pgvector, recalled by hybrid search.

    ``dsn``: a libpq connection string; default ``MEMCOURSE_DATABASE_URL``; without either, an
    embedded server is started for this store and stopped at :meth:`close` (or when the process
    ends, however it ends). ``schema``: the PostgreSQL schema holding the tables (one store per
    schema). ``key_store``: the file of per-user keys (:mod:`.sealing`); default
    ``MEMCOURSE_KEY_STORE``, or, for an embedded server, a file next to (never inside) its data.
    ``recall``: the default :class:`~memcourse.recall.config.RecallConfig` (else the embedder's
    model profile's); ``rrf_k=``, ``fusion=``, ... change one knob of it; a search's ``recall=``
    overrides it for that call.
    """

    capabilities = StoreBase.capabilities | {SEARCH_MODES, BATCH, FUSION, SUPERSEDE}

    def __init__(
        self,
        dsn: str | None = None,
        *,
        schema: str = "memcourse",
        key_store: str | os.PathLike[str] | None = None,
        embedder: Embedder | None = None,
        clock: Callable[[], datetime] = utc_now,
        recall: RecallConfig | None = None,
        rrf_k: float | None = None,
        decay_lambda: float | None = None,
        fusion: str | None = None,
        min_confidence: float | None = None,
        dedupe_threshold: float | None = None,
        similarity_floor: float | None = None,
        pool_size: int = 4,
    ):
        if dsn is not None and not isinstance(dsn, str):
            raise TypeError(f"dsn must be a connection string, got {type(dsn).__name__}")
        if not callable(clock):
            raise TypeError(f"clock must be a callable returning a datetime, got {type(clock).__name__}")
        self.embedder = embedder or default_embedder()
        # The default knobs, checked before a server starts: the model's profile's unless given.
        self.recall = store_recall(recall, self.embedder, rrf_k=rrf_k, decay_lambda=decay_lambda, fusion=fusion,
                                   min_confidence=min_confidence, dedupe_threshold=dedupe_threshold,
                                   similarity_floor=similarity_floor)
        self._clock = clock
        self.server: EmbeddedServer | None = None
        dsn = dsn or database_url()
        if dsn is None:
            self.server = EmbeddedServer()
            dsn = self.server.dsn
        key_store = key_store or os.environ.get(KEY_STORE_ENV) or (
            self.server.root / "keys.sqlite" if self.server else None)
        try:
            if key_store is None:
                raise TypeError(f"with an external server give key_store= (or set {KEY_STORE_ENV}): the file of "
                                "per-user keys, kept outside the database and its backups")
            self.keys = KeyStore(key_store)
            self.row_key = self.keys.row_keys()
            self.db = Database(dsn, schema=schema, dimension=self.embedder.dimension,
                               model_id=self.embedder.model_id, max_size=pool_size)
            self.db.bind_row_keys(self.row_key.check, self.keys.path)
        except BaseException:
            for part in ("db", "keys"):  # whichever was opened before the refusal
                if part in self.__dict__:
                    self.__dict__.pop(part).close()
            if self.server is not None:
                self.server.stop()
            raise
        self.schema = schema

    def __repr__(self) -> str:
        return f"PostgresMemoryStore(schema={self.schema!r})"

    # -- rows and records ------------------------------------------------------------------
    def _now(self) -> datetime:
        return parse_timestamp(self._clock(), "clock()")

    @contextmanager
    def _snapshot(self) -> Iterator[View]:
        """One read-only snapshot (a single transaction), no locks."""
        with self.db.pool.connection() as conn, conn.transaction():
            yield View(self, conn)

    @contextmanager
    def _transaction(self, *, purge: bool = False) -> Iterator[View]:
        """One transaction, no retry (the verbs of this store that write use
        :meth:`.database.Database.transaction`, which retries; see the module docstring)."""
        with self.db.pool.connection() as conn, conn.transaction():
            yield View(self, conn, for_update=True)

    def _open(self, row: rows.Row, keys: dict[str, UserKeys | None]) -> MemoryRecord | None:
        """The record in ``row`` (plain columns win over the sealed copy: they are what later
        statements changed), or None when its key is gone (a forget destroyed it)."""
        if row.user_id not in keys:
            keys[row.user_id] = self.keys.get(row.user_id)
        user_keys = keys[row.user_id]
        if user_keys is None:
            return None
        try:
            record = MemoryRecord.from_dict(user_keys.open(row.id, row.sealed))
        except InvalidTag:  # sealed under a key destroyed since this snapshot was taken
            return None
        record.status = Status(row.status)  # superseded_by is in the sealed copy (rows.supersede)
        record.updated_at = row.updated_at.astimezone(timezone.utc)
        record.access_count = int(row.access_count)  # numeric: a count has no upper bound in a record
        record.last_accessed_at = row.last_accessed_at and row.last_accessed_at.astimezone(timezone.utc)
        return record

    def _records(self, found: Iterable[rows.Row], keys: dict[str, UserKeys | None] | None = None) -> list[MemoryRecord]:
        keys = {} if keys is None else keys
        return [record for record in (self._open(row, keys) for row in found) if record is not None]

    def _row(self, record: MemoryRecord, user_keys: UserKeys, readable: float) -> rows.Row:
        key = self.row_key(record.memory_id)
        return rows.Row(
            key, record.agent_id, record.user_id, record.memory_type.value, record.status.value,
            # the columns are `real` (float4): a valid importance such as 1e-100 would underflow
            # there; the exact value is in the sealed record, these only order and filter
            rows.real(record.importance), record.access_count, record.last_accessed_at,
            user_keys.tag(record.source_conversation_id), record.created_at,
            record.updated_at or record.created_at, record.superseded_by and self.row_key(record.superseded_by),
            rows.real(readable), user_keys.seal(key, record.to_dict()),
        )

    # -- writing ---------------------------------------------------------------------------
    def upsert(self, record: MemoryRecord) -> MemoryRecord:
        """Insert, update by id, or supersede a near-duplicate; returns the stored version."""
        if not isinstance(record, MemoryRecord):
            raise TypeError(f"upsert expects a MemoryRecord, got {type(record).__name__}")
        return self.upsert_many([record])[0]

    def upsert_many(self, records: Sequence[MemoryRecord]) -> list[MemoryRecord]:
        """Upsert a batch in one transaction: all of it is written, or (on any refusal) none."""
        batch = prepare_batch(records)
        if not batch:
            return []
        ids = [r.memory_id for r in batch]
        vectors = self.embedder.embed([r.content for r in batch])  # outside the transaction: slow
        readable = self.embedder.known_token_ratios([r.content for r in batch])

        def decide(conn: psycopg.Connection) -> list[MemoryRecord]:
            fresh = [r.copy() for r in batch]  # a retried transaction starts from the inputs again
            users = sorted({r.user_id for r in fresh})
            for user in users:
                rows.lock_user(conn, user, exclusive=False)
            created = {user: self.keys.get(user, create=True) for user in users}
            keys: dict[str, UserKeys | None] = dict(created)
            rows.lock_ids(conn, [self.row_key(i) for i in ids + [r.superseded_by for r in fresh if r.superseded_by]])
            # every check before any write, on rows read FOR UPDATE: a refused batch changes nothing
            existing = self._check_writes(fresh, View(self, conn, keys, for_update=True))
            now = self._now()
            for new, vector, ratio in zip(fresh, vectors, readable, strict=True):
                old = existing.get(new.memory_id)
                if old is not None:
                    merge_update(old, new, now)
                user_keys = created[new.user_id]
                rotated = user_keys.rotate(vector[None, :])[0]
                if old is None and new.status is Status.ACTIVE:
                    self._supersede(conn, new, rotated, ratio, user_keys, now)
                hashed = user_keys.tokens(keyword_tokens(keyword_text(new)))
                rows.write(conn, self._row(new, user_keys, ratio), rotated, hashed)
            return fresh

        stored = self.db.transaction(decide, what="upsert")
        return [r.copy() for r in stored]

    def _supersede(self, conn: psycopg.Connection, new: MemoryRecord, rotated: np.ndarray, ratio: float,
                   user_keys: UserKeys, now: datetime) -> None:
        """Mark the stored near-duplicates of a new active record superseded (same user, agent
        and type, both readable by the model, :func:`may_supersede` agreeing), in this transaction."""
        readable = self.recall.min_known_tokens
        if self.dedupe_threshold > 1 or not merged_by_similarity(new.memory_type) or ratio < readable:
            return
        near = rows.nearest(conn, rotated, NEAR_DUPLICATES, user_id=new.user_id, agent_id=new.agent_id,
                            memory_type=new.memory_type.value, min_readable=readable)
        new_key = self.row_key(new.memory_id)
        for candidate, _, distance in near:
            similarity = 1.0 - distance
            if candidate == new_key or similarity < self.dedupe_threshold:
                continue
            rows.lock_ids(conn, [candidate])
            found = self._records(rows.fetch(conn, [candidate], for_update=True).values(), {new.user_id: user_keys})
            if found and found[0].status is Status.ACTIVE and may_supersede(
                    found[0], new, similarity, threshold=self.dedupe_threshold):
                old = found[0]
                old.status, old.superseded_by, old.updated_at = Status.SUPERSEDED, new.memory_id, now
                rows.supersede(conn, candidate, new_key, now, user_keys.seal(candidate, old.to_dict()))

    def forget_chain(self, memory_id: str) -> tuple[str, ...]:
        """Forget a memory's chain and the records derived from it (the shared rule,
        :func:`~memcourse.stores.contract.doomed_by`) in one transaction; returns the ids
        deleted. Forgetting a user's last memory destroys their key (:mod:`.sealing`) in the
        same transaction, so no copy of the text (heap, WAL, backup) stays readable."""
        check_id(memory_id, "memory_id")

        def decide(conn: psycopg.Connection) -> tuple[str, ...]:
            start = rows.fetch(conn, [self.row_key(memory_id)]).get(self.row_key(memory_id))
            if start is None:
                return ()
            rows.lock_user(conn, start.user_id, exclusive=True)  # chain and derived: this user only
            view = View(self, conn)
            doomed = doomed_by(view, memory_id)
            if not doomed:
                return ()
            rows.lock_ids(conn, [self.row_key(i) for i in doomed])
            doomed = doomed_by(view, memory_id)  # again, under the locks: what we delete
            view.delete(list(doomed.values()))
            if rows.count_user(conn, start.user_id) == 0:
                self.keys.destroy(start.user_id)
            return tuple(doomed)

        return self.db.transaction(decide, what="forget")

    def forget_user(self, user_id: str) -> int:
        """Delete every memory of one user (all agents, every version) and destroy their key;
        returns how many records were removed."""
        check_scope_id(user_id, "user_id")

        def decide(conn: psycopg.Connection) -> int:
            rows.lock_user(conn, user_id, exclusive=True)
            found = rows.select(conn, user_id=user_id, for_update=True)
            self._evict(self._records(found))
            rows.delete(conn, [row.id for row in found])
            self.keys.destroy(user_id)
            return len(found)

        return self.db.transaction(decide, what="forget_user")

    def _evict(self, records: list[MemoryRecord]) -> None:
        """Forget what this process cached about the records: embeddings and trust verdicts."""
        for record in records:
            VERDICTS.forget(record)
            texts = [record.content, *(entry.content for entry in record.history)]
            self.embedder.evict([*texts, *passage_texts(texts)])

    # -- reading ---------------------------------------------------------------------------
    def search_hits(self, query: str, *, limit: int | None = None, memory_type: MemoryType | str | None = None,
                    user_id: str = DEFAULT_USER, agent_id: str | None = None, mode: str = "hybrid",
                    record_access: bool = True, as_of: datetime | str | None = None,
                    recall: RecallConfig | None = None) -> list[Hit]:
        """Up to ``limit`` hits of one user (optionally one agent, one type), best first, with
        their score breakdown; counts an access of each returned record unless
        ``record_access=False``. ``mode``: ``"hybrid"``, ``"vector"`` or ``"keyword"``. ``recall``
        ranks this search only (default: ``store.recall``, unchanged); ``limit=None``: ``recall.limit``."""
        args = search_arguments(query, limit=limit, memory_type=memory_type, user_id=user_id, agent_id=agent_id,
                                record_access=record_access, as_of=as_of, mode=mode, modes=MODES,
                                recall=recall, default=self.recall)
        wanted, limit, config = args.memory_type, args.limit, args.recall
        if args.as_of is not None:
            return self._search_as_of(query, args.as_of, limit=limit, wanted=wanted,
                                      user_id=user_id, agent_id=agent_id, mode=mode, config=config)
        now = self._now()
        user_keys = self.keys.get(user_id)
        if user_keys is None:
            return []  # no key, no memories: the user has none (or was forgotten)
        kind = wanted.value if wanted else None
        # the current-view filter runs inside the ranking's fetch, before it cuts to `limit`
        keep = lambda record: visible(record, now, args)  # noqa: E731
        hits = self.db.read(lambda conn: self._rank(conn, query, user_keys, kind, agent_id, limit, mode, now, keep,
                                                    config))
        if record_access and hits:
            accessed = [self.row_key(h.record.memory_id) for h in hits]
            self.db.transaction(lambda conn: rows.record_access(conn, accessed, now),
                                what="record access")
            for hit in hits:
                hit.record.access_count += 1
                hit.record.last_accessed_at = now
        return [Hit(h.record.copy(), h.score, h.breakdown) for h in hits]

    def _rank(self, conn: psycopg.Connection, query: str, user_keys: UserKeys, kind: str | None,
              agent_id: str | None, limit: int, mode: str, now: datetime,
              keep: Callable[[MemoryRecord], bool], config: RecallConfig) -> list[Hit]:
        """Both channels' candidates from one snapshot, ranked by :func:`rank_hits`. The
        database answers in row keys; each channel's candidates are opened once (:class:`Candidates`)
        to learn their memory ids, and equal scores are ordered by memory id, as in the other stores."""
        user_id = user_keys.user_id
        type_of: dict[str, str] = {}
        candidates = Candidates(self, conn, user_keys)

        def fetch(ids: Iterable[str]) -> dict[str, MemoryRecord]:
            return {i: record for i, record in candidates.records(ids).items() if keep(record)}

        rankings: dict[str, list[str]] = {}
        similarity: dict[str, float] = {}
        keyword_score: dict[str, float] = {}
        if mode in ("hybrid", "vector"):
            rankings["vector"] = self._vector_channel(conn, query, user_keys, kind, agent_id,
                                                      max(limit * 4, config.vector_depth), similarity, type_of,
                                                      candidates, fetch, config)
        if mode in ("hybrid", "keyword"):
            terms = user_keys.tokens(list(dict.fromkeys(keyword_tokens(query))))
            depth = max(limit * 4, config.keyword_depth)
            found = bm25_ranking(conn, terms, user_id=user_id, agent_id=agent_id, memory_type=kind,
                                 limit=depth, with_ties=True)  # the cut's ties, ordered by memory id here
            ids = candidates.ids([key for key, _, _ in found])
            ranked = sorted(((ids[key], kind_, score) for key, kind_, score in found if key in ids),
                            key=lambda item: (-item[2], item[0]))[:depth]
            type_of.update((i, t) for i, t, _ in ranked)
            rankings["keyword"] = [i for i, _, _ in ranked]
            keyword_score = {i: score for i, _, score in ranked}
        return rank_hits(
            query, rankings=rankings, fetch=fetch, type_of=type_of.get, user_id=user_id, now=now, limit=limit,
            mode=mode, similarity=similarity, keyword_score=keyword_score,
            readability=self.embedder.known_token_ratio(query) if mode == "hybrid" else 1.0,
            **config.ranking_arguments(),
        )

    def _vector_channel(self, conn: psycopg.Connection, query: str, user_keys: UserKeys, kind: str | None,
                        agent_id: str | None, depth: int, similarity: dict[str, float], type_of: dict[str, str],
                        candidates: Candidates, fetch: Callable[[Iterable[str]], dict[str, MemoryRecord]],
                        config: RecallConfig) -> list[str]:
        """Ids of the user's readable active memories whose vectors are near the query's, best
        first; a memory of several sentences re-scored by its best passage (recall.passages)."""
        min_known = config.min_known_tokens
        if self.embedder.known_token_ratio(query) < min_known:
            return []  # the model cannot read this query: its vector is noise
        vector = self.embedder.embed_query(query)  # a query, not a document (e5's prefix)
        near = rows.nearest(conn, user_keys.rotate(vector[None, :])[0], depth * 2, user_id=user_keys.user_id,
                            agent_id=agent_id, memory_type=kind, min_readable=min_known)[:depth]
        near = [item for item in near if 1.0 - item[2] >= config.similarity_floor]
        ids = candidates.ids([key for key, _, _ in near])
        near_ids = sorted(((ids[key], t, d) for key, t, d in near if key in ids), key=lambda item: (item[2], item[0]))
        type_of.update((i, t) for i, t, _ in near_ids)
        found = [(i, 1.0 - d) for i, _, d in near_ids]
        records = fetch(i for i, _ in found)
        texts = {i: r.content for i, r in records.items() if sentences(r.content)}
        best = best_of(vector, passage_vectors(texts, self.embedder, min_known=min_known)) if texts else {}
        rescored = sorted(((i, passage_similarity(s, best.get(i), weight=config.passage_weight)) for i, s in found),
                          key=lambda pair: -pair[1])
        similarity.update(rescored)
        return [i for i, _ in rescored]

    def _search_as_of(self, query: str, moment: datetime, *, limit: int, wanted: MemoryType | None, user_id: str,
                      agent_id: str | None, mode: str, config: RecallConfig) -> list[Hit]:
        """Recall among the versions that held at ``moment``, ranked directly (as the Chroma
        store does: the indexes hold today's texts); no access is recorded."""
        found = self.db.read(lambda conn: rows.select(conn, user_id=user_id, agent_id=agent_id,
                                                      memory_type=wanted.value if wanted else None))
        views = {}
        for record in self._records(found):
            view = version_as_of(record, moment)
            if view is not None and view.confidence >= config.min_confidence:
                views[view.memory_id] = view
        return rank_versions(query, views, moment=moment, limit=limit, mode=mode, embedder=self.embedder,
                             recall=config)

    # -- lifecycle -------------------------------------------------------------------------
    @property
    def retries(self) -> int:
        """Transactions retried after a deadlock or serialization failure (each also logged)."""
        return self.db.retries

    def close(self) -> None:
        """Close the pool and the key file; stop the embedded server if this store started it."""
        db = self.__dict__.pop("db", None)  # closing twice is a no-op
        if db is not None:
            db.close()
            self.keys.close()
        if self.server is not None:
            self.server.stop()
            self.server = None

    def __enter__(self) -> "PostgresMemoryStore":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
