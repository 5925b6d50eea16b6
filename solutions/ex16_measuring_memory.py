"""Exercise 16 — grading answers the way users feel them, and answering "as of" a time (reference solution)."""

from __future__ import annotations

import unicodedata
from datetime import datetime

from memcourse.evaluations.e2e import abstained
from memcourse.records import MemoryRecord, Status


def _fold(text: str) -> str:
    return unicodedata.normalize("NFKC", text).lower()


def grade(expect: list[list[str]], answer: str) -> bool:
    if not expect:
        return abstained(answer)
    if abstained(answer):
        return False
    folded = _fold(answer)
    return all(any(_fold(spelling) in folded for spelling in group) for group in expect)


def accuracy_by_ability(questions: list[dict], answers: dict[str, str]) -> dict[str, float]:
    totals: dict[str, list[int]] = {}
    for question in questions:
        right = grade(question["expect"], answers.get(question["id"], ""))
        count = totals.setdefault(question["ability"], [0, 0])
        count[0] += right
        count[1] += 1
    return {ability: right / total for ability, (right, total) in totals.items()}


def recall_as_of(records: list[MemoryRecord], moment: datetime) -> list[tuple[str, str]]:
    found = []
    for record in records:
        if record.status is Status.DELETED or (record.expires_at is not None and record.expires_at <= moment):
            continue
        spans = [(e.content, e.valid_from, e.valid_to) for e in record.history]
        spans.append((record.content, record.valid_from or record.created_at, record.valid_to))
        for content, start, end in spans:
            if start <= moment and (end is None or moment < end):
                found.append((record.memory_id, content))
                break
    return found
