"""One memory record in one line, for the graded tests' failure messages.

Why: a message like ``'用户的偏好' expected secret`` hides the reason (the secret sits in the
*subject*), and a failure on ``expired`` hides ``expires_at``. A gate's verdict depends on the
type, subject, content, source, confidence, status and expiry, so the message shows all of them
(and the owner, the tags and the conversation when they are not the defaults), whatever the
check: the learner sees the record the test passed, not the part the author thought mattered.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from memcourse.records import DEFAULT_AGENT, DEFAULT_USER

__all__ = ["describe_record"]


def _value(value: Any) -> Any:
    return getattr(value, "value", value)


def describe_record(record: Any, *, now: datetime | None = None) -> str:
    """``entity subject='wifi password: hunter2x' content='用户的偏好' source=user_stated
    confidence=0.90 status=active expires_at=None``; with ``now``, ``expires_at`` also says how
    it compares to it (``(= now)``, ``(1 day before now)``...)."""
    expires = record.expires_at
    if expires is None:
        expiry = "None"
    else:
        expiry = expires.isoformat()
        if now is not None:
            delta = (expires - now).total_seconds()
            if delta == 0:
                expiry += " (= now)"
            else:
                expiry += f" ({_span(abs(delta))} {'after' if delta > 0 else 'before'} now)"
    parts = [
        f"{_value(record.memory_type)}",
        f"subject={record.subject!r}",
        f"content={record.content!r}",
        f"source={_value(record.source)}",
        f"confidence={record.confidence:.2f}",
        f"status={_value(record.status)}",
        f"expires_at={expiry}",
    ]
    if record.user_id != DEFAULT_USER or record.agent_id != DEFAULT_AGENT:
        parts.append(f"owner={record.user_id}/{record.agent_id}")
    if record.tags:
        parts.append(f"tags={list(record.tags)}")
    if getattr(record, "source_conversation_id", None):
        parts.append(f"conversation={record.source_conversation_id}")
    return " ".join(parts)


def _span(seconds: float) -> str:
    for unit, size in (("day", 86_400), ("hour", 3_600), ("minute", 60)):
        if seconds >= size:
            count = round(seconds / size)
            return f"{count} {unit}{'' if count == 1 else 's'}"
    return f"{seconds:g} s"
