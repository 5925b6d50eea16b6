"""The audit log: why every memory was written, changed, refused or dropped.

"Where did the agent get *that* idea?" is the first question a user asks about a memory, and
the engineering guide's answer is provenance: a ``source_conversation_id`` on every record.
The audit log goes one step further and keeps each *decision* -- the candidate, the verdict,
the reason, who decided (rules or which model), when, and in which conversation -- one JSON
object per line, one file per user, so a notebook or a widget can replay a user's history.

Three properties matter more than the format:

- **Append-only and atomic.** An entry is one ``write`` of one line to a file opened with
  ``O_APPEND``, under a file lock shared with the rewrite below, then fsynced: concurrent
  writers (threads or processes) never interleave or lose lines.
- **No secrets.** An entry for a candidate refused as a secret keeps the reason (the guards
  mask the value) but not the content or the evidence.
- **Forgettable.** Forgetting a memory must forget every copy, and an audit line quoting it
  is a copy. A store forgets a whole chain at once (the versions a memory superseded, the one
  that superseded it, the summaries derived from it), so :meth:`AuditLog.purge_memories`
  takes every id the store removed and drops every line that names any of them, anywhere in
  the entry. :func:`forget_everywhere` is that pair of steps, and every forget exit of the
  library (a DELETE decision, the ``forget_memory`` tool, consolidation's expiry, the
  LangGraph adapter's delete) goes through it. :meth:`AuditLog.purge_user` removes a user's
  whole file.
- **A purge leaves no copy behind, even when it crashes.** The rewrite is the stores' own
  atomic write (:func:`memcourse.stores.files.atomic_write`: temporary sibling, fsync,
  rename, fsync of the folder), so a crash leaves the old file or the new one, never a mix.
  Two things can outlive a process killed in the middle: the temporary file, and the old
  file itself, forgotten lines and all, because the rename never happened. So the ids go
  first into a small journal (``purge-pending.json``, which holds only SHA-256 digests of
  the ids, never an id: an id quotes its subject), and the journal is removed when every
  file is rewritten. Opening the log (``AuditLog(directory)``) deletes the temporary files
  (crash debris, under the same locks as the writes, so no live rewrite owns one) and
  finishes any purge the journal still lists.

A damaged line is reported (:class:`AuditLogError`), never skipped or rewritten silently.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from pathlib import Path
from typing import Any, Callable, Iterable

from filelock import FileLock

from memcourse.errors import MemcourseError
from memcourse.stores.base import MemoryStore
from memcourse.stores.files import atomic_write, fsync_directory, remove_debris, resolve

#: An audit file's name: ``audit-`` and 24 hex digits of the user id's hash.
_FILE = r"audit-[0-9a-f]{24}\.jsonl"
#: What :func:`atomic_write` leaves beside an audit file when it is killed mid-rewrite.
_DEBRIS = re.compile(rf"\.({_FILE})\.[a-z0-9_]{{8}}\.tmp")
#: The purge journal: digests of the ids a purge is removing, until it has finished.
JOURNAL = "purge-pending.json"
#: What the rewrite of earlier versions (``tempfile.mkstemp(prefix=".audit-")``) left.
_OLD_DEBRIS = re.compile(r"\.audit-[a-z0-9_]{8}\.tmp")


class AuditLogError(MemcourseError, RuntimeError):
    """An audit file could not be read or written; the message names the file and line."""


class AuditLog:
    """Per-user JSON-lines audit files in ``directory``. Opening it sweeps crash debris
    (how many files: ``swept``) and finishes any purge a killed process left unfinished."""

    def __init__(self, directory: str | os.PathLike[str]):
        self.directory = Path(directory)
        if self.directory.exists() and not self.directory.is_dir():
            raise AuditLogError(f"{self.directory} exists and is not a directory")
        self.directory.mkdir(parents=True, exist_ok=True)
        self.swept = self.sweep_debris()
        self._finish_purges()  # a purge killed halfway is completed before anything else

    def sweep_debris(self) -> int:
        """Delete the temporary files of rewrites that were killed (each a whole copy of a
        user's log); returns how many. Runs when the log is opened (``self.swept``)."""
        removed = 0
        for name in sorted(os.listdir(self.directory)):
            found = _DEBRIS.fullmatch(name)
            if found:
                target = self.directory / found.group(1)
                with self._lock(target):  # a live rewrite holds this lock: its file is not debris
                    removed += remove_debris(target)
            elif _OLD_DEBRIS.fullmatch(name):  # no live writer makes these names any more
                (self.directory / name).unlink(missing_ok=True)
                removed += 1
        with self._journal_lock():
            removed += remove_debris(self.directory / JOURNAL)
        return removed

    def path_for(self, user_id: str) -> Path:
        """The user's file. Named by a hash: a user id is not a safe file name."""
        if not isinstance(user_id, str) or not user_id.strip():
            raise ValueError(f"user_id must be a non-empty string, got {user_id!r}")
        digest = hashlib.sha256(user_id.encode("utf-8")).hexdigest()[:24]
        return self.directory / f"audit-{digest}.jsonl"

    def _lock(self, path: Path) -> FileLock:
        return FileLock(f"{path}.lock", timeout=30)

    def append(self, entry: dict[str, Any]) -> dict[str, Any]:
        """Append one entry (it must name its ``user_id``); returns it."""
        if not isinstance(entry, dict) or not isinstance(entry.get("user_id"), str):
            raise ValueError("an audit entry is a dict with a user_id string")
        line = json.dumps(entry, ensure_ascii=False, separators=(",", ":"), allow_nan=False) + "\n"
        path = self.path_for(entry["user_id"])
        with self._lock(path):
            fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
            try:
                # backslashreplace: a lone surrogate is kept as its JSON escape, never a crash
                data = line.encode("utf-8", "backslashreplace")
                while data:  # one line, however many write() calls the OS needs
                    data = data[os.write(fd, data):]
                os.fsync(fd)
            finally:
                os.close(fd)
        return entry

    def entries(self, user_id: str) -> list[dict[str, Any]]:
        """The user's entries, oldest first."""
        path = self.path_for(user_id)
        if not path.exists():
            return []
        return list(self._read(path))

    def users(self) -> list[str]:
        """Every user with an audit file (read from the entries, file names are hashes)."""
        found = []
        for path in sorted(self.directory.glob("audit-*.jsonl")):
            for entry in self._read(path):
                found.append(entry["user_id"])
                break
        return sorted(set(found))

    def purge_memory(self, memory_id: str) -> int:
        """Remove every entry that names ``memory_id``; see :meth:`purge_memories`."""
        return self.purge_memories([memory_id])

    def purge_memories(self, memory_ids: Iterable[str]) -> int:
        """Remove every entry that names any of ``memory_ids`` (as the candidate's memory, the
        decision's target, or any other value of the entry), in every user's file, each file
        rewritten once; returns how many entries were removed."""
        if isinstance(memory_ids, str):
            raise TypeError("memory_ids must be a collection of ids, not one string")
        ids = set()
        for memory_id in memory_ids:
            if not isinstance(memory_id, str) or not memory_id.strip():
                raise ValueError(f"a memory id must be a non-empty string, got {memory_id!r}")
            ids.add(memory_id)
        if not ids:
            return 0
        self.intend_purge(ids)
        return self._finish_purges()

    def intend_purge(self, memory_ids: Iterable[str]) -> None:
        """Note in the journal that lines naming these ids must go (before forgetting them in
        the store: a crash in between then still ends in a purge, at the next open)."""
        with self._journal_lock():
            pending = self._pending() | {_digest(memory_id) for memory_id in memory_ids}
            atomic_write(resolve(self.directory / JOURNAL), json.dumps(sorted(pending)).encode())

    def _finish_purges(self) -> int:
        """Rewrite every file without the lines the journal names, then drop the journal."""
        journal = self.directory / JOURNAL
        with self._journal_lock():
            pending = self._pending()
            if not pending:
                journal.unlink(missing_ok=True)
                return 0
            removed = 0
            for path in sorted(self.directory.glob("audit-*.jsonl")):
                removed += self._rewrite(path, lambda entry: _names_any(entry, pending))
            journal.unlink()
            fsync_directory(self.directory)
        return removed

    def _pending(self) -> set[str]:
        journal = self.directory / JOURNAL
        if not journal.exists():
            return set()
        try:
            digests = json.loads(journal.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
            raise AuditLogError(f"{journal}: cannot read the purge journal ({error}); left untouched") from None
        if not isinstance(digests, list) or not all(isinstance(d, str) for d in digests):
            raise AuditLogError(f"{journal}: the purge journal must be a list of digests; left untouched")
        return set(digests)

    def _journal_lock(self) -> FileLock:
        return FileLock(str(self.directory / f"{JOURNAL}.lock"), timeout=30)

    def purge_user(self, user_id: str) -> int:
        """Remove the user's whole audit file; returns how many entries it held."""
        path = self.path_for(user_id)
        with self._lock(path):
            if not path.exists():
                return 0
            count = sum(1 for _ in self._read(path))
            path.unlink()
            remove_debris(path)  # a killed rewrite's copy of this file is the user's data too
        Path(f"{path}.lock").unlink(missing_ok=True)
        return count

    def _read(self, path: Path) -> Iterable[dict[str, Any]]:
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise AuditLogError(f"{path}: cannot read the audit log ({error})") from None
        for number, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                entry = json.loads(line)
            except json.JSONDecodeError as error:
                raise AuditLogError(f"{path}:{number}: damaged audit line ({error}); left untouched") from None
            if not isinstance(entry, dict):
                raise AuditLogError(f"{path}:{number}: an audit line must be a JSON object")
            yield entry

    def _rewrite(self, path: Path, drop: Callable[[dict[str, Any]], bool]) -> int:
        with self._lock(path):
            if not path.exists():
                return 0
            entries = list(self._read(path))
            keep = [e for e in entries if not drop(e)]
            if len(keep) == len(entries):
                return 0
            lines = "".join(json.dumps(e, ensure_ascii=False, separators=(",", ":")) + "\n" for e in keep)
            # The stores' atomic write: a crash leaves the old file or the new one, never a mix,
            # and its temporary file is debris that the next open sweeps.
            atomic_write(resolve(path), lines.encode("utf-8", "backslashreplace"))
            return len(entries) - len(keep)


def _digest(memory_id: str) -> str:
    return hashlib.sha256(memory_id.encode("utf-8", "surrogatepass")).hexdigest()


def _names_any(value: Any, digests: set[str]) -> bool:
    """Does ``value`` (an entry, or anything inside one) hold, as a value, an id whose digest
    is in ``digests``?"""
    if isinstance(value, str):
        return _digest(value) in digests
    if isinstance(value, dict):
        return any(_names_any(item, digests) for item in value.values())
    if isinstance(value, (list, tuple)):
        return any(_names_any(item, digests) for item in value)
    return False


def forget_everywhere(store: MemoryStore, memory_id: str, audit: AuditLog | None) -> tuple[str, ...]:
    """Forget ``memory_id`` for real: the store removes its whole chain (and the records
    derived from it) and says which ids went; the audit log then drops every line naming
    any of them. Returns those ids (empty if there was no such memory).

    The request is journalled before the store is touched, so a crash at any point still
    ends with the audit lines gone (at the log's next open). If the store raises, the request
    stays in the journal: audit lines about a memory the user asked to forget are purged at
    the next purge or open even so, never restored."""
    if audit is not None:
        audit.intend_purge([memory_id])
    removed = tuple(store.forget_chain(memory_id))
    if audit is not None:
        audit.purge_memories({memory_id, *removed})
    return removed


def format_entries(entries: list[dict[str, Any]]) -> str:
    """A compact, readable view of audit entries (one line each) for notebooks and widgets."""
    lines = []
    for e in entries:
        what = e.get("candidate") or {}
        subject = what.get("subject", "")
        text = what.get("content", "")
        target = f" -> {e['target_id']}" if e.get("target_id") else ""
        said = f" | {subject} {text!r}" if subject or text else ""
        found = what.get("extractor")
        found_by = f" (found by {found})" if found and found != e.get("by") else ""
        why = "; ".join(filter(None, [e.get("reason", "")] + list(e.get("rejected", []))))
        lines.append(f"{e.get('at', '')[:19]} [{e.get('conversation_id') or '-'}] {e.get('stage')}: "
                     f"{e.get('decision')}{target} by {e.get('by')}{found_by}{said} | {why}")
    return "\n".join(lines)
