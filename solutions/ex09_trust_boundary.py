"""Solution 09 — the read-time guard (see exercises/ex09_trust_boundary.py)."""

from __future__ import annotations

from memcourse import MemoryRecord, MemoryType, Source, Status
from memcourse.guards import find_behaviour_rules, unsafe_for_context


def _problem(record: MemoryRecord, user_id: str, agent_id: str | None) -> str | None:
    if record.user_id != user_id:
        return f"tenant: belongs to user {record.user_id!r}, not {user_id!r}"
    if agent_id is not None and record.agent_id != agent_id:
        return f"tenant: belongs to agent {record.agent_id!r}, not {agent_id!r}"
    if record.status is not Status.ACTIVE:
        return f"status: {record.status.value}, not active"
    if record.source is not Source.ADMIN_CONFIGURED:
        if record.memory_type is MemoryType.RULE:
            return f"permission: a rule from {record.source.value}, not admin_configured"
        rules = find_behaviour_rules(record.content)
        if rules:
            return f"permission: reads as a standing rule ({rules[0]}) from {record.source.value}"
    findings = unsafe_for_context(record.content)
    if findings:
        return "safety: " + "; ".join(str(finding) for finding in findings)
    return None


def guard_for_prompt(
    records: list[MemoryRecord],
    *,
    user_id: str,
    agent_id: str | None = None,
) -> tuple[list[MemoryRecord], list[tuple[MemoryRecord, str]]]:
    kept: list[MemoryRecord] = []
    dropped: list[tuple[MemoryRecord, str]] = []
    for record in records:
        problem = _problem(record, user_id, agent_id)
        if problem is None:
            kept.append(record)
        else:
            dropped.append((record, problem))
    return kept, dropped
