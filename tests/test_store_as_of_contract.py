"""The validity-time part of the store contract: "as of" queries, on every store kind.

Same ``store`` fixture as ``test_store_contract.py`` (one run per kind in
``conftest.STORE_KINDS``); only the public API is used. The current view stays the default:
every test also checks that asking without ``as_of`` behaves as before.
"""

from __future__ import annotations

from datetime import timedelta

from memcourse.records import MemoryRecord, MemoryType, Status


def entity(clock, subject, content, **kwargs):
    kwargs.setdefault("created_at", clock())
    return MemoryRecord(MemoryType.ENTITY, subject, content, **kwargs)


def test_an_update_closes_the_old_value_instead_of_erasing_it(store, clock):
    start = clock()
    store.upsert(entity(clock, "home_location", "I live in Guangzhou"))
    march = clock.advance(days=60)
    clock.advance(days=30)
    moved = clock()
    store.upsert(entity(clock, "home_location", "I moved to Chengdu"))

    [now_view] = store.list_all()
    assert now_view.content == "I moved to Chengdu"
    assert [r.content for r in store.list_all(as_of=march)] == ["I live in Guangzhou"]
    [then] = store.list_all(as_of=march)
    assert then.valid_from == start and then.valid_to == moved
    assert [r.content for r in store.list_all(as_of=moved)] == ["I moved to Chengdu"]

    assert [r.content for r in store.search("Guangzhou", as_of=march)] == ["I live in Guangzhou"]
    assert all("Guangzhou" not in r.content for r in store.search("Guangzhou live"))


def test_nothing_held_before_anything_was_said(store, clock):
    before = clock() - timedelta(days=1)
    store.upsert(entity(clock, "home_location", "I live in Guangzhou"))
    assert store.list_all(as_of=before) == []
    assert store.search("Guangzhou", as_of=before) == []


def test_as_of_never_crosses_users(store, clock):
    store.upsert(entity(clock, "home_location", "I live in Guangzhou", user_id="alice"))
    store.upsert(entity(clock, "home_location", "I live in Guangzhou too", user_id="bob"))
    later = clock.advance(hours=1)
    hits = store.search("Guangzhou", user_id="alice", as_of=later)
    assert [r.user_id for r in hits] == ["alice"]
    assert {r.user_id for r in store.list_all(user_id="bob", as_of=later)} == {"bob"}


def test_a_fact_said_to_start_later_is_not_current_yet(store, clock):
    start = clock() + timedelta(days=10)
    store.upsert(entity(clock, "office", "From next month I work at the Hangzhou office", valid_from=start))
    assert store.search("Hangzhou office") == []
    assert [r.subject for r in store.search("Hangzhou office", as_of=start + timedelta(days=1))] == ["office"]


def test_a_superseded_record_answers_for_its_time(store, clock):
    old = store.upsert(entity(clock, "team_tool", "My team uses Linear for tickets"))
    february = clock.advance(days=30)
    clock.advance(days=30)
    new = store.upsert(entity(clock, "team_tool_new", "My team moved to Jira for tickets"))
    old.status, old.superseded_by = Status.SUPERSEDED, new.memory_id
    store.upsert(old)
    assert [r.content for r in store.search("tickets team")] == ["My team moved to Jira for tickets"]
    assert [r.content for r in store.search("tickets team", as_of=february)] == ["My team uses Linear for tickets"]


def test_expired_memories_are_in_no_view(store, clock):
    store.upsert(entity(clock, "parking", "My parking spot is B12", expires_at=clock() + timedelta(days=3)))
    assert len(store.search("parking spot", as_of=clock() + timedelta(days=1))) == 1
    assert store.search("parking spot", as_of=clock() + timedelta(days=4)) == []


def test_typed_as_of_search_filters_what_is_returned(store, clock):
    store.upsert(entity(clock, "home_location", "I live in Guangzhou"))
    store.upsert(MemoryRecord(MemoryType.PREFERENCE, "response_style", "Answers about Guangzhou food in English",
                              created_at=clock()))
    later = clock.advance(hours=1)
    typed = store.search("Guangzhou", memory_type="preference", as_of=later)
    assert [r.memory_type for r in typed] == [MemoryType.PREFERENCE]
    assert len(store.list_all()) == 2  # a typed search keeps everything


def test_looking_at_the_past_records_no_access(store, clock):
    record = store.upsert(entity(clock, "home_location", "I live in Guangzhou"))
    store.search("Guangzhou", as_of=clock.advance(hours=1))
    assert store.get(record.memory_id).access_count == 0


def test_a_bad_as_of_is_refused_by_name_and_changes_nothing(store, clock):
    from datetime import datetime

    import pytest

    store.upsert(entity(clock, "home_location", "I live in Guangzhou"))
    before = [r.to_dict() for r in store.list_all()]
    for bad, error in (("last spring", ValueError), (datetime(2026, 1, 1), ValueError), (20260101, TypeError)):
        with pytest.raises(error, match="as_of"):
            store.search("Guangzhou", as_of=bad)
        with pytest.raises(error, match="as_of"):
            store.list_all(as_of=bad)
    assert [r.to_dict() for r in store.list_all()] == before
