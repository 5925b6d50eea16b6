"""Graded tests for exercise 08: update or supersede, history chains, forgetting a whole chain."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from memcourse import MemoryRecord, MemoryType, Status

T0 = datetime(2026, 3, 1, 9, 0, tzinfo=timezone.utc)

# A stand-in for cosine similarity: pairs we declare near-duplicates, everything else far apart.
NEAR = {
    frozenset({"用户住在上海", "用户现在住在上海"}): 0.95,
    frozenset({"The user does not like email notifications", "The user doesn't like email notifications"}): 0.97,
    frozenset({"The user lives in Guangzhou", "The user lives in Chengdu"}): 0.85,
}


def similarity(a: str, b: str) -> float:
    return 1.0 if a == b else NEAR.get(frozenset({a, b}), 0.1)


@pytest.fixture(scope="module")
def ex(exercise):
    return exercise("ex08_memories_change")


def rec(subject, content, *, kind=MemoryType.ENTITY, user="default", status=Status.ACTIVE, by=None, days=0):
    return MemoryRecord(kind, subject, content, user_id=user, status=status, superseded_by=by,
                        created_at=T0 + timedelta(days=days))


def test_same_subject_is_an_update(ex):
    old = rec("home_city", "用户住在上海")
    new = rec("home_city", "用户搬到了成都")
    assert ex.decide_write(new, [old], similarity) == ("update", old.memory_id), (
        "same type + subject = same memory_id: update in place, whatever the content"
    )


def test_near_duplicate_with_another_subject_supersedes(ex):
    old = rec("home", "用户住在上海")
    other = rec("pet", "用户养了一只猫")
    new = rec("residence", "用户现在住在上海", days=1)
    assert ex.decide_write(new, [other, old], similarity) == ("supersede", old.memory_id)
    en_old = rec("notify", "The user does not like email notifications", kind=MemoryType.PREFERENCE)
    en_new = rec("notifications", "The user doesn't like email notifications", kind=MemoryType.PREFERENCE)
    assert ex.decide_write(en_new, [en_old], similarity) == ("supersede", en_old.memory_id)


def test_below_threshold_other_scope_or_inactive_is_an_insert(ex):
    moved = rec("city_now", "The user lives in Chengdu")
    assert ex.decide_write(moved, [rec("city", "The user lives in Guangzhou")], similarity) == ("insert", None), (
        "0.85 < 0.92: related, not the same fact (that is what subjects are for)"
    )
    assert ex.decide_write(moved, [rec("city", "The user lives in Guangzhou")], similarity, threshold=0.8)[0] == "supersede"
    new = rec("residence", "用户现在住在上海")
    assert ex.decide_write(new, [rec("home", "用户住在上海", user="mallory")], similarity) == ("insert", None), (
        "another user's memory is never a candidate"
    )
    assert ex.decide_write(new, [rec("home", "用户住在上海", kind=MemoryType.EVENT)], similarity) == ("insert", None), (
        "another memory type is never a candidate"
    )
    retired = rec("home", "用户住在上海", status=Status.SUPERSEDED, by="entity:x:1")
    assert ex.decide_write(new, [retired], similarity) == ("insert", None), "inactive records are never candidates"
    assert ex.decide_write(rec("home", "用户住在北京"), [retired], similarity) == ("insert", None), (
        "an inactive record with the same id is not updated"
    )


def chain_records():
    c = rec("city_v3", "用户住在成都", days=20)
    b = rec("city_v2", "用户住在广州", status=Status.SUPERSEDED, by=c.memory_id, days=10)
    a = rec("city_v1", "用户住在北京", status=Status.SUPERSEDED, by=b.memory_id)
    unrelated = rec("pet", "用户养了一只猫", days=5)
    return [c, unrelated, a, b], (a, b, c), unrelated


@pytest.mark.parametrize("start", [0, 1, 2])
def test_history_chain_from_any_version(ex, start):
    records, (a, b, c), _ = chain_records()
    chain = ex.history_chain(records, (a, b, c)[start].memory_id)
    assert [r.memory_id for r in chain] == [a.memory_id, b.memory_id, c.memory_id], "oldest first, current last"


def test_history_chain_single_and_unknown(ex):
    records, _, unrelated = chain_records()
    assert [r.memory_id for r in ex.history_chain(records, unrelated.memory_id)] == [unrelated.memory_id]
    assert ex.history_chain(records, "entity:nobody:0") == []


def test_forget_chain_removes_every_version(ex):
    records, (a, b, c), unrelated = chain_records()
    kept, removed = ex.forget_chain(records, b.memory_id)
    assert removed == [a.memory_id, b.memory_id, c.memory_id], "the middle version forgets the whole chain"
    assert [r.memory_id for r in kept] == [unrelated.memory_id]
    assert [r.memory_id for r in records] == [c.memory_id, unrelated.memory_id, a.memory_id, b.memory_id], (
        "the input list is not modified"
    )
    assert ex.forget_chain(records, "entity:nobody:0") == (records, [])
