"""A short-lived cache for the memories every request reads: the user's profile.

Why: the stable part of what an agent knows about a user (their preferences and the entities of
their world) is read on every turn and changes rarely. The engineering guide's advice is to cache
it for seconds, not to query the store each time (用户画像这种稳定记忆……缓存十秒钟就够了, §6.2).

Why *short*: a cache is a copy, and a copy is what forgetting misses. The guide's forgetting
starts with the store and then "clears the corresponding cache keys" (§5.3), because a cache that
still holds a forgotten memory lets the agent "remember" it at the next request. So:

- writes and forgets that go through this cache drop that user's entry at once;
- a change made elsewhere (another process, another cache) is seen within ``ttl_seconds`` at
  the latest: the time-to-live is the bound on staleness, and the reason it stays small;
- the cache holds records only in this process's memory, never on disk.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence

from memcourse.records import MemoryRecord, MemoryType

__all__ = ["PROFILE_TYPES", "HotReadCache"]

#: What counts as the user's profile: stable facts about them and their preferences.
PROFILE_TYPES = (MemoryType.PREFERENCE, MemoryType.ENTITY)


class HotReadCache:
    """``profile(user_id)`` from the store at most once per ``ttl_seconds`` per user and agent."""

    def __init__(self, store, *, ttl_seconds: float = 10.0, clock: Callable[[], float] = time.monotonic,
                 types: Sequence[MemoryType] = PROFILE_TYPES):
        if not ttl_seconds > 0:
            raise ValueError(f"ttl_seconds must be positive, got {ttl_seconds!r}")
        self.store = store
        self.ttl_seconds = float(ttl_seconds)
        self.types = tuple(types)
        self._clock = clock
        self._lock = threading.Lock()
        self._entries: dict[tuple[str, str | None], tuple[float, list[MemoryRecord]]] = {}
        self.hits = self.misses = 0

    def profile(self, user_id: str, *, agent_id: str | None = None) -> list[MemoryRecord]:
        key = (user_id, agent_id)
        now = self._clock()
        with self._lock:
            entry = self._entries.get(key)
            if entry is not None and now - entry[0] < self.ttl_seconds:
                self.hits += 1
                return list(entry[1])
        records = [r for t in self.types for r in self.store.list_all(memory_type=t, user_id=user_id,
                                                                      agent_id=agent_id)]
        with self._lock:
            self.misses += 1
            self._entries[key] = (now, records)
        return list(records)

    def invalidate(self, user_id: str) -> int:
        """Drop every entry of ``user_id`` (all agents); returns how many were dropped."""
        with self._lock:
            keys = [key for key in self._entries if key[0] == user_id]
            for key in keys:
                del self._entries[key]
        return len(keys)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()

    # -- writes through the cache ---------------------------------------------------------------
    def upsert(self, record: MemoryRecord) -> MemoryRecord:
        stored = self.store.upsert(record)
        self.invalidate(record.user_id)
        return stored

    def forget_chain(self, memory_id: str) -> tuple[str, ...]:
        record = self.store.get(memory_id)
        removed = tuple(self.store.forget_chain(memory_id))
        if record is not None:
            self.invalidate(record.user_id)
        return removed
