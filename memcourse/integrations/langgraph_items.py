"""LangGraph items, ops and values, read the way :class:`~memcourse.integrations.langgraph.MemcourseStore` reads them.

Functions, each usable (and tested) on its own: a LangGraph item stored in a memory's metadata
(:data:`ENVELOPE`) and back, the argument checks ``batch`` must repeat for ops, the namespace
prefix/suffix match, its search filters (``{"tags": ["x"]}``, ``{"score": {"$gte": 3}}``; unknown
``$operators`` are refused before a batch writes anything), every string inside a JSON value
(what the write gate scans) and a value as recall-able text (what the store indexes).
"""

from __future__ import annotations

import copy
import operator
from typing import Any

from langgraph.store.base import (
    GetOp,
    Item,
    ListNamespacesOp,
    MatchCondition,
    PutOp,
    SearchItem,
    SearchOp,
    validate_op_namespace,
)

from memcourse.records import MemoryRecord

__all__ = ["ENVELOPE", "check_filter", "check_op", "envelope_of", "matches_filter", "namespace_matches", "strings_in",
           "to_item", "value_text"]

#: Where the adapter keeps an item's namespace, key and value inside ``record.metadata``.
ENVELOPE = "langgraph"

_ORDER = {"$gt": operator.gt, "$gte": operator.ge, "$lt": operator.lt, "$lte": operator.le}
_OPERATORS = ("$eq", "$ne", *_ORDER)


def namespace_matches(condition: MatchCondition, namespace: tuple[str, ...]) -> bool:
    """LangGraph's prefix/suffix match, where ``"*"`` in the pattern matches any one label."""
    path = tuple(condition.path)
    if len(namespace) < len(path):
        return False
    labels = namespace[: len(path)] if condition.match_type == "prefix" else namespace[len(namespace) - len(path) :]
    return all(want == "*" or want == have for want, have in zip(path, labels, strict=True))


def check_filter(filter: dict[str, Any] | None) -> None:
    """Refuse unknown ``$operators`` up front (before any write in the batch)."""
    if filter is None:
        return
    if not isinstance(filter, dict):
        raise TypeError(f"filter must be a dict, got {type(filter).__name__}")
    for expected in filter.values():
        if isinstance(expected, dict):
            unknown = [name for name in expected if name.startswith("$") and name not in _OPERATORS]
            if unknown:
                raise ValueError(f"unsupported filter operator {unknown[0]!r}; use one of {', '.join(_OPERATORS)}")
            check_filter({k: v for k, v in expected.items() if not k.startswith("$")})


def matches_filter(value: dict[str, Any], filter: dict[str, Any] | None) -> bool:
    """Whether an item's value passes a LangGraph search filter."""
    return all(_matches(value.get(name), expected) for name, expected in (filter or {}).items())


def _matches(actual: Any, expected: Any) -> bool:
    if isinstance(expected, dict):
        if any(name.startswith("$") for name in expected):
            return all(_compare(actual, name, operand) for name, operand in expected.items())
        return isinstance(actual, dict) and all(_matches(actual.get(k), v) for k, v in expected.items())
    if isinstance(expected, (list, tuple)):
        return (
            isinstance(actual, (list, tuple))
            and len(actual) == len(expected)
            and all(_matches(a, e) for a, e in zip(actual, expected, strict=True))
        )
    return actual == expected


def _compare(actual: Any, name: str, operand: Any) -> bool:
    if name == "$eq":
        return actual == operand
    if name == "$ne":
        return actual != operand
    try:
        return _ORDER[name](float(actual), float(operand))
    except (TypeError, ValueError):
        return False  # missing or non-numeric: no match


def strings_in(value: Any) -> list[str]:
    """Every string in a JSON value, dict keys included: what the write gate scans."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [text for k, v in value.items() for text in [k, *strings_in(v)]]
    if isinstance(value, (list, tuple)):
        return [text for v in value for text in strings_in(v)]
    return []


def value_text(value: Any, path: str = "") -> str:
    """A value as recall-able text: ``{"food": {"likes": ["面条"]}}`` -> ``"food.likes: 面条"``."""
    if isinstance(value, dict):
        parts = [value_text(v, f"{path}.{k}" if path else k) for k, v in value.items()]
    elif isinstance(value, (list, tuple)):
        parts = [value_text(v, path) for v in value]
    elif value is None:
        return ""
    else:
        return f"{path}: {value}" if path else str(value)
    return "; ".join(part for part in parts if part)


def check_op(op: Any) -> None:
    """LangGraph's own argument checks, which ``batch`` must repeat: the convenience methods
    (``put``, ``search``...) run them, but ops handed straight to ``batch`` skip them."""
    if not isinstance(op, (GetOp, PutOp, SearchOp, ListNamespacesOp)):
        raise ValueError(f"Unknown operation type: {type(op)}")
    validate_op_namespace(op)
    if isinstance(op, (GetOp, PutOp)) and not isinstance(op.key, str):
        raise TypeError(f"key must be a string, got {type(op.key).__name__}")
    # Write-only namespace rules (not empty, no "langgraph" root) belong to ``put``, which
    # BaseStore checks before batching; ``batch`` takes what ``InMemoryStore.batch`` takes.
    if isinstance(op, PutOp) and op.value is not None:
        ttl = op.ttl
        if ttl is not None and (isinstance(ttl, bool) or not isinstance(ttl, (int, float)) or not ttl > 0
                                or ttl == float("inf")):
            raise ValueError(f"ttl must be a positive, finite number of minutes or None, got {ttl!r}")
    if isinstance(op, (SearchOp, ListNamespacesOp)):
        for name in ("limit", "offset"):
            number = getattr(op, name)
            if isinstance(number, bool) or not isinstance(number, int) or number < 0:
                raise ValueError(f"{name} must be an int >= 0, got {number!r}")
    if isinstance(op, SearchOp):
        check_filter(op.filter)
        if op.query is not None and not isinstance(op.query, str):
            raise TypeError(f"query must be a string, got {type(op.query).__name__}")
    if isinstance(op, ListNamespacesOp):
        depth = op.max_depth
        if depth is not None and (isinstance(depth, bool) or not isinstance(depth, int) or depth < 1):
            raise ValueError(f"max_depth must be an int >= 1, got {depth!r}")
        for condition in op.match_conditions or ():
            if condition.match_type not in ("prefix", "suffix"):
                raise ValueError(f"Unsupported match type: {condition.match_type}")


def envelope_of(record: MemoryRecord) -> dict[str, Any] | None:
    """The LangGraph item a record carries (namespace, key, value), or ``None`` for a plain memory."""
    envelope = record.metadata.get(ENVELOPE)
    return envelope if isinstance(envelope, dict) and isinstance(envelope.get("value"), dict) else None


def item_envelope(record: MemoryRecord) -> dict[str, Any]:
    """The envelope of a record already known to carry an item (checked by the store's
    ``_is_item``); a plain memory here is a bug in the caller, reported as one."""
    envelope = envelope_of(record)
    if envelope is None:
        raise ValueError(f"{record.memory_id!r} carries no LangGraph item")
    return envelope


def to_item(record: MemoryRecord) -> Item:
    """The LangGraph ``Item`` a record that carries one stands for."""
    envelope = item_envelope(record)
    return Item(namespace=tuple(envelope["namespace"]), key=envelope["key"],
                value=copy.deepcopy(envelope["value"]),  # callers may mutate what they get
                created_at=record.created_at, updated_at=record.updated_at)


def to_search_item(record: MemoryRecord, *, score: float | None = None) -> SearchItem:
    """The ``SearchItem`` for a record that carries an item, with its recall score."""
    envelope = item_envelope(record)
    return SearchItem(namespace=tuple(envelope["namespace"]), key=envelope["key"],
                      value=copy.deepcopy(envelope["value"]), created_at=record.created_at,
                      updated_at=record.updated_at, score=score)
