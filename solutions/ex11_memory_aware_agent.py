"""Solution 11 — a context packer (see exercises/ex11_memory_aware_agent.py)."""

from __future__ import annotations

import re

from memcourse import MemoryRecord

TYPE_ORDER = ("rule", "preference", "entity", "task", "event", "decision")
_BREAKS = re.compile(r"\s*[\r\n]+\s*")


def _line(record: MemoryRecord) -> str:
    content = _BREAKS.sub(" ", record.content)
    return f"- {content} ({record.source.value}, id={record.memory_id})"


def _render(included: list[MemoryRecord]) -> str:
    lines: list[str] = []
    for kind in TYPE_ORDER:
        members = [r for r in included if r.memory_type.value == kind]
        if members:
            lines.append(f"## {kind}")
            lines.extend(_line(r) for r in members)
    return "\n".join(lines)


def pack_memories(records: list[MemoryRecord], *, budget: int = 600, max_items: int = 8) -> str:
    included: list[MemoryRecord] = []
    seen: set[str] = set()
    for record in records:
        if record.memory_id in seen or len(included) >= max_items:
            continue
        if len(_render(included + [record])) <= budget:
            included.append(record)
            seen.add(record.memory_id)
    return _render(included)
