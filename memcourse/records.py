"""Typed memory records.

A long-term memory is not a string in a list. It has a *type* (what kind of thing it is), a
*subject* (the stable key that later statements about the same thing update), provenance
(where it came from, how sure we are) and lifecycle metadata (when it was written, last
used, superseded or deleted). Those fields are what make a memory updatable, rankable and
governable; a bare string can be none of these.

Records validate themselves when they are built, so a bad value is stopped at the door with
an error that names the field, and stores call :meth:`MemoryRecord.validate` again before
every write (a record is mutable, so it could have been changed since).
"""

from __future__ import annotations

import copy
import hashlib
import json
import math
import re
import unicodedata
from dataclasses import dataclass, field, fields
from datetime import datetime, timezone
from enum import Enum
from typing import Any

#: Longest content a memory may hold. Memories are facts and preferences, not documents: a
#: longer text belongs in a RAG index, and would crowd every prompt it is recalled into.
MAX_CONTENT_CHARS = 2000
#: Longest subject. A subject is a key such as ``response_style``, not a sentence.
MAX_SUBJECT_CHARS = 200
#: Largest ``metadata`` (as compact JSON). Metadata is for small structured extras (an
#: integration's original value, say), not a back door for documents.
MAX_METADATA_CHARS = 8000

_SEPARATOR = "\x1f"  # joins the hashed parts; refused inside ids so no two scopes can collide

DEFAULT_USER = "default"
DEFAULT_AGENT = "default"


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
    kind = MemoryType(memory_type).value
    if not isinstance(subject, str) or not subject.strip():
        raise ValueError("subject must be a non-empty string")
    for name, value in (("user_id", user_id), ("agent_id", agent_id)):
        if not isinstance(value, str) or _SEPARATOR in value:
            raise ValueError(f"{name} must be a string without the \\x1f separator, got {value!r}")
    key = _normalise_subject(subject)
    slug = re.sub(r"\s+", "_", key)
    slug = re.sub(r"[^a-z0-9_\-\u3400-\u4dbf\u4e00-\u9fff]+", "_", slug).strip("_")
    slug = slug[:32].strip("_") or "memory"
    scope = _SEPARATOR.join([user_id, agent_id, kind, key])
    digest = hashlib.sha256(scope.encode("utf-8")).hexdigest()[:16]
    return f"{kind}:{slug}:{digest}"


def parse_timestamp(value: Any, field_name: str) -> datetime:
    """Accept an aware datetime or an ISO-8601 string with an offset; refuse anything else."""
    if isinstance(value, str):
        try:
            value = datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            raise ValueError(f"{field_name}: {value!r} is not an ISO-8601 timestamp") from None
    if not isinstance(value, datetime):
        raise TypeError(f"{field_name} must be a datetime or ISO-8601 string, got {type(value).__name__}")
    if value.tzinfo is None or value.utcoffset() is None:
        raise ValueError(f"{field_name} must be timezone-aware (got naive {value.isoformat()})")
    return value.astimezone(timezone.utc)


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
            content=_text(data["content"], "history.content", MAX_CONTENT_CHARS),
            confidence=_unit_float(data["confidence"], "history.confidence"),
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
    memory_id: str | None = None
    user_id: str = DEFAULT_USER
    agent_id: str = DEFAULT_AGENT
    importance: float = 0.5
    status: Status = Status.ACTIVE
    expires_at: datetime | None = None
    source_conversation_id: str | None = None
    created_at: datetime = field(default_factory=utc_now)
    updated_at: datetime | None = None
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
        self.subject = _text(self.subject, "subject", MAX_SUBJECT_CHARS)
        self.content = _text(self.content, "content", MAX_CONTENT_CHARS)
        self.user_id = _text(self.user_id, "user_id", 200)
        self.agent_id = _text(self.agent_id, "agent_id", 200)
        self.confidence = _unit_float(self.confidence, "confidence")
        self.importance = _unit_float(self.importance, "importance")
        if not isinstance(self.tags, (list, tuple)):
            raise TypeError(f"tags must be a list of strings, got {type(self.tags).__name__}")
        self.tags = [_text(tag, "tags", 100) for tag in self.tags]
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
        for name in ("source_conversation_id", "superseded_by"):
            value = getattr(self, name)
            if value is not None:
                setattr(self, name, _text(value, name, 500))
        if not all(isinstance(entry, HistoryEntry) for entry in self.history):
            raise TypeError("history must be a list of HistoryEntry")
        _check_interval(self.valid_from, self.valid_to, "")
        self.metadata = _json_object(self.metadata, "metadata")
        if self.memory_id is None:
            self.memory_id = make_memory_id(
                self.memory_type, self.subject, user_id=self.user_id, agent_id=self.agent_id
            )
        else:
            self.memory_id = _text(self.memory_id, "memory_id", 300)

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
        history = values.pop("history", None) or []
        if not isinstance(history, list):
            raise TypeError("history must be a list")
        values["history"] = [HistoryEntry.from_dict(entry) for entry in history]
        return cls(**values)

    def copy(self) -> "MemoryRecord":
        return MemoryRecord.from_dict(self.to_dict())


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
        allowed = ", ".join(member.value for member in enum_cls)  # type: ignore[attr-defined]
        raise ValueError(f"{name}: unknown value {value!r}; expected one of: {allowed}") from None


def _text(value: Any, name: str, limit: int) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a string, got {type(value).__name__}")
    value = value.strip()
    if not value:
        raise ValueError(f"{name} must not be empty or whitespace-only")
    if len(value) > limit:
        raise ValueError(f"{name} is {len(value)} characters long; the limit is {limit}")
    return value


def _json_object(value: Any, name: str) -> dict[str, Any]:
    """A JSON object that survives a round trip unchanged: string keys all the way down,
    finite numbers, no tuples or sets (which JSON would silently turn into lists or refuse)."""
    if not isinstance(value, dict):
        raise TypeError(f"{name} must be a dict, got {type(value).__name__}")

    def check(item: Any, where: str) -> None:
        if isinstance(item, dict):
            for key, inner in item.items():
                if not isinstance(key, str):
                    raise TypeError(f"{where}: keys must be strings, got {type(key).__name__} {key!r}")
                check(inner, f"{where}.{key}")
        elif isinstance(item, list):
            for position, inner in enumerate(item):
                check(inner, f"{where}[{position}]")
        elif isinstance(item, float) and not math.isfinite(item):
            raise ValueError(f"{where}: {item} is not valid JSON")
        elif item is not None and not isinstance(item, (str, int, float, bool)):
            raise TypeError(f"{where}: {type(item).__name__} is not JSON-serialisable")

    check(value, name)
    size = len(json.dumps(value, ensure_ascii=False, separators=(",", ":")))
    if size > MAX_METADATA_CHARS:
        raise ValueError(f"{name} is {size} characters as JSON; the limit is {MAX_METADATA_CHARS}")
    return copy.deepcopy(value)


def _unit_float(value: Any, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{name} must be a number in [0, 1], got {type(value).__name__}")
    value = float(value)
    if math.isnan(value) or not 0.0 <= value <= 1.0:
        raise ValueError(f"{name} must be in [0, 1], got {value}")
    return value
