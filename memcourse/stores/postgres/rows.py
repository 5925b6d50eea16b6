"""The SQL of each storage primitive, on a connection inside the caller's transaction.

Every function takes an open connection and runs inside a transaction the store opened
(:meth:`Database.transaction`), so a decision made of several of these is atomic. Every id
here (``id``, ``superseded_by``, ``ids``) is a *row key*, the keyed hash of a memory id
(:class:`~memcourse.stores.postgres.sealing.RowKeys`): the database never sees a memory id. Rows come
back as :class:`Row` (the plain columns plus the sealed record); turning a row into a
:class:`~memcourse.records.MemoryRecord` needs the user's key and happens in the store.

Locks, always taken in this order so that two decisions cannot wait on each other in a cycle
(when they still do, PostgreSQL reports a deadlock and the transaction is retried):

1. the user's advisory lock: *shared* for a write (the user's key must not be destroyed under
   it), *exclusive* for a forget that may destroy the key;
2. one advisory lock per row key, in sorted order: taken before the row is read, so two
   writers of the same *new* id are serialised too (``FOR UPDATE`` cannot lock a row that does
   not exist yet);
3. the rows themselves, ``SELECT … FOR UPDATE``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Iterable, Sequence

import numpy as np
import psycopg

from memcourse.stores.base import StoreError

__all__ = ["Row", "COLUMNS", "lock_user", "lock_ids", "fetch", "select", "write", "delete", "nearest",
           "record_access", "count_user"]

COLUMNS = ("id, agent_id, user_id, memory_type, status, importance, access_count, last_accessed_at, "
           "source_conversation_id, created_at, updated_at, superseded_by, readable, sealed")
_USER_LOCKS, _ID_LOCKS = 1, 2  # the two advisory-lock namespaces (first key of the int4 pair)


@dataclass
class Row:
    id: str
    agent_id: str
    user_id: str
    memory_type: str
    status: str
    importance: float
    access_count: int
    last_accessed_at: datetime | None
    source_conversation_id: str | None
    created_at: datetime
    updated_at: datetime
    superseded_by: str | None
    readable: float
    sealed: bytes


def _rows(cursor: psycopg.Cursor) -> list[Row]:
    return [Row(*values) for values in cursor.fetchall()]


def lock_user(conn: psycopg.Connection, user_id: str, *, exclusive: bool) -> None:
    function = "pg_advisory_xact_lock" if exclusive else "pg_advisory_xact_lock_shared"
    conn.execute(f"SELECT {function}(%s, hashtext(%s))", (_USER_LOCKS, user_id))


def lock_ids(conn: psycopg.Connection, ids: Iterable[str]) -> None:
    for memory_id in sorted(set(ids)):
        conn.execute("SELECT pg_advisory_xact_lock(%s, hashtext(%s))", (_ID_LOCKS, memory_id))


def fetch(conn: psycopg.Connection, ids: Sequence[str], *, for_update: bool = False) -> dict[str, Row]:
    if not ids:
        return {}
    suffix = " ORDER BY id FOR UPDATE" if for_update else ""
    cursor = conn.execute(f"SELECT {COLUMNS} FROM agent_memory WHERE id = ANY(%s){suffix}", (list(ids),))
    return {row.id: row for row in _rows(cursor)}


def select(conn: psycopg.Connection, *, user_id: str | None = None, agent_id: str | None = None,
           memory_type: str | None = None, status: str | None = None,
           superseded_by: Sequence[str] | None = None, for_update: bool = False) -> list[Row]:
    """Rows matching every given filter, oldest first (then in insertion order)."""
    clauses: list[str] = []
    params: list[str | list[str]] = []
    for column, value in (("user_id", user_id), ("agent_id", agent_id), ("memory_type", memory_type),
                          ("status", status)):
        if value is not None:
            clauses.append(f"{column} = %s")
            params.append(value)
    if superseded_by is not None:
        clauses.append("superseded_by = ANY(%s)")
        params.append(list(superseded_by))
    where = " WHERE " + " AND ".join(clauses) if clauses else ""
    suffix = " FOR UPDATE" if for_update else ""
    cursor = conn.execute(f"SELECT {COLUMNS} FROM agent_memory{where} ORDER BY created_at, position{suffix}", params)
    return _rows(cursor)


def write(conn: psycopg.Connection, row: Row, embedding: np.ndarray | None, keywords: list[str] | None) -> None:
    """Insert or replace one row. ``embedding``/``keywords`` ``None``: keep the stored ones
    (an update that changed neither the text nor the key)."""
    values = (row.id, row.agent_id, row.user_id, row.memory_type, row.status, row.importance, row.access_count,
              row.last_accessed_at, row.source_conversation_id, row.created_at, row.updated_at,
              row.superseded_by, row.readable, row.sealed)
    if embedding is None or keywords is None:
        conn.execute(
            "UPDATE agent_memory SET agent_id=%s, user_id=%s, memory_type=%s, status=%s, importance=%s, "
            "access_count=%s, last_accessed_at=%s, source_conversation_id=%s, created_at=%s, updated_at=%s, "
            "superseded_by=%s, readable=%s, sealed=%s WHERE id=%s", (*values[1:], row.id))
        return
    conn.execute(
        f"INSERT INTO agent_memory ({COLUMNS}, embedding, keywords) VALUES "
        "(%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s) "
        "ON CONFLICT (id) DO UPDATE SET agent_id=EXCLUDED.agent_id, user_id=EXCLUDED.user_id, "
        "memory_type=EXCLUDED.memory_type, status=EXCLUDED.status, importance=EXCLUDED.importance, "
        "access_count=EXCLUDED.access_count, last_accessed_at=EXCLUDED.last_accessed_at, "
        "source_conversation_id=EXCLUDED.source_conversation_id, created_at=EXCLUDED.created_at, "
        "updated_at=EXCLUDED.updated_at, superseded_by=EXCLUDED.superseded_by, readable=EXCLUDED.readable, "
        "sealed=EXCLUDED.sealed, embedding=EXCLUDED.embedding, keywords=EXCLUDED.keywords",
        (*values, np.asarray(embedding, dtype=np.float32), keywords))


def supersede(conn: psycopg.Connection, key: str, successor: str, now: datetime, sealed: bytes) -> None:
    """Mark a row superseded; ``sealed`` is its record re-sealed with the same change (the
    successor's memory id is readable only there)."""
    conn.execute("UPDATE agent_memory SET status='superseded', superseded_by=%s, updated_at=%s, sealed=%s "
                 "WHERE id=%s", (successor, now, sealed, key))


def delete(conn: psycopg.Connection, ids: Sequence[str]) -> int:
    return conn.execute("DELETE FROM agent_memory WHERE id = ANY(%s)", (list(ids),)).rowcount


def count_user(conn: psycopg.Connection, user_id: str) -> int:
    return int(one_row(conn.execute("SELECT count(*) FROM agent_memory WHERE user_id = %s", (user_id,)))[0])


def one_row(cursor: psycopg.Cursor[tuple[Any, ...]]) -> tuple[Any, ...]:
    """The one row an aggregate (or a read of a row just written) always returns."""
    row = cursor.fetchone()
    if row is None:
        raise StoreError("the database returned no row where SQL guarantees one")
    return row


def _scope(user_id: str, agent_id: str | None, memory_type: str | None) -> tuple[str, list[str]]:
    clauses, params = ["user_id = %s", "status = 'active'"], [user_id]
    if agent_id is not None:
        clauses.append("agent_id = %s")
        params.append(agent_id)
    if memory_type is not None:
        clauses.append("memory_type = %s")
        params.append(memory_type)
    return " AND ".join(clauses), params


def nearest(conn: psycopg.Connection, vector: np.ndarray, limit: int, *, user_id: str, agent_id: str | None,
            memory_type: str | None, min_readable: float) -> list[tuple[str, str, float]]:
    """``(row key, memory_type, cosine distance)`` of the nearest active readable rows in scope,
    nearest first (equal distances: the store orders them by memory id). The tenant filter is
    inside the query; ``hnsw.iterative_scan`` (set per connection) keeps the index scanning
    until ``limit`` rows pass it. ``relaxed_order`` may return rows
    slightly out of order, so they are sorted again here."""
    where, params = _scope(user_id, agent_id, memory_type)
    vector = np.asarray(vector, dtype=np.float32)
    cursor = conn.execute(
        f"SELECT id, memory_type, embedding <=> %s AS distance FROM agent_memory WHERE {where} AND readable >= %s "
        "ORDER BY embedding <=> %s LIMIT %s", (vector, *params, min_readable, vector, limit))
    return sorted(((i, t, float(d)) for i, t, d in cursor.fetchall()), key=lambda item: (item[2], item[0]))


def record_access(conn: psycopg.Connection, ids: Sequence[str], now: datetime) -> None:
    """Count one access of each id, as an increment in the database: concurrent searches of
    several processes add up, none overwrites another's count."""
    conn.execute("UPDATE agent_memory SET access_count = access_count + 1, last_accessed_at = %s "
                 "WHERE id = ANY(%s)", (now, list(ids)))


def real(value: float) -> float:
    """``value`` as PostgreSQL's ``real`` holds it (a float4; below its range, 0.0)."""
    return float(np.float32(value))
