"""Forgetting is real: a planted canary is gone from every place a memory leaves copies.

The canary goes into a memory's content, its in-place history, an older near-duplicate that
it superseded, its tags and provenance; the memory is searched (so access updates were
written) and then forgotten. Afterwards the canary must be absent from:

1. Chroma, read back over the whole collection (documents and metadata);
2. the BM25 keyword index (tokens and vocabulary);
3. the embedding cache (every version's text);
4. the bytes of every file under the persist directory, after a *fresh process* has reopened
   the store (so Chroma replays its write-ahead log first). This is the check that catches
   SQLite free pages and Chroma's log, which the API never shows.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from memcourse.embeddings import Embedder
from memcourse.records import MemoryRecord, MemoryType, Status
from memcourse.stores.chroma_store import ChromaMemoryStore

CANARY = "CANARYxq7"
CANARY_ZH = "金丝雀暗号"
NEEDLES = [CANARY.encode(), CANARY.lower().encode(), CANARY_ZH.encode("utf-8")]

REOPEN = """
import sys
from memcourse.stores.chroma_store import ChromaMemoryStore
store = ChromaMemoryStore(sys.argv[1])
print(len(store.list_all()))
store.close()
"""


def plant(store: ChromaMemoryStore, clock, user_id: str = "default") -> list[MemoryRecord]:
    """Write the canary into every kind of copy; return every version's record."""
    def record(subject, content):
        return MemoryRecord(
            MemoryType.ENTITY, subject, content, user_id=user_id, tags=[f"tag-{CANARY}"],
            source_conversation_id=f"conv-{CANARY}", created_at=clock(),
        )

    first = store.upsert(record("locker", f"The user's locker code word is {CANARY} {CANARY_ZH}"))
    clock.advance(hours=1)
    store.upsert(record("locker", f"The user's gym locker code word is {CANARY} {CANARY_ZH}"))  # history
    clock.advance(hours=1)
    current = store.upsert(record("locker_code", f"The user's gym locker code word is now {CANARY} {CANARY_ZH}"))
    assert store.get(first.memory_id).status is Status.SUPERSEDED, "the planted near-duplicate must supersede"
    store.search(f"locker code word {CANARY}", user_id=user_id)
    store.flush()
    return store.history(current.memory_id)


def assert_gone(store: ChromaMemoryStore, versions: list[MemoryRecord], path: Path) -> None:
    everything = store.collection.get(include=["documents", "metadatas"])
    assert CANARY not in repr(everything) and CANARY_ZH not in repr(everything)
    for version in versions:
        assert store.keyword_tokens(version.memory_id) == []
        assert not store.embedder.is_cached(version.content)
    assert not any(CANARY.lower() in token or CANARY_ZH in token for token in store._bm25.vocabulary())
    # A fresh process reopens the store (replaying Chroma's log), then we grep every byte.
    done = subprocess.run([sys.executable, "-c", REOPEN, str(path)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    leaks = [
        str(file.relative_to(path))
        for file in path.rglob("*")
        if file.is_file() and any(needle in file.read_bytes() for needle in NEEDLES)
    ]
    assert leaks == [], f"canary bytes survive in {leaks}"


@pytest.fixture
def setup(tmp_path, clock):
    path = tmp_path / "db"
    store = ChromaMemoryStore(path, clock=clock, embedder=Embedder())
    store.upsert(MemoryRecord(MemoryType.PREFERENCE, "drink", "The user drinks green tea", created_at=clock()))
    return store, path


def test_the_canary_is_planted_where_we_look(setup, clock):
    """The control: before forgetting, every check would find it."""
    store, path = setup
    versions = plant(store, clock)
    assert len(versions) == 3
    assert CANARY in repr(store.collection.get(include=["metadatas"]))
    assert any(CANARY.lower() in t for t in store.keyword_tokens(versions[-1].memory_id))
    assert all(store.embedder.is_cached(v.content) for v in versions)
    assert any(NEEDLES[0] in f.read_bytes() for f in path.rglob("*") if f.is_file())


def test_forget_removes_every_copy(setup, clock):
    store, path = setup
    versions = plant(store, clock)
    assert store.forget(versions[-1].memory_id) is True
    assert [r.subject for r in store.list_all()] == ["drink"]
    for version in versions:
        assert store.get(version.memory_id) is None
    assert_gone(store, versions, path)


def test_forgetting_a_superseded_version_forgets_the_whole_chain(setup, clock):
    store, path = setup
    versions = plant(store, clock)
    assert store.forget(versions[0].memory_id) is True
    assert_gone(store, versions, path)


def test_forget_user_removes_every_copy_and_nothing_else(setup, clock):
    store, path = setup
    versions = plant(store, clock, user_id="mallory")
    assert store.forget_user("mallory") == 2  # the current record and its superseded predecessor
    assert [r.subject for r in store.list_all()] == ["drink"]
    assert store.search("green tea")[0].subject == "drink"
    assert_gone(store, versions, path)
