"""A memory store in one JSON file, done properly.

A JSON file is the right first store: a learner can open it and read every memory. It is
also where the classic bugs live, so this one is careful in five ways:

1. **Search writes, so it writes everything.** Search updates access metadata
   (``access_count``, ``last_accessed_at``), so it must save. Every save writes the *full*
   record list loaded inside the same transaction, never a filtered view; a typed search
   can therefore not delete the other types (the data-loss bug notebook 05 reproduces).
2. **Atomic writes.** Data goes to a temporary file in the same folder, is flushed and
   fsynced, then ``os.replace``-d over the old file. A crash leaves the old file or the new
   one, never half of each.
3. **One writer at a time, across processes.** Each read-modify-write holds a file lock
   (``<file>.lock``), so two processes upserting at once cannot lose each other's records.
4. **Corrupt files are reported, never replaced.** A file that is not valid JSON, not a
   memcourse store, or holds an invalid record raises :class:`CorruptStoreError` naming the
   file, and nothing is written over it.
5. **The file stays what it was.** Only regular files are opened (a FIFO would block
   forever), a symlink is written through to its target, the file keeps its mode, and
   temporary files a killed writer left behind are removed on open and on every forget
   (they hold whole copies of the store). The details are in :mod:`memcourse.stores.files`.
   A file over :data:`MAX_FILE_BYTES` (256 MiB, far beyond what a JSON store should hold) is
   refused with a :class:`StoreError` naming it and the limit, before a byte is read; a save
   that would pass the limit is refused the same way, leaving the file as it was.

What it guarantees, and the crash and fuzz figures behind that, is in ``docs/reliability.md``.
"""

from __future__ import annotations

import json
import math
import os
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Sequence

from filelock import FileLock, Timeout

from memcourse.recall.config import RecallConfig
from memcourse.recall.hit import Hit
from memcourse.recall.keyword import keyword_breakdown
from memcourse.records import DEFAULT_USER, MemoryRecord, MemoryType, parse_timestamp, utc_now
from memcourse.stores.arguments import in_scope
from memcourse.stores.base import CorruptStoreError, StoreError
from memcourse.stores.contract import StoreBase, merge_update, prepare_batch, search_arguments, visible
from memcourse.stores.files import atomic_write, debris, read_regular, remove_debris, resolve
from memcourse.stores.recall_defaults import store_recall
from memcourse.text import token_set
from memcourse.validity import version_as_of

FORMAT = "memcourse.json-store"
VERSION = 1
#: The largest store file read or written. Loading parses the whole file into records (several
#: times its size in memory); past this, use ChromaMemoryStore.
MAX_FILE_BYTES = 256 * 1024 * 1024


class JsonMemoryStore(StoreBase):
    """Long-term memories in a single human-readable JSON file.

    The verbs every store shares (``get``, ``history``, ``list_all``, ``forget``,
    ``forget_chain``, ``forget_user``, the checks and the update merge) come from
    :class:`~memcourse.stores.contract.StoreBase`; this class is the file."""

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        clock: Callable[[], datetime] = utc_now,
        lock_timeout: float = 30.0,
        recall: RecallConfig | None = None,
    ):
        self.path = _check_path(path)
        # Keyword overlap has no channels, cosines or decay: of a RecallConfig this store reads
        # only ``limit``. It holds one all the same, so every store is tuned the same way.
        self.recall = store_recall(recall)
        if not callable(clock):
            raise TypeError(f"clock must be a callable returning a datetime, got {type(clock).__name__}")
        self._clock = clock
        self._lock_timeout = _check_timeout(lock_timeout)
        self._locks: dict[Path, FileLock] = {}  # one per resolved target: links to one file share it
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise StoreError(f"{self.path}: cannot create its folder ({error.strerror or error})") from None
        if debris(resolve(self.path)):
            with self._transaction(purge=True):  # a killed writer's leftovers: remove them now
                pass
        self._load()  # fail now, not at the first write, if the file is not ours

    def __repr__(self) -> str:
        return f"JsonMemoryStore({str(self.path)!r})"

    # -- writing --------------------------------------------------------------------------
    def upsert(self, record: MemoryRecord) -> MemoryRecord:
        """Insert, or update the record with the same ``memory_id``.

        An update keeps ``created_at`` and the access statistics, moves ``updated_at`` to
        now, and keeps the replaced content in ``history`` (:func:`~memcourse.stores.contract.
        merge_update`). Returns the stored version.
        """
        [new] = prepare_batch([record])
        with self._transaction() as view:
            now = self._now()
            existing = self._check_writes([new], view).get(new.memory_id)
            if existing is None:
                view.rows.append(new)
            else:
                merge_update(existing, new, now)
                view.rows[view.rows.index(existing)] = new
        return new.copy()

    # -- reading --------------------------------------------------------------------------
    def search_hits(
        self,
        query: str,
        *,
        limit: int | None = None,
        memory_type: MemoryType | str | None = None,
        user_id: str = DEFAULT_USER,
        agent_id: str | None = None,
        record_access: bool = True,
        as_of: datetime | str | None = None,
        recall: RecallConfig | None = None,
    ) -> list[Hit]:
        """Keyword-scored hits with their score breakdown; updates access metadata.

        Only active, unexpired records of ``user_id`` are considered (optionally one agent's,
        optionally one type). The full record set is saved afterwards, whatever the filter.
        ``record_access=False`` leaves access metadata alone (and writes nothing): use it to
        evaluate or explain recall without tilting the rankings of later searches.
        ``as_of=<time>`` searches the facts as they held then (:mod:`memcourse.validity`);
        looking at the past is not a use of today's memory, so it records no access.
        ``limit=None`` returns ``recall.limit`` hits (the call's ``recall=``, else ``store.recall``).
        """
        args = search_arguments(query, limit=limit, memory_type=memory_type, user_id=user_id,
                                agent_id=agent_id, record_access=record_access, as_of=as_of,
                                recall=recall, default=self.recall)
        limit = args.limit
        query_tokens = token_set(query)
        with self._transaction() as view:
            now = self._now()
            scored = []
            for record in view.rows:
                if args.as_of is None:
                    seen = record if visible(record, now, args) else None
                elif record.user_id != user_id or not in_scope(record, None, agent_id) or (
                    args.memory_type is not None and record.memory_type is not args.memory_type
                ):
                    seen = None
                else:
                    seen = version_as_of(record, args.as_of)
                if seen is None:
                    continue
                parts = keyword_breakdown(query_tokens, seen)
                if parts["total"] > 0:
                    scored.append((parts, seen))
            scored.sort(key=lambda pair: (-pair[0]["total"], -pair[1].updated_at.timestamp(), pair[1].memory_id))
            top = scored[:limit]  # every candidate above is visible: the filter ran before the cut
            for _, record in top if record_access and args.as_of is None else ():
                record.access_count += 1
                record.last_accessed_at = now
            # The transaction saves the full list, never the filtered view.
        return [Hit(record.copy(), parts["total"], parts) for parts, record in top]

    # -- the file -------------------------------------------------------------------------
    def _now(self) -> datetime:
        return parse_timestamp(self._clock(), "clock()")

    @contextmanager
    def _snapshot(self) -> Iterator[_Rows]:
        """The records as the file holds them now, read without the lock (a save replaces the
        file atomically, so a read sees one whole version)."""
        yield _Rows(self._load())

    @contextmanager
    def _transaction(self, *, purge: bool = False) -> Iterator[_Rows]:
        """Lock, load, let the caller change the list, save it whole. If the caller raises,
        nothing is saved, so a failed call leaves the file as it was. ``purge`` also removes
        crash debris first (safe only here: every write happens under this lock)."""
        target = resolve(self.path)
        lock = self._locks.setdefault(target, FileLock(f"{target}.lock", timeout=self._lock_timeout))
        problem = _lock_file_problem(lock.lock_file)
        if problem:
            raise StoreError(f"{self.path}: {problem}")
        try:
            lock.acquire()
        except Timeout:
            raise StoreError(
                f"{self.path}: could not get the write lock {lock.lock_file} within "
                f"{self._lock_timeout}s; is another process stuck holding it?"
            ) from None
        except OSError as error:
            raise StoreError(f"{self.path}: {_describe_lock_error(lock.lock_file, error)}") from None
        try:
            if purge:
                remove_debris(target)
            view = _Rows(self._load())
            before = [record.to_dict() for record in view.rows]
            yield view
            if [record.to_dict() for record in view.rows] != before:
                self._save(view.rows)
        finally:
            lock.release()

    def _load(self) -> list[MemoryRecord]:
        raw = read_regular(resolve(self.path), max_bytes=MAX_FILE_BYTES)
        if raw is None:
            return []
        try:
            data = json.loads(raw.decode("utf-8"))
        except UnicodeDecodeError:
            raise CorruptStoreError(self.path, "not UTF-8 text") from None
        except json.JSONDecodeError as error:
            raise CorruptStoreError(self.path, f"not valid JSON ({error})") from None
        except RecursionError:
            raise CorruptStoreError(self.path, "JSON nested too deeply to be a memcourse store") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise CorruptStoreError(self.path, f"not a memcourse JSON store (no \"format\": \"{FORMAT}\")")
        if data.get("version") != VERSION:
            raise CorruptStoreError(self.path, f"store version {data.get('version')!r}; this memcourse reads {VERSION}")
        items = data.get("records")
        if not isinstance(items, list):
            raise CorruptStoreError(self.path, "\"records\" is not a list")
        records, seen = [], set()
        for position, item in enumerate(items):
            try:
                record = MemoryRecord.from_dict(item)
            except (TypeError, ValueError, KeyError, OverflowError, RecursionError) as error:
                raise CorruptStoreError(self.path, f"record #{position} is invalid: {error}") from None
            if record.memory_id in seen:
                raise CorruptStoreError(self.path, f"duplicate memory_id {record.memory_id!r}")
            seen.add(record.memory_id)
            records.append(record)
        return records

    def _save(self, records: list[MemoryRecord]) -> None:
        payload = {"format": FORMAT, "version": VERSION, "records": [r.to_dict() for r in records]}
        data = json.dumps(payload, ensure_ascii=False, indent=2).encode("utf-8")
        if len(data) > MAX_FILE_BYTES:
            raise StoreError(
                f"{self.path}: saving would make the file {len(data):,} bytes, over the store-file limit "
                f"of {MAX_FILE_BYTES:,} bytes; nothing was written (use ChromaMemoryStore for a store this big)"
            )
        try:
            atomic_write(resolve(self.path), data)
        except OSError as error:  # disk full, name too long, read-only file system...
            raise StoreError(
                f"{self.path}: could not save ({error.strerror or error}); the file was left as it was"
            ) from error


class _Rows:
    """The loaded record list as the contract's storage view (:class:`~memcourse.stores.
    contract.Records`); the transaction saves ``rows`` whole if it changed."""

    def __init__(self, rows: list[MemoryRecord]):
        self.rows = rows

    def fetch(self, ids: Iterable[str]) -> dict[str, MemoryRecord]:
        wanted = set(ids)
        return {r.memory_id: r for r in self.rows if r.memory_id in wanted}

    def select(
        self,
        *,
        user_id: str | None = None,
        agent_id: str | None = None,
        memory_type: str | None = None,
        status: str | None = None,
        superseded_by: Sequence[str] | None = None,
    ) -> list[MemoryRecord]:
        links = None if superseded_by is None else set(superseded_by)
        return [
            r for r in self.rows
            if in_scope(r, user_id, agent_id)
            and (memory_type is None or r.memory_type.value == memory_type)
            and (status is None or r.status.value == status)
            and (links is None or r.superseded_by in links)
        ]

    def delete(self, records: Sequence[MemoryRecord]) -> None:
        doomed = {r.memory_id for r in records}
        self.rows[:] = [r for r in self.rows if r.memory_id not in doomed]


def _check_path(path: Any) -> Path:
    """A filesystem path as str or os.PathLike, that the OS can represent."""
    if isinstance(path, bytes) or not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"path must be a str or os.PathLike, got {type(path).__name__}")
    checked = Path(path)
    text = str(checked)
    if not text or text == ".":
        raise ValueError("path must name a .json file, got an empty path")
    if "\x00" in text:
        raise ValueError(f"path {text!r} contains a NUL character")
    try:
        os.fsencode(text)
    except UnicodeEncodeError:
        raise ValueError(f"path {text!r} cannot be encoded for this filesystem") from None
    return checked


def _check_timeout(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"lock_timeout must be a number of seconds, got {type(value).__name__}")
    if not (math.isfinite(value) and value >= 0):
        raise ValueError(f"lock_timeout must be a finite number of seconds >= 0, got {value}")
    return float(value)


def _lock_file_problem(lock_file: str) -> str | None:
    """Why the lock file cannot be used, or None. Checked before waiting for the lock, so an
    unwritable folder is reported as that at once, not as a lock someone seems to hold."""
    flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(lock_file, flags, 0o644)
    except OSError as error:
        return _describe_lock_error(lock_file, error)
    os.close(fd)
    return None


def _describe_lock_error(lock_file: str, error: OSError) -> str:
    return (
        f"cannot create or open the lock file {lock_file} ({error.strerror or error}); the store "
        "needs a writable lock file next to it"
    )
