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
- ``forget(id)`` deletes a record for real (no tombstone holding its text) and says whether
  it existed; ``forget_user(user)`` does that for all of one user's records.
- Bad input raises before anything is written: a failed call changes nothing.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from memcourse.recall.hit import Hit
from memcourse.records import DEFAULT_USER, MemoryRecord, MemoryType


class StoreError(RuntimeError):
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


@runtime_checkable
class MemoryStore(Protocol):
    def upsert(self, record: MemoryRecord) -> MemoryRecord: ...

    def search(
        self,
        query: str,
        *,
        limit: int = 5,
        memory_type: MemoryType | str | None = None,
        user_id: str = DEFAULT_USER,
        agent_id: str | None = None,
    ) -> list[MemoryRecord]: ...

    def search_hits(
        self,
        query: str,
        *,
        limit: int = 5,
        memory_type: MemoryType | str | None = None,
        user_id: str = DEFAULT_USER,
        agent_id: str | None = None,
        record_access: bool = True,
    ) -> list[Hit]: ...

    def list_all(
        self,
        *,
        memory_type: MemoryType | str | None = None,
        user_id: str | None = None,
        agent_id: str | None = None,
    ) -> list[MemoryRecord]: ...

    def get(self, memory_id: str) -> MemoryRecord | None: ...

    def forget(self, memory_id: str) -> bool: ...

    def forget_user(self, user_id: str) -> int: ...


def check_limit(limit: Any) -> int:
    """Shared argument check: a limit is a positive int (bool is not an int here)."""
    if isinstance(limit, bool) or not isinstance(limit, int):
        raise TypeError(f"limit must be an int, got {type(limit).__name__}")
    if limit < 1:
        raise ValueError(f"limit must be >= 1, got {limit}")
    return limit


def check_query(query: Any) -> str:
    if not isinstance(query, str):
        raise TypeError(f"query must be a string, got {type(query).__name__}")
    if not query.strip():
        raise ValueError("query must not be empty")
    return query


def check_id(value: Any, name: str, *, optional: bool = False) -> str | None:
    """Shared argument check for ``memory_id``/``user_id``/``agent_id``: a non-empty string.

    Without it ``forget(record)`` (a record instead of its id) would quietly return False, and
    ``search(..., user_id=None)`` would quietly find nothing.
    """
    if value is None and optional:
        return None
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a string, got {type(value).__name__}")
    if not value.strip():
        raise ValueError(f"{name} must not be empty")
    return value


def check_memory_type(memory_type: Any) -> MemoryType | None:
    if memory_type is None:
        return None
    try:
        if isinstance(memory_type, str):
            memory_type = memory_type.strip().lower()  # the same spellings MemoryRecord accepts
        return MemoryType(memory_type)
    except ValueError:
        allowed = ", ".join(t.value for t in MemoryType)
        raise ValueError(f"memory_type: unknown value {memory_type!r}; expected one of: {allowed}") from None


def in_scope(record: MemoryRecord, user_id: str | None, agent_id: str | None) -> bool:
    return (user_id is None or record.user_id == user_id) and (
        agent_id is None or record.agent_id == agent_id
    )
