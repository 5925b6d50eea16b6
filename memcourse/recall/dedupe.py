"""When is a new memory the same fact as an old one?

A store that supersedes near-duplicates ("The user prefers short answers" then "User likes
answers short") keeps one active version of a fact instead of a pile of restatements.
Getting it wrong the other way is worse: a superseded memory drops out of recall, so two
distinct facts that merely *look* alike must both survive. An embedding model is a poor
judge of that: it reads "Ticket SUP-69636 was closed" and "Ticket SUP-59189 was closed" as
nearly the same sentence (cosine 0.97 with all-MiniLM-L6-v2), and "次日留存 56%" and "96%"
likewise. So similarity is necessary, never sufficient. :func:`may_supersede` says yes only
when all of these hold:

1. **Same scope and type**: same user, agent and memory type.
2. **Not an event.** An event happened at a time; a second, similar event is another event
   ("went hiking in May", "went hiking in June"), not a correction of the first. Events are
   never superseded by similarity (updating one by its id still works).
3. **Same specifics** (:func:`memcourse.same_fact.same_specifics`). Every number, identifier
   and date in one text is in the other
   (compared as tokens containing a digit: ``SUP-69636``, ``56``, ``2024``, ``v2.4.0``), and
   neither text is the other with one content word swapped ("提醒发短信" / "提醒发电话",
   "Thursday" / "Friday": a changed value, which a model that reads the language scores as a
   near-duplicate). Near-duplicates whose specifics differ are distinct facts; if one really
   replaces the other, the writer updates it by subject (same ``memory_id``) and says so.
4. **Similar enough**: cosine similarity >= ``threshold``.

**0.85 or 0.92?** The engineering guide uses both, for two jobs: 0.92 to deduplicate a
restatement at write time (§3.3) and 0.85 to treat a new statement as an update of an old fact
(§5.2); "Remember right, not more" merges at 0.85 in its customer-service code (§5). The
library has one threshold, for both, and takes the higher: the data in docs/benchmarks.md (the
"Supersede" section) and notebook 09's labelled pairs show why: on the shipped recall set,
pairs of *distinct* facts sit well above 0.85, and the rules above, not the threshold, are
what keep them apart. Lowering the threshold merges more restatements and, without rules 2-3, more distinct facts.
"""

from __future__ import annotations

import math

from memcourse.records import MemoryRecord, MemoryType
from memcourse.same_fact import same_specifics

__all__ = ["DEFAULT_THRESHOLD", "merged_by_similarity", "may_supersede"]

#: Cosine similarity at or above which two readable texts may count as the same fact.
DEFAULT_THRESHOLD = 0.92


def merged_by_similarity(memory_type: MemoryType) -> bool:
    """Can a memory of this type be superseded by a similar one at all (rule 2)? A store
    asks this before paying for a neighbour search."""
    return memory_type is not MemoryType.EVENT


def may_supersede(
    old: MemoryRecord, new: MemoryRecord, similarity: float, *, threshold: float = DEFAULT_THRESHOLD
) -> bool:
    """Should ``new`` supersede ``old``? See the module docstring for the four conditions."""
    if not isinstance(old, MemoryRecord) or not isinstance(new, MemoryRecord):
        raise TypeError("may_supersede compares two MemoryRecord objects")
    if isinstance(similarity, bool) or not isinstance(similarity, (int, float)) or math.isnan(similarity):
        raise ValueError(f"similarity must be a number, got {similarity!r}")
    if (old.user_id, old.agent_id, old.memory_type) != (new.user_id, new.agent_id, new.memory_type):
        return False
    if not merged_by_similarity(new.memory_type):
        return False
    if similarity < threshold:
        return False
    return same_specifics(old, new)
