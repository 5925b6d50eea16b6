"""Exercise 02 — upsert by subject: a changed preference updates, it does not append.

Difficulty: ★★☆☆ · Expected time: 25 minutes · Notebook: 02_typed_records.ipynb

Why: chat history appends; memory updates. When the user says "代码示例优先用 TypeScript" after
"代码示例尽量用 Python", the agent must hold *one* response-style preference, the new one, and
keep the old one only as history. You will write that rule over a plain list of records, the
same rule ``JsonMemoryStore.upsert`` applies to its file.

Build one function:

``upsert_by_subject(records, new, now) -> list[MemoryRecord]``
    Return a *new* list of copies (``record.copy()``): do not change ``records`` or any record
    in it, and share no record with it (a caller may change the result later).

    - Two records are the same memory when they have the same ``user_id``, the same
      ``memory_type`` and the same subject compared case-insensitively after stripping spaces
      (``"Response_Style "`` and ``"response_style"`` are one subject).
    - If ``new`` matches an existing record, it replaces it *at the same position*. The result
      keeps the old ``created_at`` and ``memory_id``, sets ``updated_at`` to ``now``, and its
      ``history`` is the old history plus one ``HistoryEntry(old.content, old.confidence,
      old.source.value, now)``.
    - Otherwise a copy of ``new`` is appended at the end.

Done when ``memcourse grade 02`` shows 02 at 100%.
"""

from __future__ import annotations

from datetime import datetime

from memcourse import MemoryRecord


def upsert_by_subject(records: list[MemoryRecord], new: MemoryRecord, now: datetime) -> list[MemoryRecord]:
    raise NotImplementedError("ex02 upsert_by_subject: not written yet (stuck? memcourse hint 02)")
