"""Forgetting is real: a planted canary is gone from every byte of every file of the store.

The canary goes everywhere a memory can carry text: a subject (which the memory id embeds),
the content, an in-place update's history, an older near-duplicate that was superseded, tags,
metadata, a conversation id, a LangGraph item's key (which its id embeds) and a "remember…"
fact extracted by the policy (whose subject and id are the fact itself). The memories are
searched (so access statistics are written) and then forgotten. Afterwards the canary, in
UTF-8, UTF-16, escaped JSON and case-folded, must be absent from:

1. the store's API (records, history), its BM25 index and its embedding cache;
2. every file under the store directory, while the store is still open;
3. the same after a *fresh process* reopened the store (chromadb replays its log);
4. the same when an earlier writer was SIGKILLed in the middle of writing canary records.

The grep is :func:`memcourse.evaluations.residue.find_residue`: what an attacker holding a copy
of the disk would run.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from standin import STANDIN_EMBEDDER

from memcourse.embeddings import Embedder
from memcourse.evaluations.residue import HNSW_SEGMENT_FILES, describe, find_residue
from memcourse.integrations.langgraph import MemcourseStore
from memcourse.policy import MemoryPolicy
from memcourse.records import MemoryRecord, MemoryType, Status
from memcourse.stores.chroma import ChromaMemoryStore

CANARY = "CANARYxq7"
CANARY_ZH = "金丝雀暗号"
CANARIES = [CANARY, CANARY_ZH]
USER = "mallory"

REOPEN = """
import sys
from memcourse.stores.chroma import ChromaMemoryStore
store = ChromaMemoryStore(sys.argv[1])
print(len(store.list_all()))
store.close()
"""

# Writes canary records as fast as it can until it is killed (the parent waits for "go"); it
# embeds with a stand-in for the model (tests/standin.py): the residue does not depend on vectors.
KILLED_WRITER = (
    STANDIN_EMBEDDER
    + """
import sys
from memcourse.records import MemoryRecord, MemoryType
from memcourse.stores.chroma import ChromaMemoryStore
store = ChromaMemoryStore(sys.argv[1], dedupe_threshold=2, embedder=StandInEmbedder())
i = 0
while True:
    store.upsert(MemoryRecord(MemoryType.EVENT, f"note {i} CANARYxq7",
                              f"Note {i}: 金丝雀暗号 CANARYxq7 " + "x" * (i % 500),
                              user_id="mallory", tags=["CANARYxq7"], metadata={"n": "金丝雀暗号"}))
    i += 1
    if i == 3:
        print("go", flush=True)
"""
)


def plant(store: ChromaMemoryStore, clock, user_id: str = USER) -> list[MemoryRecord]:
    """Write the canary into every kind of copy; return every version's record."""

    def record(subject, content, **extra):
        return MemoryRecord(
            MemoryType.ENTITY, subject, content, user_id=user_id, tags=[f"tag-{CANARY}"],
            source_conversation_id=f"conv-{CANARY}", metadata={"note": f"{CANARY_ZH} {CANARY}"},
            created_at=clock(), **extra,
        )

    first = store.upsert(record(f"locker {CANARY}", f"The user's locker code word is {CANARY} {CANARY_ZH}"))
    clock.advance(hours=1)
    store.upsert(record(f"locker {CANARY}", f"The user's gym locker code word is {CANARY} {CANARY_ZH}"))  # history
    clock.advance(hours=1)
    current = store.upsert(record("locker_code", f"The user's gym locker code word is now {CANARY} {CANARY_ZH}"))
    assert store.get(first.memory_id).status is Status.SUPERSEDED, "the planted near-duplicate must supersede"
    remembered = MemoryPolicy().extract(f"Remember: {CANARY} {CANARY_ZH} is the name of my boat")
    remembered.user_id, remembered.memory_id = user_id, None
    remembered.validate()
    assert CANARY.lower() in remembered.memory_id  # the id itself carries the canary
    store.upsert(remembered)
    MemcourseStore(store, allow_supersede=True, clock=clock).put(
        ("users", user_id), f"key-{CANARY}", {"content": "The user's sailing club meets on Fridays"}
    )
    store.search(f"locker code word {CANARY}", user_id=user_id)
    store.search("boat name", user_id=user_id)
    store.flush()
    return store.history(current.memory_id) + [store.get(remembered.memory_id)]


def leaks(path: Path) -> str:
    """Every canary byte left on disk, except in Chroma's HNSW segment files, which are reported
    (:data:`HNSW_SEGMENT_FILES`): the test ends as a known failure naming them, after every other
    check has run."""
    found = find_residue(path, CANARIES)
    hnsw = [leak for leak in found if leak.file.name in HNSW_SEGMENT_FILES]
    if hnsw:
        _HNSW_SEEN.extend(describe(hnsw, path).splitlines())
    others = [leak for leak in found if leak not in hnsw]
    return describe(others, path) if others else ""


_HNSW_SEEN: list[str] = []


@pytest.fixture(autouse=True)
def _report_hnsw_residue():
    """A test whose only residue is in HNSW segment files xfails with it, as the forget matrix does."""
    _HNSW_SEEN.clear()
    yield
    if _HNSW_SEEN:
        found, _HNSW_SEEN[:] = list(_HNSW_SEEN), []
        pytest.xfail("known leak, open: Chroma's HNSW file holds uncleared process memory: " + "; ".join(found))


def assert_gone_from_the_api(store: ChromaMemoryStore, versions: list[MemoryRecord]) -> None:
    everything = [r.to_dict() for r in store.list_all()]
    assert CANARY not in repr(everything) and CANARY_ZH not in repr(everything)
    for version in versions:
        assert store.get(version.memory_id) is None
        assert store.keyword_tokens(version.memory_id) == []
        assert not store.embedder.is_cached(version.content)
    assert not any(CANARY.lower() in token or CANARY_ZH in token for token in store._bm25.vocabulary())


def reopen_in_a_fresh_process(path: Path) -> None:
    done = subprocess.run([sys.executable, "-c", REOPEN, str(path)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]


@pytest.fixture
def setup(tmp_path, clock):
    path = tmp_path / "db"
    store = ChromaMemoryStore(path, clock=clock, embedder=Embedder())
    store.upsert(MemoryRecord(MemoryType.PREFERENCE, "drink", "The user drinks green tea", created_at=clock()))
    yield store, path
    store.close()


def test_the_canary_is_planted_where_we_look(setup, clock):
    """The control: before forgetting, every check would find it, in the files too."""
    store, path = setup
    versions = plant(store, clock)
    assert len(versions) == 4
    assert any(CANARY.lower() in t for t in store.keyword_tokens(versions[2].memory_id))
    assert all(store.embedder.is_cached(v.content) for v in versions)
    found = find_residue(path, CANARIES)
    assert {r.canary for r in found} == set(CANARIES)


def test_forget_user_leaves_no_byte_behind_open_and_reopened(setup, clock):
    store, path = setup
    versions = plant(store, clock)
    assert store.forget_user(USER) == 4  # the locker chain (2 records), the fact, the LangGraph item
    assert [r.subject for r in store.list_all()] == ["drink"]
    assert store.search("green tea")[0].subject == "drink"
    assert_gone_from_the_api(store, versions)
    assert leaks(path) == "", "while the store is open"
    store.close()
    reopen_in_a_fresh_process(path)
    assert leaks(path) == "", "after a fresh process reopened the store"


def test_forget_one_memory_removes_its_chain_everywhere(setup, clock):
    store, path = setup
    versions = plant(store, clock)
    for memory_id in {v.memory_id for v in versions}:
        store.forget(memory_id)
    lg = MemcourseStore(store, allow_supersede=True, clock=clock)
    lg.delete(("users", USER), f"key-{CANARY}")
    assert_gone_from_the_api(store, versions)
    assert leaks(path) == ""
    store.close()
    reopen_in_a_fresh_process(path)
    assert leaks(path) == ""


def test_no_residue_after_a_writer_was_killed_mid_write(tmp_path):
    path = tmp_path / "db"
    writer = subprocess.Popen([sys.executable, "-c", KILLED_WRITER, str(path)], stdout=subprocess.PIPE, text=True)
    try:
        assert writer.stdout.readline().strip() == "go"
        time.sleep(0.5)  # well inside the write loop
    finally:
        writer.send_signal(signal.SIGKILL)
        writer.wait(timeout=30)
    assert find_residue(path, CANARIES), "the killed writer must have written canaries"
    store = ChromaMemoryStore(path, dedupe_threshold=2)  # repairs what the kill left half done
    assert store.forget_user(USER) >= 3
    assert store.list_all() == []
    assert leaks(path) == ""
    store.close()
    reopen_in_a_fresh_process(path)
    assert leaks(path) == ""
