"""Exercise 15 — grading answers the way users feel them, and answering "as of" a time.

Difficulty: ★★★☆ · Expected time: 30 minutes · Notebook: 15_measuring_memory.ipynb

Why: a user does not see a ranking, they see an answer, and "I don't know" is sometimes the
only right one. A metric that counts every abstention as a failure rewards a system for
making things up; one that counts every abstention as a success rewards it for saying nothing.
And a fact that changed ("I lived in Guangzhou, now Chengdu") has two answers, one per period:
the past value is right for a question about the past, and the boundary between the two
periods must belong to exactly one of them.

Build three functions:

``grade(expect, answer) -> bool``
    ``expect`` is a list of groups of accepted spellings (``[["Porto"], ["May 23", "23 May"]]``);
    an empty list means the question cannot be answered from memory.
    - Unanswerable: right exactly when the answer abstains
      (``memcourse.evaluations.e2e.abstained(answer)`` says so: "I don't know", "我不知道", ...).
    - Answerable: wrong if the answer abstains (even if it hedges with the right word);
      otherwise right when *every* group has at least one spelling contained in the answer,
      compared case-insensitively after ``unicodedata.normalize("NFKC", ...)``.

``accuracy_by_ability(questions, answers) -> dict[str, float]``
    ``questions``: dicts with ``id``, ``ability``, ``expect``; ``answers``: ``{id: answer}``
    (a missing answer counts as ``""``). Return the share of right answers per ability, for
    every ability that has questions.

``recall_as_of(records, moment) -> list[tuple[str, str]]``
    For each record (in order), the value that held at ``moment`` as ``(memory_id, content)``;
    records with no value then are left out. A record's values are its ``history`` entries
    (each with ``valid_from`` and ``valid_to`` set, oldest first) and then its current
    content, valid from ``record.valid_from`` (or ``record.created_at`` when that is ``None``)
    until ``record.valid_to`` (``None``: still valid). Intervals are half-open,
    ``start <= moment < end``: at the moment a value changes, the *new* value holds.
    Skip records whose status is ``deleted`` and records already expired at ``moment``
    (``expires_at <= moment``).

Done when ``memcourse grade 15`` shows 15 at 100%.
"""

from __future__ import annotations

from datetime import datetime

from memcourse.records import MemoryRecord


def grade(expect: list[list[str]], answer: str) -> bool:
    raise NotImplementedError("ex15 grade: not written yet (stuck? memcourse hint 15)")


def accuracy_by_ability(questions: list[dict], answers: dict[str, str]) -> dict[str, float]:
    raise NotImplementedError("ex15 accuracy_by_ability: not written yet (stuck? memcourse hint 15)")


def recall_as_of(records: list[MemoryRecord], moment: datetime) -> list[tuple[str, str]]:
    raise NotImplementedError("ex15 recall_as_of: not written yet (stuck? memcourse hint 15)")
