"""One search's candidate rows, opened once.

The database answers a search in row keys (keyed hashes of memory ids, :mod:`.sealing`); the
ranking needs memory ids (ties are ordered by them, as in the other stores) and records. Each
channel's candidates are fetched in one statement and opened with the user's key here; the
records are kept for the ranking's ``fetch``, so no row is read or decrypted twice.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

import psycopg

from memcourse.records import MemoryRecord
from memcourse.stores.postgres import rows

if TYPE_CHECKING:  # the store imports this module
    from memcourse.stores.postgres.sealing import UserKeys
    from memcourse.stores.postgres.store import PostgresMemoryStore

__all__ = ["Candidates"]


class Candidates:
    """One search's rows, opened once: row key -> memory id, memory id -> record."""

    def __init__(self, store: PostgresMemoryStore, conn: psycopg.Connection, user_keys: UserKeys):
        self.store, self.conn = store, conn
        self.keys: dict[str, UserKeys | None] = {user_keys.user_id: user_keys}
        self.by_key: dict[str, str | None] = {}
        self.loaded: dict[str, MemoryRecord | None] = {}

    def _load(self, keys: list[str]) -> None:
        for row in rows.fetch(self.conn, keys).values():
            record = self.store._open(row, self.keys)
            self.by_key[row.id] = None if record is None else record.memory_id
            if record is not None:
                self.loaded[record.memory_id] = record
        for key in keys:
            self.by_key.setdefault(key, None)

    def ids(self, keys: list[str]) -> dict[str, str]:
        """The memory ids of the rows (a row that no longer opens is left out)."""
        self._load([key for key in keys if key not in self.by_key])
        return {key: memory_id for key in keys if (memory_id := self.by_key[key]) is not None}

    def records(self, ids: Iterable[str]) -> dict[str, MemoryRecord]:
        ids = list(ids)
        missing = [i for i in ids if i not in self.loaded]
        if missing:
            self._load([self.store.row_key(i) for i in missing])
            self.loaded.update((i, None) for i in missing if i not in self.loaded)
        return {i: record for i in ids if (record := self.loaded[i]) is not None}
