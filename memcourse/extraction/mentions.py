"""Pending mentions: facts said once below the write threshold, kept so a repeat can count.

The engineering guide scores repetition ("同一个事实被提及多次，说明重要，分数可以累加",
section 3.2): a fact too slight to keep the first time may matter when the user says it again,
in this conversation or a later one. To count "again", something must remember the first
time without writing it as a memory. Two places could:

- **the session log** (:mod:`memcourse.session_log`): it holds every turn, but counting from it
  means extracting every earlier turn again at every write (a model call per turn for the
  hybrid), and a pipeline need not have a session log at all;
- **a small record per user of the candidates that fell below the threshold** (this module):
  one short entry per mention (type, content, conversation, time), read and compared with the
  project's own same-fact judge (:func:`memcourse.same_fact.similarity` at
  :data:`~memcourse.same_fact.SAME_FACT`, or :func:`~memcourse.same_fact.restates`), the judge
  reconciliation uses, so "the same fact" means one thing everywhere.

This module is the second. It is personal data like any memory, so it is bounded and
forgettable:

- at most :data:`MAX_PER_USER` entries per user, and entries older than :data:`WINDOW` no
  longer count (and are dropped at the next write);
- when a fact reaches the threshold and is written, its pending mentions are removed: the
  memory now stands for them;
- forgetting a memory (:meth:`memcourse.extraction.pipeline.MemoryPipeline.forget`, a
  retraction) removes every pending mention of the same fact, and forgetting a user removes the
  user's file. A retraction that matches no memory still removes matching pending mentions.

Storage: in memory, or one JSON file per user (``mentions-<sha256(user)>.json``) under a folder,
rewritten atomically under a file lock (temporary file, fsync, rename), so a crash leaves the old
list or the new one, never half of either.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from filelock import FileLock

from memcourse.errors import MemcourseError
from memcourse.records import parse_timestamp
from memcourse.same_fact import SAME_FACT, coverage, restates, similarity
from memcourse.stores.files import atomic_write

__all__ = ["MAX_PER_USER", "WINDOW", "PendingMentions", "PendingMentionsError", "same_fact"]

#: How many pending mentions one user may have; the oldest go first.
MAX_PER_USER = 200
#: A mention older than this no longer counts (a fact said once a year is not "repeated").
WINDOW = timedelta(days=90)
#: A retraction removes the pending mentions that cover this share of its words (as reconciliation).
RETRACT_COVER = 0.6


class PendingMentionsError(MemcourseError, RuntimeError):
    """A pending-mentions file that cannot be read (damaged); nothing was changed."""


def same_fact(a: str, b: str) -> bool:
    """The project's same-fact judgement (:mod:`memcourse.same_fact`): a restatement, or a Dice
    overlap of salient words of at least ``SAME_FACT`` without differing codes."""
    return restates(a, b) or similarity(a, b) >= SAME_FACT


class PendingMentions:
    """Per-user pending mentions, in memory (``directory=None``) or in files under ``directory``."""

    def __init__(self, directory: str | os.PathLike[str] | None = None):
        self.directory = None if directory is None else Path(directory).resolve()
        if self.directory is not None:
            self.directory.mkdir(parents=True, exist_ok=True)
        self._memory: dict[str, list[dict[str, Any]]] = {}
        self._thread_lock = threading.Lock()

    # -- reading ---------------------------------------------------------------------------
    def path_for(self, user_id: str) -> Path:
        if self.directory is None:
            raise ValueError("an in-memory PendingMentions has no files")
        digest = hashlib.sha256(user_id.encode("utf-8", "surrogatepass")).hexdigest()
        return self.directory / f"mentions-{digest}.json"

    def entries(self, user_id: str) -> list[dict[str, Any]]:
        """The user's pending mentions, oldest first (copies)."""
        return [dict(entry) for entry in self._load(user_id)]

    def count(self, user_id: str, agent_id: str, content: str, *, now: datetime,
              conversation_id: str | None = None, at: datetime | None = None) -> int:
        """How many earlier mentions (within :data:`WINDOW` of ``now``) state the same fact.
        A mention of the very same message (``conversation_id`` and ``at``) is not "earlier"."""
        since = now - WINDOW
        total = 0
        for entry in self._load(user_id):
            when = parse_timestamp(entry["at"], "mention.at")
            if entry["agent_id"] != agent_id or when < since:
                continue
            if at is not None and when == at and entry.get("conversation_id") == conversation_id:
                continue
            if same_fact(content, entry["content"]):
                total += 1
        return total

    # -- writing ---------------------------------------------------------------------------
    def add(self, user_id: str, agent_id: str, memory_type: str, content: str, *, at: datetime,
            conversation_id: str | None, now: datetime) -> None:
        """Record one mention below the threshold (dropping expired and surplus entries)."""
        entry = {"agent_id": agent_id, "type": memory_type, "content": content,
                 "conversation_id": conversation_id, "at": at.isoformat()}
        since = now - WINDOW

        def change(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
            kept = [e for e in entries if parse_timestamp(e["at"], "mention.at") >= since]
            return (kept + [entry])[-MAX_PER_USER:]
        self._update(user_id, change)

    def remove_fact(self, user_id: str, agent_id: str | None, content: str, *, retraction: bool = False) -> int:
        """Remove the mentions of the same fact as ``content`` (of one agent, or all when
        ``agent_id`` is None); a ``retraction`` removes those covering most of its words.
        Returns how many went."""
        def matches(entry: dict[str, Any]) -> bool:
            if agent_id is not None and entry["agent_id"] != agent_id:
                return False
            if retraction:
                return coverage(content, entry["content"]) >= RETRACT_COVER or same_fact(content, entry["content"])
            return same_fact(content, entry["content"])
        removed = 0

        def change(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
            nonlocal removed
            kept = [e for e in entries if not matches(e)]
            removed = len(entries) - len(kept)
            return kept
        self._update(user_id, change)
        return removed

    def purge_user(self, user_id: str) -> int:
        """Forget all of a user's pending mentions; returns how many there were."""
        with self._locked(user_id):
            count = len(self._read(user_id))
            if self.directory is None:
                self._memory.pop(user_id, None)
            else:
                self.path_for(user_id).unlink(missing_ok=True)
            return count

    # -- storage ---------------------------------------------------------------------------
    def _locked(self, user_id: str) -> Any:
        if self.directory is None:
            return self._thread_lock
        return FileLock(str(self.path_for(user_id)) + ".lock", thread_local=False)

    def _load(self, user_id: str) -> list[dict[str, Any]]:
        with self._locked(user_id):
            return self._read(user_id)

    def _read(self, user_id: str) -> list[dict[str, Any]]:
        if self.directory is None:
            return list(self._memory.get(user_id, []))
        path = self.path_for(user_id)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return []
        except (OSError, ValueError) as error:
            raise PendingMentionsError(f"{path}: not a pending-mentions file ({error})") from error
        if not isinstance(data, list) or not all(isinstance(e, dict) and {"agent_id", "content", "at"} <= set(e)
                                                 for e in data):
            raise PendingMentionsError(f"{path}: expected a list of mentions")
        return data

    def _update(self, user_id: str, change: Callable[[list[dict[str, Any]]], list[dict[str, Any]]]) -> None:
        with self._locked(user_id):
            before = self._read(user_id)
            after = change(before)
            if after == before:
                return
            if self.directory is None:
                self._memory[user_id] = after
            elif after:
                atomic_write(self.path_for(user_id), json.dumps(after, ensure_ascii=False).encode("utf-8"))
            else:
                self.path_for(user_id).unlink(missing_ok=True)
