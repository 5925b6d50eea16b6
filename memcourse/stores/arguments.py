"""Argument checks every store method runs first, shared by every store and the adapter.

One layer, so the JSON store, the Chroma store and the LangGraph adapter refuse the same
inputs with the same words: ``search(agent_id="")`` is a ``ValueError`` naming ``agent_id``
on every backend, never ``[]`` on one and an error on another. Each check raises
``TypeError`` (wrong kind) or ``ValueError`` (bad value) naming the argument, and runs before
the store touches anything, so a refused call changes nothing.

User and agent ids go through :func:`memcourse.validation.check_scope_id`, the same check
:class:`~memcourse.records.MemoryRecord` uses, so what a record stores and what a search,
``list_all`` or ``forget_user`` compares it with are always the same string.
"""

from __future__ import annotations

from typing import Any

from memcourse.records import MemoryRecord, MemoryType
from memcourse.validation import (
    MAX_MEMORY_ID_CHARS,
    check_encodable,
    check_identifier,
    check_scope_id,
    shorten,
)

#: Longest query a search accepts. Queries are messages, not documents; tokenising a 1 MB
#: query took seconds, and no memory (at most 2,000 characters) needs a longer one to be found.
#: Callers with longer text (an agent handed a pasted file) should search with a summary or
#: the first part.
MAX_QUERY_CHARS = 10_000

__all__ = [
    "MAX_QUERY_CHARS",
    "check_flag",
    "check_id",
    "check_limit",
    "check_memory_type",
    "check_query",
    "check_scope_id",
    "in_scope",
]


def check_query(query: Any) -> str:
    """A search query: a non-blank string of valid Unicode, at most :data:`MAX_QUERY_CHARS`."""
    if not isinstance(query, str):
        raise TypeError(f"query must be a string, got {type(query).__name__}")
    if len(query) > MAX_QUERY_CHARS:
        raise ValueError(f"query is {len(query)} characters long; the limit is {MAX_QUERY_CHARS}")
    check_encodable(query, "query")
    if not query.strip():
        raise ValueError("query must not be empty")
    return query


def check_limit(limit: Any) -> int:
    """A limit is a positive int (bool is not an int here)."""
    if isinstance(limit, bool) or not isinstance(limit, int):
        raise TypeError(f"limit must be an int, got {type(limit).__name__}")
    if limit < 1:
        raise ValueError(f"limit must be >= 1, got {limit}")
    return limit


def check_flag(value: Any, name: str) -> bool:
    """A real bool: ``record_access="no"`` is truthy, and would quietly mean yes."""
    if not isinstance(value, bool):
        raise TypeError(f"{name} must be True or False, got {type(value).__name__}")
    return value


def check_id(value: Any, name: str = "memory_id", *, optional: bool = False) -> str | None:
    """A memory id argument (``get``, ``forget``, ``history``), checked like the record field.

    Without it ``forget(record)`` (a record instead of its id) would quietly return False.
    For ``user_id``/``agent_id`` this delegates to :func:`check_scope_id`, so older callers
    of ``check_id(user, "user_id")`` get the one scope rule.
    """
    if value is None and optional:
        return None
    if name in ("user_id", "agent_id"):
        return check_scope_id(value, name)
    return check_identifier(value, name, MAX_MEMORY_ID_CHARS)


def check_memory_type(memory_type: Any) -> MemoryType | None:
    """``None`` (every type), a :class:`MemoryType`, or one of its values in any case."""
    if memory_type is None:
        return None
    if isinstance(memory_type, MemoryType):
        return memory_type
    if not isinstance(memory_type, str):
        raise TypeError(f"memory_type must be a MemoryType or string, got {type(memory_type).__name__}")
    try:
        return MemoryType(memory_type.strip().lower())  # the same spellings MemoryRecord accepts
    except ValueError:
        allowed = ", ".join(t.value for t in MemoryType)
        raise ValueError(f"memory_type: unknown value {shorten(memory_type)}; expected one of: {allowed}") from None


def in_scope(record: MemoryRecord, user_id: str | None, agent_id: str | None) -> bool:
    """Whether a record belongs to the (already checked) user and agent; ``None`` means any."""
    return (user_id is None or record.user_id == user_id) and (
        agent_id is None or record.agent_id == agent_id
    )
