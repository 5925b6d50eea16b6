"""The Chroma embedding function: Chroma's view of an :class:`~memcourse.embeddings.Embedder`.

It is registered in Chroma's embedding-function registry, so a collection's stored
configuration names *our* function with a portable model id (not a site-packages path):
the store reads that id back to refuse a second model, and Chroma never falls back to its
own default, which downloads a model and fails offline. The registered name stays
``memcourse-sentence-transformer`` whatever the backend, because collections already
record it.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

__all__ = ["chroma_embedding_function_class"]


def _chroma_embedding_function_class() -> type:
    """Build and register the Chroma embedding function (imports chromadb, so only on demand)."""
    from chromadb.api.types import Documents, EmbeddingFunction
    from chromadb.utils.embedding_functions import register_embedding_function

    from memcourse.embeddings import Embedder, default_embedder, resolve_model

    class MemcourseEmbeddingFunction(EmbeddingFunction[Documents]):
        """Chroma's view of an :class:`Embedder`. Its config is ``{"model": <portable id>}``, so a
        collection reopened elsewhere rebuilds the same function from the stored config. The
        store passes vectors itself (cached), so Chroma calls this only if *you* add documents
        to the collection without embeddings."""

        def __init__(self, model: str | None = None, *, embedder: "Embedder | None" = None):
            self._model_id = embedder.model_id if embedder is not None else resolve_model(model)
            self._embedder = embedder

        @property
        def embedder(self) -> "Embedder":
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
