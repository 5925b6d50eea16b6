"""Solution 03 — the write gate and the read gate (see exercises/ex03_policy_gate.py)."""

from __future__ import annotations

from datetime import datetime

from memcourse import MemoryRecord, MemoryType, Source, Status
from memcourse.guards import find_behaviour_rules, find_injection, find_secrets, unsafe_for_context


def gate_candidate(candidate: MemoryRecord, *, min_inferred_confidence: float = 0.8) -> tuple[bool, str]:
    if find_secrets(candidate.content) or find_secrets(candidate.subject):
        return False, "secret"
    if find_injection(candidate.content):
        return False, "injection"
    is_rule = candidate.memory_type is MemoryType.RULE or bool(find_behaviour_rules(candidate.content))
    if is_rule and candidate.source is not Source.ADMIN_CONFIGURED:
        return False, "rule_from_non_admin"
    if candidate.source is Source.LLM_INFERRED and candidate.confidence < min_inferred_confidence:
        return False, "low_confidence"
    return True, "ok"


def usable_memory(record: MemoryRecord, now: datetime, *, min_confidence: float = 0.6) -> tuple[bool, str]:
    if record.status is not Status.ACTIVE:
        return False, "inactive"
    if record.expires_at is not None and record.expires_at <= now:
        return False, "expired"
    if record.confidence < min_confidence:
        return False, "low_confidence"
    if record.memory_type is MemoryType.RULE and record.source is not Source.ADMIN_CONFIGURED:
        return False, "rule_not_admin"
    if unsafe_for_context(record.content):
        return False, "unsafe"
    return True, "ok"
