"""MemoryRecord: typed, validated, lossless on the way to JSON and back."""

from __future__ import annotations

import json
import math
from datetime import datetime, timedelta, timezone

import pytest

from memcourse.records import (
    MAX_CONTENT_CHARS,
    MAX_SUBJECT_CHARS,
    HistoryEntry,
    MemoryRecord,
    MemoryType,
    Source,
    Status,
    make_memory_id,
    parse_timestamp,
)

T0 = datetime(2026, 1, 1, 9, 0, tzinfo=timezone.utc)


def build(**overrides) -> MemoryRecord:
    values = dict(memory_type=MemoryType.PREFERENCE, subject="response_style", content="代码示例尽量用 Python")
    values.update(overrides)
    return MemoryRecord(**values)


# -- construction and defaults -----------------------------------------------------------------
def test_defaults_are_the_documented_ones():
    record = build()
    assert record.confidence == 0.8
    assert record.source is Source.USER_STATED
    assert record.status is Status.ACTIVE
    assert record.user_id == "default" and record.agent_id == "default"
    assert record.tags == [] and record.history == []
    assert record.access_count == 0 and record.last_accessed_at is None
    assert record.updated_at == record.created_at
    assert record.created_at.tzinfo is not None


def test_memory_id_is_derived_from_type_subject_and_scope():
    record = build(user_id="alice")
    assert record.memory_id == make_memory_id(MemoryType.PREFERENCE, "response_style", user_id="alice")


def test_explicit_memory_id_is_kept():
    assert build(memory_id="custom:id:1").memory_id == "custom:id:1"


def test_strings_are_accepted_for_enums_and_normalised():
    record = build(memory_type=" Task ", source="llm_inferred", status="SUPERSEDED")
    assert record.memory_type is MemoryType.TASK
    assert record.source is Source.LLM_INFERRED
    assert record.status is Status.SUPERSEDED


def test_memory_type_is_a_str_enum_with_six_kinds():
    assert [t.value for t in MemoryType] == ["preference", "entity", "task", "event", "decision", "rule"]
    assert MemoryType.TASK == "task"


def test_text_fields_are_stripped():
    record = build(subject="  response_style ", content="  用 Python  ", tags=[" a ", "b"])
    assert (record.subject, record.content, record.tags) == ("response_style", "用 Python", ["a", "b"])


def test_tags_tuple_becomes_a_list():
    assert build(tags=("x", "y")).tags == ["x", "y"]


def test_timestamps_from_iso_strings_become_aware_utc():
    record = build(created_at="2026-03-01T08:00:00+08:00", expires_at="2026-03-02T00:00:00Z")
    assert record.created_at == datetime(2026, 3, 1, 0, 0, tzinfo=timezone.utc)
    assert record.created_at.utcoffset() == timedelta(0)
    assert record.expires_at == datetime(2026, 3, 2, tzinfo=timezone.utc)


def test_boundary_values_are_accepted():
    record = build(confidence=0, importance=1, content="x" * MAX_CONTENT_CHARS, subject="s" * MAX_SUBJECT_CHARS)
    assert (record.confidence, record.importance) == (0.0, 1.0)
    assert isinstance(record.confidence, float)
    assert len(record.content) == MAX_CONTENT_CHARS


# -- validation: every error names the field -----------------------------------------------------
BAD_VALUES = [
    # (field, bad value, exception)
    ("subject", "", ValueError),
    ("subject", "   \t\n", ValueError),
    ("subject", None, TypeError),
    ("subject", 42, TypeError),
    ("subject", "s" * (MAX_SUBJECT_CHARS + 1), ValueError),
    ("content", "", ValueError),
    ("content", "　 ", ValueError),  # ideographic space only
    ("content", b"bytes", TypeError),
    ("content", ["a list"], TypeError),
    ("content", "长" * (MAX_CONTENT_CHARS + 1), ValueError),
    ("confidence", 1.01, ValueError),
    ("confidence", -0.01, ValueError),
    ("confidence", math.nan, ValueError),
    ("confidence", math.inf, ValueError),
    ("confidence", True, TypeError),
    ("confidence", "0.9", TypeError),
    ("confidence", None, TypeError),
    ("importance", 2, ValueError),
    ("importance", -1, ValueError),
    ("importance", math.nan, ValueError),
    ("importance", False, TypeError),
    ("memory_type", "fact", ValueError),
    ("memory_type", 3, TypeError),
    ("memory_type", None, TypeError),
    ("source", "rumour", ValueError),
    ("status", "archived", ValueError),
    ("created_at", datetime(2026, 1, 1, 9, 0), ValueError),  # naive
    ("created_at", "2026-01-01T09:00:00", ValueError),  # naive ISO string
    ("created_at", "yesterday", ValueError),
    ("created_at", "2026-13-45T00:00:00+00:00", ValueError),
    ("created_at", 1767258000, TypeError),  # epoch seconds are not accepted
    ("updated_at", "not a time", ValueError),
    ("expires_at", datetime(2026, 2, 1), ValueError),
    ("last_accessed_at", "2026-01-01 10:00", ValueError),
    ("access_count", -1, ValueError),
    ("access_count", 1.5, TypeError),
    ("access_count", True, TypeError),
    ("access_count", "3", TypeError),
    ("tags", "python", TypeError),  # a string is not a list of tags
    ("tags", ["ok", 3], TypeError),
    ("tags", ["ok", "  "], ValueError),
    ("tags", None, TypeError),
    ("user_id", "", ValueError),
    ("user_id", None, TypeError),
    ("agent_id", "  ", ValueError),
    ("memory_id", "", ValueError),
    ("memory_id", 7, TypeError),
    ("source_conversation_id", "", ValueError),
    ("superseded_by", 5, TypeError),
    ("history", ["not an entry"], TypeError),
]


@pytest.mark.parametrize(("field_name", "value", "error"), BAD_VALUES, ids=lambda v: repr(v)[:30])
def test_invalid_field_is_refused_with_its_name(field_name, value, error):
    with pytest.raises(error, match=field_name):
        build(**{field_name: value})


@pytest.mark.parametrize(("field_name", "value", "error"), BAD_VALUES, ids=lambda v: repr(v)[:30])
def test_validate_catches_a_record_broken_after_construction(field_name, value, error):
    record = build()
    setattr(record, field_name, value)
    with pytest.raises(error, match=field_name):
        record.validate()


def test_parse_timestamp_names_the_field():
    with pytest.raises(ValueError, match="my_field"):
        parse_timestamp("garbage", "my_field")
    with pytest.raises(ValueError, match="timezone-aware"):
        parse_timestamp(datetime(2026, 1, 1), "my_field")


def test_expiry():
    record = build(expires_at=T0)
    assert record.is_expired(T0)
    assert record.is_expired(T0 + timedelta(seconds=1))
    assert not record.is_expired(T0 - timedelta(seconds=1))
    assert not build().is_expired(T0)


# -- JSON round trip -------------------------------------------------------------------------
def rich_record() -> MemoryRecord:
    return MemoryRecord(
        memory_type=MemoryType.ENTITY,
        subject="项目名称",
        content="我的项目叫智能客服助手（“ai-agent-learn” 的中文版）",
        confidence=0.95,
        source=Source.TOOL_OBSERVED,
        tags=["project", "智能客服助手"],
        user_id="用户甲",
        agent_id="助手",
        importance=0.7,
        status=Status.ACTIVE,
        expires_at=T0 + timedelta(days=30),
        source_conversation_id="会话-42",
        created_at=T0,
        updated_at=T0 + timedelta(hours=1),
        last_accessed_at=T0 + timedelta(hours=2),
        access_count=3,
        superseded_by=None,
        history=[HistoryEntry("我的项目叫客服机器人", 0.9, "user_stated", T0 + timedelta(minutes=30))],
    )


def test_json_round_trip_is_lossless_including_chinese():
    record = rich_record()
    text = json.dumps(record.to_dict())
    back = MemoryRecord.from_dict(json.loads(text))
    assert back == record
    assert back.to_dict() == record.to_dict()
    assert back.history[0].content == "我的项目叫客服机器人"
    assert back.memory_type is MemoryType.ENTITY and back.source is Source.TOOL_OBSERVED


def test_to_dict_is_plain_json_and_keeps_chinese_readable():
    data = rich_record().to_dict()
    assert data["memory_type"] == "entity" and data["source"] == "tool_observed" and data["status"] == "active"
    assert data["created_at"] == "2026-01-01T09:00:00+00:00"
    assert data["history"][0]["replaced_at"] == "2026-01-01T09:30:00+00:00"
    text = json.dumps(data, ensure_ascii=False)
    assert "智能客服助手" in text and "用户甲" in text
    assert "\\u" not in text


def test_to_dict_does_not_alias_the_record():
    record = rich_record()
    data = record.to_dict()
    data["tags"].append("extra")
    data["history"].clear()
    assert record.tags == ["project", "智能客服助手"]
    assert len(record.history) == 1


def test_copy_is_equal_but_independent():
    record = rich_record()
    clone = record.copy()
    assert clone == record and clone is not record
    clone.tags.append("x")
    clone.history.clear()
    assert "x" not in record.tags and len(record.history) == 1


def test_from_dict_refuses_unknown_keys():
    data = build().to_dict()
    data["contnet"] = "typo"
    with pytest.raises(ValueError, match="contnet"):
        MemoryRecord.from_dict(data)


def test_from_dict_refuses_a_non_object():
    with pytest.raises(TypeError, match="JSON object"):
        MemoryRecord.from_dict(["preference", "response_style", "x"])  # type: ignore[arg-type]


def test_from_dict_refuses_a_missing_field():
    data = build().to_dict()
    del data["content"]
    with pytest.raises(TypeError, match="content"):
        MemoryRecord.from_dict(data)


def test_from_dict_validates_values():
    data = build().to_dict()
    data["confidence"] = 7
    with pytest.raises(ValueError, match="confidence"):
        MemoryRecord.from_dict(data)


@pytest.mark.parametrize(
    ("change", "field_name"),
    [
        ({"content": None}, "history.content"),
        ({"content": ""}, "history.content"),
        ({"confidence": True}, "history.confidence"),
        ({"confidence": 3}, "history.confidence"),
        ({"source": "rumour"}, "history.source"),
        ({"replaced_at": "2026-01-01T00:00:00"}, "history.replaced_at"),
        ({"extra": 1}, "extra"),
    ],
)
def test_from_dict_validates_history_entries(change, field_name):
    data = rich_record().to_dict()
    data["history"][0].update(change)
    with pytest.raises((TypeError, ValueError), match=field_name.replace(".", r"\.")):
        MemoryRecord.from_dict(data)


def test_from_dict_refuses_a_history_entry_with_a_missing_field():
    data = rich_record().to_dict()
    del data["history"][0]["replaced_at"]
    with pytest.raises(ValueError, match="missing replaced_at"):
        MemoryRecord.from_dict(data)
