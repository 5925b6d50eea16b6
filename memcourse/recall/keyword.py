"""Keyword-overlap scoring: the simplest recall that still works in Chinese.

Score = number of distinct query tokens found in the memory's subject, content and tags,
then three small nudges that encode product judgement rather than text similarity:

- a *task* memory gets a large boost when the query names that task (a token of its subject
  such as ``phase4``) or speaks of tasks at all: "what should I focus on in Phase4?" needs
  the current task first and the style preference second;
- memories used often get a little more (capped, so popularity cannot beat relevance);
- more confident memories get a little more.

No overlap means score 0 and the memory is not returned at all: a nudge never makes an
irrelevant memory relevant.
"""

from __future__ import annotations

from memcourse.records import MemoryRecord, MemoryType
from memcourse.text import token_set

TASK_BASE_BOOST = 0.2
TASK_NAMED_BOOST = 1.5
ACCESS_STEP, ACCESS_CAP = 0.05, 3
CONFIDENCE_WEIGHT = 0.1
#: Words that say "this question is about ongoing work".
TASK_CUES = frozenset({"task", "tasks", "todo", "progress", "任务", "进度", "待办", "当前任务"})


def memory_tokens(record: MemoryRecord) -> set[str]:
    return token_set(" ".join([record.subject, record.content, " ".join(record.tags)]))


def keyword_breakdown(query_tokens: set[str], record: MemoryRecord) -> dict[str, float]:
    """Every part of the score, named, so notebooks and widgets can show the arithmetic."""
    overlap = query_tokens & memory_tokens(record)
    parts = {"overlap": float(len(overlap)), "task": 0.0, "access": 0.0, "confidence": 0.0}
    if not overlap:
        parts["total"] = 0.0
        return parts
    if record.memory_type == MemoryType.TASK:
        parts["task"] = TASK_BASE_BOOST
        named = query_tokens & token_set(record.subject)
        if named or query_tokens & TASK_CUES or any(t.startswith("phase") for t in query_tokens):
            parts["task"] += TASK_NAMED_BOOST
    parts["access"] = min(record.access_count, ACCESS_CAP) * ACCESS_STEP
    parts["confidence"] = record.confidence * CONFIDENCE_WEIGHT
    parts["total"] = sum(value for key, value in parts.items() if key != "total")
    return parts


def keyword_score(query: str, record: MemoryRecord) -> float:
    return keyword_breakdown(token_set(query), record)["total"]
