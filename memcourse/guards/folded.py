"""Patterns written in natural spelling and compiled through the same folding as the text they read.

A detector's pattern says 無視, "Номер" or ［系统］ as a person would type it; the text it scans has
been folded (:mod:`memcourse.guards.normalise`: look-alike letters to ASCII, traditional to simplified
Chinese, full-width forms to ASCII). :class:`FoldedPattern` folds the pattern the same way before it
compiles, so both sides meet in one spelling; :func:`either_case` keeps Cyrillic case-insensitive
after folding, and the wide forms that fold into regex syntax stay literal.
"""

from __future__ import annotations

import re

from memcourse.guards.normalise import fold_text

__all__ = ["FoldedPattern", "either_case"]


def either_case(pattern: str) -> str:
    """Each Cyrillic letter outside a character class as ``[кК]``. Why: folding maps some capitals
    to the Latin letter they look like (Н -> H) but not their small letters (н has no look-alike),
    so "Номер" and a pattern "номер" would no longer match ignoring case. A class of both cases
    folds to ``[нH]``, which matches either spelling."""
    out, in_class, escaped = [], False, False
    for ch in pattern:
        if escaped:
            escaped = False
        elif ch == "\\":
            escaped = True
        elif ch == "[":
            in_class = True
        elif ch == "]":
            in_class = False
        elif not in_class and "\u0400" <= ch <= "\u04ff" and ch.lower() != ch.upper():
            ch = f"[{ch.lower()}{ch.upper()}]"
        out.append(ch)
    return "".join(out)


_REGEX_SYNTAX = frozenset("[](){}*+?|^$\\.-")


def _literal_wide_forms(source: str) -> str:
    """Escape each character that folding turns into regex syntax (［ ］ （ ） ？ ＊ …), so a pattern that
    names the full-width bracket 】［ as a character means that character once folded, and does not
    close a character class or become a quantifier (a bug once made [^】］] end at the folded ］)."""
    out = []
    for char in source:
        if char.isascii():
            out.append(char)
            continue
        folded = fold_text(char)
        out.append("\\" + folded if len(folded) == 1 and folded in _REGEX_SYNTAX else char)
    return "".join(out)


class FoldedPattern:
    """A regular expression written in natural spelling and compiled, on first use, through
    :func:`fold_text`, so 無視 in a pattern matches what normalisation turns 無視 into.

    Compiling the detectors' patterns costs about a second; doing it lazily keeps
    ``import memcourse`` fast for code that never scans text.
    """

    def __init__(self, source: str, flags: int = re.IGNORECASE):
        self.source = source
        self.flags = flags
        self._compiled: re.Pattern[str] | None = None

    @property
    def compiled(self) -> re.Pattern[str]:
        if self._compiled is None:
            self._compiled = re.compile(fold_text(_literal_wide_forms(self.source)), self.flags)
        return self._compiled

    @property
    def pattern(self) -> str:
        return self.compiled.pattern

    def search(self, text: str, pos: int = 0) -> re.Match[str] | None:
        return self.compiled.search(text, pos)

    def finditer(self, text: str):
        return self.compiled.finditer(text)

    def __repr__(self) -> str:
        return f"FoldedPattern({self.source[:40]!r}...)"
