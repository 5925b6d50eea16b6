"""A composite embedder: two models in one vector space, so one collection can hold both.

MiniLM reads English well and Chinese not at all; USE multilingual reads Chinese and finds a
memory across languages, but reads English less well. The composite vector is the
concatenation of each part's unit vector scaled by the square root of its weight::

    v = [sqrt(w) · v_minilm, sqrt(1 - w) · v_use]        (|v| = 1)

so its cosine is *exactly* ``w · cos_minilm + (1 - w) · cos_use``: a fusion of two dense
channels that costs no second index. It is one vector per text, so it works unchanged in
Chroma and pgvector (one collection, one column of 384 + 512 = 896 dimensions), and a
Chinese question still finds an English memory through the USE half. The weight is part of
the model: a different weight is a different space, so it gets a different stable id.

The parts are embedders without a cache of their own (``cache_size=0``): the composite
:class:`~memcourse.embeddings.Embedder` caches the concatenated vector, so a text is held
once and forgetting it (``Embedder.forget``) drops every copy. A benchmark sweeping the
weight may pass cached part embedders instead (``parts=``), to embed each text once per part.

A text counts as read when either part reads it (the known-token share is the larger of the
two): a Chinese sentence is read by the USE half even though MiniLM sees ``[UNK]``.

**The unread half.** MiniLM's vector of a Chinese sentence is mostly ``[UNK]``, and two such
vectors are close whatever the sentences say. In the plain concatenation that half adds
``w · (high)`` to every Chinese/Chinese cosine and ``w · (about 0)`` to every Chinese/English
one, so a Chinese question prefers any Chinese memory to the English memory that answers it.
With ``drop_unread=True`` a part whose known-token share of a text is below its profile's guard
(``min_known_tokens``) contributes nothing to that text's vector, and the rest is renormalised:
for texts both parts read the cosine is still exactly the weighted sum; a text only USE reads
is USE's vector (so Chinese/Chinese is ``cos_USE`` and Chinese/English ``sqrt(1 - w) · cos_USE``).
Both variants are measured in benchmarks/composite_weight.py; another variant is another space,
so it has another id.
"""

from __future__ import annotations

import math
from typing import Any, Sequence

import numpy as np

__all__ = ["MINILM_USE_MODEL", "MINILM_USE_WEIGHT", "CompositeBackend", "composite_id"]

#: MiniLM's share of the composite cosine: an even split, by prior. The development sweep
#: (benchmarks/composite_weight.py; docs/benchmarks.md section 5) found no weight in 0.4-0.7 that
#: keeps LoCoMo dev hybrid R@10 within 0.01 of MiniLM's, so it chose none.
MINILM_USE_WEIGHT = 0.5
#: Does the registered composite drop a part that cannot read a text (see the module docstring)?
MINILM_USE_DROP_UNREAD = True
#: The stable id a collection records for the registered composite.
MINILM_USE_MODEL = "minilm+use-multilingual-v3"
#: The suffix of a variant id that keeps the unread half (``...@w=0.5,keep-unread``) or drops it.
KEEP_UNREAD, DROP_UNREAD = "keep-unread", "drop-unread"


def composite_id(weight: float, drop_unread: bool = MINILM_USE_DROP_UNREAD) -> str:
    """The stable id of the MiniLM + USE composite at ``weight`` (the registered variant keeps the bare name)."""
    if weight == MINILM_USE_WEIGHT and drop_unread == MINILM_USE_DROP_UNREAD:
        return MINILM_USE_MODEL
    return f"{MINILM_USE_MODEL}@w={weight:g},{DROP_UNREAD if drop_unread else KEEP_UNREAD}"


class CompositeBackend:
    """Concatenate the unit vectors of several models, each scaled by the square root of its weight."""

    def __init__(self, model_id: str, *, weights: Sequence[tuple[str, float]], batch_size: int = 64,
                 parts: Sequence[Any] | None = None, drop_unread: bool = False):
        if not weights:
            raise ValueError("a composite needs at least one part")
        total = sum(w for _, w in weights)
        if any(w < 0 for _, w in weights) or not math.isclose(total, 1.0, abs_tol=1e-9):
            raise ValueError(f"composite weights must be >= 0 and sum to 1, got {list(weights)!r}")
        self.model_id = model_id
        self.batch_size = batch_size
        self.weights = tuple((str(m), float(w)) for m, w in weights)
        self.drop_unread = bool(drop_unread)
        self._parts = list(parts) if parts is not None else None
        if self._parts is not None and [p.model_id for p in self._parts] != [m for m, _ in self.weights]:
            raise ValueError("parts must be embedders of the weighted models, in the same order")

    @property
    def parts(self) -> list[Any]:
        """One embedder per part (built on first use; loading each model is lazy and shared per process)."""
        if self._parts is None:
            from memcourse.embeddings import Embedder

            self._parts = [Embedder(m, cache_size=0, batch_size=self.batch_size) for m, _ in self.weights]
        return self._parts

    @property
    def model(self) -> tuple[Any, ...]:
        return tuple(part.model for part in self.parts)

    @property
    def dimension(self) -> int:
        return sum(part.dimension for part in self.parts)

    @property
    def asymmetric(self) -> bool:
        return any(part.asymmetric for part in self.parts)

    def encode(self, texts: list[str], *, query: bool = False) -> np.ndarray:
        pieces, kept = [], []
        for part, (_, weight) in zip(self.parts, self.weights, strict=True):
            vectors = part.embed_queries(texts) if query else part.embed(texts)
            pieces.append(np.asarray(vectors, dtype=np.float32) * np.float32(math.sqrt(weight)))
            if self.drop_unread:
                ratios = np.asarray(part.known_token_ratios(list(texts)), dtype=np.float32)
                kept.append(ratios >= part.profile.min_known_tokens)
        if kept:
            read = np.stack(kept, axis=1)  # (texts, parts)
            read[~read.any(axis=1)] = True  # no part reads it: keep them all rather than a zero vector
            pieces = [piece * read[:, [i]] for i, piece in enumerate(pieces)]
        vectors = np.concatenate(pieces, axis=1)
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)  # 1 already, up to rounding
        return vectors / np.where(norms == 0, 1, norms)

    def known_token_ratios(self, texts: Sequence[str]) -> list[float]:
        shares = [part.known_token_ratios(list(texts)) for part in self.parts]
        return [max(column) for column in zip(*shares, strict=True)]
