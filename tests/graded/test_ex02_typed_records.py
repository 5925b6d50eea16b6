"""Graded tests for exercise 02: upsert by subject."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from memcourse import HistoryEntry, MemoryRecord, MemoryType, Source

T0 = datetime(2026, 1, 1, 9, 0, tzinfo=timezone.utc)
T1 = T0 + timedelta(days=3)


@pytest.fixture(scope="module")
def ex(exercise):
    return exercise("ex02_typed_records")


def python_pref() -> MemoryRecord:
    return MemoryRecord(
        MemoryType.PREFERENCE, "response_style", "以后回答我时，代码示例尽量用 Python",
        confidence=0.9, created_at=T0,
    )


def typescript_pref(subject: str = "response_style") -> MemoryRecord:
    return MemoryRecord(
        MemoryType.PREFERENCE, subject, "以后回答我时，代码示例优先用 TypeScript",
        confidence=0.95, created_at=T1,
    )


def project() -> MemoryRecord:
    return MemoryRecord(MemoryType.ENTITY, "project_name", "我的项目叫 智能客服助手", created_at=T0)


def test_new_subject_is_appended(ex):
    result = ex.upsert_by_subject([python_pref()], project(), T1)
    assert [r.subject for r in result] == ["response_style", "project_name"], "a new subject goes at the end"


def test_changed_preference_replaces_the_old_one(ex):
    result = ex.upsert_by_subject([python_pref(), project()], typescript_pref(), T1)
    assert len(result) == 2, "a changed preference updates; it must not pile up next to the old one"
    assert result[0].subject == "response_style", "the update stays at the old record's position"
    assert "TypeScript" in result[0].content and result[0].confidence == 0.95, (
        "the new content and confidence replace the old"
    )
    assert result[1].content == "我的项目叫 智能客服助手", "other memories are untouched"


def test_update_keeps_identity_and_creation_time_and_moves_updated_at(ex):
    old = python_pref()
    result = ex.upsert_by_subject([old], typescript_pref(), T1)
    assert result[0].memory_id == old.memory_id, "an update keeps the memory's id"
    assert result[0].created_at == T0, "an update keeps the original creation time"
    assert result[0].updated_at == T1, "updated_at is the time of the update"


def test_update_keeps_the_old_content_as_history(ex):
    result = ex.upsert_by_subject([python_pref()], typescript_pref(), T1)
    assert result[0].history == [
        HistoryEntry("以后回答我时，代码示例尽量用 Python", 0.9, "user_stated", T1)
    ], "the replaced version is kept as one HistoryEntry(content, confidence, source value, now)"
    again = MemoryRecord(MemoryType.PREFERENCE, "response_style", "Answer in English, briefly", created_at=T1)
    result = ex.upsert_by_subject(result, again, T1 + timedelta(days=1))
    assert [h.content for h in result[0].history] == [
        "以后回答我时，代码示例尽量用 Python",
        "以后回答我时，代码示例优先用 TypeScript",
    ], "history grows: oldest first"


def test_subject_match_ignores_case_and_surrounding_spaces(ex):
    result = ex.upsert_by_subject([python_pref()], typescript_pref(" Response_Style "), T1)
    assert len(result) == 1, "'Response_Style ' and 'response_style' are the same subject"


def test_type_and_user_are_part_of_the_key(ex):
    other_type = MemoryRecord(MemoryType.TASK, "response_style", "Rewrite the response style guide")
    other_user = MemoryRecord(
        MemoryType.PREFERENCE, "response_style", "Answers in English please", user_id="bob"
    )
    result = ex.upsert_by_subject([python_pref()], other_type, T1)
    result = ex.upsert_by_subject(result, other_user, T1)
    assert len(result) == 3, "same subject but another type, or another user, is another memory"
    assert result[0].content == "以后回答我时，代码示例尽量用 Python", "the original preference is untouched"


def test_inputs_are_not_changed(ex):
    old = python_pref()
    records = [old]
    new = typescript_pref()
    new.source = Source.TOOL_OBSERVED
    ex.upsert_by_subject(records, new, T1)
    assert records == [old] and len(records) == 1, "return a new list"
    assert old.content == "以后回答我时，代码示例尽量用 Python" and old.history == [], "do not edit the old record"
    assert new.history == [] and new.created_at == T1, "do not edit the new record either"


def test_the_history_entry_records_the_old_versions_source(ex):
    """History says where the *replaced* content came from: a tool observed it, the user did not say it."""
    old = python_pref()
    old.source = Source.TOOL_OBSERVED
    old.confidence = 0.7
    new = typescript_pref()  # stated by the user
    result = ex.upsert_by_subject([old], new, T1)
    (entry,) = result[0].history
    assert entry.source == "tool_observed", "the history entry keeps the OLD record's source (old.source.value)"
    assert entry.confidence == 0.7, "and the OLD record's confidence"
    assert result[0].source is Source.USER_STATED, "the current version has the new record's source"


def test_an_appended_record_is_a_copy(ex):
    new = project()
    result = ex.upsert_by_subject([], new, T1)
    assert len(result) == 1, "a new subject in an empty list: one record"
    assert result[0] is not new, "append a copy (new.copy()): the caller may keep changing its record"
    assert result[0].to_dict() == new.to_dict(), "the copy is equal to the new record"


def test_the_update_takes_its_identity_and_time_from_the_old_record_and_now(ex):
    """A new record can arrive with its own id and timestamps (another process made it): the
    update still keeps the OLD id and creation time, and is stamped with ``now``."""
    old = python_pref()
    new = MemoryRecord(MemoryType.PREFERENCE, "Response_Style", "以后回答我时，代码示例优先用 TypeScript",
                       memory_id="preference:imported:0000", created_at=T1, updated_at=T1)
    now = T1 + timedelta(hours=5)
    (updated,) = ex.upsert_by_subject([old], new, now)
    assert updated.memory_id == old.memory_id, f"keep the old memory_id {old.memory_id!r}, got {updated.memory_id!r}"
    assert updated.created_at == T0, "keep the old created_at"
    assert updated.updated_at == now, (
        f"updated_at is `now` ({now}), not the new record's own time, got {updated.updated_at}"
    )
    assert updated.history[0].replaced_at == now, "the history entry is stamped with `now` too"


def test_the_result_shares_no_record_with_the_input(ex):
    """Return copies: a caller that changes a record of the result must not change its input."""
    old, other = python_pref(), project()
    result = ex.upsert_by_subject([old, other], typescript_pref(), T1)
    assert all(r is not old and r is not other for r in result), "every record of the result is a copy (record.copy())"
    result[1].tags.append("edited later")
    assert other.tags == [], "changing the result's record changed the input's: copy every record"
