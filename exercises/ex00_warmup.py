"""Exercise 00 — warm-up: look at memories as typed records.

Difficulty: ★☆☆☆ (warm-up) · Expected time: 10 minutes · Notebook: 00_start_here.ipynb

Why: the rest of the course treats a memory as a typed record, not a string. This warm-up gets
you touching records (``memory_type``, ``subject``, ``status``) and running the grade loop once:
edit this file, run ``memcourse grade 00``, watch the tests turn green.

Build two small functions:

``count_by_type(records)``
    A dict with one key per ``MemoryType`` value, in the order the enum defines them
    (preference, entity, task, event, decision, rule), mapping to how many *active* records
    of that type are in ``records``. Types with no records map to 0. Superseded or deleted
    records are not counted.

``format_memory(record)``
    One line a person can read: ``"[<type>] <subject>: <content>"``, for example
    ``"[preference] response_style: 代码示例尽量用 Python"``.

Done when ``memcourse grade 00`` shows 00 at 100%.
"""

from __future__ import annotations

from memcourse import MemoryRecord


def count_by_type(records: list[MemoryRecord]) -> dict[str, int]:
    raise NotImplementedError("ex00 count_by_type: not written yet (stuck? memcourse hint 00)")


def format_memory(record: MemoryRecord) -> str:
    raise NotImplementedError("ex00 format_memory: not written yet (stuck? memcourse hint 00)")
