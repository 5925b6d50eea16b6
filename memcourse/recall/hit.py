"""A search result with the numbers behind its rank.

Recall produces hits; stores return them; the packer and the explorer read them. A learner
looking at a ranking should be able to see *why* each memory is where it is, so every hit
carries its score breakdown (channel ranks, fused score, decay, ...).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from memcourse.records import MemoryRecord


@dataclass
class Hit:
    """A recalled record, its final score, and the numbers that produced it."""

    record: MemoryRecord
    score: float
    breakdown: dict[str, Any] = field(default_factory=dict)
