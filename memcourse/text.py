"""Tokenising text in any script for keyword recall.

``"用户喜欢短回答".split()`` is one token: Chinese has no spaces, so whitespace tokenising
turns a whole Chinese sentence into a single opaque word that matches nothing. Each writing
system needs its own idea of a "word", and a memory store serves every user, so this module
handles every script Unicode knows about, in four families:

========================= ================================================================
Han (Chinese)             segmented into words by jieba (its dictionary ships inside the
                          package, so it works offline), in search mode: 智能客服 gives
                          智能, 客服 and 智能客服
Thai, Lao, Khmer, Myanmar, no spaces between words and no dictionary here: overlapping
Japanese kana             pairs of characters ("bigrams", what Lucene's CJK analyser does),
                          counted in grapheme clusters so a vowel mark stays on its letter
Hangul (Korean)           the space-separated word *and* its bigrams, because Korean glues
                          particles to words (서울에서 "in Seoul" must match 서울 "Seoul")
everything else           runs of letters, marks and digits (Latin, Cyrillic, Greek,
(Latin, Cyrillic, Greek,  Devanagari, Arabic, Hebrew, ...), lower-cased; ASCII identifiers
Devanagari, Arabic, ...)  keep ``_ - .`` inside (``v2.4.0``, ``SUP-69636`` stay whole *and*
                          split into parts) and ``CamelCase`` splits (``AgentMemorySystem``
                          matches "memory")
========================= ================================================================

:func:`tokenize` gives the surface words (what the JSON store's overlap score, the agent
and the policy compare). :func:`keyword_tokens` adds one step for the BM25 index: English
words are reduced to their stem with the Snowball stemmer (PyStemmer, the one bm25s uses),
so "painted", "paints" and "painting" all match "paint". Only plain ASCII words are stemmed:
identifiers and numbers are kept exactly, and other languages are left alone rather than
run through an English rulebook.
"""

from __future__ import annotations

import json
import logging
import os
import re
import threading
import unicodedata
from functools import lru_cache

import regex

_UNSEGMENTED = r"\p{Thai}\p{Lao}\p{Khmer}\p{Myanmar}\p{Hiragana}\p{Katakana}\u30fc"
# One alternative per family; the last is "letters, marks, digits" minus the scripts above.
_RUN = regex.compile(
    rf"(?P<han>\p{{Han}}+)"
    rf"|(?P<seg>[{_UNSEGMENTED}]+)"
    rf"|(?P<ascii>[A-Za-z0-9]+(?:[_\-.][A-Za-z0-9]+)*)(?![[\p{{L}}\p{{M}}\p{{N}}]--[\p{{Han}}{_UNSEGMENTED}]])"
    rf"|(?P<word>[[\p{{L}}\p{{M}}\p{{N}}]--[\p{{Han}}{_UNSEGMENTED}]]+)",
    regex.V1,
)
_HANGUL = regex.compile(r"\p{Hangul}")
_CJK = regex.compile(r"\p{Han}")
_CAMEL = regex.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")
_GRAPHEME = regex.compile(r"\X")
_PLAIN_ENGLISH = regex.compile(r"[a-z]+")

#: Words too common to say anything about relevance. Deliberately short: a stopword list is
#: a recall decision, and negations (不, 没有, not, no, never) are *never* stopwords, because
#: "不喜欢邮件通知" and "喜欢邮件通知" must not look the same. "may" is kept: it is
#: also a month, and a memory's date is searchable ("what happened in May 2023?"). The last line holds the pieces
#: an apostrophe leaves behind ("Caroline's" -> caroline, s; "I'll" -> i, ll).
STOPWORDS = frozenset(
    """
    的 了 是 在 和 与 及 或 也 都 就 而 着 吗 呢 吧 啊 呀 么 嘛 这 那 这个 那个 这些 那些 一个
    我 你 他 她 它 我们 你们 他们 自己 请 把 被 让 给 对 从 向 为 以 之 其 所 有 要 会 能 可以
    什么 怎么 如何 哪些 应该 一下 一些 还 又 再 很 太 更 最 上 下 中 里 时 后 前
    a an the is are was were be been being am of to in on at by for with from as and or but
    if then so than that this these those it its i me my you your we our they their he she
    him her do does did doing have has had having will would shall should can could might
    must what which who whom how when where why please about into over under again also just
    s t ll re ve d m
    """.split()
)

_jieba_lock = threading.Lock()
_stemmers = threading.local()  # a PyStemmer object must not be shared between threads


@lru_cache(maxsize=1)
def _jieba():
    """Import jieba on first use (it loads a dictionary), silencing its start-up chatter."""
    with _jieba_lock:
        import jieba

        jieba.setLogLevel(logging.WARNING)
        jieba.initialize()
        return jieba


def _stemmer():
    stemmer = getattr(_stemmers, "english", None)
    if stemmer is None:
        import Stemmer  # PyStemmer: Snowball's C stemmers

        stemmer = _stemmers.english = Stemmer.Stemmer("english")
    return stemmer


def has_cjk(text: str) -> bool:
    """Does the text contain Chinese characters (Han)?"""
    return bool(_CJK.search(text))


def _ascii_tokens(run: str) -> list[str]:
    """``AgentMemorySystem`` -> agentmemorysystem, agent, memory, system;
    ``phase4_current_task`` -> phase4_current_task, phase4, current, task;
    ``v2.4.0`` -> v2.4.0, v2, 4, 0."""
    whole = run.lower()
    tokens = [whole]
    for part in regex.split(r"[_\-.]", run):
        pieces: list[str] = []
        for piece in _CAMEL.findall(part):
            if piece.isdigit() and pieces and not pieces[-1][-1].isdigit():
                pieces[-1] += piece  # keep "Phase4" together rather than "phase" + "4"
            else:
                pieces.append(piece)
        if len(pieces) > 1:
            tokens.extend(piece.lower() for piece in pieces)
        if part and part.lower() != whole:
            tokens.append(part.lower())
    return list(dict.fromkeys(tokens))


def _cjk_tokens(run: str) -> list[str]:
    """jieba's search mode: the word and its dictionary sub-words (智能客服 -> 智能, 客服, 智能客服)."""
    return [word for word in _jieba().lcut_for_search(run) if word.strip()]


def _bigrams(run: str) -> list[str]:
    """Overlapping pairs of grapheme clusters (a lone cluster is its own token)."""
    clusters = _GRAPHEME.findall(run)
    if len(clusters) < 2:
        return ["".join(clusters)] if clusters else []
    return [clusters[i] + clusters[i + 1] for i in range(len(clusters) - 1)]


def _word_tokens(run: str) -> list[str]:
    """A word of a spaced script, lower-cased; Hangul words also give their bigrams."""
    word = run.casefold()
    if _HANGUL.search(word) and len(word) > 2:
        return [word, *(gram for gram in _bigrams(word) if gram != word)]
    return [word]


def tokenize(text: str, *, keep_stopwords: bool = False) -> list[str]:
    """Split text into lower-case tokens, in order (duplicates kept, because BM25 counts
    term frequency). Surface words: no stemming (see :func:`keyword_tokens`)."""
    if not isinstance(text, str):
        raise TypeError(f"text must be a string, got {type(text).__name__}")
    text = unicodedata.normalize("NFKC", text)
    tokens: list[str] = []
    for match in _RUN.finditer(text):
        kind, run = match.lastgroup, match.group()
        if kind == "han":
            tokens.extend(_cjk_tokens(run))
        elif kind == "seg":
            tokens.extend(_bigrams(run))
        elif kind == "ascii":
            tokens.extend(_ascii_tokens(run))
        else:
            tokens.extend(_word_tokens(run))
    if keep_stopwords:
        return tokens
    return [token for token in tokens if token not in STOPWORDS]


def token_set(text: str) -> set[str]:
    return set(tokenize(text))


def stem(token: str) -> str:
    """The English stem of a plain lower-case ASCII word; anything else unchanged.

    >>> [stem(t) for t in ["painted", "paintings", "v2.4.0", "2023", "москва"]]
    ['paint', 'paint', 'v2.4.0', '2023', 'москва']
    """
    if len(token) > 3 and _PLAIN_ENGLISH.fullmatch(token):
        return _stemmer().stemWord(token)
    return token


def keyword_tokens(text: str) -> list[str]:
    """What the BM25 index stores and searches: :func:`tokenize`, English words stemmed."""
    return [stem(token) for token in tokenize(text)]


def identifiers(text: str) -> list[str]:
    """Tokens that look like identifiers: order numbers, tickets, versions, codes.

    A whole ASCII run with a digit that either has a joiner or three digits or more
    (``RT-55102``, ``v2.4.0``, ``C000123``, ``2024-08-17``) and either a letter or five
    digits or more (``2024081703``). Not ids: ``Phase4``, ``3.5``, a year such as ``2023``.
    Such a token names one thing, so recall treats a memory that contains it as decisive.

    >>> identifiers("Ticket SUP-69636 on v2.4.0, order 2024081703, Phase4 in 2023")
    ['sup-69636', 'v2.4.0', '2024081703']
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be a string, got {type(text).__name__}")
    found = []
    for match in _RUN.finditer(unicodedata.normalize("NFKC", text)):
        if match.lastgroup != "ascii":
            continue
        run = match.group().lower()
        digits = sum(ch.isdigit() for ch in run)
        joined = any(ch in "_-." for ch in run)
        lettered = any(ch.isalpha() for ch in run)
        if digits and (joined or digits >= 3) and (lettered or digits >= 5):
            found.append(run)
    return list(dict.fromkeys(found))


# -- shared tables: one copy each ----------------------------------------------------------
#: English month names, January first (``MONTH_NAMES[month - 1]``): how keyword indexing spells a
#: date and how the end-to-end benchmark reads "in March 2026".
MONTH_NAMES = ("January", "February", "March", "April", "May", "June", "July", "August", "September",
               "October", "November", "December")
#: Where a sentence ends: ".", "!", "?" or "…" followed by white space (so "3.11.6", "v1.2"
#: and "e.g.x" stay whole), a full-width "。", "！", "？" (Chinese needs no space after them),
#: or a line break.
_SENTENCE_END = re.compile(r"(?<=[.!?…])\s+|(?<=[。！？])|\s*[\r\n]+\s*")


def split_sentences(text: str) -> list[str]:
    """The sentences of ``text``, stripped, empty ones dropped (Chinese or English punctuation).

    >>> split_sentences("Hi Tim! Upgrade to 3.11.6 first。然后再说")
    ['Hi Tim!', 'Upgrade to 3.11.6 first。', '然后再说']
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, got {type(text).__name__}")
    return [piece for piece in (p.strip() for p in _SENTENCE_END.split(text)) if piece]


@lru_cache(maxsize=1)
def confusables() -> dict[str, list[dict[str, str]]]:
    """The Unicode confusables data (character -> the characters it imitates), as shipped by
    ``confusable_homoglyphs``; read once. The guards fold look-alike letters with it, the
    prompt fence look-alike punctuation."""
    import confusable_homoglyphs

    path = os.path.join(os.path.dirname(confusable_homoglyphs.__file__), "confusables.json")
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)
