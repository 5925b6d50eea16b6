"""RRF, checked against arithmetic done by hand."""

from __future__ import annotations

import pytest

from memcourse.recall.fusion import rrf


def test_two_channels_by_hand():
    fused = rrf({"vector": ["a", "b", "c"], "bm25": ["c", "a"]}, k=60)
    # a: 1/(60+1) + 1/(60+2) = 0.016393443 + 0.016129032 = 0.032522475
    # c: 1/(60+3) + 1/(60+1) = 0.015873016 + 0.016393443 = 0.032266459
    # b: 1/(60+2)            = 0.016129032
    assert [doc for doc, _, _ in fused] == ["a", "c", "b"]
    assert fused[0][1] == pytest.approx(1 / 61 + 1 / 62)
    assert fused[1][1] == pytest.approx(1 / 63 + 1 / 61)
    assert fused[2][1] == pytest.approx(1 / 62)
    assert fused[0][2] == {"vector": 1, "bm25": 2}
    assert fused[2][2] == {"vector": 2, "bm25": None}


def test_found_by_both_beats_first_in_one():
    # x is 5th in both: 2/65 = 0.0308; y is 1st in one only: 1/61 = 0.0164
    fused = rrf({"v": ["y", "p", "q", "r", "x"], "k": ["z", "s", "t", "u", "x"]})
    assert fused[0][0] == "x"
    assert fused[0][1] == pytest.approx(2 / 65)


def test_small_k_lets_one_channel_dominate():
    rankings = {"v": ["y", "p", "q", "r", "x"], "k": ["z", "s", "t", "u", "x"]}
    # k=1: y = 1/2 = 0.5 ; x = 1/6 + 1/6 = 0.333 -> y (and z) now beat x
    fused = rrf(rankings, k=1)
    assert [doc for doc, _, _ in fused][:2] == ["y", "z"]
    assert fused[0][1] == pytest.approx(0.5)


def test_scores_scale_is_irrelevant_only_ranks_matter():
    # Same ranks, whatever the channels' raw scores were: same fusion.
    assert rrf({"a": ["m1", "m2"], "b": ["m2"]}) == rrf({"a": ["m1", "m2"], "b": ["m2"]})
    fused = rrf({"a": ["m1", "m2"], "b": ["m2"]})
    # m2: 1/62 + 1/61 = 0.03252 > m1: 1/61 = 0.01639
    assert [doc for doc, _, _ in fused] == ["m2", "m1"]


def test_ties_broken_deterministically():
    # p is 1st in "v", q is 1st in "k": both score 1/61, same best rank -> by id.
    assert [d for d, _, _ in rrf({"v": ["q"], "k": ["p"]})] == ["p", "q"]
    assert [d for d, _, _ in rrf({"k": ["p"], "v": ["q"]})] == ["p", "q"]
    # equal score, different best rank: r (ranks 1 and 3) vs s (2 and 2)
    # r = 1/61 + 1/63 = 0.032266 ; s = 2/62 = 0.032258 -> not a tie, r first
    fused = rrf({"v": ["r", "s", "x"], "k": ["y", "s", "r"]})
    assert [d for d, _, _ in fused][:2] == ["r", "s"]


def test_channel_order_does_not_change_scores():
    one = rrf({"a": ["x", "y", "z"], "b": ["z", "x"], "c": ["y", "z", "x"]})
    two = rrf({"c": ["y", "z", "x"], "a": ["x", "y", "z"], "b": ["z", "x"]})
    assert [(d, s) for d, s, _ in one] == [(d, s) for d, s, _ in two]


def test_duplicate_in_one_channel_counts_once_at_best_rank():
    fused = dict((d, (s, r)) for d, s, r in rrf({"v": ["a", "b", "a"]}))
    assert fused["a"][0] == pytest.approx(1 / 61)
    assert fused["a"][1] == {"v": 1}


def test_empty_and_validation():
    assert rrf({}) == []
    assert rrf({"v": [], "k": []}) == []
    for bad in (0, -1, float("nan"), True):
        with pytest.raises(ValueError):
            rrf({"v": ["a"]}, k=bad)
    with pytest.raises(TypeError):
        rrf({"v": "abc"})


def test_fused_scores_are_flat_so_multipliers_are_strong():
    # The docstring's warning, checked: rank 7 with a x1.10 boost beats rank 1 without it.
    fused = {d: s for d, s, _ in rrf({"v": ["r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8"]})}
    assert fused["r7"] * 1.10 > fused["r1"] > fused["r8"] * 1.10
    assert fused["r1"] / fused["r7"] == pytest.approx(67 / 61)


# -- weighted fusion (the default) ---------------------------------------------------------------
from memcourse.recall.fusion import normalise, weighted_fusion  # noqa: E402


def test_normalise_uses_a_fixed_floor_not_the_worst_candidate():
    assert normalise({"a": 8.0, "b": 2.0}) == {"a": 1.0, "b": 0.25}
    assert normalise({"a": 0.8, "b": 0.5}, floor=0.3) == pytest.approx({"a": 1.0, "b": 0.4})
    assert normalise({"a": 0.2}, floor=0.3) == {"a": 0.0}, "nothing above the floor: nothing to say"
    assert normalise({}) == {}


def test_weighted_fusion_by_hand():
    fused = weighted_fusion(
        {"keyword": {"a": 10.0, "b": 5.0}, "vector": {"b": 0.8, "c": 0.55}},
        {"keyword": 0.6, "vector": 0.4},
        floors={"vector": 0.3},
        sharpen=1.0,
    )
    # a: 0.6 x 1.0 = 0.6; b: 0.6 x 0.5 + 0.4 x 1.0 = 0.7; c: 0.4 x (0.25 / 0.5) = 0.2
    assert [(d, round(s, 6)) for d, s, _ in fused] == [("b", 0.7), ("a", 0.6), ("c", 0.2)]
    assert fused[0][2] == {"keyword": 0.5, "vector": 1.0}


def test_sharpen_widens_the_gap_to_middling_matches():
    flat = weighted_fusion({"k": {"a": 1.0, "b": 0.6}}, {"k": 1.0}, sharpen=1.0)
    sharp = weighted_fusion({"k": {"a": 1.0, "b": 0.6}}, {"k": 1.0}, sharpen=1.5)
    assert flat[1][1] == pytest.approx(0.6) and sharp[1][1] == pytest.approx(0.6**1.5)


def test_a_silent_channel_does_not_drag_the_other_down():
    """With one channel returning nothing, the result is exactly the other channel's order
    and its normalised scores: fusion can never be worse than the only channel that spoke."""
    alone = weighted_fusion(
        {"keyword": {"a": 4.0, "b": 2.0}, "vector": {}}, {"keyword": 0.6, "vector": 0.4}, sharpen=1.0
    )
    assert [(d, s) for d, s, _ in alone] == [("a", 1.0), ("b", 0.5)]


def test_zero_weight_channel_is_ignored_entirely():
    fused = weighted_fusion({"keyword": {"a": 1.0}, "vector": {"z": 0.9}}, {"keyword": 1.0, "vector": 0.0})
    assert [d for d, _, _ in fused] == ["a"]


def test_ties_are_broken_by_id():
    fused = weighted_fusion({"k": {"b": 1.0, "a": 1.0, "c": 1.0}}, {"k": 1.0})
    assert [d for d, _, _ in fused] == ["a", "b", "c"]


@pytest.mark.parametrize(
    ("weights", "sharpen"),
    [({"k": -0.1}, 1.0), ({"k": float("nan")}, 1.0), ({"k": True}, 1.0), ({"k": 1.0}, 0), ({"k": 1.0}, float("inf"))],
)
def test_bad_weights_or_sharpen_refused(weights, sharpen):
    with pytest.raises(ValueError):
        weighted_fusion({"k": {"a": 1.0}}, weights, sharpen=sharpen)


def test_each_channel_can_have_its_own_exponent():
    """A steeper curve for one channel lowers only that channel's runners-up."""
    scores = {"keyword": {"a": 1.0, "b": 0.5}, "vector": {"c": 0.8, "d": 0.55}}
    fused = dict((d, s) for d, s, _ in weighted_fusion(
        scores, {"keyword": 0.5, "vector": 0.5}, floors={"vector": 0.3}, sharpen={"keyword": 3.0, "vector": 1.0}))
    assert fused == pytest.approx({"a": 0.5, "c": 0.5, "b": 0.5 * 0.5**3, "d": 0.5 * 0.5})
    same = weighted_fusion(
        scores, {"keyword": 0.5, "vector": 0.5}, floors={"vector": 0.3}, sharpen={"keyword": 2.0, "vector": 2.0}
    )
    assert same == weighted_fusion(scores, {"keyword": 0.5, "vector": 0.5}, floors={"vector": 0.3}, sharpen=2.0)


def test_an_exponent_mapping_must_name_every_channel_and_hold_numbers():
    with pytest.raises(ValueError, match="'vector'"):
        weighted_fusion({"keyword": {"a": 1.0}, "vector": {"b": 0.9}}, {"keyword": 0.5, "vector": 0.5},
                        sharpen={"keyword": 2.0, "vectr": 1.0})
    with pytest.raises(ValueError, match="keyword"):
        weighted_fusion({"keyword": {"a": 1.0}}, {"keyword": 1.0}, sharpen={"keyword": 0})
    with pytest.raises(ValueError, match="sharpen"):
        weighted_fusion({}, {}, sharpen=-1.0)
