"""Many writers, one Chroma collection: nothing lost, nothing corrupted, refusals stated.

- Threads and several store objects in one process (embedded and server): every update of
  one memory survives, as the current content or in its history (the bug: 51 of 100 left).
- A threaded put/delete/search stress, through the LangGraph adapter and the store directly;
  afterwards SQLite's own ``PRAGMA integrity_check`` on Chroma's file and ours, run by a
  *separate process* once this one has closed the store (never a second SQLite library in a
  process where chromadb holds the file), and Chroma agrees with our records.
- Two processes on one embedded path: the second is refused at open, naming the holder.
- Several processes through a real ``chroma run``: every acknowledged version survives.

Longer loops: ``python scripts/chroma_stress.py --help`` (see docs/reliability.md).
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import threading
import time
import uuid

import pytest
from standin import STANDIN_EMBEDDER

from memcourse.integrations.langgraph import MemcourseStore
from memcourse.records import MemoryRecord, MemoryType
from memcourse.stores.base import StoreError
from memcourse.stores.chroma import ChromaMemoryStore
from memcourse.stores.chroma.embedded import DB_FILE


def versions_of(store: ChromaMemoryStore, memory_id: str) -> list[str]:
    record = store.get(memory_id)
    return [entry.content for entry in record.history] + [record.content]


def hammer_one_memory(stores: list[ChromaMemoryStore], updates: int) -> tuple[str, set[str]]:
    """Each store object updates the same memory ``updates`` times from its own thread."""
    first = stores[0].upsert(MemoryRecord(MemoryType.ENTITY, "counter", "version start"))
    acknowledged: set[str] = {"version start"}
    errors: list[BaseException] = []

    def work(index: int, store: ChromaMemoryStore) -> None:
        try:
            for i in range(updates):
                content = f"version {index}-{i}"
                store.upsert(MemoryRecord(MemoryType.ENTITY, "counter", content))
                acknowledged.add(content)
        except BaseException as error:  # reported below: a thread's exception must fail the test
            errors.append(error)

    threads = [threading.Thread(target=work, args=(i, s)) for i, s in enumerate(stores)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    return first.memory_id, acknowledged


def test_two_store_objects_two_threads_lose_no_version_embedded(tmp_path):
    stores = [ChromaMemoryStore(tmp_path / "db"), ChromaMemoryStore(tmp_path / "db")]
    memory_id, acknowledged = hammer_one_memory(stores, 30)
    survived = versions_of(stores[1], memory_id)
    assert len(survived) == 61 and set(survived) == acknowledged


def test_two_store_objects_two_threads_lose_no_version_server(chroma_server):
    name = f"threads-{uuid.uuid4().hex}"
    stores = [ChromaMemoryStore(client=chroma_server.client(), collection=name) for _ in range(2)]
    memory_id, acknowledged = hammer_one_memory(stores, 25)
    assert set(versions_of(stores[0], memory_id)) == acknowledged


INTEGRITY = """
import json, sqlite3, sys
result = {}
for name in sys.argv[1:]:
    with sqlite3.connect(name) as db:
        result[name] = db.execute("PRAGMA integrity_check").fetchall()
print(json.dumps(result))
"""


def test_threaded_put_delete_search_keeps_both_databases_intact(tmp_path):
    path = tmp_path / "db"
    store = ChromaMemoryStore(path, dedupe_threshold=2)
    lg = MemcourseStore(store)
    stop = time.monotonic() + 4.0
    errors: list[BaseException] = []

    def writer(seed: int) -> None:
        rng = random.Random(seed)
        try:
            while time.monotonic() < stop:
                key = f"k{rng.randrange(12)}"
                if rng.random() < 0.6:
                    lg.put(("users", f"u{seed}"), key, {"content": f"The user noted item {key} at "
                            f"step {rng.random():.6f}"})
                else:
                    lg.delete(("users", f"u{seed}"), key)
                record = store.upsert(
                    MemoryRecord(MemoryType.EVENT, f"e{rng.randrange(8)}", f"Event {rng.random()}", user_id=f"d{seed}")
                )
                if rng.random() < 0.5:
                    store.forget(record.memory_id)
        except BaseException as error:
            errors.append(error)

    def reader() -> None:
        try:
            while time.monotonic() < stop:
                store.list_all()
                lg.search(("users",), query="item noted")
                store.search("Event", user_id="d1")
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=writer, args=(i,)) for i in range(2)] + [threading.Thread(target=reader)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    live = {r.memory_id for r in store.list_all()}
    store.close()  # chromadb lets go of its files before another process checks them
    files = [str(path / "chroma.sqlite3"), str(path / DB_FILE)]
    done = subprocess.run([sys.executable, "-c", INTEGRITY, *files], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert json.loads(done.stdout) == {name: [["ok"]] for name in files}
    reopened = ChromaMemoryStore(path, dedupe_threshold=2)
    assert {r.memory_id for r in reopened.list_all()} == live
    assert reopened._records.reconcile() == []  # every record has its vector, no orphan vector
    assert reopened.collection.count() == reopened._records.row_count()
    reopened.close()


HOLDER = """
import sys, time
from memcourse.stores.chroma import ChromaMemoryStore
store = ChromaMemoryStore(sys.argv[1])
print("open", flush=True)
sys.stdin.readline()
store.close()
"""


def test_a_second_process_on_an_embedded_path_is_refused_naming_the_holder(tmp_path):
    path = tmp_path / "db"
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(path)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout.readline().strip() == "open"
        with pytest.raises(StoreError, match=rf"pid {holder.pid}\b.*Chroma server"):
            ChromaMemoryStore(path)
    finally:
        holder.stdin.write("\n")
        holder.stdin.close()
        holder.wait(timeout=60)
    store = ChromaMemoryStore(path)  # the holder closed: the path is free again
    store.upsert(MemoryRecord(MemoryType.ENTITY, "home", "The user lives in Lisbon"))
    store.close()


def test_closing_the_last_store_frees_the_path_for_another_process(tmp_path):
    path = tmp_path / "db"
    first, second = ChromaMemoryStore(path), ChromaMemoryStore(path)
    first.upsert(MemoryRecord(MemoryType.ENTITY, "home", "The user lives in Lisbon"))
    first.close()
    probe = "from memcourse.stores.chroma import ChromaMemoryStore as S; import sys; S(sys.argv[1])"
    refused = subprocess.run([sys.executable, "-c", probe, str(path)], capture_output=True, text=True, timeout=120)
    assert refused.returncode != 0 and "another process" in refused.stderr  # `second` still holds it
    with pytest.raises(StoreError, match="closed"):
        first.search("Lisbon")
    second.close()
    opened = subprocess.run(
        [sys.executable, "-c", HOLDER, str(path)], input="\n", capture_output=True, text=True, timeout=120
    )
    assert opened.returncode == 0, opened.stderr[-2000:]


# The workers embed with a stand-in for the model (tests/standin.py): what is tested is the
# store's bookkeeping under concurrent writers; loading the model in every process is slow.
SERVER_WRITER = STANDIN_EMBEDDER + """
import json, sys
import chromadb
from chromadb.config import Settings
from memcourse.records import MemoryRecord, MemoryType
from memcourse.stores.chroma import ChromaMemoryStore
host, port, name, worker, count = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
client = chromadb.HttpClient(host=host, port=port, settings=Settings(anonymized_telemetry=False))
store = ChromaMemoryStore(client=client, collection=name, dedupe_threshold=2, embedder=StandInEmbedder())
acknowledged = []
for i in range(count):
    subject = f"shared {(i // 2) % 4}" if i % 2 == 0 else f"own {worker} {i}"
    content = f"worker {worker} write {i}"
    stored = store.upsert(MemoryRecord(MemoryType.ENTITY, subject, content))
    acknowledged.append([stored.memory_id, content])
print(json.dumps(acknowledged))
"""


def test_processes_through_a_chroma_server_lose_no_acknowledged_update(chroma_server):
    name = f"procs-{uuid.uuid4().hex}"
    ChromaMemoryStore(client=chroma_server.client(), collection=name, dedupe_threshold=2)  # create it once
    workers = [
        subprocess.Popen(
            [sys.executable, "-c", SERVER_WRITER, chroma_server.host, str(chroma_server.port), name, str(w), "20"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
        for w in range(4)
    ]
    acknowledged: list[tuple[str, str]] = []
    for worker in workers:
        out, err = worker.communicate(timeout=300)
        assert worker.returncode == 0, err[-2000:]
        acknowledged.extend(tuple(pair) for pair in json.loads(out))
    store = ChromaMemoryStore(client=chroma_server.client(), collection=name, dedupe_threshold=2)
    lost = [(mid, content) for mid, content in acknowledged if content not in versions_of(store, mid)]
    assert len(acknowledged) == 80 and lost == []
    assert len(store.list_all()) == 4 + 40  # four shared memories, ten own ones per worker
    shared = [r for r in store.list_all() if r.subject.startswith("shared")]
    assert sum(len(r.history) + 1 for r in shared) == 40  # every shared write is a version


def test_a_store_collected_while_another_opens_cannot_deadlock(tmp_path):
    """Garbage collection runs a dropped store's finalizer (which releases that store's path)
    at whatever allocation triggers it, including inside the registry lock while this thread
    is opening another store. With a non-reentrant lock the thread waited for itself forever
    (a test run hung in ``release_path`` called from ``EmbeddedRecords.__init__``)."""
    from memcourse.stores.chroma import locks as chroma_locks

    (tmp_path / "dropped").mkdir()
    key = chroma_locks.hold_path(tmp_path / "dropped")

    class State:  # the registry holds states weakly: a plain object() cannot be weakly referenced
        pass

    def build() -> State:
        chroma_locks.release_path(key)  # what the dropped store's finalizer does when GC runs here
        return State()

    opened: list[State] = []
    worker = threading.Thread(
        target=lambda: opened.append(chroma_locks.shared(("test", str(tmp_path)), build)), daemon=True
    )
    worker.start()
    worker.join(timeout=10)
    assert opened, "shared() deadlocked on a release made from inside its own lock"
    assert key not in chroma_locks._held_paths  # and the release really happened
    store = ChromaMemoryStore(tmp_path / "dropped")  # the path is free again
    store.close()
