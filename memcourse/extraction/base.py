"""What every extractor takes and gives: messages in, candidate memories out.

An extractor only *proposes*. It never writes: every candidate goes through the same write
gate (:meth:`memcourse.policy.MemoryPolicy.evaluate`) and then through reconciliation, so a
rule, a model or both can sit behind the same :class:`Extractor` protocol without changing
who decides. Each candidate keeps the *evidence*: the exact words of the message it came
from, so a reviewer (or the audit log) can check a memory against what the user really said.

An extraction also reports its *outcome* (``ok``, ``nothing``, ``malformed_json``,
``timeout`` ...) and every item it dropped with the reason, because "the model returned
nothing usable" and "there was nothing to remember" must not look the same in a log.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol, runtime_checkable

from memcourse.records import (
    DEFAULT_AGENT,
    DEFAULT_USER,
    MemoryRecord,
    MemoryType,
    Source,
    parse_timestamp,
    utc_now,
)
from memcourse.validation import MAX_CONVERSATION_ID_CHARS, check_encodable, check_identifier, check_scope_id

#: Candidate kinds: a fact to remember, or the user taking something back.
MEMORY = "memory"
RETRACTION = "retraction"


@dataclass(frozen=True)
class Message:
    """One user turn, with where and when it was said (the provenance every memory keeps)."""

    text: str
    conversation_id: str | None = None
    at: datetime = field(default_factory=utc_now)
    user_id: str = DEFAULT_USER
    agent_id: str = DEFAULT_AGENT

    def __post_init__(self) -> None:
        """The same id rules as a record's, checked here, so a bad id fails before any model
        call rather than halfway through a pipeline."""
        if not isinstance(self.text, str):
            raise TypeError(f"Message.text must be a string, got {type(self.text).__name__}")
        check_encodable(self.text, "Message.text")
        check_scope_id(self.user_id, "Message.user_id")
        check_scope_id(self.agent_id, "Message.agent_id")
        if self.conversation_id is not None:
            check_identifier(self.conversation_id, "Message.conversation_id", MAX_CONVERSATION_ID_CHARS)
        object.__setattr__(self, "at", parse_timestamp(self.at, "Message.at"))


@dataclass
class Candidate:
    """A proposed memory (or retraction), not yet gated or reconciled."""

    memory_type: MemoryType
    subject: str
    content: str
    confidence: float
    importance: float
    evidence: str  # the words of the message this came from, verbatim
    source: Source
    extractor: str  # "rules", "llm:<model>", ...
    message: Message
    kind: str = MEMORY  # MEMORY or RETRACTION
    tags: list[str] = field(default_factory=list)

    def to_record(self) -> MemoryRecord:
        """The record this candidate would become (validated; raises on a bad field)."""
        return MemoryRecord(
            self.memory_type, self.subject, self.content,
            confidence=self.confidence, importance=self.importance, source=self.source,
            tags=list(self.tags), user_id=self.message.user_id, agent_id=self.message.agent_id,
            source_conversation_id=self.message.conversation_id, created_at=self.message.at,
        )

    def summary(self) -> dict[str, Any]:
        """A small JSON-ready view (for the audit log, the notebook and the widget)."""
        return {
            "kind": self.kind, "type": self.memory_type.value, "subject": self.subject,
            "content": self.content, "confidence": round(self.confidence, 3),
            "importance": round(self.importance, 3), "evidence": self.evidence,
            "source": self.source.value, "extractor": self.extractor,
        }


@dataclass
class Extraction:
    """What one extractor made of one message."""

    extractor: str
    outcome: str  # "ok", "nothing", or why nothing usable came back ("timeout", "malformed_json", ...)
    candidates: list[Candidate] = field(default_factory=list)
    rejected: list[tuple[Any, str]] = field(default_factory=list)  # (raw item, reason)
    detail: str = ""

    @property
    def ok(self) -> bool:
        return self.outcome in {"ok", "nothing"}


@runtime_checkable
class Extractor(Protocol):
    """Anything that turns a message into candidate memories."""

    name: str

    def extract(self, message: Message, context: list[Message] | None = None) -> Extraction: ...
