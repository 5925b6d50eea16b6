"""What a process knows about a collection's active memories, for search.

A search must never look at another tenant's memories, and must not pay a database read to
find out which memories are whose. So every process keeps, next to its BM25 keyword index,
a *catalog*: for each active memory, its user, agent, type and whether the embedding model
could read its text. From it come the allow-lists both recall channels filter by, before
they take their top-k (filtering after would let another tenant's memories crowd this
tenant's out of the top-k).

The catalog and the index are built from the stored records when a store opens
(:meth:`SearchCatalog.rebuild`) and kept in step by every write of this process. Writes of
*other* processes (a shared Chroma server) reach them only through ``refresh()``; until then
a search fails closed (it misses a new memory, it never returns one it should not), and every
hit is checked again against the stored record.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from memcourse.recall.bm25 import BM25Index
from memcourse.recall.hybrid import MIN_KNOWN_TOKENS, keyword_text
from memcourse.recall.passages import sentences
from memcourse.records import MemoryRecord, Status

Key = tuple[str, "str | None", "str | None"]  # (user, agent or None, type or None)


@dataclass
class Scope:
    """What search needs to know about an active memory without reading it."""

    user_id: str
    agent_id: str
    memory_type: str
    readable: bool  # could the embedding model read the content (see MIN_KNOWN_TOKENS)?
    several_sentences: bool = False  # does recall also score its passages (recall.passages)?

    def keys(self) -> list[Key]:
        """Every allow-list this memory is on: the user's, the user's agent's, by type."""
        return [
            (self.user_id, None, None),
            (self.user_id, self.agent_id, None),
            (self.user_id, None, self.memory_type),
            (self.user_id, self.agent_id, self.memory_type),
        ]


class SearchCatalog:
    """The keyword index plus the allow-lists, for one collection in one process."""

    def __init__(self, bm25: BM25Index):
        self.bm25 = bm25
        self.active: dict[str, Scope] = {}
        self._by_key: dict[Key, set[str]] = {}

    def rebuild(self, rows: Iterable[tuple[MemoryRecord, float]]) -> None:
        """Start again from stored active records and their readability."""
        rows = list(rows)
        self.bm25.clear()
        self.active.clear()
        self._by_key.clear()
        for record, readable in rows:
            self._list(record, readable >= MIN_KNOWN_TOKENS)
        self.bm25.add_many((record.memory_id, keyword_text(record)) for record, _ in rows)

    def index(self, record: MemoryRecord, readable: float) -> None:
        """Bring the catalog and the index in step with a record just written."""
        if record.status is Status.ACTIVE:
            self._list(record, readable >= MIN_KNOWN_TOKENS)
            self.bm25.add(record.memory_id, keyword_text(record))
        else:
            self.unindex(record.memory_id)

    def unindex(self, memory_id: str) -> None:
        self._unlist(memory_id)
        self.bm25.remove(memory_id)

    def unchanged(self, old: MemoryRecord, new: MemoryRecord) -> bool:
        """Would re-indexing ``new`` change nothing (same status, scope and indexed text)?"""
        return new.memory_id in self.active and (
            old.status, old.user_id, old.agent_id, old.memory_type, keyword_text(old)
        ) == (new.status, new.user_id, new.agent_id, new.memory_type, keyword_text(new))

    def allowed(self, user_id: str, agent_id: str | None, memory_type: str | None) -> set[str]:
        """The active memories a search in this scope may return."""
        return self._by_key.get((user_id, agent_id, memory_type), set())

    def type_of(self, memory_id: str) -> str | None:
        scope = self.active.get(memory_id)
        return scope.memory_type if scope else None

    def readable(self, memory_id: str) -> bool:
        scope = self.active.get(memory_id)
        return bool(scope and scope.readable)

    def has_passages(self, memory_id: str) -> bool:
        """Does this memory hold several sentences (unknown: assume it does)?"""
        scope = self.active.get(memory_id)
        return scope is None or scope.several_sentences

    def _list(self, record: MemoryRecord, readable: bool) -> None:
        self._unlist(record.memory_id)
        scope = Scope(record.user_id, record.agent_id, record.memory_type.value, readable,
                      several_sentences=bool(sentences(record.content)))
        self.active[record.memory_id] = scope
        for key in scope.keys():
            self._by_key.setdefault(key, set()).add(record.memory_id)

    def _unlist(self, memory_id: str) -> None:
        scope = self.active.pop(memory_id, None)
        if scope is not None:
            for key in scope.keys():
                self._by_key.get(key, set()).discard(memory_id)
