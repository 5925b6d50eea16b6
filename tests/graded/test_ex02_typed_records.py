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
    assert "TypeScript" in result[0].content and result[0].confidence == 0.95, "the new content and confidence replace the old"
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
