"""A store's default recall configuration, and the knob names stores have always taken.

Every store holds one frozen :class:`~memcourse.recall.config.RecallConfig` as ``store.recall``,
its default; a search's ``recall=`` replaces it for that call only. Where the default comes from:

- ``recall=`` given to the constructor: that config;
- otherwise the store's embedder's model profile (:meth:`RecallConfig.for_profile`), so an e5
  store gets e5's similarity floor and near-duplicate threshold and a MiniLM store MiniLM's,
  without the caller knowing either number;
- the older keyword arguments (``rrf_k=``, ``fusion=``, ``similarity_floor=``,
  ``dedupe_threshold=``, ...) still work and change one knob of that default.

The same names read the default as attributes (``store.similarity_floor``), and setting one
(``store.fusion = "rrf"``) replaces the default with a changed copy: nothing is rebuilt or
re-embedded, and a bad value is refused with the config's own error.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from memcourse.recall.config import RecallConfig, check_recall

__all__ = ["KNOB_ATTRIBUTES", "RecallDefaults", "store_recall"]

#: The knobs stores have taken as constructor arguments, and expose as attributes.
KNOB_ATTRIBUTES = ("rrf_k", "decay_lambda", "fusion", "min_confidence", "dedupe_threshold", "similarity_floor")


def store_recall(recall: Any, embedder: Any = None, **knobs: Any) -> RecallConfig:
    """A store's default config: ``recall``, else ``embedder``'s profile's (else the library's),
    with every knob given (not ``None``) replacing its value. Raises before the store opens anything."""
    if recall is not None:
        base = check_recall(recall)
    elif embedder is not None:
        base = RecallConfig.for_profile(embedder)
    else:
        base = RecallConfig()
    unknown = set(knobs) - set(KNOB_ATTRIBUTES)
    if unknown:
        raise TypeError(f"unknown recall knob(s): {', '.join(sorted(unknown))}")
    given = {name: value for name, value in knobs.items() if value is not None}
    return replace(base, **given) if given else base


def _knob(name: str) -> property:
    def read(self: RecallDefaults) -> Any:
        return getattr(self.recall, name)

    def write(self: RecallDefaults, value: Any) -> None:
        self.recall = replace(self.recall, **{name: value})  # checked by the config; frozen copy

    return property(read, write, doc=f"The store's default ``recall.{name}`` (setting it replaces ``recall``).")


class RecallDefaults:
    """The knob attributes of a store with a default ``recall`` (mixed into the stores)."""

    recall: RecallConfig
    rrf_k = _knob("rrf_k")
    decay_lambda = _knob("decay_lambda")
    fusion = _knob("fusion")
    min_confidence = _knob("min_confidence")
    dedupe_threshold = _knob("dedupe_threshold")
    similarity_floor = _knob("similarity_floor")
