"""Solution 05 — full write-back and atomic saves (see exercises/ex05_safe_store.py)."""

from __future__ import annotations

import json
import os
import tempfile
from datetime import datetime
from pathlib import Path
from typing import Any

from memcourse import MemoryRecord, MemoryType, Status
from memcourse.recall.keyword import keyword_score


def typed_search(
    records: list[MemoryRecord],
    query: str,
    *,
    now: datetime,
    memory_type: MemoryType | str | None = None,
    limit: int = 5,
) -> tuple[list[MemoryRecord], list[MemoryRecord]]:
    wanted = MemoryType(memory_type) if memory_type is not None else None
    to_save = [record.copy() for record in records]  # the FULL list: this is what gets written back
    scored = []
    for position, record in enumerate(to_save):
        if record.status is not Status.ACTIVE:
            continue
        if wanted is not None and record.memory_type is not wanted:
            continue
        score = keyword_score(query, record)
        if score > 0:
            scored.append((-score, position, record))
    scored.sort(key=lambda item: (item[0], item[1]))
    hits = [record for _, _, record in scored[:limit]]
    for record in hits:
        record.access_count += 1
        record.last_accessed_at = now
    return [record.copy() for record in hits], to_save


def atomic_write_json(path: str | Path, data: Any) -> None:
    target = Path(path)
    text = json.dumps(data, ensure_ascii=False, indent=2)  # fails here, before any file exists
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
