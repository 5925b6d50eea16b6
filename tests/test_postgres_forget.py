"""Forgetting on PostgreSQL, measured with a canary over the server's data directory.

A database that keeps versions: ``DELETE`` leaves the bytes in the heap page until vacuum and
in the WAL until the segment is recycled. The first test measures that on a plain table (the
problem is real); the others show the store never lets the text reach the data directory in
clear, and that forgetting a user's last memory destroys the only key that could open the
sealed copies that remain (in WAL, replicas, backups).
"""

from __future__ import annotations

import sqlite3
import uuid
from pathlib import Path

import psycopg
import pytest
from cryptography.exceptions import InvalidTag

from memcourse.records import MemoryRecord
from memcourse.stores.base import StoreError
from memcourse.stores.postgres import PostgresMemoryStore
from memcourse.stores.postgres.sealing import KeyStore
from memcourse.stores.postgres.server import EmbeddedServer


@pytest.fixture(scope="module")
def server():
    """A server of our own (durable: fsync and WAL as in production), whose files we can read."""
    with EmbeddedServer() as embedded:
        yield embedded


def files_holding(root: Path, needle: bytes) -> list[str]:
    found = []
    for path in sorted(root.rglob("*")):
        try:
            if path.is_file() and needle in path.read_bytes():
                found.append(str(path.relative_to(root)))
        except OSError:
            continue
    return found


def test_a_deleted_row_stays_readable_in_the_data_directory(server):
    """The measurement: what a canary grep finds after DELETE, then after VACUUM and CHECKPOINT."""
    canary = f"canary-{uuid.uuid4().hex}"
    with psycopg.connect(server.dsn, autocommit=True) as conn:
        conn.execute("CREATE TABLE plain_notes (body text)")
        conn.execute("INSERT INTO plain_notes VALUES (%s)", (canary,))
        conn.execute("CHECKPOINT")
        conn.execute("DELETE FROM plain_notes")
        conn.execute("CHECKPOINT")
        after_delete = files_holding(server.data, canary.encode())
        conn.execute("VACUUM plain_notes")
        conn.execute("CHECKPOINT")
        after_vacuum = files_holding(server.data, canary.encode())
    print(f"after DELETE+CHECKPOINT: {after_delete}; after VACUUM+CHECKPOINT: {after_vacuum}")
    assert any(name.startswith("pg_wal/") for name in after_delete)  # the WAL keeps the inserted row
    assert any(name.startswith("pg_wal/") for name in after_vacuum)  # vacuum does not touch the WAL


def test_no_readable_copy_of_a_memory_is_ever_in_the_data_directory(server, tmp_path):
    canary = f"canary-{uuid.uuid4().hex}"
    keys = tmp_path / "keys.sqlite"
    store = PostgresMemoryStore(server.dsn, schema=f"c_{uuid.uuid4().hex}", key_store=keys)
    try:
        stored = store.upsert(MemoryRecord("event", f"subject {canary}", f"meeting about {canary} tomorrow",
                                           tags=[canary], metadata={"note": canary}, user_id="carol"))
        store.upsert(MemoryRecord("event", "second", "another note", user_id="carol"))
        update = stored.copy()
        update.content = f"moved: {canary} next week"  # the old text goes into the sealed history
        store.upsert(update)
        # the canary's memory comes first; the other note may follow as a weak vector hit (a random
        # hex query sometimes lands a hair above the model's similarity floor: a run failed on it)
        assert [r.memory_id for r in store.search(canary, user_id="carol")][:1] == [stored.memory_id]
        with psycopg.connect(server.dsn, autocommit=True) as conn:
            conn.execute("CHECKPOINT")
        assert files_holding(server.data, canary.encode()) == []
        assert files_holding(tmp_path, canary.encode()) == []  # nor in the key file
        # Forgetting one memory while carol keeps another: the row goes, her key stays.
        assert store.forget(stored.memory_id) and store.get(stored.memory_id) is None
        assert KeyStore(keys).get("carol") is not None
    finally:
        store.close()


def test_forgetting_a_users_last_memory_destroys_the_key_that_opens_every_copy(server, tmp_path):
    canary = f"canary-{uuid.uuid4().hex}"
    keys = tmp_path / "keys.sqlite"
    schema = f"c_{uuid.uuid4().hex}"
    store = PostgresMemoryStore(server.dsn, schema=schema, key_store=keys)
    try:
        stored = store.upsert(MemoryRecord("event", "diary", f"diary: {canary}", user_id="dave"))
        store.upsert(MemoryRecord("event", "other", "someone else's note", user_id="erin"))
        row_key = store.row_key(stored.memory_id)  # the row's key: a keyed hash of the id
        with psycopg.connect(server.dsn) as conn:  # a "backup": the sealed bytes as stored
            backup = bytes(conn.execute(f"SELECT sealed FROM {schema}.agent_memory WHERE id = %s",
                                        (row_key,)).fetchone()[0])
        secret = sqlite3.connect(keys).execute("SELECT secret FROM user_keys WHERE user_id = 'dave'").fetchone()[0]
        assert KeyStore(keys).get("dave").open(row_key, backup)["content"] == f"diary: {canary}"

        assert store.forget(stored.memory_id)
        assert KeyStore(keys).get("dave") is None  # his last memory: the key is gone
        assert secret not in keys.read_bytes()  # overwritten in the file (secure_delete), not just unlinked
        assert KeyStore(keys).get("erin") is not None and store.list_all(user_id="erin")
        fresh = KeyStore(keys).get("dave", create=True)  # a new key for a new dave opens nothing old
        with pytest.raises(InvalidTag):
            fresh.open(row_key, backup)
        with psycopg.connect(server.dsn, autocommit=True) as conn:
            conn.execute("CHECKPOINT")
        assert files_holding(server.data, canary.encode()) == []
        assert store.forget_user("erin") == 1 and KeyStore(keys).get("erin") is None
    finally:
        store.close()


def test_ids_never_reach_the_database_and_a_foreign_key_file_is_refused(server, tmp_path):
    """A memory id made of the user's words is a keyed hash in every column (row, successor,
    postings); the same schema opened with another key file would find nothing, so it is refused."""
    canary = f"canary{uuid.uuid4().hex[:12]}"
    schema = f"c_{uuid.uuid4().hex}"
    store = PostgresMemoryStore(server.dsn, schema=schema, key_store=tmp_path / "keys.sqlite")
    try:
        first = store.upsert(MemoryRecord("entity", "boat", f"The boat is called {canary}", user_id="fay",
                                          memory_id=f"entity:boat_{canary}"))
        successor = MemoryRecord("entity", "boat", f"The boat is now called {canary}2", user_id="fay",
                                 memory_id=f"entity:boat_{canary}_2")
        store.upsert(successor)
        older = first.copy()
        older.superseded_by = successor.memory_id
        store.upsert(older)
        assert store.get(first.memory_id).superseded_by == successor.memory_id
        assert [r.memory_id for r in store.search(canary, user_id="fay", mode="keyword")]
        with psycopg.connect(server.dsn, autocommit=True) as conn:
            stored = conn.execute(f"SELECT id, superseded_by FROM {schema}.agent_memory ORDER BY position").fetchall()
            postings = {r[0] for r in conn.execute(f"SELECT memory_id FROM {schema}.agent_memory_terms")}
            conn.execute("CHECKPOINT")
        assert [i for i, _ in stored] == [store.row_key(first.memory_id), store.row_key(successor.memory_id)]
        assert stored[0][1] == store.row_key(successor.memory_id) and postings <= {i for i, _ in stored}
        assert files_holding(server.data, canary.encode()) == []
    finally:
        store.close()
    with pytest.raises(StoreError, match="another key file"):
        PostgresMemoryStore(server.dsn, schema=schema, key_store=tmp_path / "other-keys.sqlite")
