"""The :class:`~memcourse.stores.contract.Records` view on one PostgreSQL transaction.

The shared verbs of :class:`~memcourse.stores.contract.StoreBase` (``get``, ``history``,
``list_all``, the write checks, what a forget removes) read through this view, so on
PostgreSQL they run inside the caller's transaction, under the locks it already holds.
Memory ids in, records out: the view turns ids into row keys (:mod:`.sealing`). Rows are
opened with the user's key (:mod:`.sealing`); a row whose key is gone (forgotten)
is left out, as if it were not there.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable, Sequence

import psycopg

from memcourse.records import MemoryRecord
from memcourse.stores.postgres import rows

if TYPE_CHECKING:  # the store imports this module
    from memcourse.stores.postgres.sealing import UserKeys
    from memcourse.stores.postgres.store import PostgresMemoryStore

__all__ = ["View"]


class View:
    """Records of one connection's transaction. ``for_update``: ``fetch`` also takes the
    rows' ``FOR UPDATE`` locks (the last step of the lock order, after the user's advisory
    lock and the sorted id locks the caller took)."""

    def __init__(self, store: PostgresMemoryStore, conn: psycopg.Connection,
                 keys: dict[str, UserKeys | None] | None = None, *, for_update: bool = False):
        self.store, self.conn, self.for_update = store, conn, for_update
        self.keys: dict[str, UserKeys | None] = {} if keys is None else keys

    def fetch(self, ids: Iterable[str]) -> dict[str, MemoryRecord]:
        key = self.store.row_key
        found = rows.fetch(self.conn, [key(i) for i in ids], for_update=self.for_update)
        return {r.memory_id: r for r in self.store._records(found.values(), self.keys)}

    def select(self, *, user_id: str | None = None, agent_id: str | None = None, memory_type: str | None = None,
               status: str | None = None, superseded_by: Sequence[str] | None = None) -> list[MemoryRecord]:
        if superseded_by is not None:
            superseded_by = [self.store.row_key(i) for i in superseded_by]
        found = rows.select(self.conn, user_id=user_id, agent_id=agent_id, memory_type=memory_type,
                            status=status, superseded_by=superseded_by)
        return self.store._records(found, self.keys)

    def delete(self, records: Sequence[MemoryRecord]) -> None:
        """Delete the rows (vector and keyword tokens go with them: one row holds all) and
        what this process cached about them. Key destruction is the forget verbs' step."""
        rows.delete(self.conn, [self.store.row_key(r.memory_id) for r in records])
        self.store._evict(list(records))
