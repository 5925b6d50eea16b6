"""The write-behind of access statistics.

Every search records which memories it returned (``access_count``, ``last_accessed_at``).
Writing that synchronously costs a write on every search, more than the search itself, so
it is kept in memory (already visible to every reader of the collection in this process)
and written later: see :meth:`AccessWriteBehind.flush`.

A mixin of :class:`~memcourse.stores.chroma.store.ChromaMemoryStore`.
"""

from __future__ import annotations

import time
from datetime import datetime
from typing import TYPE_CHECKING, Callable, Sequence

from memcourse.recall.hit import Hit
from memcourse.records import MemoryRecord

if TYPE_CHECKING:  # the store imports this mixin: its state's type is named for the checker only
    from memcourse.stores.chroma.store import SharedState

__all__ = ["AccessWriteBehind"]


class AccessWriteBehind:
    """Buffered access statistics and their flush (mixed into the Chroma store)."""

    # What the store this is mixed into provides.
    access_flush_seconds: float  #: how old the buffer may grow before a search writes it
    _state: Callable[[], SharedState]  #: the collection's shared state (raises once the store is closed)

    def _note_access(self, hits: Sequence[Hit], now: datetime) -> None:
        """Count the returned hits as accessed now (buffered), and flush once the buffer is
        older than ``access_flush_seconds``."""
        shared = self._state()
        for hit in hits:
            hit.record.access_count += 1
            hit.record.last_accessed_at = now
            if not shared.pending:
                shared.pending_since = time.monotonic()
            shared.pending[hit.record.memory_id] = hit.record.copy()
        if shared.pending and time.monotonic() - shared.pending_since >= self.access_flush_seconds:
            self.flush()

    def _with_pending(self, record: MemoryRecord) -> MemoryRecord:
        """A stored record with the access statistics not yet written behind."""
        pending = self._state().pending.get(record.memory_id)
        if pending is not None:
            record.access_count, record.last_accessed_at = pending.access_count, pending.last_accessed_at
        return record

    def flush(self) -> int:
        """Write buffered access statistics; returns how many records were written.

        Every search records which memories it returned (``access_count``,
        ``last_accessed_at``). Writing that synchronously costs a write on every search,
        more than the search itself, so it is *written behind*: kept in memory (and already
        visible to ``get``/``list_all``/``search`` of every store object on this collection
        in this process), then written at the first search after ``access_flush_seconds``,
        before any other write, and at :meth:`close` or interpreter exit. A crash can lose
        the last second of access counts, never a memory.
        """
        shared = self._state()
        with shared.lock:
            if not shared.pending:
                return 0
            records = list(shared.pending.values())
            shared.pending.clear()
            current = shared.records.fetch([r.memory_id for r in records])
            merged = []
            for record in records:
                stored = current.get(record.memory_id)
                if stored is None:
                    continue  # forgotten meanwhile (by another process): nothing to count
                stored.access_count = max(stored.access_count, record.access_count)
                stored.last_accessed_at = record.last_accessed_at or stored.last_accessed_at
                merged.append(stored)
            shared.records.write_access(merged)
            return len(merged)
