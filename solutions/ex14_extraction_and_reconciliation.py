"""Reference solution for exercise 14 (strict reply parsing, item checks, reconciliation)."""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Any, Sequence

from memcourse import MemoryRecord, Source, Status

FIELDS = ("kind", "type", "subject", "content", "confidence", "importance", "evidence")
SUBJECT_PATTERN = r"^[a-z][a-z0-9_]{1,47}$"
#: Least trusted first.
TRUST = (Source.LLM_INFERRED, Source.TOOL_OBSERVED, Source.USER_STATED, Source.ADMIN_CONFIGURED)

_FENCE = re.compile(r"\A```[ \t]*(?:json)?[ \t]*\n(.*?)\n?```\Z", re.S | re.I)


def _unique(pairs):
    data = {}
    for key, value in pairs:
        if key in data:
            raise ValueError(f"duplicate key {key!r}")
        data[key] = value
    return data


def _no_constant(name):
    raise ValueError(f"{name} is not JSON")


def parse_reply(text: str) -> dict[str, Any]:
    if not isinstance(text, str) or not text.strip():
        raise ValueError("empty reply")
    body = text.strip()
    fenced = _FENCE.match(body)
    if fenced:
        body = fenced.group(1)
    data = json.loads(body, object_pairs_hook=_unique, parse_constant=_no_constant)  # JSONDecodeError is a ValueError
    if not isinstance(data, dict):
        raise ValueError(f"expected a JSON object, got {type(data).__name__}")
    return data


def _squash(text: str) -> str:
    return re.sub(r"\s+", " ", text.casefold()).strip()


def check_item(item: Any, message: str) -> str | None:
    if not isinstance(item, dict) or set(item) != set(FIELDS):
        return "fields"
    if not all(isinstance(item[name], str) for name in ("kind", "type", "subject", "content", "evidence")):
        return "type"
    numbers = (item["confidence"], item["importance"])
    if any(isinstance(n, bool) or not isinstance(n, (int, float)) for n in numbers):
        return "type"
    if not all(0.0 <= n <= 1.0 for n in numbers):  # NaN fails both comparisons
        return "range"
    if not re.fullmatch(SUBJECT_PATTERN, item["subject"]):
        return "subject"
    evidence = _squash(item["evidence"])
    if not evidence or evidence not in _squash(message):
        return "ungrounded"
    return None


def _plain(text: str) -> str:
    return "".join(ch for ch in unicodedata.normalize("NFKC", text).casefold() if ch.isalnum())


def decide(
    candidate: MemoryRecord, existing: Sequence[MemoryRecord], *, retraction: bool = False
) -> tuple[str, str | None]:
    mine = [r for r in existing if r.status is Status.ACTIVE and r.user_id == candidate.user_id]
    same = next((r for r in mine if r.memory_id == candidate.memory_id), None)
    if retraction:
        return ("DELETE", same.memory_id) if same else ("NOOP", None)
    if same is None:
        return "ADD", None
    if _plain(same.content) == _plain(candidate.content):
        return "NOOP", same.memory_id
    if TRUST.index(candidate.source) < TRUST.index(same.source):
        return "NOOP", same.memory_id
    return "UPDATE", same.memory_id
