"""Exercise 13 — read a model's reply as untrusted input, then reconcile what survives.

Difficulty: ★★★☆ · Expected time: 40 minutes · Notebook: 13_extraction_and_reconciliation.ipynb

Why: a model asked for JSON sends JSON most of the time. The rest of the time it wraps it in
prose, invents a field, writes ``"confidence": "high"``, quotes words the user never said, or
names a subject that is a sentence. Every one of those, accepted, becomes a memory that is
recalled into every later prompt. And what survives must not pile up: a restatement is not a
second memory, a model's guess does not overwrite what the user said, and "forget that" deletes.

Build three functions.

``parse_reply(text) -> dict``
    The reply as a JSON object. Accept exactly two shapes: the whole reply (surrounding
    whitespace aside) is a JSON object, or the whole reply is *one* Markdown fence
    (three backticks, optionally ``json``, a newline, the JSON, three backticks). Anything else
    raises ``ValueError``: empty text, prose before or after, two fences, a list, invalid JSON,
    ``NaN``/``Infinity``, the same key twice in one object.

``check_item(item, message) -> str | None``
    ``None`` when ``item`` is usable, else the *first* failing check's name, in this order:

    - ``"fields"``: ``item`` is not a dict, or its keys are not exactly ``FIELDS``;
    - ``"type"``: ``kind``/``type``/``subject``/``content``/``evidence`` are not strings, or
      ``confidence``/``importance`` are not numbers (``bool`` is not a number here);
    - ``"range"``: ``confidence`` or ``importance`` outside [0, 1] (both ends allowed);
    - ``"subject"``: ``subject`` does not match ``SUBJECT_PATTERN`` (a short snake_case key);
    - ``"ungrounded"``: ``evidence`` is empty, or not found in ``message`` once both are
      case-folded and every run of whitespace is one space (and ends are stripped).

``decide(candidate, existing, *, retraction=False) -> tuple[str, str | None]``
    ``candidate`` is a ``MemoryRecord``; ``existing`` the records already stored. Only
    **active** records of the **same user** count. ``same`` is the one whose ``memory_id`` is
    ``candidate.memory_id`` (same type and subject), if any.

    - ``retraction=True``: ``("DELETE", same.memory_id)`` if ``same`` exists, else ``("NOOP", None)``;
    - ``same`` exists and says the same thing (equal once NFKC-normalised, case-folded and
      stripped of everything that is not a letter or digit: punctuation and spaces do not make
      a new fact): ``("NOOP", same.memory_id)``;
    - ``same`` exists and ``candidate.source`` is *less trusted* than ``same.source`` (order in
      ``TRUST``): ``("NOOP", same.memory_id)`` -- a guess never overwrites what the user said;
    - ``same`` exists: ``("UPDATE", same.memory_id)``;
    - otherwise ``("ADD", None)``.

Done when ``memcourse grade 13`` shows 13 at 100%.
"""

from __future__ import annotations

from typing import Any, Sequence

from memcourse import MemoryRecord, Source

FIELDS = ("kind", "type", "subject", "content", "confidence", "importance", "evidence")
SUBJECT_PATTERN = r"^[a-z][a-z0-9_]{1,47}$"
#: Least trusted first.
TRUST = (Source.LLM_INFERRED, Source.TOOL_OBSERVED, Source.USER_STATED, Source.ADMIN_CONFIGURED)


def parse_reply(text: str) -> dict[str, Any]:
    raise NotImplementedError("ex13 parse_reply: not written yet (stuck? memcourse hint 13)")


def check_item(item: Any, message: str) -> str | None:
    raise NotImplementedError("ex13 check_item: not written yet (stuck? memcourse hint 13)")


def decide(
    candidate: MemoryRecord, existing: Sequence[MemoryRecord], *, retraction: bool = False
) -> tuple[str, str | None]:
    raise NotImplementedError("ex13 decide: not written yet (stuck? memcourse hint 13)")
