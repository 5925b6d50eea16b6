"""Exercise 05 — a store that never loses data: full write-back and atomic saves.

Difficulty: ★★★☆ · Expected time: 35 minutes · Notebook: 05_bug_clinic_typed_search.ipynb

Why: search *writes* (it records ``access_count`` and ``last_accessed_at``), so every search is
a read-modify-write. Write back the filtered view instead of the full list and a typed search
deletes every other type. Write the file in place and a crash halfway leaves half a file. You
will write both halves of the fix.

Build two functions:

``typed_search(records, query, *, now, memory_type=None, limit=5)`` -> ``(hits, to_save)``
    - ``hits``: up to ``limit`` records with ``status`` active and, if ``memory_type`` is given,
      of that type, whose ``memcourse.recall.keyword.keyword_score(query, record)`` is above 0,
      best score first.
    - Each hit gets ``access_count + 1`` and ``last_accessed_at = now``.
    - ``to_save``: the list to write back — *every* record of ``records`` in its original order
      (all types, all statuses), with the hits' access metadata updated. Non-hits are unchanged.
    - Work on copies (``record.copy()``); do not change the input records. The hits you return
      are copies too: changing a hit must not change ``to_save``.

``atomic_write_json(path, data)``
    Write ``data`` as JSON (UTF-8, ``ensure_ascii=False``) so that a crash at any moment leaves
    either the old file or the new one, never a mix: write to a temporary file *in the same
    folder* (``tempfile.mkstemp(dir=...)``), flush, ``os.fsync``, then ``os.replace`` it over
    ``path``. If anything fails, remove the temporary file and re-raise; the old file must be
    untouched and no temporary file may be left behind.

Done when ``memcourse grade 05`` shows 05 at 100%.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any

from memcourse import MemoryRecord, MemoryType


def typed_search(
    records: list[MemoryRecord],
    query: str,
    *,
    now: datetime,
    memory_type: MemoryType | str | None = None,
    limit: int = 5,
) -> tuple[list[MemoryRecord], list[MemoryRecord]]:
    raise NotImplementedError("ex05 typed_search: not written yet (stuck? memcourse hint 05)")


def atomic_write_json(path: str | Path, data: Any) -> None:
    raise NotImplementedError("ex05 atomic_write_json: not written yet (stuck? memcourse hint 05)")
