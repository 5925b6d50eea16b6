"""The end-to-end benchmark: users' multi-session histories and the questions asked of them.

:func:`load_benchmark` reads ``memcourse/data/e2e_benchmark.json`` (or a file of that shape)
and checks it: sessions in time order, question ids unique, abilities known, and abstention
questions (and only they) expecting nothing. :func:`split_question_time` turns a question that
names a month or a day into an as-of moment and the question without its date.
:mod:`memcourse.evaluations.e2e` runs the benchmark.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from memcourse.evaluations.datasets import load_json
from memcourse.records import parse_timestamp
from memcourse.text import MONTH_NAMES

__all__ = ["ABILITIES", "FORMAT", "Question", "Session", "UserHistory", "load_benchmark",
           "question_time", "split_question_time"]

ABILITIES = ("extraction", "multi_session", "knowledge_update", "temporal", "abstention")
FORMAT = "memcourse.e2e-benchmark"
_MONTHS = {name.lower(): number for number, name in enumerate(MONTH_NAMES, 1)}


# -- the benchmark ------------------------------------------------------------------------
@dataclass(frozen=True)
class Session:
    id: str
    time: datetime
    messages: tuple[str, ...]


@dataclass(frozen=True)
class Question:
    id: str
    user_id: str
    ability: str
    question: str
    expect: tuple[tuple[str, ...], ...]  # groups of accepted spellings; empty: abstain
    asked_at: datetime

    @property
    def answerable(self) -> bool:
        return bool(self.expect)


@dataclass(frozen=True)
class UserHistory:
    user_id: str
    sessions: tuple[Session, ...]
    questions: tuple[Question, ...]


def load_benchmark(path: str | Path | None = None) -> list[UserHistory]:
    """Read and check a benchmark file (default: the shipped one); errors name the item."""
    data = load_json(path, packaged="e2e_benchmark.json", format=FORMAT)
    users, seen = [], set()
    for user in data["users"]:
        uid = user["user_id"]
        sessions = tuple(
            Session(s["id"], parse_timestamp(s["time"], f"{uid}/{s['id']}.time"), tuple(s["messages"]))
            for s in user["sessions"]
        )
        if list(sessions) != sorted(sessions, key=lambda s: s.time):
            raise ValueError(f"user {uid}: sessions must be in time order")
        questions = []
        for q in user["questions"]:
            if q["id"] in seen:
                raise ValueError(f"duplicate question id {q['id']!r}")
            seen.add(q["id"])
            if q["ability"] not in ABILITIES:
                raise ValueError(f"question {q['id']}: unknown ability {q['ability']!r}")
            expect = tuple(tuple(group) for group in q["expect"])
            if (q["ability"] == "abstention") != (not expect):
                raise ValueError(f"question {q['id']}: abstention questions, and only they, expect nothing")
            asked = parse_timestamp(q.get("asked_at") or user["asked_at"], f"{q['id']}.asked_at")
            questions.append(Question(q["id"], uid, q["ability"], q["question"], expect, asked))
        users.append(UserHistory(uid, sessions, tuple(questions)))
    return users


def question_time(text: str) -> datetime | None:
    """The moment a question asks about, if it names one: a day ("2026-03-05") or a month
    ("in March 2026", "2026年3月"), taken at its middle; ``None`` means "now"."""
    return split_question_time(text)[0]


def split_question_time(text: str) -> tuple[datetime | None, str]:
    """``(moment, the question without its date)``: a time-aware query. The date a question
    names becomes the as-of filter; left in the query it would only match memories that
    happen to mention (or were written on) that date, which is not what was asked."""
    text = unicodedata.normalize("NFKC", text)
    patterns = (
        (r"\b(?:on\s+)?(\d{4})-(\d{2})-(\d{2})\b", lambda m: (int(m[1]), int(m[2]), int(m[3]))),
        (r"(\d{4})\s*年\s*(\d{1,2})\s*月(?:\s*(\d{1,2})\s*[日号])?", lambda m: (int(m[1]), int(m[2]), int(m[3] or 15))),
        (r"\b(?:in\s+|during\s+)?(" + "|".join(_MONTHS) + r")\s+(\d{4})\b",
         lambda m: (int(m[2]), _MONTHS[m[1].lower()], 15)),
    )
    for pattern, parts in patterns:
        m = re.search(pattern, text, re.IGNORECASE)
        if m:
            year, month, day = parts(m)
            rest = re.sub(r"\s+", " ", text[: m.start()] + " " + text[m.end():]).strip()
            return datetime(year, month, day, 12, tzinfo=timezone.utc), rest or text
    return None, text
