"""Graded tests for exercise 00 (warm-up): count_by_type, format_memory."""

from __future__ import annotations

import pytest

from memcourse import MemoryRecord, MemoryType, Status

TYPE_ORDER = ["preference", "entity", "task", "event", "decision", "rule"]


@pytest.fixture(scope="module")
def ex(exercise):
    return exercise("ex00_warmup")


def test_count_by_type_lists_every_type_even_when_empty(ex):
    counts = ex.count_by_type([])
    assert list(counts) == TYPE_ORDER, "one key per MemoryType value, in the enum's order"
    assert all(value == 0 for value in counts.values()), "an empty store has zero of everything"


def test_count_by_type_counts_bilingual_records(ex):
    records = [
        MemoryRecord(MemoryType.PREFERENCE, "response_style", "以后回答我时，代码示例尽量用 Python"),
        MemoryRecord(MemoryType.ENTITY, "project_name", "我的项目叫 智能客服助手"),
        MemoryRecord(MemoryType.ENTITY, "home_city", "The user lives in Berlin"),
        MemoryRecord(MemoryType.TASK, "phase4_current_task", "Phase4 当前任务是实现 AgentMemorySystem"),
    ]
    counts = ex.count_by_type(records)
    assert counts["entity"] == 2, "two entity records were given"
    assert counts["preference"] == 1 and counts["task"] == 1, "one preference and one task were given"
    assert counts["rule"] == 0 and counts["event"] == 0 and counts["decision"] == 0, "types with no records map to 0"


def test_count_by_type_skips_superseded_and_deleted(ex):
    records = [
        MemoryRecord(MemoryType.PREFERENCE, "response_style", "代码示例优先用 TypeScript"),
        MemoryRecord(MemoryType.PREFERENCE, "old_style", "Answer in English", status=Status.SUPERSEDED),
        MemoryRecord(MemoryType.ENTITY, "employer", "用户在 Acme 工作", status=Status.DELETED),
    ]
    counts = ex.count_by_type(records)
    assert counts["preference"] == 1, "only active records count; a superseded one is history"
    assert counts["entity"] == 0, "a deleted record is not a memory any more"


@pytest.mark.parametrize(
    ("record", "expected"),
    [
        (
            MemoryRecord(MemoryType.PREFERENCE, "response_style", "代码示例尽量用 Python"),
            "[preference] response_style: 代码示例尽量用 Python",
        ),
        (
            MemoryRecord(MemoryType.ENTITY, "home_city", "The user moved to Berlin"),
            "[entity] home_city: The user moved to Berlin",
        ),
        (
            MemoryRecord("task", "phase4_current_task", "Phase4 当前任务是实现 AgentMemorySystem"),
            "[task] phase4_current_task: Phase4 当前任务是实现 AgentMemorySystem",
        ),
    ],
)
def test_format_memory(ex, record, expected):
    assert ex.format_memory(record) == expected, "format: [<type value>] <subject>: <content>"
