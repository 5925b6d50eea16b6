"""The recall set: labelled bilingual memories, generated distractors and queries.

:func:`load_eval_set` reads ``memcourse/data/recall_eval.json`` (or any file of that shape)
and checks it before anything is measured: every query's relevant memories exist and belong
to the query's user, kinds are known, memory ids are unique, no distractor secretly answers an
exact-id query, and every memory passes the read gate (a set whose answers recall may never
return would measure the gate, not recall). :mod:`memcourse.evaluations.recall` runs it.
"""

from __future__ import annotations

import random
import re
import string
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memcourse.evaluations.datasets import load_json
from memcourse.records import MemoryRecord
from memcourse.text import has_cjk

__all__ = ["KINDS", "EvalQuery", "EvalSet", "generate_distractors", "load_eval_set", "query_language"]

#: ``crosslingual``: a question in one language about a memory written in the other
#: (memcourse/data/recall_crosslingual.json, ``memcourse eval --dataset``).
KINDS = ("paraphrase", "exact_id", "negation", "chinese", "english", "mixed", "crosslingual")
_ASCII_WORD = re.compile(r"[A-Za-z]{2,}")


def query_language(text: str) -> str:
    """``"zh"``, ``"en"`` or ``"mixed"``: which scripts the query is written in."""
    chinese, latin = has_cjk(text), bool(_ASCII_WORD.search(text))
    return "mixed" if chinese and latin else "zh" if chinese else "en"


# -- the data set -------------------------------------------------------------------------
@dataclass(frozen=True)
class EvalQuery:
    id: str
    user_id: str
    text: str
    relevant: tuple[str, ...]  # memory keys
    kind: str
    note: str = ""
    exact: str | None = None  # for exact_id queries: the id string that must decide

    @property
    def language(self) -> str:
        return query_language(self.text)


@dataclass
class EvalSet:
    """Labelled memories (``key -> MemoryRecord``), generated distractors, and queries."""

    name: str
    memories: dict[str, MemoryRecord]
    distractors: list[MemoryRecord]
    queries: list[EvalQuery]

    @property
    def users(self) -> list[str]:
        return sorted({record.user_id for record in self.memories.values()})

    def records(self) -> list[MemoryRecord]:
        """Every record to load, labelled ones first, as fresh copies."""
        return [r.copy() for r in self.memories.values()] + [r.copy() for r in self.distractors]

    def relevant_ids(self, query: EvalQuery) -> set[str]:
        return {self.memories[key].memory_id for key in query.relevant}


def generate_distractors(spec: dict[str, Any], user_id: str) -> list[MemoryRecord]:
    """``spec["per_user"]`` memories for one user, from templates and slots, deterministically.

    Template ``i % len(templates)`` fills memory ``i``; a slot is either a list (one value is
    chosen) or ``{"range": [lo, hi]}`` (an integer, inclusive). ``{n}`` is the memory's index,
    which keeps every subject distinct. The random generator is seeded with the spec's seed
    and the user id, so every run (and every machine) builds the same set.
    """
    rng = random.Random(f"{spec['seed']}:{user_id}")
    templates, slots = spec["templates"], spec["slots"]
    records = []
    for n in range(int(spec["per_user"])):
        template = templates[n % len(templates)]
        values: dict[str, Any] = {"n": n}
        for text in (template["subject"], template["content"]):
            for _, name, _, _ in string.Formatter().parse(text):
                if name and name not in values:
                    slot = slots[name]
                    values[name] = rng.randint(*slot["range"]) if isinstance(slot, dict) else rng.choice(slot)
        records.append(
            MemoryRecord(
                memory_type=template["memory_type"],
                subject=template["subject"].format(**values),
                content=template["content"].format(**values),
                user_id=user_id,
                confidence=0.8,
                tags=["distractor"],
            )
        )
    return records


def load_eval_set(path: str | Path | None = None) -> EvalSet:
    """Read and check a recall set (the packaged one by default).

    Checks: every query's relevant keys exist and belong to the query's user, kinds are
    known, memory ids are unique, and no distractor contains an exact_id query's id (which
    would make a distractor secretly relevant).
    """
    data = load_json(path, packaged="recall_eval.json")
    memories: dict[str, MemoryRecord] = {}
    for item in data["memories"]:
        item = dict(item)
        key = item.pop("key")
        if key in memories:
            raise ValueError(f"duplicate memory key {key!r}")
        memories[key] = MemoryRecord(**item)
    users = sorted({r.user_id for r in memories.values()})
    distractors = [d for user in users for d in generate_distractors(data["distractors"], user)]
    queries = []
    for item in data["queries"]:
        query = EvalQuery(
            id=item["id"],
            user_id=item["user_id"],
            text=item["text"],
            relevant=tuple(item["relevant"]),
            kind=item["kind"],
            note=item.get("note", ""),
            exact=item.get("exact"),
        )
        if query.kind not in KINDS:
            raise ValueError(f"query {query.id}: unknown kind {query.kind!r}; expected one of {KINDS}")
        if not query.relevant:
            raise ValueError(f"query {query.id} has no relevant memory")
        for key in query.relevant:
            if key not in memories:
                raise ValueError(f"query {query.id}: unknown memory key {key!r}")
            if memories[key].user_id != query.user_id:
                raise ValueError(f"query {query.id}: {key!r} belongs to another user")
        if query.exact:
            for record in distractors:
                if record.user_id == query.user_id and query.exact in record.content:
                    raise ValueError(f"query {query.id}: distractor {record.subject!r} contains {query.exact!r}")
        queries.append(query)
    from memcourse.recall.admission import (
        admit,  # the read gate must not hide an answer
    )

    for record in list(memories.values()) + distractors:
        decision = admit(record, now=record.created_at)
        if not decision:
            raise ValueError(f"memory {record.subject!r} of {record.user_id} fails the read gate: {decision.reason}")
    ids = [r.memory_id for r in list(memories.values()) + distractors]
    if len(ids) != len(set(ids)):
        raise ValueError("two memories in the recall set share a memory_id (same user, type and subject)")
    return EvalSet(str(data.get("name", "recall set")), memories, distractors, queries)
