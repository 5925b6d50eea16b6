"""One frozen object holds every knob a store's recall ranks with: :class:`RecallConfig`.

The knobs used to be constructor arguments fixed when a store was built (``rrf_k=``,
``similarity_floor=``, ...) and module constants read in several places, so changing one for
one question meant building a second store and embedding everything again. Now a store holds
one config as its default (``store.recall``), and any search may pass another, for that call
only::

    from dataclasses import replace
    store.search("where does Alice work?", recall=replace(store.recall, fusion="rrf"))

The store's default is untouched by the call. The object is frozen, so a config a store holds
cannot change under it; :func:`dataclasses.replace` makes a checked, changed copy.

**The cosine-reading knobs belong to the embedding model**, not to the library: a cosine of
0.30 means "unrelated" for all-MiniLM-L6-v2 and nothing at all for multilingual-e5-small, whose
cosines sit between 0.75 and 0.99. :meth:`RecallConfig.for_profile` takes them
(:data:`PROFILE_KNOBS`) from the model's :class:`~memcourse.embeddings.profiles.ModelProfile`,
and a store built without ``recall=`` does exactly that with its embedder's profile. The other
knobs (fusion, RRF's ``k``, decay, the confidence floor, BM25's exponent, the channel depths,
the default ``limit``) read no cosine and are the same for every model. ``RecallConfig()`` is
the configuration the library was tuned with on MiniLM (docs/benchmarks.md).

**Write-time knobs.** ``dedupe_threshold`` decides, when a memory is written, whether it
supersedes a near-duplicate, so a store reads it from its own default, never from a search's
config. ``min_known_tokens`` guards both sides: a search uses its config's value for the
query (and for passages scored on the fly); which stored memories count as readable was
decided when they were written.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any

from memcourse.recall.admission import MIN_CONFIDENCE
from memcourse.recall.decay import DEFAULT_LAMBDA
from memcourse.recall.dedupe import DEFAULT_THRESHOLD
from memcourse.recall.fusion import DEFAULT_K
from memcourse.recall.hybrid import FUSIONS, KEYWORD_DEPTH, MIN_KNOWN_TOKENS, SHARPEN, SIMILARITY_FLOOR, VECTOR_DEPTH
from memcourse.recall.passages import PASSAGE_WEIGHT

__all__ = ["DEFAULT_LIMIT", "PROFILE_KNOBS", "RecallConfig", "check_recall"]

#: How many hits a search returns when the caller does not say.
DEFAULT_LIMIT = 5
#: The knobs that read a cosine, so :meth:`RecallConfig.for_profile` takes them from the model.
PROFILE_KNOBS = ("similarity_floor", "dedupe_threshold", "passage_weight", "vector_sharpen", "min_known_tokens")


@dataclass(frozen=True)
class RecallConfig:
    """Every ranking knob of a store's search (the module docstring says which are the model's).

    ``limit``: hits a search returns when it does not say. ``fusion``: ``"weighted"`` or
    ``"rrf"`` (plain Reciprocal Rank Fusion, which uses ``rrf_k``). ``decay_lambda``: the
    recency factor's rate per day. ``min_confidence``: the admission gate's confidence floor.
    ``similarity_floor``: the cosine at which a vector hit starts to count (the zero point of
    the dense channel's normalised score). ``dedupe_threshold``: the cosine at or above which a
    new memory supersedes an older near-duplicate (above 1: never). ``passage_weight``: the
    whole text's share of a multi-sentence memory's similarity. ``keyword_sharpen`` /
    ``vector_sharpen``: the power each channel's normalised score is raised to before mixing.
    ``min_known_tokens``: a text whose known-token share is below this has a vector that means
    nothing. ``vector_depth`` / ``keyword_depth``: candidates each channel hands to fusion (at
    least ``4 × limit``). ``model_id``: the model whose profile set the cosine knobs (``None``:
    the library's own defaults, MiniLM's values).
    """

    limit: int = DEFAULT_LIMIT
    fusion: str = "weighted"
    rrf_k: float = DEFAULT_K
    decay_lambda: float = DEFAULT_LAMBDA
    min_confidence: float = MIN_CONFIDENCE
    similarity_floor: float = SIMILARITY_FLOOR
    dedupe_threshold: float = DEFAULT_THRESHOLD
    passage_weight: float = PASSAGE_WEIGHT
    keyword_sharpen: float = SHARPEN["keyword"]
    vector_sharpen: float = SHARPEN["vector"]
    min_known_tokens: float = MIN_KNOWN_TOKENS
    vector_depth: int = VECTOR_DEPTH
    keyword_depth: int = KEYWORD_DEPTH
    model_id: str | None = None

    def __post_init__(self) -> None:
        """Refuse nonsense when the config is made (or replaced), naming the knob: a bad value
        must fail here, not as a silently odd ranking three calls later."""
        for name in ("limit", "vector_depth", "keyword_depth"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} must be an int >= 1, got {value!r}")
        if not isinstance(self.fusion, str) or self.fusion not in FUSIONS:
            raise ValueError(f"fusion must be one of {', '.join(FUSIONS)}; got {self.fusion!r}")
        for name in ("rrf_k", "keyword_sharpen", "vector_sharpen"):
            if not _number(self, name) > 0:
                raise ValueError(f"{name} must be > 0, got {getattr(self, name)!r}")
        if _number(self, "decay_lambda") < 0:
            raise ValueError(f"decay_lambda must be >= 0, got {self.decay_lambda!r}")
        for name in ("min_confidence", "passage_weight", "min_known_tokens"):
            if not 0.0 <= _number(self, name) <= 1.0:
                raise ValueError(f"{name} must be in [0, 1], got {getattr(self, name)!r}")
        if not -1.0 <= _number(self, "similarity_floor") <= 1.0:
            raise ValueError(f"similarity_floor is a cosine: it must be in [-1, 1], got {self.similarity_floor!r}")
        if _number(self, "dedupe_threshold") < -1.0:
            raise ValueError(f"dedupe_threshold is a cosine (above 1: never supersede); got {self.dedupe_threshold!r}")
        if self.model_id is not None and not isinstance(self.model_id, str):
            raise TypeError(f"model_id must be a string or None, got {type(self.model_id).__name__}")

    @classmethod
    def for_profile(cls, profile: Any, **overrides: Any) -> "RecallConfig":
        """The config for one embedding model: its profile's cosine-reading knobs
        (:data:`PROFILE_KNOBS`), the library's defaults for the rest, then ``overrides``.

        ``profile``: a :class:`~memcourse.embeddings.profiles.ModelProfile`, an ``Embedder``
        (its ``profile``) or a model name (``"e5-small"``: looked up with ``profile_for``).

        >>> RecallConfig.for_profile("e5-small").similarity_floor
        0.795
        >>> RecallConfig.for_profile("minilm").similarity_floor == RecallConfig().similarity_floor
        True
        """
        from memcourse.embeddings.profiles import ModelProfile, profile_for

        if isinstance(profile, str):
            from memcourse.embeddings import resolve_model

            profile = profile_for(resolve_model(profile))
        elif not isinstance(profile, ModelProfile):
            profile = getattr(profile, "profile", profile)  # an Embedder carries its model's profile
        if not isinstance(profile, ModelProfile):
            raise TypeError("for_profile takes a ModelProfile, an Embedder or a model name, "
                            f"got {type(profile).__name__}")
        knobs = {name: getattr(profile, name) for name in PROFILE_KNOBS}
        return cls(**{**knobs, "model_id": profile.model_id, **overrides})

    @property
    def sharpen(self) -> dict[str, float]:
        """The per-channel exponents, as :func:`memcourse.recall.fusion.weighted_fusion` takes them."""
        return {"keyword": self.keyword_sharpen, "vector": self.vector_sharpen}

    def ranking_arguments(self) -> dict[str, Any]:
        """The keyword arguments :func:`memcourse.recall.hybrid.rank_hits` takes from a config."""
        return {"rrf_k": self.rrf_k, "decay_lambda": self.decay_lambda, "min_confidence": self.min_confidence,
                "fusion": self.fusion, "similarity_floor": self.similarity_floor, "sharpen": self.sharpen}

    def as_dict(self) -> dict[str, Any]:
        """Every knob by name (for a table, a log line, a widget)."""
        return asdict(self)


def check_recall(recall: Any, name: str = "recall") -> RecallConfig:
    """``recall`` must be a :class:`RecallConfig`; returns it (a ``TypeError`` that says how otherwise)."""
    if not isinstance(recall, RecallConfig):
        raise TypeError(f"{name} must be a RecallConfig, got {type(recall).__name__} "
                        "(to change one knob: dataclasses.replace(store.recall, knob=value))")
    return recall


def _number(config: RecallConfig, name: str) -> float:
    value = getattr(config, name)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or math.isnan(value):
        raise ValueError(f"{name} must be a number, got {value!r}")
    if math.isinf(value) and name != "dedupe_threshold":  # an infinite threshold: "never", fine
        raise ValueError(f"{name} must be finite, got {value!r}")
    return float(value)
