"""When do two memories state the same fact? One home for the judgement, without a model.

Three places ask it, each for its own decision, and all ask here:

- **reconciliation** (:mod:`memcourse.extraction.reconcile`): is a new candidate a
  restatement (NOOP), the same fact changed (UPDATE), or something new? (:func:`restates`,
  :func:`similarity`, :data:`SAME_FACT`, :func:`coverage`);
- **near-duplicate supersede** in the stores (:func:`memcourse.recall.dedupe.may_supersede`):
  the embedding says "similar", and :func:`same_specifics` says whether the numbers, ids and
  dates agree, which an embedding cannot;
- **consolidation** (:mod:`memcourse.consolidation`): may two memories be merged
  (:func:`same_event_or_fact`), or do they disagree about one topic (:func:`contradicts`)?

The rules they share: a differing identifier ("SUP-1" / "SUP-2", v2.4.0 / v2.4.1) means a
different thing, whatever the overlap; plain numbers (times, amounts) are values that may
change; a negation flips a fact, never restates it.

**Words** (what reconciliation compares):

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
from difflib import SequenceMatcher

from memcourse.records import MemoryRecord, MemoryType
from memcourse.text import STOPWORDS, tokenize

__all__ = [
    "MERGE_SIMILARITY", "SAME_FACT", "TOPIC_SIMILARITY", "contradicts", "coverage", "dice", "identifiers",
    "negated", "one_word_swapped", "restates", "salient", "same_event_or_fact", "same_specifics", "similarity",
    "specifics",
    "text_similarity",
]

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


# -- specifics: numbers, identifiers, dates ----------------------------------------------------
def specifics(text: str) -> frozenset[str]:
    """The tokens of ``text`` that carry a digit: numbers, identifiers, dates, versions.

    >>> sorted(specifics("Ticket SUP-69636 closed on 3 May, retention 56%"))
    ['3', '56', '69636', 'sup-69636']
    """
    return frozenset(token for token in tokenize(text, keep_stopwords=True) if any(ch.isdigit() for ch in token))


def same_specifics(a: MemoryRecord, b: MemoryRecord) -> bool:
    """Do both contents name exactly the same numbers, identifiers and dates, and is neither
    the other with one content word swapped (:func:`one_word_swapped`)?"""
    return specifics(a.content) == specifics(b.content) and not one_word_swapped(a.content, b.content)


def one_word_swapped(a: str, b: str) -> bool:
    """Is ``b`` the wording of ``a`` with exactly one content word replaced by another?

    That is how a value changes, not how a fact is restated: "reminders go by 短信" / "by 电话",
    "deploys on Thursday" / "on Friday", "a cat named Mochi" / "a dog named Mochi". An embedding
    scores such pairs as near-duplicates (one word of many differs), so a store would merge two
    facts, or take an update for a restatement. A restatement rephrases: it adds, drops or
    reorders words ("用户住在上海" / "用户现在住在上海"), which this does not flag.

    The texts are compared as units: a Chinese character each (word segmentation of two
    phrasings can differ; characters cannot), a Latin word each (crudely stemmed, so "like" /
    "likes" is no swap). A swap is one replaced run, everything else equal: one Latin word, or
    up to four Chinese characters (a word), on each side, and not a stopword.
    """
    left, right = _units(a), _units(b)
    blocks = SequenceMatcher(None, left, right, autojunk=False).get_opcodes()
    changed = [block for block in blocks if block[0] != "equal"]
    if len(changed) != 1 or changed[0][0] != "replace" or len(blocks) == 1:
        return False
    _, i1, i2, j1, j2 = changed[0]
    return _a_word(left[i1:i2]) and _a_word(right[j1:j2])


def _units(text: str) -> list[str]:
    """Chinese characters one by one, Latin and digit runs as stemmed words; nothing else."""
    return [ch if _CJK.match(ch) else _stem(ch) for ch in _UNIT.findall(unicodedata.normalize("NFKC", text).casefold())]


_UNIT = re.compile(_CJK.pattern + r"|[^\W_]+")


def _a_word(units: list[str]) -> bool:
    """One Latin word, or one to four Chinese characters, that is not a stopword."""
    if len(units) == 1 and not _CJK.match(units[0]):
        return units[0] not in STOPWORDS
    return 1 <= len(units) <= 4 and all(_CJK.match(u) for u in units) and "".join(units) not in STOPWORDS


# -- consolidation: merge or contradiction ------------------------------------------------------
#: Token overlap (Dice coefficient) at or above which two texts say the same thing. Lexical,
#: because the JSON store has no embeddings; chosen on hand-made pairs of restatements
#: ("用户喜欢Python" / "用户最喜欢用Python": 0.86) versus different facts on one topic (< 0.7).
MERGE_SIMILARITY = 0.8
#: Topic overlap (numbers and negations left out) at or above which two texts are about the
#: same thing, so that disagreeing values are a contradiction rather than two topics.
TOPIC_SIMILARITY = 0.6
_NEGATIONS = frozenset("不 没 没有 不再 别 无 未 never not no don't doesn't didn't isn't aren't won't cannot can't no "
                       "longer".split())


def _is_quantity(token: str) -> bool:
    """A bare number ("3", "8.5", "9:30"), as opposed to an identifier or a date ("SUP-1", "2026-03-02")."""
    return bool(re.fullmatch(r"\d+(?:[.,:]\d+)?%?", token))


def negated(text: str) -> bool:
    lowered = unicodedata.normalize("NFKC", text).lower()
    tokens = set(tokenize(lowered, keep_stopwords=True)) | set(re.findall(r"[a-z]+n't|no longer", lowered))
    return bool(tokens & _NEGATIONS)


def _tokens(text: str, *, topic: bool) -> set[str]:
    tokens = set(tokenize(text))
    if topic:
        tokens = {t for t in tokens if not any(ch.isdigit() for ch in t) and t not in _NEGATIONS}
        tokens = {t for t in tokens if t not in {"不", "没", "没有", "不再"}}
    return tokens


def dice(a: set[str], b: set[str]) -> float:
    return 2 * len(a & b) / (len(a) + len(b)) if a and b else 0.0


def text_similarity(a: MemoryRecord, b: MemoryRecord) -> float:
    """How much two memories say the same thing, 0..1 (token Dice over their contents)."""
    return dice(_tokens(a.content, topic=False), _tokens(b.content, topic=False))


def same_event_or_fact(a: MemoryRecord, b: MemoryRecord) -> bool:
    """Could ``a`` and ``b`` be one fact said twice?

    A restatement adds or drops words ("用户喜欢Python" / "用户最喜欢用Python"); it never
    *replaces* one. So: the same numbers, ids and dates, the same polarity, and one text's
    words contained in the other's. "…cluster in Frankfurt" / "…cluster in Singapore" and
    "Met Anna…" / "Met Boris…" look 80% alike and are two events; a substituted word is a
    different value, which is for contradiction handling, never for a merge.
    """
    if not same_specifics(a, b) or negated(a.content) != negated(b.content):
        return False
    words_a, words_b = _tokens(a.content, topic=False), _tokens(b.content, topic=False)
    return words_a <= words_b or words_b <= words_a


def contradicts(older: MemoryRecord, newer: MemoryRecord) -> bool:
    """Same topic, disagreeing value: a number changed or one of them negates the other."""
    if older.memory_type is MemoryType.EVENT:
        return False
    topic = dice(_tokens(older.content, topic=True), _tokens(newer.content, topic=True))
    if topic < TOPIC_SIMILARITY:
        return False
    old_specifics, new_specifics = specifics(older.content), specifics(newer.content)
    differing = old_specifics ^ new_specifics
    if any(not _is_quantity(token) for token in differing):
        return False  # "ticket SUP-1" vs "ticket SUP-2", two dates: two things, not a disagreement
    return bool(differing) or negated(older.content) != negated(newer.content)
