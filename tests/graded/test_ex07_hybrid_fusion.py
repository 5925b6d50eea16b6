"""Graded tests for exercise 07: RRF fusion (checked against the library), Recall@k / MRR, and
the learner's own score fusion (requirements, then measured against plain RRF).

**How the bar for ``fuse_scores`` was chosen.** The labelled data is
``memcourse/data/ex07_fusion_channels.json``: the 48 queries of the shipped recall set, each with
the vector channel's (id, cosine) and the keyword channel's (id, BM25) candidates, 20 deep
(``scripts/make_ex07_channels.py`` wrote it with MiniLM, as notebook 07 uses; its ``--check``
prints these MRRs). Measured on it:

==========================================================  =====
vector channel alone                                        0.431
keyword channel alone                                       0.802
plain RRF, k = 60 (k from 1 to 1000: 0.871-0.878)           0.871
weighted RRF (rank only), k = 1, keyword weight 0.6         0.913
the library's weighted fusion, equal weights, its floors    0.888
solutions/ (min-max per channel, equal weights)             0.898
z-scores per channel, vector weight 0.3-0.6                 0.889-0.917
z-scores, a channel's lone candidate rated 0                0.884
raw sum of cosine and BM25 (fails the scale tests instead)  0.908
==========================================================  =====

The bar is RRF's MRR + 0.010 (0.881): plain RRF at any k stays below it (at most 0.878), a single
channel is far below it, and the score-normalising designs clear it (the reference by 0.017; a
z-score design that rates a channel's lone candidate 0 by 0.003). 0.010 is about one query's
answer moving from rank 2 to rank 1 (1/96 = 0.0104): with 48 queries a smaller margin is noise,
and 0.015 failed that sound z-score design. A *tuned* rank-only fusion can clear the bar
(weighted RRF, k = 1, keyword weight 0.6: 0.913), so the bar alone does not prove a design uses
the scores: ``test_fuse_scores_uses_how_far_apart_the_scores_are`` does.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import memcourse
from memcourse.evaluations.recall import recall_at_k as library_recall
from memcourse.evaluations.recall import reciprocal_rank
from memcourse.recall.fusion import rrf

CHANNELS_FILE = Path(memcourse.__file__).resolve().parent / "data" / "ex07_fusion_channels.json"
#: How much MRR ``fuse_scores`` must gain over plain RRF on the same candidates (see above).
MARGIN = 0.010


@pytest.fixture(scope="module")
def ex(exercise):
    return exercise("ex07_hybrid_fusion")


# A Chinese query the English model cannot read: the vector channel returns noise, BM25 the answer.
VECTOR = ["en:weekly_report", "zh:邮件通知_不喜欢", "en:standup", "zh:周报"]
KEYWORD = ["zh:邮件通知_不喜欢", "zh:周报", "zh:邮件通知_喜欢"]


def test_found_by_both_channels_beats_first_in_one(ex):
    fused = ex.rrf_fuse({"vector": VECTOR, "keyword": KEYWORD})
    assert fused[0][0] == "zh:邮件通知_不喜欢", "ranks 2 and 1 (1/62 + 1/61) beat a single rank 1 (1/61)"
    assert fused[0][1] == pytest.approx(1 / 62 + 1 / 61)
    assert [doc_id for doc_id, _ in fused] == [doc_id for doc_id, _, _ in rrf({"vector": VECTOR, "keyword": KEYWORD})]


@pytest.mark.parametrize("k", [1, 10, 60, 100])
def test_scores_match_the_library_for_any_k(ex, k):
    rankings = {"vector": ["a", "b", "c", "d"], "keyword": ["d", "记忆", "a"], "tags": ["记忆", "z"]}
    mine = ex.rrf_fuse(rankings, k=k)
    expected = [(doc_id, score) for doc_id, score, _ in rrf(rankings, k=k)]
    assert [d for d, _ in mine] == [d for d, _ in expected], f"order for k={k}"
    assert [s for _, s in mine] == pytest.approx([s for _, s in expected])


def test_duplicates_ties_and_bad_k(ex):
    assert ex.rrf_fuse({"vector": ["a", "b", "a"]}) == [("a", pytest.approx(1 / 61)), ("b", pytest.approx(1 / 62))], (
        "an id listed twice by one channel counts once, at its better rank"
    )
    tie = ex.rrf_fuse({"vector": ["x", "y"], "keyword": ["y", "x"], "third": ["w"]})
    assert [d for d, _ in tie] == ["x", "y", "w"], "x and y tie; both have a best rank of 1; then by id"
    assert ex.rrf_fuse({}) == []
    with pytest.raises(ValueError):
        ex.rrf_fuse({"vector": ["a"]}, k=0)


def test_recall_at_k(ex):
    ranked = ["订单:2024081703", "preference:python", "task:phase4"]
    assert ex.recall_at_k(ranked, {"task:phase4"}, 1) == 0.0
    assert ex.recall_at_k(ranked, {"task:phase4"}, 3) == 1.0
    assert ex.recall_at_k(ranked, {"task:phase4", "entity:项目名"}, 5) == 0.5, "half of the relevant ids found"
    for args in ((ranked, {"a"}, 3), (ranked, {"preference:python", "z"}, 2)):
        assert ex.recall_at_k(*args) == library_recall(*args)
    with pytest.raises(ValueError):
        ex.recall_at_k(ranked, set(), 3)
    with pytest.raises(ValueError):
        ex.recall_at_k(ranked, {"a"}, 0)


def test_mean_reciprocal_rank(ex):
    results = [
        (["答案", "b", "c"], {"答案"}),      # rank 1 -> 1
        (["a", "b", "answer"], {"answer"}),  # rank 3 -> 1/3
        (["a", "b"], {"missing"}),           # not found -> 0
        (["a", "x", "y"], {"y", "x"}),       # first relevant at rank 2 -> 1/2
    ]
    got = ex.mean_reciprocal_rank(results)
    assert got == pytest.approx((1 + 1 / 3 + 0 + 1 / 2) / 4), (
        f"got {got}, expected (1 + 1/3 + 0 + 1/2) / 4: per query 1/position of the FIRST relevant id "
        "(0 when none is there), averaged over ALL queries, including those with no hit"
    )
    assert ex.mean_reciprocal_rank(results[:1]) == reciprocal_rank(*results[0])
    assert ex.mean_reciprocal_rank([]) == 0.0, "no queries: 0.0 (not a ZeroDivisionError)"


def _ranking(length: int, placed: dict[int, str], prefix: str) -> list[str]:
    """``length`` filler ids with the given ids at the given 1-based ranks."""
    return [placed.get(rank, f"{prefix}{rank:02d}") for rank in range(1, length + 1)]


def test_an_exact_tie_goes_to_the_better_single_rank(ex):
    """At k = 60, ranks (3, 24) and (12, 12) score exactly the same: 1/63 + 1/84 == 2/72.
    The tie rule decides: the id with the better best single-channel rank (3) comes first."""
    assert 1 / 63 + 1 / 84 == 2 / 72  # the tie is exact, even in floating point
    vector = _ranking(24, {3: "zz-strong-once", 12: "aa-steady"}, "v")
    keyword = _ranking(24, {12: "aa-steady", 24: "zz-strong-once"}, "k")
    fused = [doc_id for doc_id, _ in ex.rrf_fuse({"vector": vector, "keyword": keyword}, k=60)]
    assert fused.index("zz-strong-once") < fused.index("aa-steady"), (
        "equal RRF scores: sort by the best single rank next (3 beats 12), and only then by id"
    )


def test_recall_at_k_counts_exactly_the_first_k(ex):
    ranked = ["a", "b", "relevant", "c"]
    assert ex.recall_at_k(ranked, {"relevant"}, 3) == 1.0, "the relevant id at position 3 is inside the top 3"
    assert ex.recall_at_k(ranked, {"relevant"}, 2) == 0.0, "at position 3 it is outside the top 2: ranked[:k], no more"
    assert ex.recall_at_k(ranked, {"relevant", "a"}, 4) == 1.0
    assert ex.recall_at_k(["x"], {"x", "y"}, 10) == 0.5, "k beyond the list: just the list"


def test_mean_reciprocal_rank_uses_the_first_relevant_position(ex):
    results = [(["a", "b", "hit", "hit2"], {"hit", "hit2"})]
    got = ex.mean_reciprocal_rank(results)
    assert got == pytest.approx(1 / 3), (
        f"got {got}: the first relevant id is at position 3 (1-based), so 1/3; "
        "count positions from 1 (enumerate(ranked, start=1)) and stop at the first relevant id"
    )
    two = ex.mean_reciprocal_rank([(["hit"], {"hit"}), (["x", "hit"], {"hit"})])
    assert two == pytest.approx(0.75), f"got {two}: the mean of 1/1 and 1/2 over the two queries"


def test_equal_score_and_equal_best_rank_are_ordered_by_id(ex):
    tie = ex.rrf_fuse({"vector": ["y", "x"], "keyword": ["x", "y"]})
    assert [d for d, _ in tie] == ["x", "y"], (
        "x and y have the same score and the same best rank (1): the id decides, not the order they were seen"
    )


def test_relevant_may_be_any_iterable(ex):
    assert ex.recall_at_k(["a", "b"], ["a", "a"], 1) == 1.0, "a list with a repeated id is one relevant id"
    assert ex.recall_at_k(["a", "b"], (doc for doc in ["b", "c"]), 2) == 0.5, "a generator works too"
    got = ex.mean_reciprocal_rank([(["a", "b"], iter(["b"]))])
    assert got == 0.5, f"got {got}: turn `relevant` into a set first (an iterator can be read only once)"


# -- fuse_scores: the learner's design, checked by its requirements ------------------------------
def _labelled() -> list[tuple[dict[str, list[tuple[str, float]]], set[str]]]:
    data = json.loads(CHANNELS_FILE.read_text(encoding="utf-8"))
    return [({c: [(doc_id, score) for doc_id, score in q[c]] for c in ("vector", "keyword")}, set(q["relevant"]))
            for q in data["queries"]]


LABELLED = _labelled()


def _mrr(rank) -> float:
    """MRR of ``rank(channels) -> ids`` over the labelled set (the library's metric, not yours)."""
    return sum(reciprocal_rank(rank(channels), relevant) for channels, relevant in LABELLED) / len(LABELLED)


def _rrf_ids(channels) -> list[str]:
    return [doc_id for doc_id, _, _ in rrf({c: [doc_id for doc_id, _ in pairs] for c, pairs in channels.items()})]


# Cosines are bunched (0.31-0.62), BM25 is wide and large: the units differ.
VECTOR_SCORES = [("paraphrase", 0.62), ("both", 0.55), ("near", 0.54), ("weak", 0.31)]
KEYWORD_SCORES = [("exact", 14.0), ("both", 12.5), ("common", 3.0), ("near", 2.5)]


def test_fuse_scores_lists_every_id_once(ex):
    fused = ex.fuse_scores({"vector": VECTOR_SCORES, "keyword": KEYWORD_SCORES})
    assert sorted(fused) == sorted({doc_id for doc_id, _ in VECTOR_SCORES + KEYWORD_SCORES}), (
        f"got {fused}: every id either channel returned, once each (an id only one channel found is kept)"
    )
    assert fused[0] == "both", f"got {fused}: near the top of both channels beats the top of one"
    twice = ex.fuse_scores({"vector": [("a", 0.8), ("a", 0.5), ("b", 0.4)], "keyword": []})
    assert twice == ["a", "b"], f"got {twice}: an id listed twice by one channel still appears once"
    better = ex.fuse_scores({"vector": [("a", 0.8), ("b", 0.5), ("a", 0.2), ("c", 0.1)], "keyword": []})
    assert better == ["a", "b", "c"], f"got {better}: an id listed twice counts at its better score (0.8, not 0.2)"
    for channels, _ in LABELLED:
        fused = ex.fuse_scores(channels)
        found = {doc_id for pairs in channels.values() for doc_id, _ in pairs}
        assert len(fused) == len(set(fused)) and set(fused) == found, (
            "on the labelled set: every candidate of either channel, exactly once"
        )


@pytest.mark.parametrize("channel, change", [
    ("keyword", lambda s: s * 10), ("keyword", lambda s: s / 4 + 1), ("vector", lambda s: s + 0.25),
    ("vector", lambda s: s * 100 - 30),
], ids=["bm25 x10", "bm25 /4+1", "cosine +0.25", "cosine x100-30"])
def test_fuse_scores_ignores_a_channels_units(ex, channel, change):
    def rescaled(channels):
        return {c: [(doc_id, change(s) if c == channel else s) for doc_id, s in pairs] for c, pairs in channels.items()}

    toy = {"vector": VECTOR_SCORES, "keyword": KEYWORD_SCORES}
    assert ex.fuse_scores(rescaled(toy)) == ex.fuse_scores(toy), (
        f"rescaling the {channel} channel's scores changed the order: a channel's units must not matter "
        "(adding raw cosines to raw BM25 scores lets whichever has the bigger numbers win)"
    )
    changed = [i for i, (channels, _) in enumerate(LABELLED)
               if ex.fuse_scores(rescaled(channels)) != ex.fuse_scores(channels)]
    assert not changed, f"on the labelled set, rescaling the {channel} channel changed {len(changed)} queries' order"


def test_fuse_scores_with_an_empty_channel(ex):
    keyword_only = ex.fuse_scores({"keyword": KEYWORD_SCORES})
    assert ex.fuse_scores({"vector": [], "keyword": KEYWORD_SCORES}) == keyword_only, (
        "a channel that returned nothing (the English model on a Chinese query) must change nothing"
    )
    assert keyword_only == [doc_id for doc_id, _ in KEYWORD_SCORES], "one channel alone: its own order"
    assert ex.fuse_scores({"vector": VECTOR_SCORES, "keyword": []}) == [doc_id for doc_id, _ in VECTOR_SCORES]
    assert ex.fuse_scores({"vector": [], "keyword": []}) == []
    assert ex.fuse_scores({}) == []
    alone = ex.fuse_scores({"vector": [("only", 0.4)], "keyword": []})
    assert alone == ["only"], f"got {alone}: a channel with a single candidate still returns it"


def test_fuse_scores_breaks_ties_by_id_whatever_the_input_order(ex):
    vector = [("b", 0.7), ("c", 0.7), ("a", 0.7)]
    keyword = [("c", 5.0), ("b", 5.0), ("a", 5.0)]
    fused = ex.fuse_scores({"vector": vector, "keyword": keyword})
    assert fused == ["a", "b", "c"], f"got {fused}: equal scores everywhere, so the id decides"
    mirrored = {"keyword": [("y", 4.0), ("x", 2.0)], "vector": [("x", 0.9), ("y", 0.5)]}
    first = ex.fuse_scores(mirrored)
    assert sorted(first) == ["x", "y"], f"got {first}: both ids, once each"
    reordered = {"vector": list(reversed(mirrored["vector"])), "keyword": list(reversed(mirrored["keyword"]))}
    assert ex.fuse_scores(reordered) == first, "the same scores given in another order: the same result"


def test_fuse_scores_uses_how_far_apart_the_scores_are(ex):
    """The same ranks, different gaps: a rank-only fusion (RRF, weighted or not) cannot tell the
    two cases apart; a fusion of the scores must."""
    big_vector_gap = {"vector": [("a", 0.90), ("b", 0.35), ("c", 0.31)],
                      "keyword": [("b", 10.0), ("a", 9.8), ("c", 1.0)]}
    big_keyword_gap = {"vector": [("a", 0.62), ("b", 0.61), ("c", 0.31)],
                       "keyword": [("b", 14.0), ("a", 3.0), ("c", 2.5)]}
    first = ex.fuse_scores(big_vector_gap)
    assert first[0] == "a", (
        f"got {first}: the vector channel puts a far above b, BM25 puts b barely above a; a should win "
        "(ranks alone say it is a tie: use the scores)"
    )
    second = ex.fuse_scores(big_keyword_gap)
    assert second[0] == "b", (
        f"got {second}: now the vector channel barely prefers a and BM25 prefers b by far; b should win"
    )


def test_fuse_scores_beats_plain_rrf_on_the_labelled_set(ex):
    rrf_mrr = _mrr(_rrf_ids)
    mine = _mrr(ex.fuse_scores)
    assert mine >= rrf_mrr + MARGIN, (
        f"MRR {mine:.3f} against plain RRF's {rrf_mrr:.3f} on the same candidates: beat it by at least {MARGIN} "
        "(RRF keeps only ranks; what do the scores know that the ranks do not?)"
    )


def test_fuse_scores_does_not_lose_to_either_channel(ex):
    mine = _mrr(ex.fuse_scores)
    for channel in ("vector", "keyword"):
        alone = _mrr(lambda channels, c=channel: [doc_id for doc_id, _ in channels[c]])
        assert mine >= alone, f"MRR {mine:.3f}, but the {channel} channel alone scores {alone:.3f}"
