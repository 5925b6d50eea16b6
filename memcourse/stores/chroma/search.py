"""Channel search: how a Chroma store finds one user's best memories for a query.

The vector channel asks Chroma for neighbours of this user's active memories the model
could read (cosine at least ``similarity_floor``), choosing between Chroma's pre-filter and
a post-filter by the user's share of the collection, and re-scores a memory of several
sentences by its best passage; the keyword channel asks BM25 (jieba-aware) restricted to the
same user; :func:`memcourse.recall.hybrid.rank_hits` fuses, decays, boosts and admits. The
current-view filter (:func:`memcourse.stores.contract.visible`) runs on every record the
ranking loads, so it applies before the ranking cuts to ``limit``. ``as_of`` searches rank
the versions valid then (:mod:`memcourse.recall.as_of`).

A mixin of :class:`~memcourse.stores.chroma.store.ChromaMemoryStore`: it uses the store's
shared state (``_state()``), record keeper and embedder; every ranking knob comes from the
search's :class:`~memcourse.recall.config.RecallConfig` (the call's ``recall=``, else the store's).
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Callable, Iterable, Sequence

from memcourse.embeddings import Embedder
from memcourse.recall.as_of import rank_versions
from memcourse.recall.config import RecallConfig
from memcourse.recall.hit import Hit
from memcourse.recall.hybrid import MODES, rank_hits
from memcourse.recall.passages import best_of, passage_similarity, passage_vectors
from memcourse.records import DEFAULT_USER, MemoryRecord, MemoryType
from memcourse.stores.contract import search_arguments, visible
from memcourse.validity import version_as_of

if TYPE_CHECKING:  # the store imports this mixin: its state's type is named for the checker only
    from memcourse.stores.chroma.store import SharedState

__all__ = ["POST_FILTER_SHARE", "ChannelSearch"]

#: Tenant share of the collection above which the vector channel post-filters (see _vector_channel).
POST_FILTER_SHARE = 0.1


class ChannelSearch:
    """``search_hits`` and its channels (mixed into the Chroma store)."""

    # What the store this is mixed into provides.
    recall: RecallConfig  #: the store's default (a search's ``recall=`` replaces it for that call)
    embedder: Embedder
    _state: Callable[[], SharedState]  #: the collection's shared state (raises once the store is closed)
    _now: Callable[[], datetime]  #: the store's clock, checked
    _fetch: Callable[[Iterable[str]], dict[str, MemoryRecord]]  #: stored records by id, pending access counted
    _note_access: Callable[[Sequence[Hit], datetime], None]  #: counts returned hits (:mod:`.access`)

    def search_hits(
        self,
        query: str,
        *,
        limit: int | None = None,
        memory_type: MemoryType | str | None = None,
        user_id: str = DEFAULT_USER,
        agent_id: str | None = None,
        mode: str = "hybrid",
        record_access: bool = True,
        as_of: datetime | str | None = None,
        recall: RecallConfig | None = None,
    ) -> list[Hit]:
        """Up to ``limit`` hits of one user (optionally one agent, one type), best first, each
        with its score breakdown; records the access of the returned ones, unless
        ``record_access=False`` (evaluations and explanations must not tilt later rankings).
        ``as_of=<time>`` searches the facts as they held then (see :meth:`_search_as_of`).

        ``mode`` picks the channels: ``"vector"`` (dense, English-capable by default),
        ``"keyword"`` (BM25, Chinese-aware) or ``"hybrid"`` (both, fused as the store's ``fusion``
        says: weighted by default, plain RRF on request). Bad arguments raise before anything is
        read or written.

        ``recall`` (a :class:`~memcourse.recall.config.RecallConfig`) ranks this search only;
        the store's default (``store.recall``) is unchanged. ``limit=None``: ``recall.limit``."""
        args = search_arguments(query, limit=limit, memory_type=memory_type, user_id=user_id, agent_id=agent_id,
                                record_access=record_access, as_of=as_of, mode=mode, modes=MODES,
                                recall=recall, default=self.recall)
        wanted, limit, config = args.memory_type, args.limit, args.recall
        if args.as_of is not None:
            return self._search_as_of(query, args.as_of, limit=limit, wanted=wanted, user_id=user_id,
                                      agent_id=agent_id, mode=mode, config=config)
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
                    query, user_id, allowed, max(limit * 4, config.vector_depth), distance, fetch, config)
            if mode in ("hybrid", "keyword"):
                # The BM25 index holds exactly the active memories; when this scope owns all of
                # them (a single-tenant store) the allow-list filters nothing, so skip it.
                scope = None if len(allowed) == len(catalog.active) else allowed
                depth = max(limit * 4, config.keyword_depth)
                pairs = catalog.bm25.search(query, limit=depth, allowed=scope) if allowed else []
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
                readability=self.embedder.known_token_ratio(query) if mode == "hybrid" else 1.0,
                **config.ranking_arguments(),
            )
            self._note_access(hits if record_access else [], now)  # written behind: see .access
        return [Hit(h.record.copy(), h.score, h.breakdown) for h in hits]

    def _vector_channel(
        self, query: str, user_id: str, allowed: set[str], depth: int, distance: dict[str, float],
        fetch: Callable[[Iterable[str]], dict[str, MemoryRecord]], config: RecallConfig,
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
        floor = config.similarity_floor
        if not allowed or self.embedder.known_token_ratio(query) < config.min_known_tokens:
            return []  # nothing to compare, or the model cannot read this query (noise)

        def keep(doc_id: str) -> bool:
            return doc_id in allowed and shared.catalog.readable(doc_id)

        vector = self.embedder.embed_query(query)[None, :]  # a query, not a document (e5's prefix)
        rows = max(shared.row_count, 1)
        share = len(allowed) / rows
        pairs: list[tuple[str, float]] | None = None
        if share >= POST_FILTER_SHARE:
            n = min(rows, int(depth / share * 2) + 1)
            found, returned, last = shared.records.nearest_unfiltered(vector, n)[0]
            pairs = [(i, d) for i, d in found if keep(i)]
            exhausted = returned >= rows or (returned and 1.0 - last < floor)
            if len(pairs) < min(depth, len(allowed)) and not exhausted:
                pairs = None  # too few survivors and more could be close: ask Chroma to filter
        if pairs is None:
            scope = {"user_id": user_id, "active": True, "readable": True}
            pairs = [(i, d) for i, d in shared.records.nearest(vector, min(depth * 2, rows), scope)[0] if keep(i)]
        found = [(doc_id, 1.0 - float(d)) for doc_id, d in pairs[:depth] if 1.0 - d >= floor]
        # A memory of several sentences is also scored by its best passage (recall.passages):
        # the whole text's cosine found it, the passage decides how close it really is.
        several = [doc_id for doc_id, _ in found if shared.catalog.has_passages(doc_id)]
        matrices = shared.records.passage_vectors(several, vector.shape[1]) if several else {}
        missing = [doc_id for doc_id in several if doc_id not in matrices]  # a server, or written before passages
        if missing:
            texts = {doc_id: record.content for doc_id, record in fetch(missing).items()}
            matrices.update(passage_vectors(texts, self.embedder, min_known=config.min_known_tokens))
        best = best_of(vector[0], matrices)
        rescored = sorted(((doc_id, passage_similarity(s, best.get(doc_id), weight=config.passage_weight))
                           for doc_id, s in found),
                          key=lambda pair: -pair[1])
        for doc_id, s in rescored:
            distance[doc_id] = 1.0 - s
        return [doc_id for doc_id, _ in rescored]

    def _search_as_of(
        self, query: str, moment: datetime, *, limit: int, wanted: MemoryType | None, user_id: str,
        agent_id: str | None, mode: str, config: RecallConfig,
    ) -> list[Hit]:
        """Recall among the versions that held at ``moment`` (:mod:`memcourse.validity`).

        The indexes hold today's texts only, so the versions valid then are ranked directly
        (:func:`memcourse.recall.as_of.rank_versions`), and no access is recorded.
        """
        shared = self._state()
        with shared.lock:
            rows = shared.records.select(user_id=user_id, agent_id=agent_id,
                                        memory_type=wanted.value if wanted else None)
        views = {}
        for record, _ in rows:
            view = version_as_of(record, moment)
            if view is not None and view.confidence >= config.min_confidence:
                views[view.memory_id] = view
        return rank_versions(query, views, moment=moment, limit=limit, mode=mode, embedder=self.embedder,
                             recall=config)


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
            return {doc_id: record for doc_id in ids if (record := loaded[doc_id]) is not None}

        return fetch
