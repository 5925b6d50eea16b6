"""Field checks shared by records and stores: one door for every value that enters memory.

A memory store is a trust boundary. Its fields come from users, from LLMs, from LangGraph
namespaces and from files on disk, and each of them ends up somewhere that cares: in a prompt
(where a newline inside an id can forge a header), in a JSON file (where a lone surrogate
cannot be encoded), in a comparison (where ``"bob "`` and ``"bob"`` are different tenants).
So every value is checked once, here, and a bad one raises ``TypeError`` (wrong kind) or
``ValueError`` (right kind, bad value) with a message that names the field. Nothing is
written before these checks pass, so a failed call changes nothing.

The rules, with their reasons:

- **Text** (subject, content, tags, ...) is a ``str`` that UTF-8 can encode: a lone surrogate
  such as ``"\\ud800"`` (what a bad JSON decoder or a cut emoji leaves behind) is refused
  at construction, not when a store first tries to save it.
- **Identifiers** (``memory_id``, ``user_id``, ``agent_id``, ``source_conversation_id``,
  ``superseded_by``) are one line of visible text: Unicode letters, marks, numbers,
  punctuation and symbols (so ``张三``, ``alice@example.com``, ``auth0|123``, UUIDs and the
  ids :func:`memcourse.records.make_memory_id` makes are all fine), with plain spaces
  (U+0020) allowed *between* them because LangGraph namespace labels, which become user ids,
  may contain them. Refused: control characters (newlines, tabs, NUL), format characters
  (zero-width, bidi overrides, tag characters), other kinds of space, private-use and
  unassigned code points, and whitespace at either end.
- **Identifiers are compared exactly and never rewritten.** ``" bob"`` is *refused*, not
  stripped to ``"bob"``: if an upstream system keeps ``"bob"`` and ``"bob "`` apart, quietly
  merging them would hand one tenant the other's memories; if it does not, the caller has a
  bug worth seeing. For the same reason ids are not Unicode-normalised (NFKC would merge
  ``"ｂｏｂ"`` into ``"bob"``). :func:`check_scope_id` is the one place user and agent ids
  are checked; records, both stores and the LangGraph adapter all call it.
- **Timestamps** are timezone-aware and between :data:`MIN_TIMESTAMP` and
  :data:`MAX_TIMESTAMP`. Year 1 with a positive offset cannot even be converted to UTC
  (``OverflowError``), and no memory is written in 1850 or expires in 3100.
- **Metadata** is a JSON object at most :data:`MAX_METADATA_DEPTH` levels deep (a deeper
  one, or one that contains itself, would otherwise end in ``RecursionError``).
"""

from __future__ import annotations

import copy
import json
import math
import unicodedata
from datetime import datetime, timezone
from typing import Any, Literal, overload

#: Earliest and latest instant a record may carry (UTC). Wide enough for imported history and
#: far-future expiry dates; narrow enough that every conversion and subtraction stays exact.
MIN_TIMESTAMP = datetime(1900, 1, 1, tzinfo=timezone.utc)
MAX_TIMESTAMP = datetime(3000, 1, 1, tzinfo=timezone.utc)

#: Deepest nesting of dicts and lists allowed in ``metadata`` (``{"a": [1]}`` is depth 2).
#: The LangGraph adapter wraps an item's value two levels down, so values nested up to 30
#: levels fit; deeper structures are not "small structured extras".
MAX_METADATA_DEPTH = 32

#: Longest identifier of each kind.
MAX_SCOPE_ID_CHARS = 200  # user_id, agent_id
MAX_MEMORY_ID_CHARS = 300  # memory_id, superseded_by
MAX_CONVERSATION_ID_CHARS = 500  # source_conversation_id

# Unicode general categories an identifier may use: letters, marks, numbers, punctuation,
# symbols. Everything in C* (control, format, surrogate, private use, unassigned) and Z*
# (separators) is refused, except the plain space between visible characters.
_ID_CATEGORIES = frozenset("L M N P S".split())
_CATEGORY_NAMES = {
    "Cc": "a control character", "Cf": "a format character", "Cs": "a surrogate", "Co": "a private-use character",
    "Cn": "an unassigned code point", "Zs": "a space other than U+0020", "Zl": "a line separator",
    "Zp": "a paragraph separator",
}


def shorten(value: Any, limit: int = 80) -> str:
    """``repr(value)``, cut to ``limit`` characters, so an error about a 1 MB string is short."""
    text = repr(value)
    return text if len(text) <= limit else f"{text[: limit - 12]}...({len(text)} chars)"


def check_encodable(value: str, name: str) -> str:
    """Refuse a string UTF-8 cannot encode (lone or split surrogate halves), naming where."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as error:
        raise ValueError(
            f"{name} contains an unpaired surrogate {value[error.start]!r} at position {error.start}; "
            "it is not valid Unicode text"
        ) from None
    return value


def check_text(value: Any, name: str, limit: int) -> str:
    """A non-empty string of at most ``limit`` characters, surrounding whitespace stripped."""
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a string, got {type(value).__name__}")
    check_encodable(value, name)
    value = value.strip()
    if not value:
        raise ValueError(f"{name} must not be empty or whitespace-only")
    if len(value) > limit:
        raise ValueError(f"{name} is {len(value)} characters long; the limit is {limit}")
    return value


def check_identifier(value: Any, name: str, limit: int) -> str:
    """An identifier in the documented character set (see the module docstring), unchanged."""
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a string, got {type(value).__name__}")
    if not value:
        raise ValueError(f"{name} must not be empty")
    if len(value) > limit:
        raise ValueError(f"{name} is {len(value)} characters long; the limit is {limit}")
    check_encodable(value, name)
    # Printable ASCII is letters, digits, punctuation, symbols and the space: all allowed, so
    # the common case (generated ids, plain names) skips the per-character look-up.
    for position, char in enumerate(() if value.isascii() and value.isprintable() else value):
        if char != " " and unicodedata.category(char)[0] not in _ID_CATEGORIES:
            category = unicodedata.category(char)
            label = f"U+{ord(char):04X} {unicodedata.name(char, '')}".rstrip()
            raise ValueError(
                f"{name} {shorten(value)} contains {label} ({_CATEGORY_NAMES.get(category, category)}) at position "
                f"{position}; ids may hold letters, marks, numbers, punctuation, symbols and "
                "inner spaces only (no control, format or line-breaking characters)"
            )
    if value[0] == " " or value[-1] == " ":
        raise ValueError(
            f"{name} {shorten(value)} has a space at the start or end; ids are compared exactly and "
            "never stripped (strip it yourself if that is what you mean)"
        )
    return value


# Typed for the caller: without ``optional=True`` the result is never None.
@overload
def check_scope_id(value: Any, name: str, *, optional: Literal[False] = False) -> str: ...


@overload
def check_scope_id(value: Any, name: str, *, optional: bool) -> str | None: ...


def check_scope_id(value: Any, name: str, *, optional: bool = False) -> str | None:
    """THE check for ``user_id`` and ``agent_id``, wherever they come from.

    Returns the id unchanged (ids are compared exactly), or ``None`` when ``optional`` and the
    value is ``None`` ("any agent"). Refuses wrong types, empty ids and anything outside the
    identifier character set, including surrounding whitespace, with a ``TypeError`` or
    ``ValueError`` naming ``name``.
    """
    if value is None and optional:
        return None
    return check_identifier(value, name, MAX_SCOPE_ID_CHARS)


def parse_timestamp(value: Any, field_name: str) -> datetime:
    """An aware datetime or ISO-8601 string with an offset, in range, returned in UTC."""
    if isinstance(value, str):
        check_encodable(value, field_name)
        try:
            value = datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            raise ValueError(f"{field_name}: {shorten(value)} is not an ISO-8601 timestamp") from None
    if not isinstance(value, datetime):
        raise TypeError(f"{field_name} must be a datetime or ISO-8601 string, got {type(value).__name__}")
    if value.tzinfo is None or value.utcoffset() is None:
        raise ValueError(f"{field_name} must be timezone-aware (got naive {value.isoformat()})")
    try:
        utc = value.astimezone(timezone.utc)
    except OverflowError:  # e.g. year 1 at +05:00 is before datetime.min in UTC
        utc = None
    if utc is None or not MIN_TIMESTAMP <= utc < MAX_TIMESTAMP:
        raise ValueError(
            f"{field_name}: {value.isoformat()} is outside the supported range "
            f"[{MIN_TIMESTAMP.isoformat()}, {MAX_TIMESTAMP.isoformat()})"
        )
    return utc


def check_json_object(value: Any, name: str, *, max_chars: int, max_depth: int = MAX_METADATA_DEPTH) -> dict[str, Any]:
    """A copy of a JSON object that survives a round trip unchanged: string keys all the way
    down, finite numbers, encodable text, no tuples or sets (which JSON would silently turn
    into lists or refuse), at most ``max_depth`` levels and ``max_chars`` characters as JSON.

    The walk uses an explicit stack, so a structure nested 100,000 deep (or one that contains
    itself) gets a ValueError naming the path, not a RecursionError."""
    if not isinstance(value, dict):
        raise TypeError(f"{name} must be a dict, got {type(value).__name__}")
    if not value:  # most records carry no metadata: nothing to walk, measure or copy
        return {}
    stack: list[tuple[Any, str, int]] = [(value, name, 1)]
    while stack:
        item, where, depth = stack.pop()
        if isinstance(item, (dict, list)):
            if depth > max_depth:
                raise ValueError(f"{where}: nested more than {max_depth} levels deep (the limit for {name})")
            if isinstance(item, dict):
                for key, inner in item.items():
                    if not isinstance(key, str):
                        raise TypeError(f"{where}: keys must be strings, got {type(key).__name__} {key!r}")
                    check_encodable(key, f"{where} key")
                    stack.append((inner, f"{where}.{key}", depth + 1))
            else:
                for position, inner in enumerate(item):
                    stack.append((inner, f"{where}[{position}]", depth + 1))
        elif isinstance(item, str):
            check_encodable(item, where)
        elif isinstance(item, float) and not math.isfinite(item):
            raise ValueError(f"{where}: {item} is not valid JSON")
        elif isinstance(item, int) and not isinstance(item, bool) and not -(2**63) <= item < 2**63:
            raise ValueError(f"{where}: integer outside the 64-bit range JSON readers agree on")
        elif item is not None and not isinstance(item, (int, float, bool)):
            raise TypeError(f"{where}: {type(item).__name__} is not JSON-serialisable")
    size = len(json.dumps(value, ensure_ascii=False, separators=(",", ":")))
    if size > max_chars:
        raise ValueError(f"{name} is {size} characters as JSON; the limit is {max_chars}")
    return copy.deepcopy(value)


def check_unit_float(value: Any, name: str) -> float:
    """A number in [0, 1] (bool and numeric strings are refused: ``"0.5"`` is a typo's sign)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{name} must be a number in [0, 1], got {type(value).__name__}")
    if isinstance(value, int) and not 0 <= value <= 1:  # float(10**400) would overflow
        raise ValueError(f"{name} must be in [0, 1], got {shorten(value)}")
    value = float(value)
    if math.isnan(value) or not 0.0 <= value <= 1.0:
        raise ValueError(f"{name} must be in [0, 1], got {value}")
    return value
