"""Exercise 03 — the two gates: what may be written, and what may be recalled.

Difficulty: ★★★☆ · Expected time: 35 minutes · Notebook: 03_policy_gate.ipynb

Why: in production the candidate memories often come from an LLM extractor, not from regular
expressions. The extractor proposes; a gate you control decides. And a memory that got in is
not automatically fit for every prompt: it may have expired, or it may be a guess. "Remember
right, not more" puts it as *write conservatively, recall conservatively*.

Build two functions. Each returns ``(allowed, reason)`` where ``reason`` is one of the short
codes below; checks run in the order listed and the first one that fails decides.

``gate_candidate(candidate, *, min_inferred_confidence=0.8) -> tuple[bool, str]`` (write gate)
    1. ``"secret"``: ``memcourse.guards.find_secrets`` finds something in the content or subject.
       (The detectors normalise the text first, so look-alike letters and split words are
       caught; and they judge what would be stored: "I forgot my password" is not a secret.
       Do not add keyword checks of your own.)
    2. ``"injection"``: ``memcourse.guards.find_injection`` finds something in the content.
    3. ``"rule_from_non_admin"``: the candidate is a ``rule`` memory, *or* its content is a
       behaviour rule (``find_behaviour_rules``), and its source is not ``admin_configured``.
    4. ``"low_confidence"``: source ``llm_inferred`` with confidence below the threshold.
    5. otherwise ``(True, "ok")``.

``usable_memory(record, now, *, min_confidence=0.6) -> tuple[bool, str]`` (read gate)
    1. ``"inactive"``: status is not ``active``.
    2. ``"expired"``: ``expires_at`` is set and is at or before ``now``.
    3. ``"low_confidence"``: confidence below ``min_confidence``.
    4. ``"rule_not_admin"``: a ``rule`` memory whose source is not ``admin_configured`` (a user, a
       tool or a model: every source but an administrator).
    5. ``"unsafe"``: ``memcourse.guards.unsafe_for_context(record.content)`` finds something.
    6. otherwise ``(True, "ok")``.

Done when ``memcourse grade 03`` shows 03 at 100%.
"""

from __future__ import annotations

from datetime import datetime

from memcourse import MemoryRecord


def gate_candidate(candidate: MemoryRecord, *, min_inferred_confidence: float = 0.8) -> tuple[bool, str]:
    raise NotImplementedError("ex03 gate_candidate: not written yet (stuck? memcourse hint 03)")


def usable_memory(record: MemoryRecord, now: datetime, *, min_confidence: float = 0.6) -> tuple[bool, str]:
    raise NotImplementedError("ex03 usable_memory: not written yet (stuck? memcourse hint 03)")
