"""Graded tests for exercise 08: what a threshold merges, and the lowest precise-enough threshold,
on hand-made pairs and on the course's labelled pairs embedded by two models."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

import memcourse

PAIRS_FILE = Path(memcourse.__file__).resolve().parent / "data" / "supersede_labelled_pairs.json"
COSINES_FILE = PAIRS_FILE.with_name("supersede_pair_cosines.json")


@pytest.fixture(scope="module")
def ex(exercise):
    return exercise("ex08_reading_chinese")


def _brute_force_lowest(pairs, min_precision):
    """The answer by definition: every observed cosine, precision of merging at or above it."""
    ok = []
    for t in {c for c, _ in pairs}:
        merged = [same for c, same in pairs if c >= t]
        if sum(merged) / len(merged) >= min_precision:
            ok.append(t)
    return min(ok) if ok else math.inf


@pytest.fixture(scope="module")
def labelled():
    """The course's restatement (same fact) and distinct pairs, scored by MiniLM and by USE.

    The cosines are saved beside the pairs (scripts/score_supersede_pairs.py; tests/test_dedupe.py
    checks them against the models), so a graded run does not load two models."""
    pairs = json.loads(PAIRS_FILE.read_text(encoding="utf-8"))["pairs"]
    saved = json.loads(COSINES_FILE.read_text(encoding="utf-8"))["cosines"]
    return {name: [(cosine, p["label"] == "restatement") for cosine, p in zip(saved[name], pairs, strict=True)
                   if p["label"] in ("restatement", "distinct")]
            for name in ("minilm", "use-multilingual")}


HAND = [(0.95, True), (0.90, False), (0.85, True), (0.80, True), (0.40, False)]


def test_report_counts_merges_precision_recall_and_lost_facts(ex):
    assert ex.merge_report(HAND, 0.85) == {"merged": 3, "precision": pytest.approx(2 / 3),
                                          "recall": pytest.approx(2 / 3), "lost_distinct": 1}
    assert ex.merge_report(HAND, 0.80) == {"merged": 4, "precision": pytest.approx(0.75),
                                          "recall": pytest.approx(1.0), "lost_distinct": 1}


def test_report_merges_at_the_threshold_itself(ex):
    assert ex.merge_report([(0.9, True)], 0.9)["merged"] == 1, "cosine >= threshold merges"
    assert ex.merge_report([(0.9, True)], 0.9000001)["merged"] == 0


def test_report_when_nothing_is_merged_or_nothing_is_the_same(ex):
    nothing = ex.merge_report(HAND, 0.99)
    assert nothing == {"merged": 0, "precision": 1.0, "recall": 0.0, "lost_distinct": 0}
    all_distinct = ex.merge_report([(0.9, False), (0.8, False)], 0.5)
    assert all_distinct == {"merged": 2, "precision": 0.0, "recall": 0.0, "lost_distinct": 2}
    with pytest.raises(ValueError):
        ex.merge_report([], 0.5)


def test_report_does_not_change_its_input(ex):
    pairs = list(HAND)
    ex.merge_report(pairs, 0.85)
    assert pairs == HAND


def test_lowest_threshold_looks_past_a_dip_in_precision(ex):
    # 0.95 → 1.0, 0.90 → 0.5, 0.85 → 0.67, 0.80 → 0.75, 0.40 → 0.6: stopping at the first dip gives 0.95
    assert ex.choose_threshold(HAND, min_precision=0.75) == 0.80
    assert ex.choose_threshold(HAND, min_precision=0.6) == 0.40
    assert ex.choose_threshold(HAND, min_precision=0.76) == 0.95
    assert ex.choose_threshold(HAND, min_precision=1.0) == 0.95


def test_precision_exactly_at_the_minimum_is_enough(ex):
    assert ex.choose_threshold([(0.9, True), (0.8, False)], min_precision=0.5) == 0.8


def test_no_threshold_reaches_the_minimum(ex):
    assert ex.choose_threshold([(0.9, False), (0.8, True)], min_precision=0.9) == math.inf
    assert ex.choose_threshold([(0.9, True), (0.9, False)], min_precision=1.0) == math.inf, (
        "equal cosines cannot be separated: merging one merges both")
    assert ex.choose_threshold([(0.7, False)], min_precision=0.01) == math.inf


def test_threshold_is_an_observed_cosine(ex):
    pairs = [(0.93, True), (0.91, True), (0.6, False), (0.88, True)]
    assert ex.choose_threshold(pairs, min_precision=1.0) == 0.88
    assert ex.choose_threshold(list(reversed(pairs)), min_precision=1.0) == 0.88, "input order does not matter"


@pytest.mark.parametrize("bad", [0, -0.5, 1.5, float("nan")])
def test_min_precision_outside_zero_one_is_refused(ex, bad):
    with pytest.raises(ValueError):
        ex.choose_threshold(HAND, min_precision=bad)


def test_no_pairs_is_refused(ex):
    with pytest.raises(ValueError):
        ex.choose_threshold([], min_precision=0.9)


@pytest.mark.parametrize("model", ["minilm", "use-multilingual"])
@pytest.mark.parametrize("min_precision", [0.6, 0.75, 0.9, 1.0])
def test_on_the_labelled_pairs_of_two_models(ex, labelled, model, min_precision):
    pairs = labelled[model]
    assert ex.choose_threshold(pairs, min_precision=min_precision) == _brute_force_lowest(pairs, min_precision)


def test_the_threshold_belongs_to_the_model(ex, labelled):
    chosen = {model: ex.choose_threshold(pairs, min_precision=0.75) for model, pairs in labelled.items()}
    assert chosen["minilm"] != chosen["use-multilingual"], "one precision target, two models, two thresholds"
    for model, pairs in labelled.items():
        at_092 = ex.merge_report(pairs, 0.92)
        assert at_092 == {key: pytest.approx(value) if isinstance(value, float) else value
                          for key, value in _report(pairs, 0.92).items()}, model


def _report(pairs, t):
    merged = [same for c, same in pairs if c >= t]
    same_total = sum(same for _, same in pairs)
    return {"merged": len(merged), "precision": sum(merged) / len(merged) if merged else 1.0,
            "recall": sum(merged) / same_total, "lost_distinct": len(merged) - sum(merged)}
