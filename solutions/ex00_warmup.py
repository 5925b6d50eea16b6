"""Solution 00 — warm-up: look at memories as typed records (see exercises/ex00_warmup.py)."""

from __future__ import annotations

from memcourse import MemoryRecord, MemoryType, Status


def count_by_type(records: list[MemoryRecord]) -> dict[str, int]:
    counts = {memory_type.value: 0 for memory_type in MemoryType}
    for record in records:
        if record.status is Status.ACTIVE:
            counts[record.memory_type.value] += 1
    return counts


def format_memory(record: MemoryRecord) -> str:
    return f"[{record.memory_type.value}] {record.subject}: {record.content}"
