"""BM25: keyword recall that knows which words matter.

Keyword overlap (``keyword.py``) counts shared words, so "的" in a query and a rare order
number weigh the same. BM25 fixes the two things that matter most:

- **Rare words count more** (inverse document frequency). With ``N`` documents of which
  ``df`` contain a term, the term is worth ``idf = ln(1 + (N - df + 0.5) / (df + 0.5))``. An
  order number found in one memory out of 500 is worth ≈ 5.8; a word found in half of them
  ≈ 0.7. (This "Lucene" variant is never negative, so a match never lowers a score.)
- **Repeating a word helps, but less and less** (term-frequency saturation), and a long
  memory does not win just by being long (length normalisation). For a term seen ``tf``
  times in a memory of length ``len`` (average ``avg``)::

      tf_part = tf / (tf + k1 * (1 - b + b * len / avg))

  ``k1`` (default 1.5) sets how fast repetition saturates: however often a word repeats,
  ``tf_part`` stays below 1. ``b`` (default 0.75) sets how much length is punished: 0 ignores
  length, 1 normalises it fully. (Textbooks multiply ``tf_part`` by ``k1 + 1``; bm25s leaves
  that constant out. Every score shrinks by the same factor, so no ranking changes.)

A memory's score is the sum of ``idf * tf_part`` over the query's distinct terms that it
contains. No shared term, score 0, and the memory is not returned.

BM25 knows nothing about Chinese, Thai or English plurals. It counts *tokens*, and what a
token is comes from :func:`memcourse.text.keyword_tokens`: words of every script (jieba for
Chinese, character pairs for unspaced scripts, identifiers kept whole and split), English
words reduced to their stem, so ``客服`` finds ``智能客服助手`` (jieba's search mode yields
智能 / 客服 / 助手) and "painting" finds "painted".

(k1 = 1.5, b = 0.75 are the textbook defaults of this class; the stores pass k1 = 1.2,
b = 0.5, measured on short memories: see ``memcourse.recall.hybrid.BM25_PARAMS``.)

The scoring engine is `bm25s <https://github.com/xhluca/bm25s>`_, which precomputes every
(term, document) score into a sparse matrix, so a query is a few array look-ups. The price:
a bm25s index is static. This class keeps the token lists as the source of truth, marks
itself *dirty* on every change, and rebuilds the matrix on the next search (not on every
write: a bulk load of 10,000 memories rebuilds once). ``remove`` drops the matrix at once,
so a forgotten memory leaves nothing behind in it, not even its vocabulary.
"""

from __future__ import annotations

import math
import threading
from typing import Any, Container, Iterable, Sized

import numpy as np

from memcourse.text import keyword_tokens as tokenize

__all__ = ["BM25Index"]

#: How many tenants' allow-list masks are kept between index changes.
MASK_CACHE = 32


class BM25Index:
    """A BM25 index over memcourse tokens, keyed by document id (a ``memory_id``).

    >>> index = BM25Index()
    >>> index.add("m1", "智能客服助手的上线计划")
    >>> index.add("m2", "代码示例尽量用 Python")
    >>> [doc_id for doc_id, _ in index.search("客服", limit=5)]
    ['m1']
    """

    def __init__(self, *, k1: float = 1.5, b: float = 0.75):
        if isinstance(k1, bool) or not isinstance(k1, (int, float)) or not math.isfinite(k1) or k1 < 0:
            raise ValueError(f"k1 must be a finite number >= 0, got {k1!r}")
        if isinstance(b, bool) or not isinstance(b, (int, float)) or not 0.0 <= b <= 1.0:
            raise ValueError(f"b must be a number in [0, 1], got {b!r}")
        self.k1 = float(k1)
        self.b = float(b)
        self._tokens: dict[str, list[str]] = {}  # the source of truth
        self._lock = threading.RLock()
        # Built lazily by _ensure_built(); None means "dirty, rebuild before searching".
        self._model = None
        self._ids: list[str] = []  # matrix column -> doc id
        self._position: dict[str, int] = {}  # doc id -> matrix column
        self._masks: dict[frozenset[str], np.ndarray] = {}  # allow-list -> column mask

    def __repr__(self) -> str:
        return f"BM25Index({len(self)} docs, k1={self.k1}, b={self.b})"

    # -- writing --------------------------------------------------------------------------
    def add(self, doc_id: str, text: str) -> None:
        """Insert a document, or replace the one with the same id."""
        doc_id = _check_id(doc_id)
        if not isinstance(text, str):
            raise TypeError(f"text must be a string, got {type(text).__name__}")
        tokens = tokenize(text)
        with self._lock:
            if self._tokens.get(doc_id) == tokens:
                return  # unchanged: keep the built matrix
            self._tokens[doc_id] = tokens
            self._invalidate()

    def add_many(self, items: Iterable[tuple[str, str]]) -> None:
        """Insert or replace many documents; the matrix is rebuilt once, at the next search."""
        prepared = []
        for doc_id, text in items:
            doc_id = _check_id(doc_id)
            if not isinstance(text, str):
                raise TypeError(f"text of {doc_id!r} must be a string, got {type(text).__name__}")
            prepared.append((doc_id, tokenize(text)))
        # All inputs are checked before anything changes: a bad item leaves the index as it was.
        with self._lock:
            changed = False
            for doc_id, tokens in prepared:
                if self._tokens.get(doc_id) != tokens:
                    self._tokens[doc_id] = tokens
                    changed = True
            if changed:
                self._invalidate()

    def remove(self, doc_id: str) -> bool:
        """Forget a document completely; returns whether it was there.

        The built matrix is discarded immediately (not at the next search), so no score,
        vocabulary entry or statistic of the removed document survives in memory.
        """
        with self._lock:
            if doc_id not in self._tokens:
                return False
            del self._tokens[doc_id]
            self._invalidate()
            return True

    def clear(self) -> None:
        with self._lock:
            self._tokens.clear()
            self._invalidate()

    # -- reading --------------------------------------------------------------------------
    def __contains__(self, doc_id: object) -> bool:
        return doc_id in self._tokens

    def __len__(self) -> int:
        return len(self._tokens)

    def tokens_of(self, doc_id: str) -> list[str]:
        """The tokens indexed for ``doc_id`` (a copy), or ``[]`` if it is not indexed."""
        with self._lock:
            return list(self._tokens.get(doc_id, []))

    def vocabulary(self) -> set[str]:
        """Every token currently indexed (what a forget test inspects)."""
        with self._lock:
            vocab: set[str] = set()
            for tokens in self._tokens.values():
                vocab.update(tokens)
            return vocab

    def search(
        self, query: str, *, limit: int, allowed: Container[str] | None = None
    ) -> list[tuple[str, float]]:
        """``(doc_id, score)`` pairs, best first, only scores > 0.

        With ``allowed`` (a set of ids, e.g. one tenant's memories), only those ids can be
        returned, even when that leaves fewer than ``limit`` results: the filter is applied
        to the candidates *before* the top ``limit`` are taken, never after. Equal scores
        are ordered by id so the result is deterministic.
        """
        if not isinstance(query, str):
            raise TypeError(f"query must be a string, got {type(query).__name__}")
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
            raise ValueError(f"limit must be an int >= 1, got {limit!r}")
        terms = list(dict.fromkeys(tokenize(query)))  # distinct terms, as BM25 defines the sum
        if not terms:
            return []
        with self._lock:
            model = self._ensure_built()
            if model is None:
                return []
            term_ids = model.get_tokens_ids(terms)
            if not term_ids:
                return []
            scores = model.get_scores_from_ids(term_ids)
            candidates = self._candidates(scores, allowed)
            if candidates.size == 0:
                return []
            if candidates.size > limit:
                # Keep everything scoring at least the limit-th best score (so ties at the
                # cut are resolved by id below, not by whatever argpartition picked).
                cut = np.partition(scores[candidates], -limit)[-limit]
                candidates = candidates[scores[candidates] >= cut]
            # Best score first, equal scores by id. Columns are in id order (see
            # _ensure_built) and ``candidates`` ascends, so a stable sort on the score alone
            # does it, in numpy: a common word can tie thousands of memories at the cut.
            best = candidates[np.argsort(-scores[candidates], kind="stable")[:limit]]
            return [(self._ids[i], float(scores[i])) for i in best]

    # -- internals ------------------------------------------------------------------------
    def _candidates(self, scores: np.ndarray, allowed: Container[str] | None) -> np.ndarray:
        """Matrix columns that scored > 0 and are allowed, as one numpy operation.

        The allow-list (one tenant's ids) becomes a boolean mask over the matrix columns.
        Building a mask walks the allow-list once, so masks are kept (up to
        ``MASK_CACHE`` of them, until the next change to the index) under a frozen copy of
        the allow-list: a tenant's next query reuses its mask, and an allow-list that
        changed in between, even in place, simply misses the cache.
        """
        positive = scores > 0
        if allowed is None:
            return np.flatnonzero(positive)
        return np.flatnonzero(positive & self._mask(allowed))

    def _mask(self, allowed: Container[str]) -> np.ndarray:
        key = frozenset(allowed) if isinstance(allowed, (set, frozenset)) else None
        if key is not None and key in self._masks:
            return self._masks[key]
        mask = np.zeros(len(self._ids), dtype=bool)
        if isinstance(allowed, Iterable) and isinstance(allowed, Sized) and len(allowed) < len(self._ids):
            columns = np.fromiter((self._position.get(i, -1) for i in allowed), dtype=np.int64)
            mask[columns[columns >= 0]] = True
        else:
            mask[:] = np.fromiter((doc_id in allowed for doc_id in self._ids), dtype=bool, count=len(self._ids))
        if key is not None:
            if len(self._masks) >= MASK_CACHE:
                self._masks.pop(next(iter(self._masks)))
            self._masks[key] = mask
        return mask

    def _invalidate(self) -> None:
        self._masks = {}
        self._model = None
        self._ids = []
        self._position = {}

    def _ensure_built(self) -> Any:
        """The bm25s index (an untyped library's object), built on first use; None when
        nothing is indexable."""
        if self._model is not None:
            return self._model
        if not any(self._tokens.values()):
            return None  # nothing indexable (no documents, or only stopwords)
        import bm25s  # imported here: only a search needs it

        ids = sorted(self._tokens)  # column order = id order: search breaks ties by it
        corpus = [self._tokens[i] for i in ids]
        model = bm25s.BM25(k1=self.k1, b=self.b, method="lucene")
        model.index(corpus, show_progress=False)
        self._model, self._ids = model, ids
        self._position = {doc_id: i for i, doc_id in enumerate(ids)}
        return model


def _check_id(doc_id: object) -> str:
    if not isinstance(doc_id, str) or not doc_id:
        raise ValueError(f"doc_id must be a non-empty string, got {doc_id!r}")
    return doc_id
