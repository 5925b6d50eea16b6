"""Exercise 08 — memories change: update or supersede, follow the history, forget the whole chain.

Difficulty: ★★★★ · Expected time: 45 minutes · Notebook: 08_memories_change.ipynb

Why: a user who moved from Guangzhou to Chengdu must not be remembered as living in both. A new
fact either *updates* a memory (same subject, same id) or *supersedes* a near-duplicate (another
id, nearly the same meaning), and the old version is kept as history, never silently lost. And
when the user says "forget that", every version goes, not just the newest.

Build three functions. Records are ``memcourse.MemoryRecord``; ``similarity(a, b)`` is any
function returning a cosine similarity of two texts (the notebook uses the embedding model, the
tests a fake).

``decide_write(new, existing, similarity, *, threshold=0.92) -> tuple[str, str | None]``
    - ``("update", id)`` when an **active** record in ``existing`` has ``new.memory_id``;
    - else ``("supersede", old_id)`` for the active record of the **same user, agent and
      memory type** whose content is most similar to ``new.content`` (on a tie, the one that
      comes first in ``existing``), if that similarity is ``>= threshold`` (inactive records and other scopes are never
      candidates);
    - else ``("insert", None)``.

``history_chain(records, memory_id) -> list[MemoryRecord]``
    Every record linked to ``memory_id`` by ``superseded_by`` (in either direction, however
    long the chain), oldest first: the record nobody supersedes comes last. ``[]`` when
    ``memory_id`` is not in ``records``. (Each record supersedes at most one other. Corrupt
    data may link records in a cycle: each version still appears once, and the walk ends.)

``forget_chain(records, memory_id) -> tuple[list[MemoryRecord], list[str]]``
    ``(kept, removed_ids)``: ``kept`` is ``records`` without every record of ``memory_id``'s
    chain (order kept), ``removed_ids`` the removed ids, oldest first. Forgetting one version
    forgets them all: the old versions hold the same fact. Unknown id: ``(records, [])``.

Done when ``memcourse grade 08`` shows 08 at 100%.
"""

from __future__ import annotations

from typing import Callable, Sequence

from memcourse import MemoryRecord


def decide_write(
    new: MemoryRecord,
    existing: Sequence[MemoryRecord],
    similarity: Callable[[str, str], float],
    *,
    threshold: float = 0.92,
) -> tuple[str, str | None]:
    raise NotImplementedError("ex08 decide_write: not written yet (stuck? memcourse hint 08)")


def history_chain(records: Sequence[MemoryRecord], memory_id: str) -> list[MemoryRecord]:
    raise NotImplementedError("ex08 history_chain: not written yet (stuck? memcourse hint 08)")


def forget_chain(records: Sequence[MemoryRecord], memory_id: str) -> tuple[list[MemoryRecord], list[str]]:
    raise NotImplementedError("ex08 forget_chain: not written yet (stuck? memcourse hint 08)")
