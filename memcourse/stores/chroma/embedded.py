"""Embedded Chroma store: records in a database we control, Chroma holding no text.

Why not keep the record in Chroma's metadata, as a first version did? Because forgetting
must leave nothing behind, and Chroma keeps copies we cannot reach: every write goes into a
write-ahead log inside ``chroma.sqlite3`` that is purged only after the vector index
flushes, deleted rows' bytes stay in SQLite's free pages, and its files are open in
chromadb's own bundled SQLite. Scrubbing them from Python's ``sqlite3`` while chromadb holds
the file corrupted it (two SQLite libraries in one process do not see each other's locks).

So the work is split by what each side is good at:

* **Our database** (``memcourse-records.sqlite3`` next to Chroma's files, or in memory for an
  ephemeral client) holds every record as JSON, with its history, the read gate's
  verdict on that version (:mod:`memcourse.recall.verdicts`: scanned once, at write) and the
  vectors of its passages (:mod:`memcourse.recall.passages`: embedded once, at write). It runs with
  ``secure_delete`` on (SQLite overwrites deleted content with zeros) and a rollback journal
  (deleted with the transaction's end, so no log of old text outlives a commit). Forgetting
  is one ``DELETE``: the text is gone when it commits.
* **Chroma** holds vectors, and for each an *opaque* id (random, 32 hex digits) and the
  scalars the vector search filters on: a random *tenant token* standing for the user (and
  one for user + agent), the memory type, the status and how readable the text was to the
  model. No user text, no user id, no memory id. Whatever Chroma's log and free pages keep
  after a delete is a random id and a vector of floats. The mapping from opaque ids and tokens back
  to memories lives only in our database, and goes with the record.

Writes touch both, so they are ordered for crashes. An upsert opens a transaction of ours,
writes Chroma (one call), then commits: the commit is the moment the write counts. Every
write stamps the record and its Chroma row with a fresh random *write id*. A crash before
our commit leaves Chroma ahead of us: a row nobody points to (a new record), or a row whose
write id differs from the committed record's. :meth:`EmbeddedRecords.reconcile`, run at every
open, deletes the first and has the second rebuilt from our record. A forget commits our
delete first (the text is gone at that moment), then deletes the vectors; a crash in
between leaves vectors nobody points to, which the next open deletes. Our database is the
source of truth, and Chroma never holds anything a person wrote.
"""

from __future__ import annotations

import json
import secrets
import sqlite3
import time
from pathlib import Path
from typing import Any, Iterable, Sequence

import numpy as np

from memcourse.recall.hybrid import MIN_KNOWN_TOKENS
from memcourse.recall.verdicts import recall_stamp, verdict_stamp
from memcourse.records import MemoryRecord, Status
from memcourse.stores.base import CorruptStoreError

DB_FILE = "memcourse-records.sqlite3"
#: Rows per Chroma call and per SQL ``IN (...)`` list.
CHUNK = 500

_SCHEMA = """
CREATE TABLE IF NOT EXISTS records (
    collection TEXT NOT NULL,
    memory_id TEXT NOT NULL,
    row_id TEXT NOT NULL UNIQUE,
    user_id TEXT NOT NULL,
    agent_id TEXT NOT NULL,
    memory_type TEXT NOT NULL,
    status TEXT NOT NULL,
    superseded_by TEXT,
    readable REAL NOT NULL,
    inserted INTEGER NOT NULL,
    write_id TEXT NOT NULL,
    record TEXT NOT NULL,
    trust TEXT,
    PRIMARY KEY (collection, memory_id)
);
CREATE INDEX IF NOT EXISTS records_user ON records (collection, user_id, status);
CREATE INDEX IF NOT EXISTS records_successor ON records (collection, superseded_by);
CREATE TABLE IF NOT EXISTS tokens (
    collection TEXT NOT NULL,
    scope TEXT NOT NULL,
    user_id TEXT NOT NULL,
    token TEXT NOT NULL,
    PRIMARY KEY (collection, scope)
);
"""


def new_row_id() -> str:
    return secrets.token_hex(16)


class EmbeddedRecords:
    """Records of one collection in our SQLite file; vectors under opaque ids in Chroma."""

    def __init__(self, collection: Any, directory: Path | None):
        self.collection = collection
        self.name = collection.name
        self.file = directory / DB_FILE if directory is not None else None
        target = str(self.file) if self.file is not None else ":memory:"
        try:
            self.db = sqlite3.connect(target, timeout=30, isolation_level=None, check_same_thread=False)
            self.db.execute("PRAGMA secure_delete = ON")  # deleted text is overwritten, not left in free pages
            self.db.execute("PRAGMA journal_mode = DELETE")  # the journal is removed at each commit
            self.db.execute("PRAGMA synchronous = FULL")
            self.db.executescript(_SCHEMA)
            self.db.execute("SELECT count(*) FROM records").fetchone()
            _add_trust_column(self.db)
            _add_column(self.db, "passages", "BLOB")
        except sqlite3.DatabaseError as error:
            raise CorruptStoreError(self.file or target, f"not a memcourse record database ({error})") from None

    # -- reading ------------------------------------------------------------------------
    def fetch(self, ids: Iterable[str]) -> dict[str, MemoryRecord]:
        found: dict[str, MemoryRecord] = {}
        ids = list(dict.fromkeys(ids))
        for start in range(0, len(ids), CHUNK):
            part = ids[start : start + CHUNK]
            rows = self.db.execute(
                f"SELECT record, trust FROM records WHERE collection = ? AND memory_id IN ({_marks(part)})",
                [self.name, *part],
            )
            for text, trust in rows:
                record = _load(text, self.file)
                recall_stamp(record, trust)
                found[record.memory_id] = record
        return found

    def passage_vectors(self, ids: Iterable[str], dimension: int) -> dict[str, np.ndarray]:
        """The stored passage vectors of those ``ids`` that have them (``(n, dimension)``,
        possibly 0 rows: the model could read none of the passages). Records written before
        passages were stored, or whose blob does not fit ``dimension``, are left out: the
        caller computes them."""
        found: dict[str, np.ndarray] = {}
        ids = list(dict.fromkeys(ids))
        for start in range(0, len(ids), CHUNK):
            part = ids[start : start + CHUNK]
            rows = self.db.execute(
                f"SELECT memory_id, passages FROM records WHERE collection = ? AND memory_id IN ({_marks(part)}) "
                "AND passages IS NOT NULL",
                [self.name, *part],
            )
            for memory_id, blob in rows:
                if len(blob) % (4 * dimension) == 0:
                    found[memory_id] = np.frombuffer(blob, dtype="<f4").reshape(-1, dimension)
        return found

    def select(
        self,
        *,
        user_id: str | None = None,
        agent_id: str | None = None,
        memory_type: str | None = None,
        status: str | None = None,
        superseded_by: Sequence[str] | None = None,
    ) -> list[tuple[MemoryRecord, float]]:
        """Matching records with their readability, in insertion order."""
        sql, args = "SELECT record, readable FROM records WHERE collection = ?", [self.name]
        filters = (("user_id", user_id), ("agent_id", agent_id), ("memory_type", memory_type), ("status", status))
        for column, value in filters:
            if value is not None:
                sql += f" AND {column} = ?"
                args.append(value)
        if superseded_by is not None:
            if not superseded_by:
                return []
            sql += f" AND superseded_by IN ({_marks(superseded_by)})"
            args.extend(superseded_by)
        rows = self.db.execute(sql + " ORDER BY inserted, memory_id", args).fetchall()
        return [(_load(text, self.file), readable) for text, readable in rows]

    def row_count(self) -> int:
        return int(self.db.execute("SELECT count(*) FROM records WHERE collection = ?", [self.name]).fetchone()[0])

    def nearest(self, vectors: np.ndarray, n: int, scope: dict[str, Any]) -> list[list[tuple[str, float]]]:
        """For each query vector, up to ``n`` (memory_id, cosine distance) pairs, nearest first,
        among the records ``scope`` allows (``user_id`` required; ``agent_id``, ``memory_type``,
        ``active``, ``readable`` optional)."""
        where = self._where(scope)
        if where is None:
            return [[] for _ in range(len(vectors))]
        result = self.collection.query(query_embeddings=vectors, n_results=n, where=where, include=["distances"])
        mapping = self._memory_ids([row for rows in result["ids"] for row in rows])
        return [
            [(mapping[row], float(d)) for row, d in zip(rows, distances, strict=True) if row in mapping]
            for rows, distances in zip(result["ids"], result["distances"], strict=True)
        ]

    def nearest_unfiltered(self, vectors: np.ndarray, n: int) -> list[tuple[list[tuple[str, float]], int, float]]:
        """For each query vector, the ``n`` nearest rows of the whole collection (for
        post-filtering): their (memory_id, distance) pairs, how many rows Chroma returned,
        and the last distance (2.0 when none)."""
        result = self.collection.query(query_embeddings=vectors, n_results=n, include=["distances"])
        mapping = self._memory_ids([row for rows in result["ids"] for row in rows])
        return [
            ([(mapping[r], float(d)) for r, d in zip(rows, distances, strict=True) if r in mapping], len(rows),
             float(distances[-1]) if distances else 2.0)
            for rows, distances in zip(result["ids"], result["distances"], strict=True)
        ]

    def _memory_ids(self, rows: list[str]) -> dict[str, str]:
        """Opaque Chroma row ids -> memory ids. (``+collection``: SQLite's way of saying "do
        not use an index for this column". Without it the planner picked an index on
        ``collection`` and read every row of the collection to map a few dozen ids, on every
        vector search.)"""
        mapping: dict[str, str] = {}
        for start in range(0, len(rows), CHUNK):
            part = rows[start : start + CHUNK]
            query = f"SELECT row_id, memory_id FROM records WHERE +collection = ? AND row_id IN ({_marks(part)})"
            mapping.update(self.db.execute(query, [self.name, *part]))
        return mapping

    def _where(self, scope: dict[str, Any]) -> dict[str, Any] | None:
        tenant = self._token([scope["user_id"]], create=False)
        if tenant is None:
            return None  # this user has no memories: nothing to search
        clauses: list[dict[str, Any]] = [{"tenant": tenant}]
        if scope.get("agent_id") is not None:
            agent = self._token([scope["user_id"], scope["agent_id"]], create=False)
            if agent is None:
                return None
            clauses.append({"agent": agent})
        if scope.get("memory_type") is not None:
            clauses.append({"memory_type": scope["memory_type"]})
        if scope.get("active"):
            clauses.append({"status": Status.ACTIVE.value})
        if scope.get("readable"):
            clauses.append({"readable": {"$gte": MIN_KNOWN_TOKENS}})
        return clauses[0] if len(clauses) == 1 else {"$and": clauses}

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
        """Store merged records. ``vectors`` holds a vector for every record whose content is
        new or changed (others keep their vector); ``existing`` the records as they were;
        ``passages`` the passage vectors (:mod:`memcourse.recall.passages`) of records whose
        content is new or changed (a record of such content absent from it has none: its
        stored ones, of an older text, are cleared).

        One transaction of ours around one Chroma call: the Chroma write happens inside our
        open transaction, and our commit is the moment the write counts. Each write stamps
        the record and its Chroma row with a fresh random *write id*; if we crash between
        Chroma's write and our commit, the two disagree, and :meth:`reconcile` rebuilds the
        row from our (older, committed) record."""
        if not records:
            return
        ids = [r.memory_id for r in records]
        known = {mid: (row, ratio) for mid, row, ratio in self._rows(ids)}
        trust = {r.memory_id: verdict_stamp(r) for r in records}  # scanned before the write lock is taken
        inserted = time.time_ns()
        self.db.execute("BEGIN IMMEDIATE")
        try:
            rows = []
            for position, record in enumerate(records):
                mid = record.memory_id
                row_id, old_ratio = known.get(mid, (new_row_id(), 0.0))
                ratio = readable.get(mid, old_ratio)
                stamp = secrets.token_hex(8)
                rows.append((record, row_id, ratio, self._scalars(record, ratio, stamp)))
                # A new or changed text (it has a new vector) gets its passages, or none; an
                # unchanged one keeps those it has.
                matrix = (passages or {}).get(mid)
                blob = None if matrix is None else np.ascontiguousarray(matrix, dtype="<f4").tobytes()
                self.db.execute(
                    """INSERT INTO records (collection, memory_id, row_id, user_id, agent_id, memory_type, status,
                                            superseded_by, readable, inserted, write_id, record, trust, passages)
                       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                       ON CONFLICT (collection, memory_id) DO UPDATE SET
                           user_id = excluded.user_id, agent_id = excluded.agent_id,
                           memory_type = excluded.memory_type, status = excluded.status,
                           superseded_by = excluded.superseded_by, readable = excluded.readable,
                           write_id = excluded.write_id, record = excluded.record, trust = excluded.trust,
                           passages = CASE WHEN ? THEN excluded.passages ELSE records.passages END""",
                    [
                        self.name, mid, row_id, record.user_id, record.agent_id, record.memory_type.value,
                        record.status.value, record.superseded_by, ratio, inserted + position, stamp, _dump(record),
                        trust[mid], blob, mid in vectors,
                    ],
                )
            embedded = [row for row in rows if row[0].memory_id in vectors]
            if embedded:
                self.collection.upsert(
                    ids=[row_id for _, row_id, _, _ in embedded],
                    embeddings=np.stack([vectors[record.memory_id] for record, _, _, _ in embedded]),
                    metadatas=[scalars for _, _, _, scalars in embedded],
                )
            kept = [row for row in rows if row[0].memory_id not in vectors]
            if kept:
                self.collection.update(ids=[row_id for _, row_id, _, _ in kept], metadatas=[s for _, _, _, s in kept])
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            raise

    def write_access(self, records: Sequence[MemoryRecord]) -> None:
        """Access statistics only: the record JSON changes, the vector and scalars do not."""
        self.db.execute("BEGIN IMMEDIATE")
        try:
            for record in records:
                self.db.execute(
                    "UPDATE records SET record = ? WHERE collection = ? AND memory_id = ?",
                    [_dump(record), self.name, record.memory_id],
                )
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            raise

    def delete(self, ids: Sequence[str]) -> None:
        """Forget records: our rows first (the text is gone at this commit), then the vectors."""
        rows = [row for _, row, _ in self._rows(ids)]
        self.db.execute("BEGIN IMMEDIATE")
        try:
            for start in range(0, len(ids), CHUNK):
                part = list(ids[start : start + CHUNK])
                self.db.execute(
                    f"DELETE FROM records WHERE collection = ? AND memory_id IN ({_marks(part)})", [self.name, *part]
                )
            # A token whose user has no record left goes too: it maps a user id to Chroma rows.
            self.db.execute(
                "DELETE FROM tokens WHERE collection = ? AND user_id NOT IN "
                "(SELECT user_id FROM records WHERE collection = ?)",
                [self.name, self.name],
            )
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        for start in range(0, len(rows), CHUNK):
            self.collection.delete(ids=rows[start : start + CHUNK])

    def reconcile(self) -> list[MemoryRecord]:
        """Make Chroma agree with our database after a crash: delete vectors no record points
        to, and return the records whose row is missing or carries another write id (a write
        that reached Chroma but not our commit). The caller embeds and writes those again."""
        wanted: dict[str, str] = {}
        by_row: dict[str, MemoryRecord] = {}
        for row_id, write_id, text in self.db.execute(
            "SELECT row_id, write_id, record FROM records WHERE collection = ?", [self.name]
        ):
            by_row[row_id] = _load(text, self.file)
            wanted[row_id] = write_id
        present: dict[str, str] = {}
        offset = 0
        while True:
            page = self.collection.get(include=["metadatas"], limit=5000, offset=offset)
            listed = zip(page["ids"], page["metadatas"], strict=True)
            present.update((row, (meta or {}).get("write", "")) for row, meta in listed)
            if len(page["ids"]) < 5000:
                break
            offset += 5000
        orphans = [row for row in present if row not in wanted]
        for start in range(0, len(orphans), CHUNK):
            self.collection.delete(ids=orphans[start : start + CHUNK])
        self.db.execute(
            "DELETE FROM tokens WHERE collection = ?"
            " AND user_id NOT IN (SELECT user_id FROM records WHERE collection = ?)",
            [self.name, self.name],
        )
        return [record for row, record in by_row.items() if present.get(row) != wanted[row]]

    # -- opaque ids -----------------------------------------------------------------------
    def _rows(self, ids: Sequence[str]) -> list[tuple[str, str, float]]:
        """(memory_id, opaque row id, readability) of the stored records among ``ids``."""
        found: list[tuple[str, str, float]] = []
        for start in range(0, len(ids), CHUNK):
            part = list(ids[start : start + CHUNK])
            found.extend(
                self.db.execute(
                    "SELECT memory_id, row_id, readable FROM records"
                    f" WHERE collection = ? AND memory_id IN ({_marks(part)})",
                    [self.name, *part],
                )
            )
        return found

    def _token(self, scope: list[str], *, create: bool) -> str | None:
        """The random token standing for a user (``[user]``) or a user's agent
        (``[user, agent]``) in Chroma's filters."""
        key = json.dumps(scope, ensure_ascii=False)
        sql = "SELECT token FROM tokens WHERE collection = ? AND scope = ?"
        row = self.db.execute(sql, [self.name, key]).fetchone()
        if row is not None or not create:
            return row[0] if row else None
        token = secrets.token_hex(16)
        self.db.execute("INSERT INTO tokens VALUES (?, ?, ?, ?)", [self.name, key, scope[0], token])
        return token

    def _scalars(self, record: MemoryRecord, readable: float, write_id: str) -> dict[str, Any]:
        """What Chroma may know about a record: nothing a person wrote."""
        return {
            "write": write_id,
            "tenant": self._token([record.user_id], create=True),
            "agent": self._token([record.user_id, record.agent_id], create=True),
            "memory_type": record.memory_type.value,
            "status": record.status.value,
            "readable": float(readable),
        }


def _add_trust_column(db: sqlite3.Connection) -> None:
    """Databases written before verdicts were stored lack the column: add it (empty; those
    records are scanned at their next read)."""
    _add_column(db, "trust", "TEXT")


def _add_column(db: sqlite3.Connection, name: str, kind: str) -> None:
    """Add a column older databases lack (empty: ``trust`` is filled at the next read,
    ``passages`` at the next write, and recall computes missing passage vectors meanwhile)."""
    columns = {row[1] for row in db.execute("PRAGMA table_info(records)")}
    if name not in columns:
        try:
            db.execute(f"ALTER TABLE records ADD COLUMN {name} {kind}")
        except sqlite3.OperationalError as error:  # another process added it a moment ago
            if "duplicate column" not in str(error):
                raise


def _marks(items: Sequence[Any]) -> str:
    return ",".join("?" * len(items))


def _dump(record: MemoryRecord) -> str:
    return json.dumps(record.to_dict(), ensure_ascii=False, separators=(",", ":"))


def _load(text: str, file: Path | None) -> MemoryRecord:
    try:
        return MemoryRecord.from_dict(json.loads(text))
    except (TypeError, ValueError, RecursionError) as error:
        raise CorruptStoreError(file or ":memory:", f"a stored record does not load ({error})") from None
