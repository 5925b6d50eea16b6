"""Reference solution for exercise 09 (update or supersede, history chains, forgetting a chain)."""

from __future__ import annotations

from typing import Callable, Sequence

from memcourse import MemoryRecord, Status


def decide_write(
    new: MemoryRecord,
    existing: Sequence[MemoryRecord],
    similarity: Callable[[str, str], float],
    *,
    threshold: float = 0.92,
) -> tuple[str, str | None]:
    active = [r for r in existing if r.status is Status.ACTIVE]
    if any(r.memory_id == new.memory_id for r in active):
        return "update", new.memory_id
    scope = (new.user_id, new.agent_id, new.memory_type)
    best_id, best = None, float("-inf")
    for record in active:
        if (record.user_id, record.agent_id, record.memory_type) != scope:
            continue
        score = similarity(new.content, record.content)
        if score > best:
            best_id, best = record.memory_id, score
    if best_id is not None and best >= threshold:
        return "supersede", best_id
    return "insert", None


def history_chain(records: Sequence[MemoryRecord], memory_id: str) -> list[MemoryRecord]:
    by_id = {r.memory_id: r for r in records}
    if memory_id not in by_id:
        return []
    predecessor = {r.superseded_by: r for r in records if r.superseded_by}
    head, seen = by_id[memory_id], {memory_id}
    while head.superseded_by in by_id and head.superseded_by not in seen:
        head = by_id[head.superseded_by]
        seen.add(head.memory_id)
    chain = [head]
    while chain[-1].memory_id in predecessor and predecessor[chain[-1].memory_id] not in chain:
        chain.append(predecessor[chain[-1].memory_id])
    return list(reversed(chain))


def forget_chain(records: Sequence[MemoryRecord], memory_id: str) -> tuple[list[MemoryRecord], list[str]]:
    removed = [r.memory_id for r in history_chain(records, memory_id)]
    gone = set(removed)
    return [r for r in records if r.memory_id not in gone], removed
