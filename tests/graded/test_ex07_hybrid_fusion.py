"""Graded tests for exercise 07: RRF fusion (checked against the library) and Recall@k / MRR."""

from __future__ import annotations

import pytest

from memcourse.evaluation import recall_at_k as library_recall
from memcourse.evaluation import reciprocal_rank
from memcourse.recall.fusion import rrf


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
