"""The recall configuration object (memcourse/recall/config.py): frozen, checked, and fed by the
embedding model's profile. The per-store behaviour (default and per-call override) is in
test_store_recall_contract.py."""

from __future__ import annotations

import dataclasses
import math

import pytest

import memcourse
from memcourse.embeddings.profiles import E5_SMALL, MINILM, PROFILES, profile_for
from memcourse.recall import admission, decay, dedupe, fusion, hybrid, passages
from memcourse.recall.config import PROFILE_KNOBS, RecallConfig, check_recall
from memcourse.stores.recall_defaults import store_recall


def test_it_is_exported_and_frozen():
    assert memcourse.RecallConfig is RecallConfig
    config = RecallConfig()
    with pytest.raises(dataclasses.FrozenInstanceError):
        config.rrf_k = 10  # type: ignore[misc]
    changed = dataclasses.replace(config, rrf_k=10)
    assert (changed.rrf_k, config.rrf_k) == (10, 60), "replace makes a copy; the original is untouched"


def test_the_defaults_are_the_librarys_named_constants_not_retyped_literals():
    config = RecallConfig()
    assert config.rrf_k == fusion.DEFAULT_K
    assert config.decay_lambda == decay.DEFAULT_LAMBDA
    assert config.min_confidence == admission.MIN_CONFIDENCE
    assert config.dedupe_threshold == dedupe.DEFAULT_THRESHOLD
    assert config.similarity_floor == hybrid.SIMILARITY_FLOOR
    assert config.min_known_tokens == hybrid.MIN_KNOWN_TOKENS
    assert config.passage_weight == passages.PASSAGE_WEIGHT
    assert config.sharpen == hybrid.SHARPEN
    assert (config.vector_depth, config.keyword_depth) == (hybrid.VECTOR_DEPTH, hybrid.KEYWORD_DEPTH)


@pytest.mark.parametrize(
    "knob, value, words",
    [
        ("rrf_k", -1, "rrf_k must be > 0"),
        ("rrf_k", 0, "rrf_k must be > 0"),
        ("similarity_floor", 1.5, "similarity_floor is a cosine"),
        ("similarity_floor", -1.01, "similarity_floor is a cosine"),
        ("dedupe_threshold", -2.0, "dedupe_threshold is a cosine"),
        ("limit", 0, "limit must be an int >= 1"),
        ("limit", True, "limit must be an int >= 1"),
        ("limit", 2.5, "limit must be an int >= 1"),
        ("fusion", "borda", "fusion must be one of weighted, rrf"),
        ("decay_lambda", -0.1, "decay_lambda must be >= 0"),
        ("min_confidence", 1.2, r"min_confidence must be in \[0, 1\]"),
        ("passage_weight", -0.5, r"passage_weight must be in \[0, 1\]"),
        ("vector_sharpen", 0, "vector_sharpen must be > 0"),
        ("keyword_sharpen", math.nan, "keyword_sharpen must be a number"),
        ("rrf_k", math.inf, "rrf_k must be finite"),
        ("vector_depth", 0, "vector_depth must be an int >= 1"),
        ("rrf_k", "60", "rrf_k must be a number"),
    ],
)
def test_nonsense_is_refused_with_the_knob_named(knob, value, words):
    with pytest.raises(ValueError, match=words):
        RecallConfig(**{knob: value})
    with pytest.raises(ValueError, match=words):  # replace checks again: no way round the checks
        dataclasses.replace(RecallConfig(), **{knob: value})


def test_the_edges_that_mean_something_are_accepted():
    assert RecallConfig(similarity_floor=-1.0).similarity_floor == -1.0  # "every vector hit counts"
    assert RecallConfig(similarity_floor=1.0).similarity_floor == 1.0
    assert RecallConfig(dedupe_threshold=2).dedupe_threshold == 2  # above 1: never supersede
    assert RecallConfig(dedupe_threshold=math.inf).dedupe_threshold == math.inf
    assert RecallConfig(decay_lambda=0).decay_lambda == 0


def test_check_recall_says_how_to_change_one_knob():
    with pytest.raises(TypeError, match=r"dataclasses.replace\(store.recall"):
        check_recall({"rrf_k": 10})
    assert check_recall(RecallConfig()) == RecallConfig()


def test_for_profile_takes_every_cosine_knob_from_the_model():
    for profile in PROFILES.values():
        config = RecallConfig.for_profile(profile)
        assert {k: getattr(config, k) for k in PROFILE_KNOBS} == {k: getattr(profile, k) for k in PROFILE_KNOBS}
        assert config.model_id == profile.model_id
        # the knobs that read no cosine are the same for every model
        assert (config.rrf_k, config.decay_lambda, config.limit, config.fusion) == (60, 0.05, 5, "weighted")
    e5 = RecallConfig.for_profile("e5-small")
    assert (e5.similarity_floor, e5.dedupe_threshold, e5.vector_sharpen) == (
        E5_SMALL.similarity_floor, E5_SMALL.dedupe_threshold, E5_SMALL.vector_sharpen)
    assert e5.similarity_floor > 0.75, "e5's cosines sit in 0.75-0.99: MiniLM's 0.30 would filter nothing"


def test_minilm_profile_gives_exactly_the_configuration_the_library_was_tuned_with():
    minilm = RecallConfig.for_profile(MINILM)
    assert dataclasses.replace(minilm, model_id=None) == RecallConfig()


def test_for_profile_accepts_an_embedder_a_name_and_overrides_and_refuses_anything_else():
    class Holder:  # anything carrying a profile (an Embedder does)
        profile = E5_SMALL

    assert RecallConfig.for_profile(Holder()) == RecallConfig.for_profile(E5_SMALL)
    assert RecallConfig.for_profile("minilm", fusion="rrf").fusion == "rrf"
    unknown = RecallConfig.for_profile(profile_for("some/path-model"))
    assert unknown.similarity_floor == MINILM.similarity_floor, "an uncalibrated model gets MiniLM's values"
    with pytest.raises(TypeError, match="ModelProfile"):
        RecallConfig.for_profile(42)
    with pytest.raises(ValueError, match="rrf_k"):
        RecallConfig.for_profile(E5_SMALL, rrf_k=-5)


def test_ranking_arguments_are_what_rank_hits_takes():
    import inspect

    taken = set(inspect.signature(hybrid.rank_hits).parameters)
    assert set(RecallConfig().ranking_arguments()) <= taken


def test_a_stores_default_recall_config_precedence():
    class Holder:
        profile = E5_SMALL

    assert store_recall(None) == RecallConfig()
    assert store_recall(None, Holder()) == RecallConfig.for_profile(E5_SMALL), "the embedder's profile"
    given = RecallConfig(rrf_k=10)
    assert store_recall(given, Holder()) is given, "an explicit recall= wins over the profile"
    assert store_recall(None, Holder(), similarity_floor=0.5).similarity_floor == 0.5, "one knob changed"
    assert store_recall(None, Holder(), similarity_floor=0.5).dedupe_threshold == E5_SMALL.dedupe_threshold
    with pytest.raises(TypeError, match="RecallConfig"):
        store_recall("fast")
    with pytest.raises(TypeError, match="unknown recall knob"):
        store_recall(None, None, rrf=3)
