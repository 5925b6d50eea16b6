"""MiniLM + USE with query-side language routing: the weights of the two models chosen per text.

The fixed-weight composite (:mod:`memcourse.embeddings.composite`) mixes ``w · cos_MiniLM +
(1 - w) · cos_USE`` for every query, so an English question pays for USE's weaker English
(LoCoMo dev hybrid R@10 0.687 against MiniLM's 0.729) and a Chinese one for MiniLM's
``[UNK]`` half. But a dot product lets each side carry its own weights: with a document
``[a·m_d, b·u_d]`` and a query ``[α·m_q, β·u_q]`` the score is ``αa·cos_m + βb·cos_u``, so the
query can pick its mix from its script, and no document is re-embedded.

**Three blocks**, so a document MiniLM cannot read loses nothing::

    document MiniLM reads:     [a·m_d, b·u_d,   0  ]
    document MiniLM can't:     [  0,   b·u_d, a·u_d]     (its MiniLM share moves to block 3)
    query, Latin script only:  [m_q,     0,   u_q] / √2
    query, no Latin script:    [ 0,    u_q,    0 ]
    query, both (code-switch): [m_q,   u_q,   u_q] / √3

Every vector is unit length, so the stores' cosine (Chroma's ``cosine`` space, pgvector's
``<=>``), which normalises both sides, sees exactly these dot products. What they give:

* a **Latin** query scores a document MiniLM reads ``(a/√2)·cos_m`` — MiniLM's own ranking,
  scaled — and a Chinese document ``(a/√2)·cos_USE``: an English question can still find a
  Chinese memory, through USE, on the same scale;
* a **Chinese** (or any non-Latin) query scores every document ``b·cos_USE``: USE's own ranking,
  with no penalty on an English memory (the composite's ``sqrt(1 - w)``);
* a **code-switched** query MiniLM can read gets ``(a·cos_m + b·cos_USE) / √3`` on a document
  both read and ``(a + b)·cos_USE / √3`` on one only USE reads (block 3 makes up the missing
  half); one MiniLM cannot read (known-token share below the guard) takes the non-Latin route.

**The scale.** A store compares one floor with every query's scores. ``a`` and ``b`` are
chosen so that one floor means each model's own calibrated floor on its route:
``(a/√2)·0.30 = b·0.247`` (MiniLM's and USE's floors, :mod:`memcourse.embeddings.profiles`),
with ``a² + b² = 1``: ``a² = 0.575``, and the profile's floor is ``(a/√2)·0.30 = 0.161``. The dense
exponent is a ratio of scores above the floor, so it does not move with the scale. Two documents
MiniLM reads compare as ``a²·cos_m + b²·cos_USE`` (the composite at ``w = a²``), two Chinese ones as
``cos_USE``: the near-duplicate threshold is mapped on that space (``calibrate_embedder.py``).

The route is decided by script (:func:`route_of`) after NFKC, so full-width Latin
(``ＰＯＳＴＧＲＥＳ``) is Latin; MiniLM also embeds the NFKC form (identical for ASCII text, so a
pure-English store ranks exactly as MiniLM does). A document's side is decided by MiniLM's
known-token share, the rule the composite's ``drop-unread`` uses.

"""

from __future__ import annotations

import math
import threading
import unicodedata
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Sequence

import numpy as np

from memcourse.embeddings.sentence_transformers import SMALL_BATCH  # MiniLM runs these on one thread

__all__ = ["DOCUMENT_WEIGHTS", "FLOOR", "MODEL_ID", "ROUTES", "RoutedBackend", "route_of", "script_counts"]

#: The stable id a collection records.
MODEL_ID = "minilm+use-multilingual-v3-routed"
_HALF = 1.0 / math.sqrt(2.0)
#: MiniLM's and USE's calibrated similarity floors (profiles.py; a test checks they still agree).
MINILM_FLOOR, USE_FLOOR = 0.30, 0.247
_RATIO = MINILM_FLOOR * _HALF / USE_FLOOR  # b / a, so that (a/√2)·0.30 == b·0.247
#: (a, b): a document's MiniLM and USE weights (a² + b² = 1), chosen so one floor fits both routes.
DOCUMENT_WEIGHTS = (1.0 / math.sqrt(1.0 + _RATIO ** 2), _RATIO / math.sqrt(1.0 + _RATIO ** 2))
#: The floor that is MiniLM's 0.30 on the Latin route and USE's 0.247 on the non-Latin one.
FLOOR = DOCUMENT_WEIGHTS[0] * _HALF * MINILM_FLOOR
#: Query weights (MiniLM block, USE block, USE-for-unread-documents block), unit length.
ROUTES = {
    "latin": (_HALF, 0.0, _HALF),
    "other": (0.0, 1.0, 0.0),
    "mixed": (1.0 / math.sqrt(3.0),) * 3,
}


_pool: ThreadPoolExecutor | None = None
_pool_lock = threading.Lock()


def _beside() -> ThreadPoolExecutor:
    """One worker thread per process for the USE half of a query."""
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="memcourse-routed-use")
        return _pool


def script_counts(text: str) -> tuple[int, int]:
    """``(Latin words, other letters)`` of ``text`` after NFKC. A Latin word counts once and a
    Han, kana or Hangul character once (a Chinese word is one to three characters), so
    "我在用 Python" is 3 to 1; digits, punctuation and symbols count for nothing."""
    latin_words = other = 0
    in_word = False
    for char in unicodedata.normalize("NFKC", text):
        if not char.isalpha():
            in_word = False
            continue
        if unicodedata.name(char, "").startswith("LATIN"):
            latin_words += not in_word
            in_word = True
        else:
            other += 1
            in_word = False
    return latin_words, other


def route_of(text: str) -> str:
    """``latin`` (no other letters), ``other`` (no Latin word) or ``mixed`` (both). A text with
    no letters at all is ``mixed``: nothing says which model reads it better."""
    latin, other = script_counts(text)
    if latin and not other:
        return "latin"
    if other and not latin:
        return "other"
    return "mixed"


class RoutedBackend:
    """MiniLM and USE multilingual in three blocks, the query's weights chosen by its script."""

    asymmetric = True  # a query is embedded with its route's weights, a document with its own

    def __init__(self, model_id: str = MODEL_ID, *, batch_size: int = 64, parts: Sequence[Any] | None = None):
        from memcourse.embeddings.sentence_transformers import MINILM_MODEL
        from memcourse.embeddings.use_multilingual import MODEL_ID as USE_ID

        self.model_id = model_id
        self.batch_size = batch_size
        self._ids = (MINILM_MODEL, USE_ID)
        self._parts = list(parts) if parts is not None else None
        if self._parts is not None and [p.model_id for p in self._parts] != list(self._ids):
            raise ValueError(f"parts must be embedders of {self._ids[0]!r} and {self._ids[1]!r}, in that order")

    @property
    def parts(self) -> list[Any]:
        """The MiniLM and USE embedders (uncached: the routed :class:`Embedder` caches the result)."""
        if self._parts is None:
            from memcourse.embeddings import Embedder

            self._parts = [Embedder(m, cache_size=0, batch_size=self.batch_size) for m in self._ids]
        return self._parts

    @property
    def model(self) -> tuple[Any, ...]:
        return tuple(part.model for part in self.parts)

    @property
    def dimension(self) -> int:
        minilm, use = self.parts
        return minilm.dimension + 2 * use.dimension

    def minilm_reads(self, texts: Sequence[str]) -> np.ndarray:
        """Does MiniLM read each text (known-token share of its NFKC form at or above the guard)?"""
        minilm = self.parts[0]
        ratios = minilm.known_token_ratios([unicodedata.normalize("NFKC", t) for t in texts])
        return np.asarray(ratios, dtype=np.float32) >= minilm.profile.min_known_tokens

    def routes(self, texts: Sequence[str]) -> list[str]:
        """Each query's route: its script's, except that a code-switched query MiniLM cannot read
        goes the non-Latin way (MiniLM's vector of it would be mostly ``[UNK]``)."""
        found = [route_of(t) for t in texts]
        mixed = [i for i, r in enumerate(found) if r == "mixed"]
        if mixed:
            reads = self.minilm_reads([texts[i] for i in mixed])
            for i, read in zip(mixed, reads, strict=True):
                found[i] = "mixed" if read else "other"
        return found

    def encode(self, texts: list[str], *, query: bool = False) -> np.ndarray:
        minilm, use = self.parts
        texts = list(texts)
        normalised = [unicodedata.normalize("NFKC", t) for t in texts]
        if query and len(texts) <= SMALL_BATCH:
            # A query is on the path of every search. MiniLM embeds a handful of texts on one
            # thread, so USE runs beside it on the other core instead of after it.
            beside = _beside().submit(use.embed, texts)
            m = np.asarray(minilm.embed(normalised), dtype=np.float32)
            u = np.asarray(beside.result(), dtype=np.float32)
        else:
            m = np.asarray(minilm.embed(normalised), dtype=np.float32)
            u = np.asarray(use.embed(texts), dtype=np.float32)
        if query:
            weights = np.asarray([ROUTES[r] for r in self.routes(texts)], dtype=np.float32)
        else:
            reads = self.minilm_reads(texts)[:, None]
            a, b = (np.float32(x) for x in DOCUMENT_WEIGHTS)
            weights = np.concatenate([reads * a, np.full(reads.shape, b, dtype=np.float32), ~reads * a],
                                     axis=1).astype(np.float32)
        vectors = np.concatenate([m * weights[:, [0]], u * weights[:, [1]], u * weights[:, [2]]], axis=1)
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)  # 1 already, up to rounding
        return vectors / np.where(norms == 0, 1, norms)

    def known_token_ratios(self, texts: Sequence[str]) -> list[float]:
        minilm, use = self.parts
        shares = (minilm.known_token_ratios([unicodedata.normalize("NFKC", t) for t in texts]),
                  use.known_token_ratios(list(texts)))
        return [max(column) for column in zip(*shares, strict=True)]
