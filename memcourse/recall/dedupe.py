"""When is a new memory the same fact as an old one?

A store that supersedes near-duplicates ("用户喜欢Python" then "用户最喜欢用Python") keeps one
active version of a fact instead of a pile of restatements. Getting it wrong the other way
is worse: two distinct facts that *look* alike ("Ticket SUP-1 was closed" / "Ticket SUP-2
was closed") must both survive. This module holds that decision, so every store makes it
the same way and a test can pin it without a database.
"""

from __future__ import annotations

from memcourse.records import MemoryRecord

#: Cosine similarity at or above which two readable texts count as the same fact.
DEFAULT_THRESHOLD = 0.92


def may_supersede(old: MemoryRecord, new: MemoryRecord, similarity: float, *, threshold: float = DEFAULT_THRESHOLD) -> bool:
    """Should ``new`` supersede ``old``? Same user, agent and type, and similar enough."""
    if (old.user_id, old.agent_id, old.memory_type) != (new.user_id, new.agent_id, new.memory_type):
        return False
    return similarity >= threshold
