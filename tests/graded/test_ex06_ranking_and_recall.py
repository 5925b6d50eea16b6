"""Graded tests for exercise 06: BM25 by hand (checked against the library's index) and decay."""

from __future__ import annotations

import math
from datetime import datetime, timedelta, timezone

import pytest

from memcourse.recall.bm25 import BM25Index
from memcourse.text import tokenize

NOW = datetime(2026, 3, 1, 9, 0, tzinfo=timezone.utc)
MEMORIES = {
    "m1": "以后回答我问题时，代码示例尽量用 Python",
    "m2": "Phase4 当前任务是实现 AgentMemorySystem",
    "m3": "我的项目叫 智能客服助手",
    "m4": "订单 2024081703 的收货地址是杭州西湖区",
    "m5": "The user prefers short answers with Python examples",
    "m6": "智能客服助手 下周上线，客服团队负责验收",
}


@pytest.fixture(scope="module")
def ex(exercise):
    return exercise("ex06_ranking_and_recall")


def docs():
    return {doc_id: tokenize(text) for doc_id, text in MEMORIES.items()}


def library(query, limit=10):
    index = BM25Index()
    index.add_many(MEMORIES.items())
    return dict(index.search(query, limit=limit))


@pytest.mark.parametrize("query", ["客服", "Python 代码示例", "订单 2024081703 寄到哪", "Phase4 memory Python 示例"])
def test_bm25_matches_the_library_index(ex, query):
    mine = ex.bm25_scores(tokenize(query), docs())
    expected = library(query)
    assert set(mine) == set(expected), f"documents with a score > 0 for {query!r}: expected {sorted(expected)}"
    for doc_id, score in expected.items():
        assert mine[doc_id] == pytest.approx(score, rel=1e-5), f"{doc_id} for {query!r}"


def test_bm25_rare_tokens_weigh_more(ex):
    scores = ex.bm25_scores(["客服"], docs())
    assert set(scores) == {"m3", "m6"}, "only documents containing the token score"
    rare = ex.bm25_scores(["2024081703"], docs())["m4"]
    common = ex.bm25_scores(["python"], docs())["m1"]
    assert rare > common, "a token in one document of six (idf ≈ 1.30) beats one in two (idf ≈ 0.85)"


def test_bm25_repetition_saturates_and_counts_distinct_query_tokens(ex):
    corpus = {"a": ["tea"], "b": ["tea"] * 10, "c": ["coffee"]}
    scores = ex.bm25_scores(["tea"], corpus, b=0.0)
    idf = math.log(1 + (3 - 2 + 0.5) / (2 + 0.5))
    assert scores["b"] > scores["a"], "repeating a word helps"
    assert scores["b"] < idf, "but tf / (tf + k1) stays below 1, however often it repeats"
    assert ex.bm25_scores(["tea", "tea"], corpus, b=0.0) == pytest.approx(scores), "a repeated query token counts once"


def test_bm25_empty_inputs(ex):
    assert ex.bm25_scores([], docs()) == {}
    assert ex.bm25_scores(["客服"], {}) == {}
    assert ex.bm25_scores(["不存在的词"], docs()) == {}


def test_decay_reorders_equally_relevant_memories(ex):
    scores = {"old": 1.0, "new": 0.9}
    used = {"old": NOW - timedelta(days=30), "new": NOW - timedelta(days=1)}
    ranked = ex.decay_rank(scores, used, NOW)
    assert [doc_id for doc_id, _ in ranked] == ["new", "old"], "30 idle days at λ = 0.05 keep only 22 %"
    assert ranked[1][1] == pytest.approx(math.exp(-1.5)), "old: 1.0 × e^(-0.05 × 30)"
    assert ranked[0][1] == pytest.approx(0.9 * math.exp(-0.05))


def test_decay_half_life_lambda_zero_and_future_timestamps(ex):
    half = math.log(2) / 0.05
    ranked = ex.decay_rank({"m": 2.0}, {"m": NOW - timedelta(days=half)}, NOW)
    assert ranked == [("m", pytest.approx(1.0))], "after one half-life (≈ 13.9 days) the score halves"
    assert ex.decay_rank({"m": 2.0}, {"m": NOW - timedelta(days=400)}, NOW, lam=0.0) == [("m", 2.0)]
    assert ex.decay_rank({"m": 2.0}, {"m": NOW + timedelta(days=3)}, NOW) == [("m", 2.0)], (
        "a last_used in the future (clock skew) must not boost"
    )


def test_decay_ties_are_ordered_by_id(ex):
    used = {k: NOW for k in ("记忆b", "记忆a", "c")}
    ranked = ex.decay_rank({"记忆b": 1.0, "记忆a": 1.0, "c": 1.0}, used, NOW)
    assert [doc_id for doc_id, _ in ranked] == ["c", "记忆a", "记忆b"]


def test_decay_rank_sorts_by_decayed_score_not_by_id(ex):
    scores = {"a_old": 1.0, "z_new": 0.9, "m_mid": 0.95}
    used = {"a_old": NOW - timedelta(days=30), "z_new": NOW, "m_mid": NOW - timedelta(days=10)}
    ranked = [doc_id for doc_id, _ in ex.decay_rank(scores, used, NOW)]
    assert ranked == ["z_new", "m_mid", "a_old"], (
        f"got {ranked}: highest decayed score first (sort by -score, then id), whatever the ids' alphabetical order"
    )
