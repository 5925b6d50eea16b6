"""Graded tests for exercise 09: update or supersede, history chains, forgetting a whole chain."""

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
    return exercise("ex09_memories_change")


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
    assert ex.decide_write(moved, [rec("city", "The user lives in "
                                       "Guangzhou")], similarity, threshold=0.8)[0] == "supersede"
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


def scored(table: dict[str, float]):
    """A similarity that gives each stored content a fixed score against any new content."""
    return lambda new, old: table.get(old, 0.0)


def test_the_threshold_is_inclusive(ex):
    old = rec("home", "old content")
    new = rec("residence", "new content")
    assert ex.decide_write(new, [old], scored({"old content": 0.92}), threshold=0.92) == ("supersede", old.memory_id), (
        "similarity equal to the threshold counts: >= threshold, not >"
    )
    assert ex.decide_write(new, [old], scored({"old content": 0.9199}), threshold=0.92) == ("insert", None)


def test_the_most_similar_candidate_is_superseded_not_the_first_above_the_threshold(ex):
    first = rec("home_a", "close")
    best = rec("home_b", "closest")
    third = rec("home_c", "also close")
    new = rec("residence", "new content")
    table = {"close": 0.93, "closest": 0.99, "also close": 0.95}
    assert ex.decide_write(new, [first, best, third], scored(table)) == ("supersede", best.memory_id), (
        "several records reach the threshold: supersede the MOST similar one (0.99), not the first (0.93)"
    )


def test_another_agent_is_another_scope(ex):
    """Two agents serving the same user keep separate memories: a near-duplicate written by the
    support agent must not retire the coding agent's record."""
    theirs = MemoryRecord(MemoryType.ENTITY, "home", "用户住在上海", agent_id="support-agent", created_at=T0)
    new = MemoryRecord(MemoryType.ENTITY, "residence", "用户现在住在上海", agent_id="coding-agent", created_at=T0)
    assert ex.decide_write(new, [theirs], similarity) == ("insert", None), (
        "the scope is (user_id, agent_id, memory_type): another agent's record is never a candidate"
    )
    mine = MemoryRecord(MemoryType.ENTITY, "home", "用户住在上海", agent_id="coding-agent", created_at=T0)
    assert ex.decide_write(new, [theirs, mine], similarity) == ("supersede", mine.memory_id)


def test_an_update_wins_over_a_near_duplicate(ex):
    same_id = rec("home_city", "用户住在北京")
    near = rec("home", "用户住在上海")
    new = rec("home_city", "用户现在住在上海")
    assert ex.decide_write(new, [near, same_id], similarity) == ("update", same_id.memory_id), (
        "check for the same memory_id first: an update, even when another record is a near-duplicate"
    )


def test_the_similarity_compares_contents(ex):
    old = rec("home", "用户住在上海")
    new = rec("residence", "用户现在住在上海")
    seen = []

    def spy(a, b):
        seen.append((a, b))
        return similarity(a, b)

    assert ex.decide_write(new, [old], spy)[0] == "supersede"
    assert seen and all({a, b} == {new.content, old.content} for a, b in seen), (
        f"call similarity(new.content, old.content), got calls with {seen}"
    )


def test_history_chain_survives_a_cycle_in_corrupt_data(ex):
    a = rec("loop_a", "A")
    b = rec("loop_b", "B", status=Status.SUPERSEDED, by=a.memory_id)
    a.superseded_by = b.memory_id
    a.status = Status.SUPERSEDED
    chain = ex.history_chain([a, b], a.memory_id)
    assert sorted(r.memory_id for r in chain) == sorted([a.memory_id, b.memory_id]), (
        "a cycle must not loop forever: each version appears once"
    )


def test_on_a_tie_the_first_candidate_is_superseded(ex):
    first, second = rec("home_a", "same score A"), rec("home_b", "same score B")
    new = rec("residence", "new content")
    table = {"same score A": 0.95, "same score B": 0.95}
    assert ex.decide_write(new, [first, second], scored(table)) == ("supersede", first.memory_id), (
        "two candidates equally similar: the first one in `existing` (replace the best only when strictly better)"
    )


def test_history_chain_ends_when_a_cycle_does_not_pass_through_the_start(ex):
    a = rec("cyc_a", "A", status=Status.SUPERSEDED)
    b = rec("cyc_b", "B", status=Status.SUPERSEDED, by=a.memory_id)
    a.superseded_by = b.memory_id
    x = rec("cyc_x", "X", status=Status.SUPERSEDED, by=a.memory_id)
    chain = ex.history_chain([x, a, b], x.memory_id)
    assert len(chain) == len({r.memory_id for r in chain}), "each version at most once"
    assert {r.memory_id for r in chain} >= {a.memory_id, b.memory_id}, "the walk reaches the cycle and stops there"
