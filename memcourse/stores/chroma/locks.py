"""Opening a Chroma store: who may write a collection, and how writers take turns.

Three situations, three answers (``docs/reliability.md`` has the measurements):

**Threads and store objects in one process.** Every ``ChromaMemoryStore`` over the same
collection, however many objects and threads, shares *one* state object from a
module-level registry: one lock, one keyword index, one record database connection. An
upsert reads the stored record, merges, and writes while holding that lock, so no update
can slip between another's read and write (the lost-update bug: two objects with a lock
each lost 49 of 100 versions).

**Several processes on one embedded path.** Refused. chromadb's embedded engine keeps the
vector index in the memory of the process that opened it and never learns that another
process wrote the files; two processes on one directory failed 438 of 800 upserts with
chromadb internals. Serialising them would mean reopening chromadb before every operation.
So the first process to open a path takes an exclusive ``flock`` on ``memcourse.lock`` in
it and keeps it while any of its stores on that path is open (``close()`` on the last one,
or the process's exit, releases it); a second process gets a :class:`StoreError` naming the
path and the holder's pid. Several processes should share a Chroma *server*.

**Several processes through a Chroma server.** The server serialises its own writes, but it
has no transactions: between our read of a record and our write another process can write.
The server store therefore never overwrites a version (see ``memcourse.stores.chroma.server``):
append-only rows cannot lose an acknowledged update.
"""

from __future__ import annotations

import errno
import fcntl
import os
import threading
import weakref
from pathlib import Path
from typing import Any, Callable, Hashable, TypeVar

from memcourse.stores.base import CorruptStoreError, StoreError

LOCK_FILE = "memcourse.lock"

T = TypeVar("T")

#: The registry key of one collection: where Chroma runs (mode, directory or host and port), tenant,
#: database and collection name (see :func:`where_chroma_runs`).
StateKey = tuple[Hashable, ...]

# Re-entrant, because garbage collection can run a dropped store's finalizer (which releases
# its path here) at any allocation, including while this very thread holds the lock to open
# another store: with a plain Lock that thread waited for itself forever.
_registry_lock = threading.RLock()
_shared: "weakref.WeakValueDictionary[StateKey, Any]" = weakref.WeakValueDictionary()
_held_paths: dict[str, list[int]] = {}  # resolved path -> [fd of our flock, stores using it]


def shared(key: StateKey, build: Callable[[], T]) -> T:
    """The one state object for ``key`` in this process, built on first use.

    Weakly held: when the last store using it is gone, the next open builds a fresh one
    (reading the collection again), so a long-lived process does not keep every store it
    ever opened in memory.
    """
    with _registry_lock:
        state = _shared.get(key)
        if state is None:
            state = build()
            _shared[key] = state
        return state


def hold_path(path: Path) -> str:
    """Make this process the only one using the embedded store at ``path``, or raise.

    The lock is an ``flock`` on ``path/memcourse.lock``: the kernel releases it when the
    process exits, however it exits (a SIGKILL included), so a crash never leaves a stale
    lock behind. The file also records the holder's pid, for the error message. Each call
    counts one more user in this process; :func:`release_path` undoes one. Returns the key
    to release with.
    """
    key = str(path.resolve())
    with _registry_lock:
        if key in _held_paths:
            _held_paths[key][1] += 1
            return key
        lock_path = Path(key) / LOCK_FILE
        try:
            fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as error:
            raise StoreError(f"cannot create the lock file {lock_path}: {error.strerror}") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as error:
            holder = _read_pid(fd)
            os.close(fd)
            if error.errno not in (errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK):
                raise StoreError(f"cannot lock {lock_path}: {error.strerror}") from None
            raise StoreError(
                f"{key} is an embedded Chroma store already open in another process "
                f"(pid {holder or 'unknown'}, holding {lock_path}). An embedded store serves one "
                "process; use a Chroma server (chroma run + ChromaMemoryStore(client=chromadb.HttpClient(...))) "
                "for several processes."
            ) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        _held_paths[key] = [fd, 1]
        return key


def release_path(key: str) -> bool:
    """One user of ``key`` is done; the last one unlocks the path. Returns whether it did."""
    with _registry_lock:
        held = _held_paths.get(key)
        if held is None:
            return False
        held[1] -= 1
        if held[1] > 0:
            return False
        del _held_paths[key]
        for state_key in [k for k in list(_shared.keys()) if len(k) > 1 and k[1] == key]:
            _shared.pop(state_key, None)  # the next open reads the files again
        os.close(held[0])  # closing our descriptor releases the flock
        return True


# -- opening a store --------------------------------------------------------------------------
def lock_directory(path: Path) -> str:
    """Create the store directory if needed and lock it for this process (returns the key
    to release). The lock comes *before* chromadb opens anything, so a second process is
    refused before it can touch the files."""
    if path.exists() and not path.is_dir():
        raise StoreError(f"{path} is a file; ChromaMemoryStore needs a directory")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise StoreError(f"cannot create the store directory {path}: {error.strerror}") from None
    return hold_path(path)


def open_embedded(path: Path) -> Any:
    """A ``PersistentClient`` on ``path``, or a :class:`StoreError` saying what is wrong."""
    import chromadb  # lazy: ~2 s, only when a Chroma store is actually built
    from chromadb.config import Settings

    database = path / "chroma.sqlite3"
    if database.exists() and database.stat().st_size and not looks_like_sqlite(database):
        raise CorruptStoreError(database, "not an SQLite database (Chroma's file is damaged or something else)")
    try:
        return chromadb.PersistentClient(path=str(path.resolve()), settings=Settings(anonymized_telemetry=False))
    except Exception as error:
        raise CorruptStoreError(database, f"Chroma could not open it ({type(error).__name__}: {error})") from None


def looks_like_sqlite(file: Path) -> bool:
    with open(file, "rb") as handle:
        return handle.read(16) == b"SQLite format 3\x00"


def where_chroma_runs(client: Any, collection: str) -> tuple[str, Path | None, StateKey]:
    """("embedded" or "server", the data directory if local and persistent, registry key)."""
    try:
        settings = client.get_settings()
    except AttributeError:
        raise TypeError(f"client must be a chromadb client, got {type(client).__name__}") from None
    tenant, database = getattr(client, "tenant", None), getattr(client, "database", None)
    if "fastapi" in (settings.chroma_api_impl or "").lower():
        where = (settings.chroma_server_host, settings.chroma_server_http_port)
        return "server", None, ("server", *where, tenant, database, collection)
    if settings.is_persistent:
        directory = Path(settings.persist_directory).resolve()
        return "embedded", directory, ("embedded", str(directory), tenant, database, collection)
    return "embedded", None, ("embedded", "ephemeral", tenant, database, collection)



def _read_pid(fd: int) -> str:
    try:
        return os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    except OSError:
        return ""


def after_fork_in_child() -> None:
    """A forked child inherits the fd but not the right to use the store: forget both."""
    for fd, _ in _held_paths.values():
        try:
            os.close(fd)
        except OSError:
            pass
    _held_paths.clear()
    _shared.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=after_fork_in_child)
