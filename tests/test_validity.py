"""Validity time on records: intervals, their derivation for old data, and the update rule."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

import pytest

from memcourse.records import HistoryEntry, MemoryRecord, MemoryType, Source, Status
from memcourse.stores.json_store import JsonMemoryStore
from memcourse.validity import close_on_update, is_current, version_as_of, versions

T0 = datetime(2026, 1, 10, 9, 0, tzinfo=timezone.utc)


def at(days: float) -> datetime:
    return T0 + timedelta(days=days)


def home(content: str, **kwargs) -> MemoryRecord:
    kwargs.setdefault("created_at", T0)
    return MemoryRecord(MemoryType.ENTITY, "home_location", content, **kwargs)


# -- the record fields ------------------------------------------------------------------------
def test_validity_fields_round_trip():
    record = home("I live in Lisbon", valid_from=at(-30), valid_to=at(5))
    back = MemoryRecord.from_dict(json.loads(json.dumps(record.to_dict())))
    assert (back.valid_from, back.valid_to) == (at(-30), at(5))


def test_an_interval_that_ends_before_it_starts_is_refused_by_name():
    with pytest.raises(ValueError, match="valid_to"):
        home("x", valid_from=at(2), valid_to=at(1))


def test_naive_validity_times_are_refused():
    with pytest.raises(ValueError, match="valid_from"):
        home("x", valid_from=datetime(2026, 1, 1))


def test_records_written_before_validity_time_still_load():
    data = home("I live in Lisbon").to_dict()
    del data["valid_from"], data["valid_to"]
    data["history"] = [
        {"content": "old", "confidence": 0.8, "source": "user_stated", "replaced_at": at(-1).isoformat()}
    ]
    record = MemoryRecord.from_dict(data)
    assert record.valid_from is None and record.history[0].valid_from is None


def test_history_entries_without_an_interval_serialise_as_before():
    entry = HistoryEntry("old", 0.8, "user_stated", at(1))
    assert set(entry.to_dict()) == {"content", "confidence", "source", "replaced_at"}


def test_unknown_history_fields_are_still_refused():
    with pytest.raises(ValueError, match="bogus"):
        HistoryEntry.from_dict({"content": "a", "confidence": 0.8, "source": "user_stated",
                                "replaced_at": at(0).isoformat(), "bogus": 1})


# -- deriving versions ------------------------------------------------------------------------
def test_legacy_history_is_read_as_consecutive_intervals():
    record = home("Chengdu", history=[HistoryEntry("Guangzhou", 0.9, "user_stated", at(10)),
                                      HistoryEntry("Shenzhen", 0.9, "user_stated", at(20))])
    spans = [(v.content, v.start, v.end) for v in versions(record)]
    assert spans == [("Guangzhou", T0, at(10)), ("Shenzhen", at(10), at(20)), ("Chengdu", at(20), None)]


def test_as_of_uses_half_open_intervals():
    record = home("Chengdu", history=[HistoryEntry("Guangzhou", 0.9, "user_stated", at(10))])
    assert version_as_of(record, at(10) - timedelta(microseconds=1)).content == "Guangzhou"
    assert version_as_of(record, at(10)).content == "Chengdu"  # the change moment belongs to the new value
    assert version_as_of(record, T0 - timedelta(seconds=1)) is None  # not yet known to be true


def test_the_as_of_view_carries_its_own_interval_and_no_history():
    record = home("Chengdu", history=[HistoryEntry("Guangzhou", 0.7, "llm_inferred", at(10))])
    view = version_as_of(record, at(3))
    assert (view.valid_from, view.valid_to, view.history) == (T0, at(10), [])
    assert (view.confidence, view.source, view.memory_id) == (0.7, Source.LLM_INFERRED, record.memory_id)


def test_expired_and_deleted_records_are_in_no_view():
    assert version_as_of(home("x", expires_at=at(5)), at(6)) is None
    assert version_as_of(home("x", expires_at=at(5)), at(4)) is not None
    assert version_as_of(home("x", status=Status.DELETED), at(1)) is None


def test_a_superseded_record_held_until_it_was_superseded():
    record = home("Guangzhou", status=Status.SUPERSEDED, updated_at=at(7), superseded_by="entity:x:1")
    assert version_as_of(record, at(6)).content == "Guangzhou"
    assert version_as_of(record, at(7)) is None


def test_current_view_respects_only_explicit_intervals():
    assert is_current(home("x", created_at=at(100)), at(0))  # another clock's creation time hides nothing
    assert not is_current(home("x", valid_from=at(5)), at(1))  # said to start later
    assert not is_current(home("x", valid_to=at(5)), at(5))  # ended
    assert is_current(home("x", valid_to=at(5)), at(4))


# -- the update rule --------------------------------------------------------------------------
def test_a_new_value_closes_the_old_interval_now():
    old, new = home("Guangzhou"), home("Chengdu")
    entry = close_on_update(old, new, at(30))
    assert (entry.content, entry.valid_from, entry.valid_to) == ("Guangzhou", T0, at(30))
    assert new.valid_from == at(30)


def test_a_new_value_with_a_known_start_closes_the_old_one_there():
    old, new = home("Guangzhou"), home("Chengdu", valid_from=at(20))
    entry = close_on_update(old, new, at(30))
    assert entry.valid_to == at(20) and new.valid_from == at(20)


def test_a_valid_from_copied_from_the_old_record_is_not_news():
    old = home("Guangzhou", valid_from=at(-5))
    new = old.copy()
    new.content = "Chengdu"
    entry = close_on_update(old, new, at(30))
    assert (entry.valid_from, entry.valid_to, new.valid_from) == (at(-5), at(30), at(30))


def test_same_value_keeps_its_interval():
    old = home("Guangzhou", valid_from=at(-5))
    assert close_on_update(old, home("Guangzhou"), at(30)) is None
    new = home("Guangzhou", confidence=0.95)
    entry = close_on_update(old, new, at(30))
    assert entry is not None and entry.valid_to is None  # history of the confidence, no end of the fact
    assert new.valid_from == at(-5)


def test_json_store_keeps_the_old_value_answerable(tmp_path):
    now = [at(0)]
    store = JsonMemoryStore(tmp_path / "m.json", clock=lambda: now[0])
    store.upsert(home("我住在广州"))
    now[0] = at(60)
    store.upsert(home("我搬到成都了", created_at=at(60)))
    [current] = store.list_all()
    assert current.content == "我搬到成都了" and current.valid_from == at(60)
    assert [r.content for r in store.list_all(as_of=at(30))] == ["我住在广州"]
    assert store.search("广州", as_of=at(30))[0].content == "我住在广州"
    assert store.search("广州") == []  # the current view no longer holds it
    reopened = JsonMemoryStore(tmp_path / "m.json")
    assert [r.content for r in reopened.list_all(as_of=at(30))] == ["我住在广州"]


def test_as_of_search_records_no_access(tmp_path):
    store = JsonMemoryStore(tmp_path / "m.json", clock=lambda: at(1))
    store.upsert(home("I live in Lisbon"))
    store.search("Lisbon", as_of=at(0.5))
    assert store.get(home("x").memory_id).access_count == 0


def test_bad_as_of_is_refused_before_anything_happens(tmp_path):
    store = JsonMemoryStore(tmp_path / "m.json", clock=lambda: at(1))
    store.upsert(home("I live in Lisbon"))
    with pytest.raises(ValueError, match="as_of"):
        store.search("Lisbon", as_of="last spring")
    with pytest.raises(ValueError, match="as_of"):
        store.list_all(as_of=datetime(2026, 1, 1))


def test_ranking_the_past_ignores_when_a_memory_was_written():
    from memcourse.recall.as_of import rank_versions

    february = datetime(2026, 2, 15, 12, tzinfo=timezone.utc)
    lived = home("我住在广州", created_at=datetime(2026, 1, 5, tzinfo=timezone.utc))
    project = MemoryRecord(MemoryType.ENTITY, "project_name", "我的项目叫 "
                                              "青鸟", created_at=datetime(2026, 2, 1, tzinfo=timezone.utc))
    hits = rank_versions("2026年2月 我住在哪个城市", {r.memory_id: r for r in (lived, project)}, moment=february,
                         limit=2, mode="keyword")
    assert [h.record.subject for h in hits] == ["home_location"]  # the project matched only its written date
    assert hits[0].breakdown["as_of"] == february.isoformat()
