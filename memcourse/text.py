"""Tokenising mixed Chinese and English text for keyword recall.

``"用户喜欢短回答".split()`` is one token: Chinese has no spaces, so whitespace tokenising
turns a whole Chinese sentence into a single opaque word that matches nothing. Chinese
needs segmentation; we use jieba (its dictionary ships inside the package, so it works
offline). English needs little: lower-casing, and splitting ``snake_case`` and
``CamelCase`` identifiers so that ``AgentMemorySystem`` can match a query about "memory".

The same function feeds the JSON store's keyword score and the BM25 index, so both
channels agree on what a "word" is.
"""

from __future__ import annotations

import logging
import re
import threading
import unicodedata
from functools import lru_cache

# Runs of CJK ideographs, or of ASCII letters/digits (identifiers keep _ - . inside, so
# "v2.4.0" and "ORD-2024001" stay whole tokens as well as splitting into their parts).
_RUN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+|[A-Za-z0-9]+(?:[_\-.][A-Za-z0-9]+)*")
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")

#: Words too common to say anything about relevance. Deliberately short: a stopword list is
#: a recall decision, and negations (不, 没有, not, no, never) are *never* stopwords, because
#: "不喜欢邮件通知" and "喜欢邮件通知" must not look the same.
STOPWORDS = frozenset(
    """
    的 了 是 在 和 与 及 或 也 都 就 而 着 吗 呢 吧 啊 呀 么 嘛 这 那 这个 那个 这些 那些 一个
    我 你 他 她 它 我们 你们 他们 自己 请 把 被 让 给 对 从 向 为 以 之 其 所 有 要 会 能 可以
    什么 怎么 如何 哪些 应该 一下 一些 还 又 再 很 太 更 最 上 下 中 里 时 后 前
    a an the is are was were be been being am of to in on at by for with from as and or but
    if then so than that this these those it its i me my you your we our they their he she
    him her do does did doing have has had having will would shall should can could may might
    must what which who whom how when where why please about into over under again also just
    """.split()
)

_jieba_lock = threading.Lock()


@lru_cache(maxsize=1)
def _jieba():
    """Import jieba on first use (it loads a dictionary), silencing its start-up chatter."""
    with _jieba_lock:
        import jieba

        jieba.setLogLevel(logging.WARNING)
        jieba.initialize()
        return jieba


def has_cjk(text: str) -> bool:
    return bool(_CJK.search(text))


def _ascii_tokens(run: str) -> list[str]:
    """``AgentMemorySystem`` -> agentmemorysystem, agent, memory, system;
    ``phase4_current_task`` -> phase4_current_task, phase4, current, task;
    ``v2.4.0`` -> v2.4.0, v2, 4, 0."""
    whole = run.lower()
    tokens = [whole]
    for part in re.split(r"[_\-.]", run):
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


def tokenize(text: str, *, keep_stopwords: bool = False) -> list[str]:
    """Split text into lower-case tokens, Chinese segmented, in order (duplicates kept,
    because BM25 counts term frequency)."""
    if not isinstance(text, str):
        raise TypeError(f"text must be a string, got {type(text).__name__}")
    text = unicodedata.normalize("NFKC", text)
    tokens: list[str] = []
    for match in _RUN.finditer(text):
        run = match.group()
        tokens.extend(_cjk_tokens(run) if _CJK.match(run) else _ascii_tokens(run))
    if keep_stopwords:
        return tokens
    return [token for token in tokens if token not in STOPWORDS]


def token_set(text: str) -> set[str]:
    return set(tokenize(text))
