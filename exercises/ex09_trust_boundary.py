"""Exercise 09 — the read-time guard: what may enter a prompt, and for whom.

Difficulty: ★★☆☆ · Expected time: 30 minutes · Notebook: 09_trust_boundary.ipynb

Why: the write gate is one door. Memories also arrive through imports, migrations, bugs and
other agents, so the prompt needs a second door of its own. It must hold two lines: a memory
of another user never reaches this user's prompt (tenant isolation), and a memory that carries
an instruction or a secret never reaches any prompt (injection and leak defence).

Build one function:

``guard_for_prompt(records, *, user_id, agent_id=None)`` -> ``(kept, dropped)``
    Walk ``records`` in order. For each one, the first check that fails decides, and the record
    goes to ``dropped`` as a pair ``(record, reason)`` whose ``reason`` *starts with* the check's
    name:

    1. ``"tenant"``: ``record.user_id`` is not ``user_id``, or ``agent_id`` is given and
       ``record.agent_id`` is not it.
    2. ``"status"``: the record is not active (``Status.ACTIVE``).
    3. ``"permission"``: the record is not ``Source.ADMIN_CONFIGURED`` and it is a
       ``MemoryType.RULE`` or its content reads as a standing rule
       (``memcourse.guards.find_behaviour_rules``).
    4. ``"safety"``: its content holds a secret or an injected instruction
       (``memcourse.guards.unsafe_for_context``). Never put the raw secret in the reason: use
       the findings' ``str()``, which is masked.

    Every other record goes to ``kept``, in the original order. Do not change the records.

Done when ``memcourse grade 09`` shows 09 at 100%.
"""

from __future__ import annotations

from memcourse import MemoryRecord


def guard_for_prompt(
    records: list[MemoryRecord],
    *,
    user_id: str,
    agent_id: str | None = None,
) -> tuple[list[MemoryRecord], list[tuple[MemoryRecord, str]]]:
    raise NotImplementedError(
        "ex09 guard_for_prompt: for each record check tenant (user_id, agent_id), then status, then "
        "permission (rule or find_behaviour_rules, unless admin_configured), then safety "
        "(unsafe_for_context); first failure -> (record, 'check: ...') in dropped, else kept"
    )
