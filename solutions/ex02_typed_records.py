"""Solution 02 — upsert by subject (see exercises/ex02_typed_records.py)."""

from __future__ import annotations

from datetime import datetime

from memcourse import HistoryEntry, MemoryRecord


def _key(record: MemoryRecord) -> tuple[str, str, str]:
    return (record.user_id, record.memory_type.value, record.subject.strip().lower())


def upsert_by_subject(records: list[MemoryRecord], new: MemoryRecord, now: datetime) -> list[MemoryRecord]:
    result = [record.copy() for record in records]
    for index, old in enumerate(result):
        if _key(old) == _key(new):
            updated = new.copy()
            updated.memory_id = old.memory_id
            updated.created_at = old.created_at
            updated.updated_at = now
            updated.history = list(old.history) + [
                HistoryEntry(old.content, old.confidence, old.source.value, now)
            ]
            result[index] = updated
            return result
    result.append(new.copy())
    return result
