"""Forgetting in three steps (the engineering guide §5.3): the store and its copies, the hot-read
cache, and the session logs, where only the sentences that carried the memory are replaced."""

from __future__ import annotations

import json
import multiprocessing
import os

import pytest

from memcourse import JsonMemoryStore, MemoryRecord, MemoryType
from memcourse.extraction.audit import AuditLog
from memcourse.forgetting import forget_in_three_steps
from memcourse.recall.hot_cache import HotReadCache
from memcourse.session_log import PLACEHOLDER, SessionLog, SessionLogError, carries


@pytest.fixture
def json_store(tmp_path, clock):
    return JsonMemoryStore(tmp_path / "memories.json", clock=clock)


def cats(user="alice", content="Alice has three cats named Mochi, Tofu and Bean"):
    return MemoryRecord(MemoryType.ENTITY, "pets", content, user_id=user, source_conversation_id="conv-1")


# -- the session log ---------------------------------------------------------------------------
@pytest.mark.parametrize(("sentence", "content", "expected"), [
    ("By the way, Alice has three cats named Mochi, Tofu and Bean!", "Alice has three cats named Mochi, Tofu and Bean",
     True),
    ("我家有三只猫，房东姓王。", "用户养了三只猫", True),               # a model's paraphrase: half its words
    ("Tell me about cats in general.", "Alice has three cats named Mochi, Tofu and Bean", False),
    ("今天吃什么？", "用户养了三只猫", False),
    ("anything", "   ", False),
])
def test_which_sentence_carried_a_memory(sentence, content, expected):
    assert carries(sentence, content) is expected


def test_redaction_replaces_only_the_sentences_that_carried_it(tmp_path):
    log = SessionLog(tmp_path / "log")
    log.append("conv-1", "user", "Hi! I have three cats and my landlord is Mr. Wang. What should I cook tonight?",
               user_id="alice")
    log.append("conv-1", "assistant", "Try a mushroom risotto.", user_id="alice")
    log.append("conv-2", "user", "你好。我家有三只猫。今天天气不错。", user_id="alice")
    replaced = log.redact(["my landlord is Mr. Wang", "用户养了三只猫"])
    first, second = log.turns("conv-1")
    assert first.text == f"Hi! {PLACEHOLDER} What should I cook tonight?"  # "Mr." | "Wang.": one placeholder
    assert second.text == "Try a mushroom risotto."
    assert log.turns("conv-2")[0].text == f"你好。{PLACEHOLDER}今天天气不错。"
    assert replaced == 3
    raw = b"".join(p.read_bytes() for p in (tmp_path / "log").glob("*.jsonl"))
    assert b"Wang" not in raw and "三只猫".encode() not in raw


def test_redaction_keeps_other_users_turns(tmp_path):
    log = SessionLog(tmp_path / "log")
    log.append("c", "user", "I have three cats.", user_id="alice")
    log.append("c", "user", "I have three cats.", user_id="bob")
    assert log.redact(["I have three cats"], user_id="alice") == 1
    assert [t.text for t in log.turns("c")] == [PLACEHOLDER, "I have three cats."]


def test_a_damaged_log_is_reported_and_left_alone(tmp_path):
    log = SessionLog(tmp_path / "log")
    log.append("c", "user", "hello")
    path = log.path_for("c")
    path.write_bytes(path.read_bytes() + b"{not json\n")
    before = path.read_bytes()
    with pytest.raises(SessionLogError, match="line 2"):
        log.redact(["hello"])
    assert path.read_bytes() == before


@pytest.mark.parametrize("bad", [{"role": "system"}, {"conversation_id": ""}])
def test_bad_turns_are_refused(tmp_path, bad):
    arguments = {"conversation_id": "c", "role": "user", "text": "x", **bad}
    with pytest.raises(ValueError):
        SessionLog(tmp_path).append(**arguments)


def _append_many(directory, worker):
    log = SessionLog(directory)
    for index in range(50):
        log.append("shared", "user", f"worker {worker} line {index}")


def test_concurrent_writers_lose_no_turn(tmp_path):
    context = multiprocessing.get_context("spawn")
    workers = [context.Process(target=_append_many, args=(tmp_path, w)) for w in range(4)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(60)
    texts = [t.text for t in SessionLog(tmp_path).turns("shared")]
    assert len(texts) == 200 and len(set(texts)) == 200


# -- the hot-read cache --------------------------------------------------------------------------
def test_the_profile_is_read_once_per_ttl(json_store):
    now = [0.0]
    cache = HotReadCache(json_store, ttl_seconds=10, clock=lambda: now[0])
    json_store.upsert(cats())
    assert [r.subject for r in cache.profile("alice")] == ["pets"]
    json_store.upsert(MemoryRecord(MemoryType.PREFERENCE, "language", "answers in English", user_id="alice"))
    assert len(cache.profile("alice")) == 1 and cache.hits == 1  # written elsewhere: not seen yet
    now[0] = 10.0
    assert len(cache.profile("alice")) == 2  # ... within the time-to-live


def test_a_forget_through_the_cache_is_seen_at_once(json_store):
    cache = HotReadCache(json_store, ttl_seconds=3600, clock=lambda: 0.0)
    record = json_store.upsert(cats())
    assert cache.profile("alice")
    assert cache.forget_chain(record.memory_id)
    assert cache.profile("alice") == []


def test_ttl_must_be_positive(json_store):
    with pytest.raises(ValueError):
        HotReadCache(json_store, ttl_seconds=0)


# -- the three steps together ------------------------------------------------------------------
def test_forget_in_three_steps_leaves_no_copy(tmp_path, json_store):
    audit, log = AuditLog(tmp_path / "audit"), SessionLog(tmp_path / "log")
    cache = HotReadCache(json_store, ttl_seconds=3600, clock=lambda: 0.0)
    record = json_store.upsert(cats())
    audit.append({"user_id": "alice", "memory_id": record.memory_id, "content": record.content})
    log.append("conv-1", "user", "Alice has three cats named Mochi, Tofu and Bean. Also, I like jazz.",
               user_id="alice")
    assert cache.profile("alice")
    report = forget_in_three_steps(json_store, record.memory_id, audit=audit, cache=cache, session_log=log)
    assert report.removed_ids == (record.memory_id,) and report.cache_entries_dropped == 1
    assert report.sentences_redacted == 1
    assert cache.profile("alice") == [] and json_store.get(record.memory_id) is None
    assert audit.entries("alice") == []
    assert log.turns("conv-1")[0].text == f"{PLACEHOLDER} Also, I like jazz."
    for root, _, files in os.walk(tmp_path):
        for name in files:
            assert b"Mochi" not in open(os.path.join(root, name), "rb").read(), name


def test_every_version_is_redacted(tmp_path, json_store):
    log = SessionLog(tmp_path / "log")
    first = json_store.upsert(cats(content="Alice has two cats"))
    json_store.upsert(MemoryRecord(MemoryType.ENTITY, "pets", "Alice has three cats", user_id="alice",
                                   memory_id=first.memory_id))
    log.append("c1", "user", "Alice has two cats.", user_id="alice")
    log.append("c2", "user", "Update: Alice has three cats.", user_id="alice")
    report = forget_in_three_steps(json_store, first.memory_id, session_log=log)
    assert report.sentences_redacted == 2
    assert json.dumps([t.text for t in log.turns("c1") + log.turns("c2")]).count("cats") == 0


def test_an_unknown_id_changes_nothing(tmp_path, json_store):
    log = SessionLog(tmp_path / "log")
    log.append("c", "user", "Alice has three cats.")
    report = forget_in_three_steps(json_store, "no-such-id", session_log=log)
    assert not report and log.turns("c")[0].text == "Alice has three cats."
