"""How much a memory matters: a small, explainable score in [0, 1].

Recall ranks by relevance first; importance then nudges the score
(:func:`memcourse.recall.decay.importance_factor`, x0.95 to x1.05), so of two memories that
match a query about equally, the one that matters more comes first. The score follows the engineering guide's
advice (section 3.2): look at how long-lived and how goal-related a fact is, and keep the
function simple enough that every score can be explained.

Rule-based score (used for every rule candidate, and for a model candidate whose own
``importance`` is missing or invalid):

==================  =====  ==========================================================
memory type         base   why
==================  =====  ==========================================================
rule                0.9    shapes every answer (admin only)
preference          0.8    shapes every answer to this user
entity              0.7    stable facts: project, home, tools
task                0.7    what the user is working on now
decision            0.6    a choice to explain later
event               0.4    happened once; useful, rarely decisive
==================  =====  ==========================================================

Then: +0.1 when the user explicitly asked to remember it ("记住", "remember"), -0.3 when the
text reads as a passing state ("有点累", "tired"); the result is clamped to [0.1, 1.0].

A model may supply its own importance; it is used only if it is a real number in [0, 1]
(anything else is reported and the rule-based score is used instead).
"""

from __future__ import annotations

import math
from typing import Any

from memcourse.recognisers import TRANSIENT
from memcourse.records import MemoryType

BASE = {
    MemoryType.RULE: 0.9,
    MemoryType.PREFERENCE: 0.8,
    MemoryType.ENTITY: 0.7,
    MemoryType.TASK: 0.7,
    MemoryType.DECISION: 0.6,
    MemoryType.EVENT: 0.4,
}
EXPLICIT_BONUS = 0.1
TRANSIENT_PENALTY = 0.3


def rule_importance(memory_type: MemoryType | str, content: str, *, explicit: bool = False) -> float:
    """The documented rule-based score for one memory."""
    score = BASE[MemoryType(memory_type)]
    if explicit:
        score += EXPLICIT_BONUS
    if TRANSIENT.search(content):
        score -= TRANSIENT_PENALTY
    return round(min(1.0, max(0.1, score)), 3)


def model_importance(value: Any) -> float | None:
    """A model-provided importance if it is usable (a finite number in [0, 1]), else None."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    value = float(value)
    if not math.isfinite(value) or not 0.0 <= value <= 1.0:
        return None
    return value
