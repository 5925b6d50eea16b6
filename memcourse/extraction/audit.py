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
  is a copy. :meth:`AuditLog.purge_memory` and :meth:`AuditLog.purge_user` rewrite the file
  without those lines (temporary file, fsync, ``os.replace``), so nothing of them remains
  in the log.

A damaged line is reported (:class:`AuditLogError`), never skipped or rewritten silently.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any, Callable, Iterable

from filelock import FileLock


class AuditLogError(RuntimeError):
    """An audit file could not be read or written; the message names the file and line."""


class AuditLog:
    """Per-user JSON-lines audit files in ``directory``."""

    def __init__(self, directory: str | os.PathLike[str]):
        self.directory = Path(directory)
        if self.directory.exists() and not self.directory.is_dir():
            raise AuditLogError(f"{self.directory} exists and is not a directory")
        self.directory.mkdir(parents=True, exist_ok=True)

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
        """Remove every entry about ``memory_id`` (as the candidate's or the decision's memory),
        in every user's file; returns how many were removed."""
        if not isinstance(memory_id, str) or not memory_id.strip():
            raise ValueError("memory_id must be a non-empty string")
        removed = 0
        for path in sorted(self.directory.glob("audit-*.jsonl")):
            removed += self._rewrite(path, lambda e: memory_id in (e.get("memory_id"), e.get("target_id")))
        return removed

    def purge_user(self, user_id: str) -> int:
        """Remove the user's whole audit file; returns how many entries it held."""
        path = self.path_for(user_id)
        with self._lock(path):
            if not path.exists():
                return 0
            count = sum(1 for _ in self._read(path))
            path.unlink()
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
            fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".audit-", suffix=".tmp")
            try:
                with os.fdopen(fd, "w", encoding="utf-8", errors="backslashreplace") as handle:
                    for entry in keep:
                        handle.write(json.dumps(entry, ensure_ascii=False, separators=(",", ":")) + "\n")
                    handle.flush()
                    os.fsync(handle.fileno())
                os.replace(tmp, path)
            except BaseException:
                Path(tmp).unlink(missing_ok=True)
                raise
            return len(entries) - len(keep)


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
