"""Graded tests for exercise 07: RRF fusion (checked against the library) and Recall@k / MRR."""

from __future__ import annotations

import pytest

from memcourse.evaluation import reciprocal_rank
from memcourse.evaluation import recall_at_k as library_recall
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
    assert ex.mean_reciprocal_rank(results) == pytest.approx((1 + 1 / 3 + 0 + 1 / 2) / 4)
    assert ex.mean_reciprocal_rank(results[:1]) == reciprocal_rank(*results[0])
    assert ex.mean_reciprocal_rank([]) == 0.0
