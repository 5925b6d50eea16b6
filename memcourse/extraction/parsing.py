"""Reading a model's JSON reply as the untrusted input it is.

A model asked for JSON does not always send JSON. Real replies include: the JSON wrapped in
a Markdown fence, a friendly sentence before it, a refusal ("I'm sorry, I can't help with
that"), nothing at all, ``NaN`` (valid Python, invalid JSON), the same key twice, or a page
of text. :func:`parse_reply` accepts exactly two shapes -- the reply *is* a JSON object, or
the reply is *one* fenced JSON block and nothing else (either may follow one leading
``<think>…</think>`` block, which reasoning models served by Ollama or llama.cpp emit before
their answer) -- and turns everything else into a
:class:`ReplyError` whose ``outcome`` names the failure class. It never guesses, never
"repairs" a reply, and never returns half an answer: a parser that repairs is a parser an
attacker can steer.
"""

from __future__ import annotations

import json
import re
from typing import Any

from memcourse.errors import MemcourseError

#: Longest reply read at all. An extraction for one message fits in a few hundred characters;
#: a longer reply is a model rambling (or being steered), and parsing it would cost more than
#: it can be worth.
MAX_REPLY_CHARS = 20_000

_FENCE = re.compile(r"\A```[ \t]*(?:json|JSON)?[ \t]*\n(?P<body>.*?)\n?```\Z", re.S)
_THINK = re.compile(r"\A<think>.*?</think>\s*", re.S)
_REFUSAL = re.compile(
    r"^\s*(?:I'?m sorry|I am sorry|sorry|I can(?:no|')t|I cannot|I won'?t|I am unable|I'm unable|"
    r"As an AI|抱歉|对不起|很抱歉|我无法|我不能)", re.I,
)


class ReplyError(MemcourseError, ValueError):
    """A reply that could not be used. ``outcome`` is a short class name for logs and tests:
    ``empty``, ``oversized``, ``refusal``, ``malformed_json``, ``not_an_object``."""

    def __init__(self, outcome: str, detail: str):
        self.outcome = outcome
        self.detail = detail
        super().__init__(f"{outcome}: {detail}")


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    data: dict[str, Any] = {}
    for key, value in pairs:
        if key in data:
            raise ValueError(f"duplicate key {key!r}")
        data[key] = value
    return data


def _no_constants(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def parse_reply(text: Any, *, max_chars: int = MAX_REPLY_CHARS) -> tuple[dict[str, Any], list[str]]:
    """``(object, notes)`` for a usable reply; raises :class:`ReplyError` otherwise.

    ``notes`` lists what was tolerated (a skipped ``<think>`` block, an unwrapped fence).
    """
    if not isinstance(text, str) or not text.strip():
        raise ReplyError("empty", "the model returned no text")
    if len(text) > max_chars:
        raise ReplyError("oversized", f"the reply is {len(text)} characters; at most {max_chars} are read")
    body, notes = text.strip(), []
    thought = _THINK.match(body)
    if thought:
        body, notes = body[thought.end():], ["skipped a leading <think> block"]
    fenced = _FENCE.match(body)
    if fenced:
        body = fenced.group("body").strip()
        notes.append("unwrapped a ```json fence")
    try:
        data = json.loads(body, object_pairs_hook=_no_duplicates, parse_constant=_no_constants)
    except RecursionError:
        raise ReplyError("malformed_json", "nested too deeply to be a memory list") from None
    except (json.JSONDecodeError, ValueError) as error:
        if _REFUSAL.match(body):
            raise ReplyError("refusal", f"the model declined: {body[:120]!r}") from None
        raise ReplyError("malformed_json", f"{error} (reply starts {body[:80]!r})") from None
    if not isinstance(data, dict):
        raise ReplyError("not_an_object", f"expected a JSON object, got {type(data).__name__}")
    return data, notes
