"""When do two texts state the same fact? The word comparison reconciliation relies on.

Without a model, reconciliation must tell three cases apart from the words alone:

- a **restatement** ("我养了一只猫叫年糕" / "我养了一只猫，叫年糕"; "Thursday 14:00" / "Thursday at
  14:00"): the same Chinese characters and the same English content words, in any order,
  spacing, punctuation, width or case. Nothing new: NOOP.
- the **same fact, changed or reworded** ("our deploy window is Thursday 14:00 UTC" / "...
  is Friday 10:00 UTC"): a Dice overlap of *salient* words (tokens minus stopwords, crudely
  stemmed, plus each Chinese character; plain numbers left out, they are values) of at least
  :data:`SAME_FACT`.
- **look-alikes that name different things** ("Ticket SUP-1 was closed" / "Ticket SUP-2 was
  closed", v2.4.0 / v2.4.1): a differing letter-and-digit code means a different thing,
  whatever the overlap. Plain numbers (times, amounts) may change: that is a new value.

:data:`SAME_FACT` (0.6) was fixed from first principles before the shipped conversation set
was written (more than half of the content words shared, counted both ways), and is not
tuned on it; ``tests/test_reconcile.py`` pins look-alikes on both sides of it.
"""

from __future__ import annotations

import re
import unicodedata

from memcourse.text import STOPWORDS, tokenize

#: Dice overlap of salient words from which two texts are the same fact.
SAME_FACT = 0.6
#: Words that say how the user relates to a fact, not what the fact is.
_GENERIC = {"用户", "user", "like", "prefer", "喜欢", "偏好"}
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")


def _plain(text: str) -> str:
    """NFKC, case-folded, without punctuation or spaces: "猫，叫" and "猫叫" read the same."""
    text = unicodedata.normalize("NFKC", text).casefold()
    return "".join(ch for ch in text if ch.isalnum() or ch in "_-.")


def _stem(token: str) -> str:
    """A crude English plural/3rd-person stem, enough for "likes"/"like", "payments"/"payment"."""
    if len(token) > 3 and token.isascii() and token.endswith("s") and not token.endswith("ss"):
        return token[:-1]
    return token


def salient(text: str) -> set[str]:
    """Content words (crudely stemmed), plus every Chinese character that is not a stopword:
    word segmentation of two phrasings of one fact can differ ("猫叫" vs "猫" + "叫"); their
    characters cannot."""
    words = {_stem(token) for token in tokenize(text) if token not in STOPWORDS}
    chars = {ch for ch in _plain(text) if _CJK.match(ch) and ch not in STOPWORDS}
    return (words | chars) - _GENERIC


def restates(a: str, b: str) -> bool:
    """``b`` says what ``a`` says in other spacing, punctuation, segmentation or filler words:
    the same Chinese characters and the same English content words, stopwords aside."""
    def parts(text: str) -> tuple[set[str], set[str]]:
        words = salient(text)
        return {w for w in words if _CJK.fullmatch(w)}, {w for w in words if w.isascii()}
    return _plain(a) == _plain(b) or parts(a) == parts(b)


def identifiers(words: set[str]) -> set[str]:
    """Codes that name *which* thing: letters and digits together ("sup-1", "v2.4.0", "phase4").
    Plain numbers are not codes: a time or an amount changing is the same fact, new value."""
    return {w for w in words if any(ch.isdigit() for ch in w) and any(ch.isalpha() for ch in w)}


def similarity(a: str, b: str) -> float:
    """Dice overlap of salient words other than plain numbers; 0 when the texts name different
    codes. Numbers are values, not what a fact is about: "standup at 9:30" and "retro at 9:30"
    share two numbers and are two facts; "window Thursday 14:00" and "window Friday 10:00"
    share none and are one."""
    left, right = salient(a), salient(b)
    if identifiers(left) ^ identifiers(right):
        return 0.0
    left, right = {w for w in left if not w.isdigit()}, {w for w in right if not w.isdigit()}
    if not left or not right:
        return 0.0
    return 2 * len(left & right) / (len(left) + len(right))


def coverage(part: str, whole: str) -> float:
    """The share of ``part``'s salient words found in ``whole``."""
    words = salient(part)
    return len(words & salient(whole)) / len(words) if words else 0.0
