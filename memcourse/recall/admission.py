"""The read gate: which recalled memories may enter a prompt.

Being stored is not the same as being usable. Between the write and this read a memory may
have expired, been superseded, or been doubtful all along; and a memory that reached the
store through some other door (an import, a bug, an attacker) may carry an instruction.
So every recalled memory passes one more gate before it is packed into a prompt::

    admitted = relevant AND active AND not expired AND confident enough AND safe AND permitted

Each check, in that order, with the name it reports when it fails:

========== ==============================================================================
relevance  the ranking said this memory matches the query (``relevant=``)
status     the record is active (not superseded, not deleted)
expiry     ``expires_at`` is unset or still in the future
confidence ``confidence >= min_confidence`` (0.6 by default: below that, a guess)
safety     :func:`memcourse.guards.unsafe_for_context` finds no secret and no injected
           instruction in the content, subject or tags (the same normalised detectors as
           the write path, run again at read time)
permission a *rule* (or text that reads like a standing rule, "每次回答都以……开头") counts
           only when an administrator configured it; a user may state preferences, never
           rewrite the agent's rules
========== ==============================================================================

The first failing check is the reason, so a refusal always explains itself.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime
from typing import Iterable, Protocol, TypeVar

from memcourse.guards import Normalised, find_behaviour_rules, find_privilege_claims, normalise, unsafe_for_context
from memcourse.records import MemoryRecord, MemoryType, Source, Status, parse_timestamp

__all__ = ["Admission", "CHECKS", "MIN_CONFIDENCE", "admit", "admit_many", "trust_problem"]

MIN_CONFIDENCE = 0.6
#: The checks, in the order they run; ``Admission.check`` is one of these (or "" if admitted).
CHECKS = ("relevance", "status", "expiry", "confidence", "safety", "permission")

class HasRecord(Protocol):
    """A hit, or anything else that carries the record it ranks."""

    @property
    def record(self) -> MemoryRecord: ...


T = TypeVar("T", bound="HasRecord | MemoryRecord")


@dataclass(frozen=True)
class Admission:
    """The gate's decision. ``reason`` starts with the failed check's name."""

    admitted: bool
    reason: str
    check: str = ""  # the failed check ("" when admitted)

    def __bool__(self) -> bool:
        return self.admitted


def trust_problem(record: MemoryRecord) -> tuple[str, str] | None:
    """The time-independent checks (status, then safety, then permission) as ``(check, reason)``, or
    ``None`` if the record passes them. Context packing re-runs exactly these.

    The content is normalised once and every detector reads that one result (normalising
    is about half the cost of a scan)."""
    if record.status is not Status.ACTIVE:
        return "status", f"status: the memory is {record.status.value}, not active"
    content = normalise(record.content)
    # Safety first: an injected instruction is also a directive, and "unsafe" is the truer name for it.
    texts: tuple[Normalised | str, ...] = (content, record.subject, *record.tags)
    findings = [f for text in texts for f in unsafe_for_context(text)]
    if findings:
        return "safety", "safety: " + "; ".join(str(finding) for finding in findings)
    if record.source is not Source.ADMIN_CONFIGURED:  # user, tool and model alike
        if record.memory_type is MemoryType.RULE:
            return "permission", (
                f"permission: a rule must be admin_configured, this one is {record.source.value}"
            )
        rules = find_behaviour_rules(content)
        if rules:
            return "permission", (
                f"permission: reads as a standing rule ({rules[0]}) but is {record.source.value}, "
                "not admin_configured"
            )
        claims = find_privilege_claims(content)
        if claims:
            return "permission", (
                f"permission: claims privileges ({claims[0]}) but is {record.source.value}, not admin_configured"
            )
    return None


def admit(
    record: MemoryRecord,
    *,
    now: datetime,
    min_confidence: float = MIN_CONFIDENCE,
    relevant: bool = True,
) -> Admission:
    """Decide whether ``record`` may enter the prompt at time ``now`` (timezone-aware)."""
    if not isinstance(record, MemoryRecord):
        raise TypeError(f"admit expects a MemoryRecord, got {type(record).__name__}")
    now = parse_timestamp(now, "now")
    if isinstance(min_confidence, bool) or not isinstance(min_confidence, (int, float)) or not (
        math.isfinite(min_confidence) and 0.0 <= min_confidence <= 1.0
    ):
        raise ValueError(f"min_confidence must be in [0, 1], got {min_confidence!r}")
    if not relevant:
        return Admission(False, "relevance: not relevant to the query", "relevance")
    problem = trust_problem(record) if record.status is not Status.ACTIVE else None
    if problem:  # status first, as documented
        return Admission(False, problem[1], problem[0])
    if record.expires_at is not None and record.is_expired(now):
        return Admission(False, f"expiry: expired at {record.expires_at.isoformat()}", "expiry")
    if record.confidence < min_confidence:
        return Admission(
            False,
            f"confidence: {record.confidence:.2f} is below the minimum {min_confidence:.2f}",
            "confidence",
        )
    problem = trust_problem(record)
    if problem:
        return Admission(False, problem[1], problem[0])
    return Admission(True, "admitted", "")


def admit_many(
    items: Iterable[T], *, now: datetime, min_confidence: float = MIN_CONFIDENCE
) -> tuple[list[T], list[tuple[T, Admission]]]:
    """Split hits (anything with a ``.record``) or records into ``(admitted, rejected)``,
    keeping their order; each rejected item comes with its :class:`Admission`."""
    kept: list[T] = []
    rejected: list[tuple[T, Admission]] = []
    for item in items:
        record = item if isinstance(item, MemoryRecord) else item.record
        decision = admit(record, now=now, min_confidence=min_confidence)
        if decision:
            kept.append(item)
        else:
            rejected.append((item, decision))
    return kept, rejected
