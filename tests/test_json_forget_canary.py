"""Forgetting on the JSON store leaves no byte behind, crash debris included.

The Chroma half of this check is ``tests/test_forget_canary.py``. Here a canary goes into
every place a JSON-store memory carries text (subject, content, an update's history, tags,
metadata, a conversation id, a LangGraph item's key and a "remember …" fact extracted by the
policy), is searched (so access statistics are saved) and is forgotten. Then
:func:`memcourse.stores.residue.find_residue` greps every byte of every file under the store's
folder: in the same process, after a fresh process reopened the store, and after writers were
SIGKILLed in the middle of saving canary records (their ``.memories.json.*.tmp`` leftovers
held whole copies of the store and were never touched by ``forget_user`` before).
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from memcourse.integrations.langgraph import MemcourseStore
from memcourse.policy import MemoryPolicy
from memcourse.records import MemoryRecord, MemoryType
from memcourse.stores.files import debris
from memcourse.stores.json_store import JsonMemoryStore
from memcourse.stores.residue import describe, find_residue

CANARY = "CANARYjs9"
CANARY_ZH = "金丝雀标记"
CANARIES = [CANARY, CANARY_ZH]
USER = "mallory"


def plant(store: JsonMemoryStore) -> None:
    """The canary in every field that carries text, for USER; one bystander memory for alice."""
    store.upsert(MemoryRecord(MemoryType.ENTITY, f"codename {CANARY}", f"代号是 {CANARY_ZH}", user_id=USER,
                              tags=[CANARY], metadata={"note": CANARY_ZH, CANARY: [1, 2]},
                              source_conversation_id=f"conv-{CANARY}"))
    store.upsert(
        MemoryRecord(MemoryType.ENTITY, f"codename {CANARY}", "代号已经换了", user_id=USER)
    )  # history keeps the old
    fact = MemoryPolicy().extract(f"记住：我的船叫 {CANARY} {CANARY_ZH}", user_id=USER, conversation_id=f"c-{CANARY}")
    assert fact is not None, "the policy refused the canary fact"
    store.upsert(fact)
    MemcourseStore(store).put(("users", USER), f"key-{CANARY}", {"content": f"LangGraph item {CANARY_ZH}"})
    store.upsert(MemoryRecord(MemoryType.PREFERENCE, "response_style", "回答简短", user_id="alice"))
    assert store.search(f"{CANARY} 代号 船", user_id=USER)  # saves access statistics too


def assert_clean(folder: Path) -> None:
    leaks = find_residue(folder, CANARIES)
    assert leaks == [], describe(leaks, folder)


def test_the_canary_is_on_disk_before_forgetting(tmp_path):
    # The grep works: before the forget both canaries are on disk.
    store = JsonMemoryStore(tmp_path / "memories.json")
    plant(store)
    assert {leak.canary for leak in find_residue(tmp_path, CANARIES)} == set(CANARIES)


def test_forget_user_leaves_no_residue_in_process_and_after_reopening(tmp_path):
    store = JsonMemoryStore(tmp_path / "memories.json")
    plant(store)
    assert store.forget_user(USER) == 3  # the codename (updated once), the fact, the LangGraph item
    assert [r.user_id for r in store.list_all()] == ["alice"]
    assert_clean(tmp_path)
    reopened = subprocess.run(
        [sys.executable, "-c", "import sys; from memcourse.stores.json_store import JsonMemoryStore; "
         "print(len(JsonMemoryStore(sys.argv[1]).list_all()))", str(tmp_path / "memories.json")],
        capture_output=True, text=True, timeout=60,
    )
    assert reopened.stdout.strip() == "1", reopened.stderr
    assert_clean(tmp_path)


def test_forgetting_one_by_one_leaves_no_residue(tmp_path):
    store = JsonMemoryStore(tmp_path / "memories.json")
    plant(store)
    for record in store.list_all(user_id=USER):
        assert store.forget(record.memory_id)
    assert_clean(tmp_path)


KILLED_WRITER = """
import sys
from memcourse.records import MemoryRecord, MemoryType
from memcourse.stores.json_store import JsonMemoryStore
store = JsonMemoryStore(sys.argv[1])
i = 0
while True:
    store.upsert(MemoryRecord(MemoryType.EVENT, f"note {i} CANARYjs9", "金丝雀标记 CANARYjs9 " + "x" * 1500,
                              user_id="mallory", tags=["CANARYjs9"]))
    i += 1
    if i == 20:
        print("go", flush=True)
"""


@pytest.mark.timeout(120)
def test_forget_user_after_killed_writers_leaves_no_residue_and_no_debris(tmp_path):
    path = tmp_path / "memories.json"
    rng = random.Random(5)
    debris_seen = 0
    for _attempt in range(8):
        writer = subprocess.Popen([sys.executable, "-c", KILLED_WRITER, str(path)], stdout=subprocess.PIPE, text=True)
        assert writer.stdout.readline().strip() == "go"
        time.sleep(rng.uniform(0.0, 0.3))
        os.kill(writer.pid, signal.SIGKILL)
        writer.wait()
        writer.stdout.close()
        debris_seen += bool(debris(path))
        if debris_seen >= 2:
            break
    # Whatever the kills left (a debris file holds the whole store), one forget_user removes it all.
    store = JsonMemoryStore(path)
    assert store.forget_user("mallory") >= 20
    assert debris(path) == []
    assert_clean(tmp_path)
