"""The read gate's text checks, decided once per version of a memory.

The admission gate (:mod:`memcourse.recall.admission`) scans a recalled memory's text for
secrets, injected instructions and rules a user may not set. That scan normalises the text
and runs a few hundred patterns: a few milliseconds a memory, which was most of a search when
ten fresh candidates needed it (docs/benchmarks.md, section 4). Yet its answer depends only on the memory's
text and labels, and on the detectors themselves; a memory recalled a hundred times has the
same answer a hundred times.

So the answer is kept, under a *trust key*: a SHA-256 of everything the checks read
(content, subject, tags, type, source, status) and of the detectors' own source code
(:func:`guard_fingerprint`). Two consequences follow from what goes into the key:

* change one character of a memory, or one of its labels, and the key changes: the next
  read scans it again. A row edited behind the store's back is never waved through on an
  old verdict.
* change a detector (a new pattern, a fixed false positive) and every key changes: stored
  verdicts from before are ignored, nothing needs migrating.

Where the verdicts live:

* :data:`VERDICTS`, this process's cache (bounded, least recently used first out). Its keys
  are hashes, never text. A hash still confirms a guessed text, so forgetting drops them:
  the cache remembers which memory each key was computed for, and
  :meth:`Verdicts.forget` drops the entries of *every* version of a forgotten memory (each
  older text, and the same text under another status, has a key of its own), not only the
  current one.
* the embedded Chroma store writes each version's key and verdict into the memory's own
  database row when it writes the memory (:mod:`memcourse.stores.chroma.embedded`), and hands
  them back to the cache when it loads the row; so a search in a new process does not
  scan what was scanned at write time. The row goes when the memory is forgotten.

What this does not defend against: someone who can rewrite the store's database file *and*
compute a matching key can plant a verdict. Whoever can do that can also replace this code;
the read gate is there for memories that came in through another door (an import, a bug, a
tool that skipped the write gate), and every door through the store is scanned.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from functools import lru_cache
from pathlib import Path
from typing import Iterable

from memcourse.recall.admission import trust_problem
from memcourse.records import MemoryRecord

__all__ = [
    "VERDICTS", "Verdicts", "guard_fingerprint", "recall_stamp", "trust_key", "verdict_stamp",
]

_PACKAGE = Path(__file__).resolve().parents[1]


@lru_cache(maxsize=1)
def guard_fingerprint() -> str:
    """A hash of the source the text checks run: the guards package and the gate itself
    (read once, on the first key, not at import)."""
    digest = hashlib.sha256()
    files = sorted((_PACKAGE / "guards").glob("*.py")) + [_PACKAGE / "recall" / "admission.py"]
    for file in files:
        digest.update(file.name.encode())
        digest.update(file.read_bytes())
    return digest.hexdigest()[:16]


def trust_key(record: MemoryRecord) -> str:
    """The SHA-256 (hex) of what the gate's text checks read, and of the checks themselves."""
    fields = [
        guard_fingerprint(),
        record.memory_type.value,
        record.source.value,
        record.status.value,
        record.subject,
        record.content,
        list(record.tags),
    ]
    payload = json.dumps(fields, ensure_ascii=False).encode("utf-8", "surrogatepass")
    return hashlib.sha256(payload).hexdigest()


class Verdicts:
    """Trust key → "passes the text checks?", for the most recently used ``size`` keys."""

    def __init__(self, size: int = 131_072):
        self.size = size
        self._known: OrderedDict[str, bool] = OrderedDict()
        self._keys_of: dict[str, set[str]] = {}  # memory id -> keys computed for its versions
        self._ids_of: dict[str, set[str]] = {}  # key -> memory ids (two memories may share a text)
        self._lock = threading.Lock()
        self.scans = 0  # how many times the checks really ran (tests and benchmarks read it)

    def lookup(self, key: str) -> bool | None:
        with self._lock:
            verdict = self._known.get(key)
            if verdict is not None:
                self._known.move_to_end(key)
            return verdict

    def remember(self, key: str, passes: bool, memory_id: str | None = None) -> None:
        """Keep a verdict; ``memory_id`` (the memory it was computed for) lets
        :meth:`forget` find it again."""
        if not isinstance(passes, bool):
            raise TypeError(f"a verdict is a bool, got {type(passes).__name__}")
        with self._lock:
            self._known[key] = passes
            self._known.move_to_end(key)
            if memory_id is not None:
                self._keys_of.setdefault(memory_id, set()).add(key)
                self._ids_of.setdefault(key, set()).add(memory_id)
            while len(self._known) > self.size:
                self._drop(next(iter(self._known)))

    def passes(self, record: MemoryRecord, key: str | None = None) -> bool:
        """Does ``record`` pass the gate's text checks (status, safety, permission, in that order)? Scans
        only when this version's key is unknown."""
        key = key or trust_key(record)
        verdict = self.lookup(key)
        if verdict is None:
            verdict = trust_problem(record) is None
            self.scans += 1
        self.remember(key, verdict, record.memory_id)  # also when cached: this id may be new
        return verdict

    def forget(self, record: MemoryRecord) -> None:
        """Drop the entries of a forgotten memory: its current version's and every other key
        computed for its id (older versions, other statuses)."""
        with self._lock:
            self._drop(trust_key(record))
            for key in self._keys_of.pop(record.memory_id, set()):
                self._drop(key)

    def forget_ids(self, memory_ids: Iterable[str]) -> None:
        """Drop every entry computed for these memory ids (when only the ids are known)."""
        with self._lock:
            for memory_id in memory_ids:
                for key in self._keys_of.pop(memory_id, set()):
                    self._drop(key)

    def _drop(self, key: str) -> None:
        """Remove one key and its id links (the caller holds the lock)."""
        self._known.pop(key, None)
        for memory_id in self._ids_of.pop(key, set()):
            keys = self._keys_of.get(memory_id)
            if keys is not None:
                keys.discard(key)
                if not keys:
                    del self._keys_of[memory_id]

    def clear(self) -> None:
        """Start empty, as a new process does (tests and benchmarks use it)."""
        with self._lock:
            self._known.clear()
            self._keys_of.clear()
            self._ids_of.clear()
            self.scans = 0

    def __len__(self) -> int:
        return len(self._known)

    def keys(self) -> list[str]:
        with self._lock:
            return list(self._known)


VERDICTS = Verdicts()


def verdict_stamp(record: MemoryRecord) -> str:
    """What a store writes next to a version: ``"<trust key>:1"`` if it passes the text
    checks, ``"<trust key>:0"`` if not. Decided (scanned, if not cached) when it is written."""
    key = trust_key(record)
    return f"{key}:{int(VERDICTS.passes(record, key))}"


def recall_stamp(record: MemoryRecord, stamp: object) -> bool:
    """Hand a stored stamp back to :data:`VERDICTS` if it is this version's; returns whether
    it was. A record whose text or labels changed behind the store's back has another key,
    and a malformed stamp is ignored: either way the record is scanned at its next read."""
    if not isinstance(stamp, str):
        return False
    key, _, flag = stamp.partition(":")
    if flag not in ("0", "1") or key != trust_key(record):
        return False
    VERDICTS.remember(key, flag == "1", record.memory_id)
    return True
