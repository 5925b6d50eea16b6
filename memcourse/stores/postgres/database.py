"""Connections, schema and transactions: the PostgreSQL plumbing under the store.

- **Pool.** Connections come from a :class:`psycopg_pool.ConnectionPool`. Each new connection
  is configured once: pgvector's types registered, ``search_path`` set to the store's schema,
  and ``hnsw.iterative_scan = relaxed_order``. Without that setting a filtered HNSW query
  silently returns too few rows (measured: about 4 of 10 on a 10 % tenant filter), because
  the index hands back its ``ef_search`` nearest rows *before* the filter drops other tenants.
- **Extension first.** ``register_vector`` needs the ``vector`` type, so ``CREATE EXTENSION
  vector`` runs on a plain connection before the pool opens (it needs a superuser or a
  database owner with the extension trusted; an error says so).
- **One transaction per decision** (:func:`transaction`): the caller's function runs inside
  ``BEGIN … COMMIT``; a deadlock or serialization failure rolls it back and runs it again,
  at most ``attempts`` times with a growing random pause, each retry counted and logged; when
  the attempts run out a :class:`StoreError` says so. Nothing is swallowed.
"""

from __future__ import annotations

import logging
import random
import re
import time
from typing import Callable, TypeVar

import psycopg
from psycopg import errors, sql
from psycopg_pool import ConnectionPool
from pgvector.psycopg import register_vector

from memcourse.stores.base import StoreError
from memcourse.stores.postgres.keyword import install_postings

__all__ = ["Database", "RETRYABLE"]

log = logging.getLogger(__name__)
T = TypeVar("T")
RETRYABLE = (errors.DeadlockDetected, errors.SerializationFailure)
_SCHEMA_NAME = re.compile(r"[a-z_][a-z0-9_]{0,62}")


def _ddl(dimension: int) -> list[str]:
    """The tables and indexes, following the engineering guide's ``agent_memory`` table.

    Columns the queries filter or sort on are plain; everything a person wrote (subject,
    content, history, tags, metadata, the trust verdict's inputs) is in ``sealed``, encrypted
    with the user's key (:mod:`.sealing`). ``keywords`` holds the keyword channel's tokens as
    keyed hashes, ``embedding`` the vector rotated by the user's key; the keyword channel's
    postings table and the triggers that keep it in step follow (:mod:`.keyword`).
    """
    return [
        f"""CREATE TABLE IF NOT EXISTS agent_memory (
            id text PRIMARY KEY,
            agent_id text NOT NULL,
            user_id text NOT NULL,
            memory_type text NOT NULL,
            status text NOT NULL,
            importance real NOT NULL,
            access_count numeric NOT NULL DEFAULT 0,
            last_accessed_at timestamptz,
            source_conversation_id text,
            created_at timestamptz NOT NULL,
            updated_at timestamptz NOT NULL,
            superseded_by text,
            readable real NOT NULL,
            embedding vector({dimension}) NOT NULL,
            keywords text[] NOT NULL,
            sealed bytea NOT NULL
        )""",
        "CREATE INDEX IF NOT EXISTS agent_memory_scope ON agent_memory (user_id, agent_id, memory_type, status)",
        "CREATE INDEX IF NOT EXISTS agent_memory_superseded_by ON agent_memory (superseded_by)",
        "CREATE INDEX IF NOT EXISTS agent_memory_embedding ON agent_memory USING hnsw (embedding vector_cosine_ops)",
        """CREATE TABLE IF NOT EXISTS memcourse_meta (
            key text PRIMARY KEY,
            value text NOT NULL
        )""",
    ]


class Database:
    """A pool of connections to one schema of one PostgreSQL database, schema created."""

    def __init__(self, dsn: str, *, schema: str = "memcourse", dimension: int, model_id: str,
                 min_size: int = 1, max_size: int = 4, attempts: int = 6):
        if not isinstance(schema, str) or not _SCHEMA_NAME.fullmatch(schema):
            raise ValueError(f"schema must be a lower-case SQL identifier (letters, digits, _), got {schema!r}")
        self.dsn, self.schema, self.attempts = dsn, schema, attempts
        self.retries = 0  # deadlocks and serialization failures retried so far (see transaction)
        self._prepare(dimension, model_id)
        self.pool = ConnectionPool(dsn, min_size=min_size, max_size=max_size, configure=self._configure,
                                   open=False)
        try:
            self.pool.open(wait=True, timeout=30)
        except Exception as error:
            raise StoreError(f"cannot connect to PostgreSQL ({_where(dsn)}): {error}") from None

    def _prepare(self, dimension: int, model_id: str) -> None:
        """Extension, schema, tables; refuse a schema built with another embedding model."""
        try:
            conn = psycopg.connect(self.dsn, autocommit=True)
        except psycopg.Error as error:
            raise StoreError(f"cannot connect to PostgreSQL ({_where(self.dsn)}): {error}") from None
        with conn:
            with conn.transaction():
                # One process at a time creates things: CREATE ... IF NOT EXISTS still races.
                conn.execute("SELECT pg_advisory_xact_lock(7218630001)")
                try:
                    conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
                except errors.InsufficientPrivilege:
                    raise StoreError("CREATE EXTENSION vector needs a superuser (or a trusted extension); "
                                     "ask the database's administrator to create it once") from None
                conn.execute(sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(sql.Identifier(self.schema)))
                conn.execute(sql.SQL("SET LOCAL search_path TO {}, public").format(sql.Identifier(self.schema)))
                for statement in _ddl(dimension):
                    conn.execute(statement)
                install_postings(conn)
                conn.execute("INSERT INTO memcourse_meta VALUES ('embedding_model', %s) ON CONFLICT DO NOTHING",
                             (model_id,))
                built_with = conn.execute("SELECT value FROM memcourse_meta WHERE key = 'embedding_model'").fetchone()[0]
        if built_with != model_id:
            raise StoreError(f"schema {self.schema!r} was built with embedding model {built_with!r}, but this "
                             f"store was opened with {model_id!r}; open it with the same model or use another schema")

    def _configure(self, conn: psycopg.Connection) -> None:
        register_vector(conn)
        conn.execute(sql.SQL("SET search_path TO {}, public").format(sql.Identifier(self.schema)))
        conn.execute("SET hnsw.iterative_scan = relaxed_order")
        conn.commit()

    def transaction(self, work: Callable[[psycopg.Connection], T], *, what: str = "write") -> T:
        """Run ``work(conn)`` in one transaction, retrying deadlocks and serialization failures."""
        last: Exception | None = None
        for attempt in range(1, self.attempts + 1):
            try:
                with self.pool.connection() as conn:
                    with conn.transaction():
                        return work(conn)
            except RETRYABLE as error:
                last = error
                self.retries += 1
                log.warning("%s: %s (attempt %d of %d), retrying", what, type(error).__name__, attempt, self.attempts)
                time.sleep(random.uniform(0, 0.02 * 2**attempt))
        raise StoreError(f"{what}: gave up after {self.attempts} attempts, each ended by "
                         f"{type(last).__name__} ({last}); nothing of it was written") from last

    def read(self, work: Callable[[psycopg.Connection], T]) -> T:
        """Run a read-only ``work(conn)`` (one snapshot: a single transaction)."""
        with self.pool.connection() as conn:
            with conn.transaction():
                return work(conn)

    def close(self) -> None:
        self.pool.close()


def _where(dsn: str) -> str:
    """The DSN without its password, for messages."""
    return re.sub(r"(password=|:)[^@\s]*@", r"\1***@", dsn)

