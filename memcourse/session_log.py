"""The session log: what was said in each conversation, kept apart from memory, and redactable.

Why a log at all: an agent keeps its transcripts for debugging, support and replay, and that is
exactly where a forgotten memory survives. The user said "I have three cats and my landlord is
Mr. Wang" on Monday; the memory is forgotten on Friday; Monday's transcript still says it. The
engineering guide's forgetting takes three steps -- delete the record and its vectors, clear the
cache keys, and redact the session logs, "把记忆相关内容替换成占位符" (replace what the memory said
with a placeholder, §5.3). Deleting whole transcripts would lose everything else in them, so the
log keeps the conversation and replaces only the sentences that carried the memory.

Which sentences carried it: a sentence that contains the memory's content (compared after
folding case and spaces), or whose words cover at least half of the content's words (the
library's tokeniser, so Chinese counts by word, not by character). The second rule is what
catches a memory a model paraphrased ("用户养了三只猫" from "我家有三只猫"). It may redact a
sentence that only resembled the memory; for a log that is the safe error.

Storage: one JSON-lines file per conversation under the log's folder, appended under a file lock
(concurrent writers never interleave), rewritten atomically when redacted (a crash leaves the old
file or the new one, never half), so a redaction is never half done.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from filelock import FileLock

from memcourse.errors import MemcourseError
from memcourse.stores.files import atomic_write
from memcourse.text import split_sentences, token_set

__all__ = ["PLACEHOLDER", "SessionLog", "SessionLogError", "Turn"]

#: What a redacted sentence becomes: says that something was removed, never what.
PLACEHOLDER = "[a forgotten memory was removed here]"
#: A sentence whose words cover this share of the memory's words carried the memory.
COVERAGE = 0.5


class SessionLogError(MemcourseError, RuntimeError):
    """A session-log file is damaged: reported, and the file is left as it is."""


@dataclass(frozen=True)
class Turn:
    conversation_id: str
    role: str  # "user" or "assistant"
    text: str
    at: str  # ISO time
    user_id: str = "default"


def _fold(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().casefold()


def carries(sentence: str, content: str) -> bool:
    """Whether ``sentence`` said what the memory ``content`` says (see the module docstring)."""
    if not content.strip():
        return False
    if _fold(content) in _fold(sentence):
        return True
    words = token_set(content)
    return bool(words) and len(words & token_set(sentence)) / len(words) >= COVERAGE


class SessionLog:
    """Transcripts, one file per conversation, that forgetting can redact."""

    def __init__(self, directory: str | os.PathLike[str], *, clock=None):
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        self._clock = clock or (lambda: datetime.now(timezone.utc))

    def path_for(self, conversation_id: str) -> Path:
        # a digest, not the id: an id may hold anything, and a file name must not
        return self.directory / (hashlib.sha256(conversation_id.encode("utf-8")).hexdigest()[:32] + ".jsonl")

    def _lock(self, path: Path) -> FileLock:
        return FileLock(str(path) + ".lock")

    def append(self, conversation_id: str, role: str, text: str, *, user_id: str = "default") -> Turn:
        if role not in ("user", "assistant"):
            raise ValueError(f"role must be 'user' or 'assistant', not {role!r}")
        if not conversation_id:
            raise ValueError("conversation_id must not be empty")
        turn = Turn(conversation_id, role, str(text), self._clock().isoformat(), user_id)
        line = (json.dumps(turn.__dict__, ensure_ascii=False) + "\n").encode("utf-8")
        path = self.path_for(conversation_id)
        with self._lock(path):
            descriptor = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
            try:
                os.write(descriptor, line)
                os.fsync(descriptor)
            finally:
                os.close(descriptor)
        return turn

    def turns(self, conversation_id: str) -> list[Turn]:
        return self._read(self.path_for(conversation_id))

    def conversations(self) -> list[str]:
        found = {turn.conversation_id for path in sorted(self.directory.glob("*.jsonl")) for turn in self._read(path)}
        return sorted(found)

    def _read(self, path: Path) -> list[Turn]:
        if not path.is_file():
            return []
        turns = []
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            try:
                turns.append(Turn(**json.loads(line)))
            except (ValueError, TypeError) as error:
                raise SessionLogError(f"{path}: line {number} is not a session-log turn ({error}); "
                                 "the file was left as it is") from error
        return turns

    def redact(self, contents: Iterable[str], *, conversation_ids: Iterable[str] | None = None,
               user_id: str | None = None) -> int:
        """Replace every sentence that carried any of ``contents`` with :data:`PLACEHOLDER`, in
        the given conversations (default: every conversation), only in turns of ``user_id`` when
        given. Returns how many sentences were replaced."""
        wanted = [c for c in contents if c and c.strip()]
        if not wanted:
            return 0
        if conversation_ids is None:
            paths = sorted(self.directory.glob("*.jsonl"))
        else:
            paths = [self.path_for(c) for c in dict.fromkeys(conversation_ids)]
        replaced = 0
        for path in paths:
            if not path.is_file():
                continue
            with self._lock(path):
                turns, changed = [], 0
                for turn in self._read(path):
                    if user_id is None or turn.user_id == user_id:
                        text, count = _redact_text(turn.text, wanted)
                        if count:
                            turn, changed = Turn(turn.conversation_id, turn.role, text, turn.at, turn.user_id), \
                                changed + count
                    turns.append(turn)
                if changed:
                    data = "".join(json.dumps(t.__dict__, ensure_ascii=False) + "\n" for t in turns)
                    atomic_write(path, data.encode("utf-8"))
                    replaced += changed
        return replaced


def _redact_text(text: str, contents: list[str]) -> tuple[str, int]:
    sentences = split_sentences(text) or [text]
    spans, position = [], 0
    for sentence in sentences:
        start = text.find(sentence, position)
        if start < 0:  # the splitter normalised it; judge the whole text instead
            return (PLACEHOLDER, 1) if any(carries(text, c) for c in contents) else (text, 0)
        spans.append((start, start + len(sentence)))
        position = start + len(sentence)
    marked = [any(carries(text[a:b], c) for c in contents) for a, b in spans]
    # a content the splitter cut in two ("my landlord is Mr." | "Wang.") is in the pair joined
    for i in range(len(spans) - 1):
        joined, left, right = (_fold(text[spans[i][0]:spans[i + 1][1]]), _fold(text[slice(*spans[i])]),
                               _fold(text[slice(*spans[i + 1])]))
        if any(_fold(c) in joined and _fold(c) not in left and _fold(c) not in right for c in contents):
            marked[i] = marked[i + 1] = True
    out, position, previous = [], 0, False
    for (a, b), redact in zip(spans, marked, strict=True):
        if not (redact and previous):  # neighbouring redacted sentences become one placeholder
            out += [text[position:a], PLACEHOLDER if redact else text[a:b]]
        position, previous = b, redact
    out.append(text[position:])
    return "".join(out), sum(marked)
