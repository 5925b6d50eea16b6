"""Typed memory records.

A long-term memory is not a string in a list. It has a *type* (what kind of thing it is), a
*subject* (the stable key that later statements about the same thing update), provenance
(where it came from, how sure we are) and lifecycle metadata (when it was written, last
used, superseded or deleted). Those fields are what make a memory updatable, rankable and
governable; a bare string can be none of these.

Records validate themselves when they are built, so a bad value is stopped at the door with
an error that names the field, and stores call :meth:`MemoryRecord.validate` again before
every write (a record is mutable, so it could have been changed since). The field rules
(identifier character set, timestamp range, metadata depth, no lone surrogates) live in
:mod:`memcourse.validation`, shared with the stores' argument checks.
"""

from __future__ import annotations

import copy
import hashlib
import re
import unicodedata
from dataclasses import dataclass, field, fields
from datetime import datetime, timezone
from enum import Enum
from typing import Any

from memcourse.validation import (  # noqa: F401 (MAX_METADATA_DEPTH, parse_timestamp: re-exported)
    MAX_CONVERSATION_ID_CHARS,
    MAX_MEMORY_ID_CHARS,
    MAX_METADATA_DEPTH,
    check_identifier,
    check_json_object,
    check_scope_id,
    check_text,
    check_unit_float,
    parse_timestamp,
)

#: Longest content a memory may hold. Memories are facts and preferences, not documents: a
#: longer text belongs in a RAG index, and would crowd every prompt it is recalled into.
MAX_CONTENT_CHARS = 2000
#: Longest subject. A subject is a key such as ``response_style``, not a sentence.
MAX_SUBJECT_CHARS = 200
#: Largest ``metadata`` (as compact JSON). Metadata is for small structured extras (an
#: integration's original value, say), not a back door for documents. It may also be at most
#: ``MAX_METADATA_DEPTH`` levels deep (see :mod:`memcourse.validation`).
MAX_METADATA_CHARS = 8000
#: Longest tag.
MAX_TAG_CHARS = 100

_SEPARATOR = "\x1f"  # joins the hashed parts; refused inside ids so no two scopes can collide

DEFAULT_USER = "default"
DEFAULT_AGENT = "default"
#: The metadata key of a *derived* record (a session summary, say): the ids of the memories
#: it restates. Forgetting any of them forgets it too; a retraction never targets it.
DERIVED_FROM = "derived_from"


class MemoryType(str, Enum):
    """What kind of thing a memory is; each kind has its own lifecycle and place in a prompt."""

    PREFERENCE = "preference"  # how the user wants to be answered
    ENTITY = "entity"  # a stable fact: a project name, where the user lives
    TASK = "task"  # where a piece of ongoing work stands
    EVENT = "event"  # something that happened once
    DECISION = "decision"  # a choice made, kept so it can be explained later
    RULE = "rule"  # a behaviour rule for the agent; only an admin may write one


class Source(str, Enum):
    """Where a memory came from. Trust depends on it: a user may state a preference, an LLM
    may only guess one, and only an admin may set a rule."""

    USER_STATED = "user_stated"
    TOOL_OBSERVED = "tool_observed"
    LLM_INFERRED = "llm_inferred"
    ADMIN_CONFIGURED = "admin_configured"


class Status(str, Enum):
    """Lifecycle state. Superseded records stay for history; deleted ones are tombstones."""

    ACTIVE = "active"
    SUPERSEDED = "superseded"
    DELETED = "deleted"


def utc_now() -> datetime:
    """The current time, timezone-aware. Naive datetimes are refused everywhere in memcourse,
    because comparing a naive and an aware time is either an error or a silent lie."""
    return datetime.now(timezone.utc)


def _normalise_subject(subject: str) -> str:
    """One spelling per subject: Unicode-normalised, lower-cased, whitespace collapsed."""
    text = unicodedata.normalize("NFKC", subject).strip().lower()
    return re.sub(r"\s+", " ", text)


def make_memory_id(
    memory_type: MemoryType | str,
    subject: str,
    *,
    user_id: str = DEFAULT_USER,
    agent_id: str = DEFAULT_AGENT,
) -> str:
    """A stable id for (type, subject), scoped to a user and agent.

    The id is ``<type>:<slug>:<hash>``. The slug keeps the id readable (it keeps Chinese
    characters, so ``entity:项目名称:…`` still says something); the hash keeps it unique.

    Why both: an early version used only an ASCII slug, so every Chinese subject slugged to
    ``_`` and every Chinese memory overwrote the previous one. A slug alone can always collide
    (it is truncated and simplified); the SHA-256 of the full normalised subject cannot, in
    practice. The user and agent are hashed too, so two users' ``response_style`` never share
    an id in a shared store. Subjects are compared case- and width-insensitively:
    ``Response_Style`` and ``response_style`` are the same key.
    """
    kind = _enum(MemoryType, memory_type, "memory_type").value
    subject = check_text(subject, "subject", MAX_SUBJECT_CHARS)
    user_id = check_scope_id(user_id, "user_id")  # refuses control characters such as \x1f
    agent_id = check_scope_id(agent_id, "agent_id")
    key = _normalise_subject(subject)
    slug = re.sub(r"\s+", "_", key)
    slug = re.sub(r"[^a-z0-9_\-\u3400-\u4dbf\u4e00-\u9fff]+", "_", slug).strip("_")
    slug = slug[:32].strip("_") or "memory"
    scope = _SEPARATOR.join([user_id, agent_id, kind, key])
    digest = hashlib.sha256(scope.encode("utf-8")).hexdigest()[:16]
    return f"{kind}:{slug}:{digest}"


@dataclass
class HistoryEntry:
    """One earlier version of a record's content, kept when an update replaces it."""

    content: str
    confidence: float
    source: str
    replaced_at: datetime
    #: When this version of the fact held (see :mod:`memcourse.validity`). ``None`` means
    #: "derive it": from the previous version's end (or the record's creation) to ``replaced_at``.
    valid_from: datetime | None = None
    valid_to: datetime | None = None

    def to_dict(self) -> dict[str, Any]:
        data = {
            "content": self.content,
            "confidence": self.confidence,
            "source": self.source,
            "replaced_at": self.replaced_at.isoformat(),
        }
        for name in ("valid_from", "valid_to"):
            value = getattr(self, name)
            if value is not None:  # files written before validity time stay byte-identical
                data[name] = value.isoformat()
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "HistoryEntry":
        """Rebuild an entry, validating it like a record (a damaged file must not load as
        content ``"None"`` or an unknown source)."""
        if not isinstance(data, dict):
            raise TypeError(f"a history entry must be a JSON object, got {type(data).__name__}")
        known = {"content", "confidence", "source", "replaced_at"}
        optional = {"valid_from", "valid_to"}
        if not known <= set(data) <= known | optional:
            problems = sorted(set(data) - known - optional) + [f"missing {name}" for name in sorted(known - set(data))]
            raise ValueError(f"history entry: bad field(s): {', '.join(problems)}")
        entry = cls(
            content=check_text(data["content"], "history.content", MAX_CONTENT_CHARS),
            confidence=check_unit_float(data["confidence"], "history.confidence"),
            source=_enum(Source, data["source"], "history.source").value,
            replaced_at=parse_timestamp(data["replaced_at"], "history.replaced_at"),
        )
        for name in optional:
            if data.get(name) is not None:
                setattr(entry, name, parse_timestamp(data[name], f"history.{name}"))
        _check_interval(entry.valid_from, entry.valid_to, "history.")
        return entry


@dataclass
class MemoryRecord:
    """One long-term memory. Build it with keywords; strings are accepted for enums and times.

    >>> MemoryRecord(MemoryType.PREFERENCE, "response_style", "代码示例尽量用 Python").memory_type
    <MemoryType.PREFERENCE: 'preference'>
    """

    memory_type: MemoryType
    subject: str
    content: str
    confidence: float = 0.8
    source: Source = Source.USER_STATED
    tags: list[str] = field(default_factory=list)
    # None (the default) means "derive it": __post_init__ always leaves a str, and readers rely on that.
    memory_id: str = None  # type: ignore[assignment]  # filled in by __post_init__
    user_id: str = DEFAULT_USER
    agent_id: str = DEFAULT_AGENT
    importance: float = 0.5
    status: Status = Status.ACTIVE
    expires_at: datetime | None = None
    source_conversation_id: str | None = None
    created_at: datetime = field(default_factory=utc_now)
    updated_at: datetime = None  # type: ignore[assignment]  # None: __post_init__ sets created_at
    last_accessed_at: datetime | None = None
    access_count: int = 0
    superseded_by: str | None = None
    history: list[HistoryEntry] = field(default_factory=list)
    #: Small JSON object for what the fields above cannot say (e.g. the LangGraph adapter keeps
    #: the item's namespace, key and original value here). Never used for ranking or policy.
    metadata: dict[str, Any] = field(default_factory=dict)
    #: Validity time: when the fact was true in the world, as opposed to when it was written.
    #: ``valid_from=None`` means "since the record was created"; ``valid_to=None`` means "still
    #: holds". An update that changes the value closes the old interval (the old value stays in
    #: ``history`` with its interval) instead of erasing it. See :mod:`memcourse.validity`.
    valid_from: datetime | None = None
    valid_to: datetime | None = None

    def __post_init__(self) -> None:
        self.validate()

    # -- validation -----------------------------------------------------------------------
    def validate(self) -> None:
        """Check and normalise every field; raise ValueError/TypeError naming the bad one."""
        self.memory_type = _enum(MemoryType, self.memory_type, "memory_type")
        self.source = _enum(Source, self.source, "source")
        self.status = _enum(Status, self.status, "status")
        self.subject = check_text(self.subject, "subject", MAX_SUBJECT_CHARS)
        self.content = check_text(self.content, "content", MAX_CONTENT_CHARS)
        self.user_id = check_scope_id(self.user_id, "user_id")
        self.agent_id = check_scope_id(self.agent_id, "agent_id")
        self.confidence = check_unit_float(self.confidence, "confidence")
        self.importance = check_unit_float(self.importance, "importance")
        if not isinstance(self.tags, (list, tuple)):
            raise TypeError(f"tags must be a list of strings, got {type(self.tags).__name__}")
        self.tags = [check_text(tag, f"tags[{i}]", MAX_TAG_CHARS) for i, tag in enumerate(self.tags)]
        if isinstance(self.access_count, bool) or not isinstance(self.access_count, int):
            raise TypeError(f"access_count must be an int, got {type(self.access_count).__name__}")
        if self.access_count < 0:
            raise ValueError(f"access_count must be >= 0, got {self.access_count}")
        self.created_at = parse_timestamp(self.created_at, "created_at")
        self.updated_at = parse_timestamp(self.updated_at or self.created_at, "updated_at")
        for name in ("expires_at", "last_accessed_at", "valid_from", "valid_to"):
            value = getattr(self, name)
            if value is not None:
                setattr(self, name, parse_timestamp(value, name))
        if self.source_conversation_id is not None:
            self.source_conversation_id = check_identifier(
                self.source_conversation_id, "source_conversation_id", MAX_CONVERSATION_ID_CHARS
            )
        if self.superseded_by is not None:
            self.superseded_by = check_identifier(self.superseded_by, "superseded_by", MAX_MEMORY_ID_CHARS)
        if not isinstance(self.history, (list, tuple)):
            raise TypeError(f"history must be a list of HistoryEntry, got {type(self.history).__name__}")
        for position, entry in enumerate(self.history):
            if not isinstance(entry, HistoryEntry):
                raise TypeError(f"history[{position}] must be a HistoryEntry, got {type(entry).__name__}")
            entry.content = check_text(entry.content, f"history[{position}].content", MAX_CONTENT_CHARS)
            entry.confidence = check_unit_float(entry.confidence, f"history[{position}].confidence")
            entry.source = _enum(Source, entry.source, f"history[{position}].source").value
            entry.replaced_at = parse_timestamp(entry.replaced_at, f"history[{position}].replaced_at")
            for name in ("valid_from", "valid_to"):
                if getattr(entry, name) is not None:
                    setattr(entry, name, parse_timestamp(getattr(entry, name), f"history[{position}].{name}"))
            _check_interval(entry.valid_from, entry.valid_to, f"history[{position}].")
        self.history = list(self.history)
        _check_interval(self.valid_from, self.valid_to, "")
        self.metadata = check_json_object(self.metadata, "metadata", max_chars=MAX_METADATA_CHARS)
        if self.memory_id is None:
            self.memory_id = make_memory_id(
                self.memory_type, self.subject, user_id=self.user_id, agent_id=self.agent_id
            )
        else:
            self.memory_id = check_identifier(self.memory_id, "memory_id", MAX_MEMORY_ID_CHARS)

    # -- convenience ----------------------------------------------------------------------
    def is_expired(self, now: datetime | None = None) -> bool:
        return self.expires_at is not None and self.expires_at <= (now or utc_now())

    @property
    def scope(self) -> tuple[str, str]:
        return (self.user_id, self.agent_id)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: enums as their values, times as ISO-8601 strings."""
        data: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, Enum):
                value = value.value
            elif isinstance(value, datetime):
                value = value.isoformat()
            elif f.name == "history":
                value = [entry.to_dict() for entry in value]
            elif f.name == "metadata":
                value = copy.deepcopy(value)
            elif isinstance(value, list):
                value = list(value)
            data[f.name] = value
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "MemoryRecord":
        """Rebuild a record; unknown keys are an error (a typo must not silently drop data)."""
        if not isinstance(data, dict):
            raise TypeError(f"a memory record must be a JSON object, got {type(data).__name__}")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"unknown record field(s): {', '.join(unknown)}")
        values = dict(data)
        history = values.pop("history", [])
        if not isinstance(history, list):
            raise TypeError(f"history must be a list, got {type(history).__name__}")
        values["history"] = [HistoryEntry.from_dict(entry) for entry in history]
        return cls(**values)

    def copy(self) -> "MemoryRecord":
        """An independent copy, as the record is now: no field of the copy aliases this one's
        (tags, history, metadata are copied too). It is not re-validated: a search copies every
        hit it returns, and validating a record already checked costs more than the search
        itself. After changing fields by hand, call :meth:`validate` (stores do, on upsert)."""
        clone = copy.copy(self)
        clone.tags = list(self.tags)
        clone.history = [copy.copy(entry) for entry in self.history]
        clone.metadata = copy.deepcopy(self.metadata)
        return clone


def _check_interval(start: datetime | None, end: datetime | None, prefix: str) -> None:
    """A validity interval may be open at either end, but never end before it starts."""
    if start is not None and end is not None and end < start:
        raise ValueError(
            f"{prefix}valid_to ({end.isoformat()}) is before {prefix}valid_from ({start.isoformat()})"
        )


def _enum(enum_cls: type[Enum], value: Any, name: str) -> Any:
    if isinstance(value, enum_cls):
        return value
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a {enum_cls.__name__} or string, got {type(value).__name__}")
    try:
        return enum_cls(value.strip().lower())
    except ValueError:
        allowed = ", ".join(member.value for member in enum_cls)
        raise ValueError(f"{name}: unknown value {value!r}; expected one of: {allowed}") from None
