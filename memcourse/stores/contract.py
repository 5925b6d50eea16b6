"""The store contract with a body: every shared step written once, on a few storage primitives.

:mod:`memcourse.stores.base` states what a store promises; this module *keeps* the promises
that do not depend on how records are stored, so two stores cannot drift apart on them
(they did: one cut a search to ``limit`` before dropping ended facts, one forgot a single
record where the other forgot the whole supersede chain). A store subclasses
:class:`StoreBase` and implements only storage.

**The primitives** (everything a backend writes; storage-agnostic, so a PostgreSQL store
implements them with one connection and ``BEGIN``/``COMMIT``):

``_transaction(*, purge=False)``
    A context manager yielding a :class:`Records` view. Every decision of the base
    (read, check, write or delete) runs inside one, so a backend that makes it atomic
    (JSON: the file lock, load, save-whole; Chroma: the collection's lock; SQL: a
    transaction) makes every verb atomic. If the body raises, nothing it did is kept.
    ``purge=True`` says the transaction removes data: sweep crash debris that may still hold
    copies (the JSON store's temp files).
``_snapshot()``
    The same view for reading only (defaults to ``_transaction()``; a backend may make it
    cheaper, e.g. read without the write lock).
``_now()``
    The store clock, as an aware ``datetime``.

and the :class:`Records` view each yields:

``fetch(ids) -> {id: record}``
    Stored records by id (unknown ids are left out).
``select(*, user_id, agent_id, memory_type, status, superseded_by) -> [record]``
    Stored records matching every filter given (``None`` = any; ``superseded_by`` is a list
    of ids), in insertion order.
``delete(records)``
    Remove the records and every copy the backend keeps of them (vectors, passage vectors,
    keyword index, caches, the read gate's verdicts, buffered access statistics).

**What the base implements once** on top: ``get``, ``history`` (versions of the whole
supersede chain), ``list_all``, ``forget``/``forget_chain``/``forget_user`` (the chain and the
records derived from it), ``search`` (over the store's own ``search_hits``), and the shared
steps every ``upsert`` and ``search_hits`` calls: :func:`prepare_batch` (argument prologue),
:meth:`StoreBase._check_writes` (owner / derived-id / successor checks), :func:`merge_update`
(the update merge with history and validity), :func:`search_arguments` (search prologue) and
:func:`visible` (the current-view filter a ranking applies *before* it cuts to ``limit``).

**Capabilities** a store has beyond the core are *declared* in ``capabilities``, never
sniffed from signatures: :data:`MODES` (``search_hits(mode=...)``), :data:`BATCH`
(``upsert_many``), :data:`HISTORY`, :data:`AS_OF` (``as_of=`` on ``search_hits``/``list_all``),
:data:`FUSION` (a settable ``fusion``), :data:`SUPERSEDE` (near-duplicates superseded on write).
Callers ask :func:`capabilities_of`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Iterable, Protocol, Sequence

from memcourse.recall.config import RecallConfig, check_recall
from memcourse.recall.hit import Hit
from memcourse.records import DEFAULT_USER, MemoryRecord, MemoryType, Status, parse_timestamp
from memcourse.stores.arguments import (
    check_flag,
    check_id,
    check_limit,
    check_memory_type,
    check_query,
    check_scope_id,
)
from memcourse.stores.base import check_derived_id, check_owner, check_successor
from memcourse.validity import close_on_update, is_current, version_as_of

#: Capability names (see :attr:`StoreBase.capabilities`). ``FUSION``: the store has a settable
#: ``fusion`` ("weighted" or "rrf"); ``SUPERSEDE``: it may supersede near-duplicates on its own
#: (when its ``dedupe_threshold`` is at most 1).
MODES, BATCH, HISTORY, AS_OF, FUSION, SUPERSEDE = "modes", "batch", "history", "as_of", "fusion", "supersede"
#: Where a derived record (a consolidation summary, a digest) names the memories it restates.
DERIVED_FROM = "derived_from"

__all__ = [
    "AS_OF", "BATCH", "DERIVED_FROM", "FUSION", "HISTORY", "MODES", "Records", "SUPERSEDE", "SearchArguments",
    "StoreBase", "capabilities_of", "derived_sources", "doomed_by", "merge_update", "prepare_batch", "search_arguments",
    "versions_of", "visible",
]


class Records(Protocol):
    """The storage view a transaction yields (see the module docstring)."""

    def fetch(self, ids: Iterable[str]) -> dict[str, MemoryRecord]: ...

    def select(
        self,
        *,
        user_id: str | None = None,
        agent_id: str | None = None,
        memory_type: str | None = None,
        status: str | None = None,
        superseded_by: Sequence[str] | None = None,
    ) -> list[MemoryRecord]: ...

    def delete(self, records: Sequence[MemoryRecord]) -> None: ...


# -- shared steps ------------------------------------------------------------------------------
def prepare_batch(records: Iterable[Any]) -> list[MemoryRecord]:
    """The upsert prologue: each item a valid :class:`MemoryRecord`, copied (the store keeps
    nothing that aliases the caller's objects), no id twice. Raises before anything is written."""
    batch = []
    for record in records:
        if not isinstance(record, MemoryRecord):
            raise TypeError(f"upsert expects a MemoryRecord, got {type(record).__name__}")
        record.validate()
        batch.append(record.copy())
    ids = [r.memory_id for r in batch]
    if len(set(ids)) != len(ids):
        raise ValueError("the same memory_id appears twice in one batch; upsert them one at a time")
    return batch


def merge_update(old: MemoryRecord, new: MemoryRecord, now: datetime) -> None:
    """Make ``new`` the update of ``old`` (same id), in place: ``created_at`` and the access
    statistics are kept, ``updated_at`` moves to ``now``, and a replaced value goes into
    ``history`` with its validity interval closed (:func:`memcourse.validity.close_on_update`)."""
    new.created_at = old.created_at
    new.updated_at = now
    new.access_count = max(old.access_count, new.access_count)
    new.last_accessed_at = old.last_accessed_at or new.last_accessed_at
    new.history = list(old.history)
    replaced = close_on_update(old, new, now)
    if replaced is not None:
        new.history.append(replaced)


def versions_of(chain: Sequence[MemoryRecord]) -> list[MemoryRecord]:
    """Every version of a fact, oldest first: each chain record's earlier values (from its
    ``history``) as superseded copies, then the record itself."""
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


@dataclass(frozen=True)
class SearchArguments:
    """A search's checked arguments (:func:`search_arguments`)."""

    query: str
    limit: int
    memory_type: MemoryType | None
    user_id: str
    agent_id: str | None
    record_access: bool
    as_of: datetime | None
    mode: str | None
    #: The knobs this search ranks with: the call's ``recall=``, else the store's default.
    recall: RecallConfig = RecallConfig()


def search_arguments(
    query: Any,
    *,
    limit: Any = None,
    memory_type: Any = None,
    user_id: Any = DEFAULT_USER,
    agent_id: Any = None,
    record_access: Any = True,
    as_of: Any = None,
    mode: Any = None,
    modes: Sequence[str] = (),
    recall: Any = None,
    default: RecallConfig | None = None,
) -> SearchArguments:
    """The search prologue every store runs first: the same inputs are refused everywhere with
    the same ``TypeError``/``ValueError`` naming the argument. ``modes`` lists the search modes
    the store has (``mode`` must be one of them when it has any). ``recall`` is the call's
    :class:`~memcourse.recall.config.RecallConfig` (``None``: the store's ``default``, which
    the call never changes); ``limit=None`` means that config's ``limit``."""
    check_query(query)
    config = check_recall(recall) if recall is not None else check_recall(default or RecallConfig(), "default")
    if limit is None:
        limit = config.limit
    check_limit(limit)
    wanted = check_memory_type(memory_type)
    if modes and (not isinstance(mode, str) or mode not in modes):
        raise ValueError(f"mode must be one of {', '.join(modes)}; got {mode!r}")
    check_scope_id(user_id, "user_id")
    check_scope_id(agent_id, "agent_id", optional=True)
    check_flag(record_access, "record_access")
    moment = None if as_of is None else parse_timestamp(as_of, "as_of")
    return SearchArguments(query, limit, wanted, user_id, agent_id, record_access, moment, mode, config)


def visible(record: MemoryRecord | None, now: datetime, args: SearchArguments) -> bool:
    """Whether a search may return ``record``: the searcher's user (and agent and type, when
    given), and part of the current view (:func:`memcourse.validity.is_current`). A ranking
    applies this to candidates *before* it cuts to ``limit``, so a search never returns fewer
    than ``limit`` hits while that many visible ones match."""
    return (
        record is not None
        and record.user_id == args.user_id
        and (args.agent_id is None or record.agent_id == args.agent_id)
        and (args.memory_type is None or record.memory_type is args.memory_type)
        and is_current(record, now)
    )


def derived_sources(record: MemoryRecord) -> set[str]:
    """The memory ids ``record`` says it was derived from (``metadata["derived_from"]``)."""
    sources = record.metadata.get(DERIVED_FROM) if isinstance(record.metadata, dict) else None
    if not isinstance(sources, list):
        return set()
    return {source for source in sources if isinstance(source, str)}


def capabilities_of(store: Any) -> frozenset[str]:
    """What ``store`` declares beyond the core verbs (its ``capabilities``). A store that
    declares nothing (a learner's first store) is taken to have the core verbs only."""
    declared: Iterable[str] = getattr(store, "capabilities", frozenset())
    return frozenset(declared)


# -- the verbs, once ---------------------------------------------------------------------------
class StoreBase(ABC):
    """Every public verb that does not depend on storage, on the primitives above. A store that
    forgets a primitive cannot be constructed (``TypeError`` naming it), rather than failing later."""

    #: Optional capabilities this store has (see the module docstring); the contract suite,
    #: the evaluations and the widgets key on these, never on signatures.
    capabilities: frozenset[str] = frozenset({HISTORY, AS_OF})
    #: The store's default ranking knobs (:mod:`memcourse.stores.recall_defaults`); a search's
    #: ``recall=`` replaces them for that call only.
    recall: RecallConfig = RecallConfig()

    # -- primitives (a store implements these) -------------------------------------------------
    @abstractmethod
    def _transaction(self, *, purge: bool = False) -> AbstractContextManager[Records]:
        """One decision's view of the records, atomic: committed on exit, rolled back on error."""

    def _snapshot(self) -> AbstractContextManager[Records]:
        return self._transaction()

    @abstractmethod
    def _now(self) -> datetime:
        """The store's clock (a test passes a fake one)."""

    # -- checks an upsert runs inside its transaction -------------------------------------------
    @staticmethod
    def _check_writes(batch: Sequence[MemoryRecord], records: Records) -> dict[str, MemoryRecord]:
        """Refuse the whole batch if any record would take over another user's or agent's id,
        squat a derived id, or link ``superseded_by`` across scopes (stored, or in the same
        batch). Returns the stored records under the batch's ids (what the merge needs)."""
        existing = records.fetch([r.memory_id for r in batch])
        for record in batch:
            check_owner(existing.get(record.memory_id), record)
            check_derived_id(existing.get(record.memory_id), record)
        links = [r.superseded_by for r in batch if r.superseded_by]
        if links:
            in_batch = {r.memory_id: r for r in batch}
            stored = records.fetch(links)
            for record in batch:
                if record.superseded_by:
                    check_successor(in_batch.get(record.superseded_by) or stored.get(record.superseded_by), record)
        return existing

    # -- reading ------------------------------------------------------------------------------
    def search(self, query: str, **kwargs: Any) -> list[MemoryRecord]:
        """The best-matching records, best first (arguments as :meth:`search_hits`; every
        store takes ``recall=`` a :class:`~memcourse.recall.config.RecallConfig` for one call)."""
        return [hit.record for hit in self.search_hits(query, **kwargs)]

    @abstractmethod
    def search_hits(
        self,
        query: str,
        *,
        limit: int = 5,
        memory_type: MemoryType | str | None = None,
        user_id: str = DEFAULT_USER,
        agent_id: str | None = None,
        record_access: bool = True,
        as_of: datetime | str | None = None,
    ) -> list[Hit]:
        """Ranked hits with their scores: each store's own channels (see its docstring). A store
        may take more keywords (``mode=`` where it declares ``"modes"``), never fewer."""

    def get(self, memory_id: str) -> MemoryRecord | None:
        """One stored record by id, or ``None``."""
        check_id(memory_id, "memory_id")
        with self._snapshot() as records:
            return records.fetch([memory_id]).get(memory_id)

    def list_all(
        self,
        *,
        memory_type: MemoryType | str | None = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        as_of: datetime | str | None = None,
    ) -> list[MemoryRecord]:
        """Active records, oldest first. Without ``user_id`` this lists every user's records:
        it is the administrator's view, not something to put in a prompt.

        ``as_of=<time>`` lists the facts that held at that time instead, each in the version
        valid then (its value, confidence and interval), skipping what was expired by then."""
        wanted = check_memory_type(memory_type)
        check_scope_id(user_id, "user_id", optional=True)
        check_scope_id(agent_id, "agent_id", optional=True)
        moment = None if as_of is None else parse_timestamp(as_of, "as_of")
        with self._snapshot() as records:
            rows = records.select(
                user_id=user_id, agent_id=agent_id, memory_type=wanted.value if wanted else None,
                status=Status.ACTIVE.value if moment is None else None,
            )
        if moment is not None:
            rows = [view for view in (version_as_of(record, moment) for record in rows) if view is not None]
        return sorted(rows, key=lambda r: r.created_at)  # stable: insertion order breaks ties

    def history(self, memory_id: str) -> list[MemoryRecord]:
        """Every version of one memory, oldest first, the current one last.

        A version is either an earlier content of the same record (an update by id) or an
        earlier record that a near-duplicate superseded; both kinds are returned in order.
        """
        check_id(memory_id, "memory_id")
        with self._snapshot() as records:
            chain = _chain(records, memory_id)
        if not chain:
            raise KeyError(f"no memory with id {memory_id!r}")
        return versions_of(chain)

    # -- forgetting ---------------------------------------------------------------------------
    def forget(self, memory_id: str) -> bool:
        """Forget a memory and every copy of it (see :meth:`forget_chain`); returns whether
        it existed."""
        return bool(self.forget_chain(memory_id))

    def forget_chain(self, memory_id: str) -> tuple[str, ...]:
        """Forget a memory for real and return every id removed (``()`` if it did not exist).

        One fact is its whole supersede chain (every version that superseded it or that it
        superseded), and a record derived from it (``metadata["derived_from"]`` names it:
        a consolidation summary restating it, a digest of that summary) is a copy of it: all
        go, with every copy the backend keeps (vectors, keyword index, caches, the read
        gate's verdicts). Derived records are looked for among the same user's records only,
        so no one can delete another user's memory by naming it. An audit purge calls this to
        learn every id to purge.
        """
        check_id(memory_id, "memory_id")
        with self._transaction(purge=True) as records:
            doomed = doomed_by(records, memory_id)
            if doomed:
                records.delete(list(doomed.values()))
        return tuple(doomed)

    def forget_user(self, user_id: str) -> int:
        """Delete every memory of one user (all agents, every version); returns how many
        records were removed."""
        check_scope_id(user_id, "user_id")
        with self._transaction(purge=True) as records:
            rows = records.select(user_id=user_id)
            if rows:
                records.delete(rows)
        return len(rows)


def doomed_by(records: Records, memory_id: str) -> dict[str, MemoryRecord]:
    """What forgetting ``memory_id`` removes (see :meth:`StoreBase.forget_chain`), by id: its
    chain and, transitively, the same user's records derived from any of it. Empty if unknown.
    Public so a store that must wrap the deletion in its own transaction (locks, retries) still
    decides *what* goes with this one shared rule."""
    chain = _chain(records, memory_id)
    doomed = {r.memory_id: r for r in chain}
    if not chain:
        return doomed
    candidates = {u: records.select(user_id=u) for u in {r.user_id for r in chain}}
    grown = True
    while grown:
        grown = False
        for rows in candidates.values():
            for row in rows:
                if row.memory_id not in doomed and derived_sources(row) & doomed.keys():
                    for link in _chain(records, row.memory_id) or [row]:
                        doomed.setdefault(link.memory_id, link)
                    grown = True
    return doomed


def _chain(records: Records, memory_id: str) -> list[MemoryRecord]:
    """The supersede chain through ``memory_id``, oldest first (empty if unknown).

    Links are followed only inside the starting record's (user, agent) scope: upsert refuses
    cross-scope links, and this keeps any older ones from leaking or deleting."""
    start = records.fetch([memory_id]).get(memory_id)
    if start is None:
        return []
    head, seen = start, {start.memory_id}
    while head.superseded_by and head.superseded_by not in seen:
        successor = records.fetch([head.superseded_by]).get(head.superseded_by)
        if successor is None or successor.scope != start.scope:
            break
        seen.add(successor.memory_id)
        head = successor
    chain, frontier, seen = [head], [head.memory_id], {head.memory_id}
    while frontier:  # walk back: every record superseded by one already in the chain
        older = [r for r in records.select(superseded_by=frontier)
                 if r.memory_id not in seen and r.scope == start.scope]
        seen.update(r.memory_id for r in older)
        chain.extend(older)
        frontier = [r.memory_id for r in older]
    return sorted(chain, key=lambda r: (r.status is Status.ACTIVE, r.updated_at, r.created_at))
