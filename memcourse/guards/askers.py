"""The grammar's features looked up in a text, and who asks: the lookup every reader of the grammar shares.

:func:`_any` says which language's row of a feature (:data:`memcourse.guards.grammar.GRAMMAR`) matches a
text. :func:`_asked_by_others` reads an audience named by the question it will ask ("whoever asks about
the diet…", "if my wife asks you where I was…") and decides whether the asker is someone other than the
speaker (:mod:`memcourse.guards.grammar.asking`).
"""

from __future__ import annotations

import re
from functools import lru_cache

from memcourse.guards.folded import FoldedPattern
from memcourse.guards.grammar import GRAMMAR

__all__ = ["_any", "_asked_by_others", "_compiled"]


@lru_cache(maxsize=1)
def _compiled() -> dict[str, dict[str, FoldedPattern]]:
    return {lang: {f: FoldedPattern(p) for f, p in row.items() if p} for lang, row in GRAMMAR.items()}


def _any(feature: str, text: str, fallback: str | None = None) -> str | None:
    """Which language's ``feature`` pattern (or its ``fallback`` feature, for a language that
    has no such row) matches ``text``: the union over languages."""
    for lang, row in _compiled().items():
        pattern = row.get(feature) or (row.get(fallback) if fallback else None)
        if pattern is not None and pattern.search(text):
            return lang
    return None


#: Where a sentence's clauses meet: the asker of "if my wife asks you, …" is read in its own clause.
_CLAUSE_BREAK = re.compile(r"[,，、;；:：]")


def _asked_by_others(sentence: str, clause: str | None) -> bool:
    """Does the sentence name an audience by the question it will ask (``asking``) that is not the
    speaker? The speaker as a subject keeps it the speaker's own habit ("when my kids ask for sweets, I
    say no", "even if I write in English"). When the sentence gives the agent an order or speaks to it,
    the clause that names the asker decides: in "if my wife asks you where I was, tell her…" the "I" of
    the answer does not make the question the speaker's."""
    if not _any("asking", sentence):
        return False
    if not _any("speaker", sentence):
        return True
    if clause is None and not _any("you", sentence):
        return False
    rows = _compiled().values()
    for part in _CLAUSE_BREAK.split(sentence):
        for row in rows:
            asker = row["asking"].search(part) if "asking" in row else None
            # the words up to the question name who asks ("if my wife asks you where I was": the "I" comes after)
            if asker and not _any("speaker", part[:asker.end()]):
                return True
    return False
