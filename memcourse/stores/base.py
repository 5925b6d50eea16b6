"""What every memory store promises.

The course has two stores (a JSON file and Chroma) and learners may write more. They share
one behaviour contract, and ``tests/test_store_contract.py`` runs the same tests against each:

- ``upsert(record)`` writes by ``memory_id``. Writing an id that exists *updates* it: the
  creation time stays, ``updated_at`` moves, and the replaced content goes into ``history``.
- ``search(query, ...)`` returns the most relevant *active*, unexpired records of exactly one
  user (``"default"`` unless you say otherwise: a search never crosses tenants), best first,
  and records that they were accessed (``record_access=False`` skips that, so an evaluation
  or an explanation does not tilt later rankings). A typed search (``memory_type=...``)
  filters what is *returned*, never what is *kept*.
- ``list_all(...)`` returns active records (of every user unless ``user_id`` is given: it is
  the administrator's view); ``get(id)`` returns one record or ``None``.
- Validity time (:mod:`memcourse.validity`): an update that changes a record's content closes
  the old value's interval and keeps it in ``history``; ``search``/``search_hits``/``list_all``
  take ``as_of=<time>`` and answer with the version of each record that held then
  (``tests/test_store_as_of_contract.py``). Without ``as_of`` nothing changes.
- ``forget(id)`` deletes a memory for real (no tombstone holding its text): its whole
  supersede chain and every record derived from it (``metadata["derived_from"]`` names it),
  and says whether it existed; ``forget_chain(id)`` does the same and returns every id
  removed; ``forget_user(user)`` does it for all of one user's records.
- A search applies the current view (user, agent, type, validity) *before* it cuts to
  ``limit``: it never returns fewer than ``limit`` hits while that many current ones match.
- These shared steps have one body, :mod:`memcourse.stores.contract`; a store implements
  only storage.
- Bad input raises before anything is written: a failed call changes nothing. The argument
  checks are shared (:mod:`memcourse.stores.arguments`), so every store refuses the same
  inputs with the same ``TypeError``/``ValueError`` naming the argument.
- A memory belongs to one user and agent for life: an upsert whose ``memory_id`` is stored
  under another user or agent raises :class:`TenancyError` and changes nothing.
- User and agent ids are compared exactly; one surrounded by whitespace is refused
  everywhere (:func:`memcourse.validation.check_scope_id`), never stripped in one place and
  compared raw in another.
"""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from memcourse.errors import MemcourseError
from memcourse.recall.hit import Hit
from memcourse.records import DEFAULT_USER, MemoryRecord, MemoryType, make_memory_id
from memcourse.stores.arguments import (  # noqa: F401 (re-exported: stores import them from here)
    MAX_QUERY_CHARS,
    check_flag,
    check_id,
    check_limit,
    check_memory_type,
    check_query,
    check_scope_id,
    in_scope,
)


class StoreError(MemcourseError, RuntimeError):
    """A store could not do what was asked; the message says what and where."""


class CorruptStoreError(StoreError):
    """The file is not a memcourse store (or is damaged). It is reported, never overwritten."""

    def __init__(self, path: Path | str, problem: str):
        self.path = Path(path)
        self.problem = problem
        super().__init__(
            f"{self.path}: {problem}. The file was left untouched; move it aside or repair it "
            "before using this path as a memory store."
        )


class TenancyError(StoreError, ValueError):
    """An upsert tried to write a memory id that belongs to another user or agent.

    It is a :class:`StoreError` (the store refused) and a ``ValueError`` (the record's scope
    is the bad value), so either ``except`` catches it. Nothing was written."""

    def __init__(
        self,
        memory_id: str,
        owner: tuple[str, str],
        requested: tuple[str, str],
        *,
        action: str = "overwrite it",
        advice: str = "a memory never changes owner: forget it and write a new one",
    ):
        self.memory_id = memory_id
        # None on a mis-scoped id (MisScopedIdError), which has no other owner to name
        self.owner: tuple[str, str] | None = owner
        self.requested: tuple[str, str] | None = requested
        super().__init__(
            f"memory_id {memory_id!r} belongs to user_id={owner[0]!r}, agent_id={owner[1]!r}; "
            f"refusing to {action} as user_id={requested[0]!r}, agent_id={requested[1]!r} "
            f"({advice})"
        )


@runtime_checkable
class MemoryStore(Protocol):
    """Everything the stores promise and the evaluations, adapters and widgets rely on.

    :class:`memcourse.stores.contract.StoreBase` implements the verbs that do not depend on
    storage (``get``, ``history``, ``list_all``, ``forget``, ``forget_chain``, ``forget_user``,
    ``search``) once; a store adds ``upsert`` and ``search_hits``. Optional capabilities (search
    modes, ``upsert_many``, a settable ``fusion``, near-duplicate supersede) are declared in
    ``capabilities`` (:func:`memcourse.stores.contract.capabilities_of`), never guessed.
    """

    #: Declared optional capabilities (:data:`memcourse.stores.contract.MODES`, ``BATCH``...).
    capabilities: frozenset[str]
    #: The store's default ranking knobs (:class:`memcourse.recall.config.RecallConfig`).
    recall: Any

    def upsert(self, record: MemoryRecord) -> MemoryRecord: ...

    def search(self, query: str, **kwargs: Any) -> list[MemoryRecord]:
        """``[hit.record for hit in search_hits(query, **kwargs)]``."""
        ...

    def search_hits(
        self,
        query: str,
        *,
        limit: int | None = None,
        memory_type: MemoryType | str | None = None,
        user_id: str = DEFAULT_USER,
        agent_id: str | None = None,
        record_access: bool = True,
        as_of: datetime | str | None = None,
        recall: Any = None,
    ) -> list[Hit]:
        """At most ``limit`` current hits, best first (never fewer while that many match);
        a store declaring ``"modes"`` also takes ``mode="hybrid"|"vector"|"keyword"``.
        ``recall`` (a ``RecallConfig``) ranks this call only; ``limit=None``: ``recall.limit``."""
        ...

    def list_all(
        self,
        *,
        memory_type: MemoryType | str | None = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        as_of: datetime | str | None = None,
    ) -> list[MemoryRecord]: ...

    def get(self, memory_id: str) -> MemoryRecord | None: ...

    def history(self, memory_id: str) -> list[MemoryRecord]:
        """Every version of the fact (its whole supersede chain), oldest first; ``KeyError``
        for an unknown id."""
        ...

    def forget(self, memory_id: str) -> bool: ...

    def forget_chain(self, memory_id: str) -> tuple[str, ...]:
        """Forget the whole chain and every record derived from it; every id removed."""
        ...

    def forget_user(self, user_id: str) -> int: ...


def check_owner(existing: MemoryRecord | None, new: MemoryRecord) -> None:
    """Refuse an upsert that would move a memory to another user or agent.

    A memory id is only a key; who owns the memory is the record's ``user_id``/``agent_id``.
    Without this check Bob could write a record carrying the id of Alice's diary entry and
    take it over (her earlier versions would then show up in *his* history). Stores call it
    inside their write lock, with the record currently stored under ``new.memory_id``.
    """
    if existing is not None and existing.scope != new.scope:
        raise TenancyError(new.memory_id, existing.scope, new.scope)


def check_successor(successor: MemoryRecord | None, new: MemoryRecord) -> None:
    """Refuse a record whose ``superseded_by`` names a memory of another user or agent.

    A supersede chain is one fact's versions, so it never crosses a (user, agent) scope: if
    Bob could point his record at Alice's, ``history`` of his id would show her diary and
    ``forget`` of his id would delete it. ``successor`` is the record stored (or written in
    the same batch) under ``new.superseded_by``; an unknown id is left alone.
    """
    if successor is not None and new.superseded_by is not None and successor.scope != new.scope:
        raise TenancyError(
            new.superseded_by, successor.scope, new.scope,
            action="link to it from superseded_by",
            advice="a supersede chain stays inside one user's and agent's memories",
        )


#: The form of :func:`memcourse.records.make_memory_id` output: ``<type>:<slug>:<16 hex>``.
_DERIVED_ID = re.compile(r"(?:%s):[^:]+:[0-9a-f]{16}" % "|".join(kind.value for kind in MemoryType))


class MisScopedIdError(TenancyError):
    """A new record's id has the form of a derived id but is not the id of its own type,
    subject and scope: it would squat a key that belongs to someone else. Nothing was written."""

    def __init__(self, memory_id: str, expected: str):
        self.memory_id, self.expected, self.owner, self.requested = memory_id, expected, None, None
        StoreError.__init__(
            self,
            f"memory_id {memory_id!r} has the form of make_memory_id() output but is not this record's "
            f"own id ({expected!r} for its memory_type, subject, user_id and agent_id); refusing to create "
            "it, since a derived id computed for another user or agent would block their write. Leave "
            "memory_id unset, or choose an id that is not of the form <type>:<slug>:<16 hex digits>",
        )


def check_derived_id(existing: MemoryRecord | None, new: MemoryRecord) -> None:
    """Refuse to *create* a record under a derived id that is not its own.

    Ids from :func:`~memcourse.records.make_memory_id` are predictable: without this, Bob could
    store a record of his under the id of Alice's ``entity/diary`` before she writes it, and her
    write would then be refused as a takeover. Updates of an existing record are not checked
    (an update may legitimately change a record's subject or type and keep its id), nor are
    ids of any other form (LangGraph keys, UUIDs, application ids).
    """
    if existing is not None or not _DERIVED_ID.fullmatch(new.memory_id):
        return
    own = make_memory_id(new.memory_type, new.subject, user_id=new.user_id, agent_id=new.agent_id)
    if new.memory_id != own:
        raise MisScopedIdError(new.memory_id, own)
