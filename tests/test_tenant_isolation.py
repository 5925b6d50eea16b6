"""Tenants never see each other, whatever they store and however they search.

A property test: hypothesis invents users and memories (English, Chinese, shared words,
identical texts across users, near-duplicates), and for every user, every mode and queries
built from *other* users' words, not one hit may belong to someone else. One Chroma client
for the module, a fresh collection per example, so examples stay independent and fast.
"""

from __future__ import annotations

import uuid

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memcourse.records import MemoryRecord, MemoryType
from memcourse.stores.chroma import MODES, ChromaMemoryStore

WORDS = [
    "tea", "coffee", "Shanghai", "Lisbon", "python", "rust", "order", "A-1007", "refund", "tennis",
    "上海", "咖啡", "项目", "智能客服", "订单", "退款", "喜欢", "不喜欢", "邮件", "通知",
]
USERS = ["alice", "bob", "carol", "李雷", "user-4"]

memory = st.fixed_dictionaries(
    {
        "user": st.sampled_from(USERS),
        "agent": st.sampled_from(["default", "helper"]),
        "type": st.sampled_from([MemoryType.PREFERENCE, MemoryType.ENTITY, MemoryType.EVENT]),
        "words": st.lists(st.sampled_from(WORDS), min_size=1, max_size=5),
    }
)


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    import chromadb
    from chromadb.config import Settings

    path = tmp_path_factory.mktemp("tenants")
    return chromadb.PersistentClient(path=str(path), settings=Settings(anonymized_telemetry=False))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    memories=st.lists(memory, min_size=1, max_size=12),
    queries=st.lists(st.lists(st.sampled_from(WORDS), min_size=1, max_size=4), min_size=1, max_size=3),
)
def test_no_search_ever_returns_another_users_memory(client, memories, queries):
    store = ChromaMemoryStore(client=client, collection=f"t-{uuid.uuid4().hex}")
    for i, m in enumerate(memories):
        content = "the user says " + " ".join(m["words"])
        store.upsert(
            MemoryRecord(m["type"], f"s{i}", content, user_id=m["user"], agent_id=m["agent"])
        )
    everything = " ".join(" ".join(m["words"]) for m in memories)
    for user in USERS:
        for words in [*queries, [everything]]:
            query = " ".join(words)
            for mode in MODES:
                for agent in (None, "helper"):
                    hits = store.search_hits(query, user_id=user, agent_id=agent, limit=20, mode=mode)
                    assert all(h.record.user_id == user for h in hits), (user, query, mode)
                    assert agent is None or all(h.record.agent_id == agent for h in hits)
    client.delete_collection(store.collection.name)


def test_forget_user_leaves_every_other_tenant_intact(tmp_path):
    store = ChromaMemoryStore(tmp_path / "db")
    for user in USERS:
        store.upsert(MemoryRecord(MemoryType.ENTITY, "home", f"{user} lives in Lisbon", user_id=user))
    assert store.forget_user("bob") == 1
    assert sorted(r.user_id for r in store.list_all()) == sorted(u for u in USERS if u != "bob")
    for mode in MODES:
        assert store.search("lives in Lisbon", user_id="bob", mode=mode) == []
        assert [r.user_id for r in store.search("lives in Lisbon", user_id="alice", mode=mode)] == ["alice"]
