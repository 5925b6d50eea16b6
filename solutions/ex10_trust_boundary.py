"""Solution 10 — the fence (see exercises/ex10_trust_boundary.py)."""

from __future__ import annotations

import re
import unicodedata

from memcourse import MemoryRecord, MemoryType, Source
from memcourse.recall.packing import FENCE_CLOSE, FENCE_OPEN

RULES_HEADER = "## Rules (set by an administrator)"

_BREAKS = re.compile(r"\s*[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029\t]+\s*")


def escape_line(value: str) -> str:
    text = _BREAKS.sub(" ", value)
    text = "".join(ch for ch in text if unicodedata.category(ch) not in ("Cc", "Cf"))
    text = text.replace("<<<", "< < <").replace(">>>", "> > >")
    return text.strip()


def fence_memories(records: list[MemoryRecord]) -> tuple[str, list[tuple[MemoryRecord, str]]]:
    rules: list[str] = []
    fenced: list[str] = []
    dropped: list[tuple[MemoryRecord, str]] = []
    for record in records:
        if record.memory_type is MemoryType.RULE:
            if record.source is Source.ADMIN_CONFIGURED:
                rules.append(f"- [rule] {escape_line(record.content)}")
            else:
                dropped.append((record, f"permission: a rule from {record.source.value}, not admin_configured"))
            continue
        provenance = f"source={record.source.value}, id={escape_line(record.memory_id)}"
        if record.source_conversation_id:
            provenance += f", conv={escape_line(record.source_conversation_id)}"
        fenced.append(f"- [{record.memory_type.value}] {escape_line(record.content)} ({provenance})")
    lines: list[str] = []
    if rules:
        lines += [RULES_HEADER, *rules]
    if fenced:
        lines += [FENCE_OPEN, *fenced, FENCE_CLOSE]
    return "\n".join(lines), dropped
