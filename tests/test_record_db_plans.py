"""Query plans of the embedded store's record database: every lookup by id uses an index.

A vector search maps each hit's opaque Chroma row id back to a memory id, and loads records
by memory id. If SQLite's planner reads the whole collection for that instead, nothing is
wrong except the speed: every vector search read the whole collection. This catches that,
on a database as large as the case that was measured (10,000 rows).
"""

from __future__ import annotations

import re
import secrets
import sys
from pathlib import Path

from memcourse.records import MemoryRecord, MemoryType
from memcourse.stores.chroma import ChromaMemoryStore

sys.path.insert(0, str(Path(__file__).parent))
from standin import STANDIN_EMBEDDER  # noqa: E402

exec(STANDIN_EMBEDDER)  # defines StandInEmbedder: plans do not depend on what vectors mean

INDEXED = (
    r"SEARCH records USING (COVERING )?INDEX sqlite_autoindex_records_\d \((row_id|collection=\? AND memory_id)=\?\)"
)


def test_lookups_by_row_id_and_by_memory_id_use_their_unique_indexes(tmp_path):
    store = ChromaMemoryStore(tmp_path / "db", embedder=StandInEmbedder())  # noqa: F821
    stored = store.upsert_many([MemoryRecord(MemoryType.EVENT, f"n{i}", f"note number {i}") for i in range(20)])
    records, real = store._records, store._records.db
    # 10,000 more rows of the same collection, written directly (never loaded below).
    real.execute("BEGIN")  # one transaction: the database syncs every commit to disk
    real.executemany(
        "INSERT INTO records (collection, memory_id, row_id, user_id, agent_id, memory_type, status, "
        "superseded_by, readable, inserted, write_id, record) VALUES (?, ?, ?, 'u', 'a', 'event', 'active', NULL, 1.0, "
        "?, 'w', '{}')",
        [(records.name, f"filler-{i}", secrets.token_hex(16), i) for i in range(10_000)],
    )
    real.execute("COMMIT")
    rows = [row for _, row, _ in records._rows([r.memory_id for r in stored])]
    seen: list[str] = []

    class Spy:  # records the plan of every lookup by a list of ids
        def execute(self, sql, args=()):
            if " IN (" in sql:
                seen.append(" | ".join(r[-1] for r in real.execute("EXPLAIN QUERY PLAN " + sql, list(args))))
            return real.execute(sql, args)

        def __getattr__(self, name):
            return getattr(real, name)

    records.db = Spy()
    try:
        assert set(records._memory_ids(rows).values()) == {r.memory_id for r in stored}
        assert set(records.fetch([r.memory_id for r in stored])) == {r.memory_id for r in stored}
    finally:
        records.db = real
    assert len(seen) == 2
    for plan in seen:
        assert re.fullmatch(INDEXED, plan), plan
    store.close()
