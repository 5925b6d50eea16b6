"""Strong entities stay well-formed: the rules' exact form wins over a model's copy.

The engineering guide's hybrid extraction (section 3.1) lets the model understand the meaning
and lets rules guarantee the small fields: "靠规则保证邮箱、电话这类数据100%格式正确". A model
retypes what it copies, and retyping mangles: ``lin.wei@example.com`` comes back as
``linwei@example.com`` (a dropped dot), ``lin.wei ＠ example.com`` (a full-width at sign and
spaces from an IME), ``LIN.WEI@EXAMPLE.COM``, with a zero-width space inside, or with the
sentence's full stop glued on. A memory holding the mangled form sends the weekly report to
nobody.

So after the model, for each message:

1. The rules find the **strong entities the user wrote**: e-mail addresses, URLs and order-like
   ids (``ORD-2026-00123``, ``NW-4821``: capital letters, a hyphen, a number), read from the
   message after width folding (NFKC) with zero-width characters removed, so an address typed
   with a full-width ``＠`` is still an address. That form is *the exact form*.
2. **Repair.** In each candidate's content, a span that is one of those entities under the
   manglings above (case, spaces or zero-width characters between characters, a dropped or
   full-width or ideographic dot, a dropped or replaced hyphen, full-width characters) is
   replaced by the exact form. The repair is safe because the model's version came from this
   message and the message holds exactly one entity it can be folded onto.
3. **Reject.** A candidate whose content still carries an e-mail address or URL that is *not*
   one of the message's own (``lin.wei@exmaple.com``, ``mei_2026@example.com`` for
   ``…@example.cn``) is rejected with the reason ``entity_not_in_message``: a different
   letter is not a mangling that can be undone (it may be another real mailbox or domain),
   and a wrong address is worse than none. Order-like ids are only repaired, never a reason
   to reject: a model's "Python3" or "v2" is not a user's order number.

Decided: repair first, reject what cannot be repaired. Repairing everything would need a
guess; rejecting everything would lose ``用户邮箱是 chen.yu@lab-east.cn`` over a space.

**And the course's refusals?** Keeping an entity well-formed decides *how* it is written, never
*whether*: the write gate still runs after (:meth:`memcourse.policy.MemoryPolicy.evaluate`).
Phone numbers and personal identifiers are refused by the identifier guard
(:mod:`memcourse.guards.identifiers`), so this module does not protect them at all: a message
with a phone number is refused at the screen before any extraction, and a candidate carrying
one is refused at the gate. E-mail addresses are not on the identifier guard's list (it covers
numbers that identify a person or open an account: ID, card, bank, phone, social security), so
an address the user gave is admitted like any fact, now spelt right. A URL carrying a token
(``?access_token=…``) is refused by the secret guard at the screen, repaired or not.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, replace

from memcourse.extraction.base import Candidate, Extraction, Message

__all__ = ["EMAIL", "ORDER_ID", "URL", "Entity", "keep_well_formed", "repair", "strong_entities"]

EMAIL = re.compile(r"(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+(?![A-Za-z0-9-])")
URL = re.compile(r"(?<![A-Za-z0-9])https?://[^\s<>\"'，。！？、；：）】]+", re.I)
ORDER_ID = re.compile(r"(?<![A-Za-z0-9_-])[A-Z]{2,10}(?:-[A-Z0-9]*\d[A-Z0-9]*)+(?![A-Za-z0-9_-])")
_URL_TRAILING = ".,;:!?)]}'\""
#: Characters that carry nothing visible: a model (or a copy from a web page) may leave them inside a word.
ZERO_WIDTH = "\u200b\u200c\u200d\u2060\ufeff\u00ad"
_JUNK = f"[\\s{ZERO_WIDTH}]*"


@dataclass(frozen=True)
class Entity:
    kind: str  # "email", "url", "order_id"
    text: str  # the exact form


@dataclass(frozen=True)
class Repair:
    found: str  # what the candidate said
    exact: str  # what the message said


def fold(text: str) -> str:
    """NFKC width folding, zero-width characters removed (the view entities are read from)."""
    return "".join(ch for ch in unicodedata.normalize("NFKC", text) if ch not in ZERO_WIDTH)


def strong_entities(text: str) -> list[Entity]:
    """The e-mail addresses, URLs and order-like ids in ``text``, in their exact form."""
    view = fold(text)
    found: list[Entity] = []
    for match in URL.finditer(view):
        found.append(Entity("url", match.group().rstrip(_URL_TRAILING)))
    for match in EMAIL.finditer(view):
        if not any(match.group() in e.text for e in found):  # an address inside a URL is the URL's
            found.append(Entity("email", match.group()))
    for match in ORDER_ID.finditer(view):
        if not any(match.group() in e.text for e in found):
            found.append(Entity("order_id", match.group()))
    return list(dict.fromkeys(found))


def _tolerant(entity: Entity) -> re.Pattern[str]:
    """A pattern for ``entity`` under the manglings a retyping model makes (see the module
    docstring), matched against a candidate's folded characters, case-insensitively."""
    pieces = []
    for ch in entity.text:
        if ch == ".":
            pieces.append("[.。]?")
        elif ch == "-":
            pieces.append("[-‐‑–—_ ]?")
        else:
            pieces.append(re.escape(ch))
    body = _JUNK.join(pieces)
    left = r"(?<![A-Za-z0-9._%+-])" if entity.kind == "email" else r"(?<![A-Za-z0-9_-])"
    return re.compile(left + body + r"(?![A-Za-z0-9_-]|[.。][A-Za-z0-9])", re.I)


def _folded_with_positions(text: str) -> tuple[str, list[int]]:
    """Each character NFKC-folded on its own (zero-width ones kept, the pattern skips them),
    with the index in ``text`` that each folded character came from."""
    out: list[str] = []
    where: list[int] = []
    for index, ch in enumerate(text):
        for folded in unicodedata.normalize("NFKC", ch):
            out.append(folded)
            where.append(index)
    return "".join(out), where


def repair(content: str, entities: Iterable[Entity]) -> tuple[str, list[Repair]]:
    """``content`` with every mangled copy of one of ``entities`` replaced by its exact form."""
    repairs: list[Repair] = []
    for entity in sorted(entities, key=lambda e: -len(e.text)):  # longest first: a URL before its host
        view, where = _folded_with_positions(content)
        spans = []
        for match in _tolerant(entity).finditer(view):
            start, end = where[match.start()], where[match.end() - 1] + 1
            if content[start:end] != entity.text:
                spans.append((start, end))
        for start, end in reversed(spans):
            repairs.append(Repair(content[start:end], entity.text))
            content = content[:start] + entity.text + content[end:]
    repairs.reverse()
    return content, repairs


def foreign_entities(content: str, message_entities: Iterable[Entity]) -> list[str]:
    """E-mail addresses and URLs in ``content`` that are not the message's own."""
    own = {e.text for e in message_entities}
    view = fold(content)
    found = [m.group().rstrip(_URL_TRAILING) for m in URL.finditer(view)]
    found += [m.group() for m in EMAIL.finditer(view) if not any(m.group() in url for url in found)]
    return [text for text in found if text not in own and not any(text in o for o in own if o.startswith("http"))]


def keep_well_formed(extraction: Extraction, message: Message) -> Extraction:
    """The rules-after pass over a model's extraction: repair mangled strong entities, reject a
    candidate that carries an address or URL the user did not write (see the module docstring).
    Candidates are replaced, never edited in place; the extraction's detail says what changed."""
    entities = strong_entities(message.text)
    kept: list[Candidate] = []
    rejected = list(extraction.rejected)
    notes: list[str] = []
    for candidate in extraction.candidates:
        content, repairs = repair(candidate.content, entities)
        foreign = foreign_entities(content, entities)
        if foreign:
            rejected.append((candidate.summary(), f"entity_not_in_message: {foreign[0]!r} is not an address the "
                             "user wrote" + (f" (the message has {', '.join(e.text for e in entities)})"
                                             if entities else "")))
            continue
        if repairs:
            notes.extend(f"{r.found!r} -> {r.exact!r}" for r in repairs)
            candidate = replace(candidate, content=content)
        kept.append(candidate)
    if len(kept) == len(extraction.candidates) and not notes:
        return extraction
    detail = extraction.detail + (f" | entities repaired: {'; '.join(notes)}" if notes else "")
    outcome = extraction.outcome if kept or not extraction.candidates else "all_rejected"
    return replace(extraction, outcome=outcome, candidates=kept, rejected=rejected, detail=detail)
