"""Chroma server store: every version of a record is its own row, and rows are never overwritten.

Through a Chroma server (``chromadb.HttpClient`` against ``chroma run``) several processes,
on several machines, write one collection. We cannot give them a database of ours to share,
so the records live in Chroma itself (metadata holds the record as JSON next to the scalars
we filter on). And Chroma has no transactions: between our read of a memory and our write
of its new version, another process can write too. If the write *replaced* the row, that
other process's update would vanish (measured: four processes × 200 upserts, 10 shared
records, 4-5 acknowledged updates lost).

So a write never replaces: an upsert *appends* a version row (opaque random id, the
memory id in metadata, an ordering number). Reading a memory gathers its version rows and
folds them, oldest first:

- the newest row is the current record;
- every older row whose content (or confidence, or source) differs from the next one
  becomes a :class:`~memcourse.records.HistoryEntry`, stamped when the next one replaced it;
- ``created_at`` is the oldest row's; access statistics are the largest seen.

Two processes that update one memory at the same moment both append; one of the two
versions is current, the other is in the history. Nothing an ``upsert`` returned for is
lost. What this design does *not* give: a read-your-writes snapshot across several memories
(there is no transaction), or protection against a write that lands just after another
process forgot the memory (the write recreates it; ``forget`` again).

Forgetting deletes every version row through the API. The server's own files (its SQLite
log and free pages) keep deleted bytes until its operator compacts them: stop the server and
run ``chroma vacuum --path <data dir>``. ``docs/reliability.md`` says so; an embedded store,
which holds no text in Chroma at all, does not need it.
"""

from __future__ import annotations

import json
import secrets
import time
from itertools import pairwise
from typing import Any, Iterable, Sequence

import numpy as np

from memcourse.recall.hybrid import MIN_KNOWN_TOKENS
from memcourse.recall.verdicts import recall_stamp, verdict_stamp
from memcourse.records import HistoryEntry, MemoryRecord, Status
from memcourse.stores.base import CorruptStoreError

CHUNK = 500
PAGE = 5000


class ServerRecords:
    """Records of one collection as append-only version rows in a (server) Chroma collection."""

    def __init__(self, collection: Any, where: str):
        self.collection = collection
        self.where = where  # for error messages: the server and collection
        self._current_row: dict[str, str] = {}  # memory_id -> id of its newest row we have seen
        self._last_order = 0

    # -- reading ------------------------------------------------------------------------
    def fetch(self, ids: Iterable[str]) -> dict[str, MemoryRecord]:
        ids = list(dict.fromkeys(ids))
        rows: list[tuple[str, dict[str, Any]]] = []
        for start in range(0, len(ids), CHUNK):
            rows.extend(self._get({"mid": {"$in": ids[start : start + CHUNK]}}))
        return {mid: record for mid, (record, _) in self._fold(rows).items()}

    def select(
        self,
        *,
        user_id: str | None = None,
        agent_id: str | None = None,
        memory_type: str | None = None,
        status: str | None = None,
        superseded_by: Sequence[str] | None = None,
    ) -> list[tuple[MemoryRecord, float]]:
        """Records whose *current* version matches, with readability, oldest first.

        Filters on the rows find candidates (any version matching); the fold then checks
        the current version, so an old row cannot make a record match."""
        clauses: list[dict[str, Any]] = []
        for name, value in (("user_id", user_id), ("agent_id", agent_id), ("memory_type", memory_type)):
            if value is not None:
                clauses.append({name: value})
        if superseded_by is not None:
            if not superseded_by:
                return []
            clauses.append({"superseded_by": {"$in": list(superseded_by)}})
        if not clauses:
            folded = self._fold(self._get(None))
        else:  # rows matching the filter name the candidates; all their rows are folded
            where = clauses[0] if len(clauses) == 1 else {"$and": clauses}
            candidates = sorted({meta["mid"] for _, meta in self._get(where)})
            rows = []
            for start in range(0, len(candidates), CHUNK):
                rows.extend(self._get({"mid": {"$in": candidates[start : start + CHUNK]}}))
            folded = self._fold(rows)
        chosen = []
        for record, (readable, first_order) in folded.values():
            if status is not None and record.status.value != status:
                continue
            if user_id is not None and record.user_id != user_id:
                continue
            if agent_id is not None and record.agent_id != agent_id:
                continue
            if memory_type is not None and record.memory_type.value != memory_type:
                continue
            if superseded_by is not None and record.superseded_by not in superseded_by:
                continue
            chosen.append((first_order, record.memory_id, record, readable))
        chosen.sort(key=lambda item: (item[0], item[1]))
        return [(record, readable) for _, _, record, readable in chosen]

    def passage_vectors(self, ids: Iterable[str], dimension: int) -> dict[str, np.ndarray]:
        """None are stored on a server (see :meth:`write`)."""
        return {}

    def row_count(self) -> int:
        return int(self.collection.count())  # chromadb is untyped: its count is Any to mypy

    def nearest(self, vectors: np.ndarray, n: int, scope: dict[str, Any]) -> list[list[tuple[str, float]]]:
        """For each query vector, up to ``n`` (memory_id, distance) pairs from *current*
        version rows only (a stale version's vector must not rank its memory)."""
        clauses: list[dict[str, Any]] = [{"user_id": scope["user_id"]}]
        for name in ("agent_id", "memory_type"):
            if scope.get(name) is not None:
                clauses.append({name: scope[name]})
        if scope.get("active"):
            clauses.append({"status": Status.ACTIVE.value})
        if scope.get("readable"):
            clauses.append({"readable": {"$gte": MIN_KNOWN_TOKENS}})
        where = clauses[0] if len(clauses) == 1 else {"$and": clauses}
        count = max(self.collection.count(), 1)
        result = self.collection.query(
            query_embeddings=vectors, n_results=min(n * 3, count), where=where, include=["distances", "metadatas"]
        )
        answers = []
        for rows, distances, metas in zip(result["ids"], result["distances"], result["metadatas"], strict=True):
            pairs: list[tuple[str, float]] = []
            for row, d, meta in zip(rows, distances, metas, strict=True):
                if self._current_row.get(meta["mid"]) == row and all(mid != meta["mid"] for mid, _ in pairs):
                    pairs.append((meta["mid"], float(d)))
            answers.append(pairs[:n])
        return answers

    def nearest_unfiltered(self, vectors: np.ndarray, n: int) -> list[tuple[list[tuple[str, float]], int, float]]:
        """As :meth:`EmbeddedRecords.nearest_unfiltered`, keeping current version rows only."""
        count = max(self.collection.count(), 1)
        result = self.collection.query(
            query_embeddings=vectors, n_results=min(n, count), include=["distances", "metadatas"]
        )
        answers = []
        for rows, distances, metas in zip(result["ids"], result["distances"], result["metadatas"], strict=True):
            pairs = [(meta["mid"], float(d)) for row, d, meta in zip(rows, distances, metas, strict=True)
                     if self._current_row.get(meta["mid"]) == row]
            answers.append((pairs, len(rows), float(distances[-1]) if distances else 2.0))
        return answers

    # -- writing ------------------------------------------------------------------------
    def write(
        self,
        records: Sequence[MemoryRecord],
        *,
        vectors: dict[str, np.ndarray],
        readable: dict[str, float],
        existing: dict[str, MemoryRecord],
        passages: dict[str, np.ndarray] | None = None,
    ) -> None:
        """Append one version row per record (``vectors`` holds a vector for every record).
        ``passages`` is not kept: a server's rows hold scalars only, and recall computes
        passage vectors through the embedder's cache (:meth:`passage_vectors` has none)."""
        if not records:
            return
        vectors = dict(vectors)
        reuse = {r.memory_id: self._current_row[r.memory_id] for r in records
                 if r.memory_id not in vectors and r.memory_id in self._current_row}
        if reuse:  # same content: the new version row carries the current row's vector
            rows = self.collection.get(ids=list(reuse.values()), include=["embeddings"])
            by_row = dict(zip(rows["ids"], rows["embeddings"], strict=True))
            vectors.update({mid: np.asarray(by_row[row]) for mid, row in reuse.items() if row in by_row})
        missing = [r.memory_id for r in records if r.memory_id not in vectors]
        if missing:
            raise CorruptStoreError(self.where, f"no vector found for {missing[:3]} (deleted by another process?)")
        orders = self._orders(len(records))
        for start in range(0, len(records), CHUNK):
            part = list(records[start : start + CHUNK])
            ids = [secrets.token_hex(16) for _ in part]
            self.collection.add(
                ids=ids,
                embeddings=np.stack([vectors[r.memory_id] for r in part]),
                metadatas=[
                    self._row(r, readable.get(r.memory_id, 0.0), orders[start + i], first=r.memory_id not in existing)
                    for i, r in enumerate(part)
                ],
            )
            for record, row in zip(part, ids, strict=True):
                self._current_row[record.memory_id] = row

    def write_access(self, records: Sequence[MemoryRecord]) -> None:
        """Access statistics go onto the current row in place: they are counters, not
        versions, and a lost increment is a lost second of statistics, never a memory."""
        rows, metas = [], []
        for record in records:
            row = self._current_row.get(record.memory_id)
            if row is not None:
                rows.append(row)
                metas.append({
                    "access_count": record.access_count,
                    "last_accessed": record.last_accessed_at.isoformat() if record.last_accessed_at else "",
                })
        for start in range(0, len(rows), CHUNK):
            self.collection.update(ids=rows[start : start + CHUNK], metadatas=metas[start : start + CHUNK])

    def delete(self, ids: Sequence[str]) -> None:
        ids = list(ids)
        for start in range(0, len(ids), CHUNK):
            self.collection.delete(where={"mid": {"$in": ids[start : start + CHUNK]}})
        for mid in ids:
            self._current_row.pop(mid, None)

    def reconcile(self) -> list[MemoryRecord]:
        return []  # nothing to repair: every row is complete on its own

    # -- rows and their fold ------------------------------------------------------------------
    def _orders(self, count: int) -> list[int]:
        """Increasing ordering numbers, after any this process has seen (wall-clock ns)."""
        first = max(time.time_ns(), self._last_order + 1)
        self._last_order = first + count - 1
        return list(range(first, first + count))

    def _row(self, record: MemoryRecord, readable: float, order: int, *, first: bool) -> dict[str, Any]:
        data = record.to_dict()
        if not first:
            data["history"] = []  # history is rebuilt from the older rows when read
        return {
            "mid": record.memory_id,
            "order": order,
            "record": json.dumps(data, ensure_ascii=False, separators=(",", ":")),
            "user_id": record.user_id,
            "agent_id": record.agent_id,
            "memory_type": record.memory_type.value,
            "status": record.status.value,
            "superseded_by": record.superseded_by or "",
            "readable": float(readable),
            "access_count": record.access_count,
            "last_accessed": record.last_accessed_at.isoformat() if record.last_accessed_at else "",
            "trust": verdict_stamp(record),  # the read gate's verdict on this version
        }

    def _get(self, where: dict[str, Any] | None) -> list[tuple[str, dict[str, Any]]]:
        rows: list[tuple[str, dict[str, Any]]] = []
        offset = 0
        while True:
            page = self.collection.get(where=where, include=["metadatas"], limit=PAGE, offset=offset)
            rows.extend(zip(page["ids"], page["metadatas"], strict=True))
            if len(page["ids"]) < PAGE:
                return rows
            offset += PAGE

    def _fold(self, rows: list[tuple[str, dict[str, Any]]]) -> dict[str, tuple[MemoryRecord, tuple[float, int]]]:
        """Version rows -> one record per memory (see the module docstring)."""
        by_memory: dict[str, list[tuple[int, str, dict[str, Any]]]] = {}
        for row, meta in rows:
            by_memory.setdefault(meta["mid"], []).append((int(meta["order"]), row, meta))
        folded: dict[str, tuple[MemoryRecord, tuple[float, int]]] = {}
        for mid, versions in by_memory.items():
            versions.sort(key=lambda item: (item[0], item[1]))
            records = [self._load(meta) for _, _, meta in versions]
            current = records[-1]
            history = list(records[0].history)
            for older, newer in pairwise(records):
                if (older.content, older.confidence, older.source) != (newer.content, newer.confidence, newer.source):
                    history.append(HistoryEntry(older.content, older.confidence, older.source.value, newer.updated_at))
            current.history = history
            current.created_at = records[0].created_at
            counts = [(int(meta.get("access_count", 0)), meta.get("last_accessed") or "") for _, _, meta in versions]
            current.access_count = max(count for count, _ in counts)
            last = max((stamp for _, stamp in counts if stamp), default="")
            if last:
                current.last_accessed_at = last  # type: ignore[assignment]
            current.validate()
            last_order, last_row, last_meta = versions[-1]
            recall_stamp(current, last_meta.get("trust"))
            self._current_row[mid] = last_row
            self._last_order = max(self._last_order, last_order)
            folded[mid] = (current, (float(last_meta.get("readable", 0.0)), versions[0][0]))
        return folded

    def _load(self, meta: dict[str, Any]) -> MemoryRecord:
        try:
            return MemoryRecord.from_dict(json.loads(meta["record"]))
        except (KeyError, TypeError, ValueError, RecursionError) as error:
            raise CorruptStoreError(self.where, f"a version row does not load as a memory record ({error})") from None
