"""Time decay and access boost."""

from __future__ import annotations

import math
from datetime import datetime, timedelta, timezone

import pytest

from memcourse.recall.decay import (
    DEFAULT_LAMBDA,
    access_boost,
    decay_factor,
    half_life_days,
    lambda_for_half_life,
    last_used,
)
from memcourse.records import MemoryRecord

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)


def test_half_life_is_ln2_over_lambda():
    assert DEFAULT_LAMBDA == 0.05
    assert half_life_days() == pytest.approx(13.8629, abs=1e-4)  # ln 2 / 0.05, not "about 20"
    assert decay_factor(NOW - timedelta(days=half_life_days()), NOW) == pytest.approx(0.5)
    assert lambda_for_half_life(20) == pytest.approx(0.034657, abs=1e-6)


def test_values_by_hand():
    assert decay_factor(NOW, NOW) == 1.0
    assert decay_factor(NOW - timedelta(days=30), NOW) == pytest.approx(math.exp(-1.5))  # 0.2231
    assert decay_factor(NOW - timedelta(hours=12), NOW) == pytest.approx(math.exp(-0.025))
    assert decay_factor(NOW - timedelta(days=10), NOW, lam=0.1) == pytest.approx(math.exp(-1))
    assert decay_factor(NOW - timedelta(days=400), NOW, lam=0) == 1.0


def test_older_ranks_lower_monotonically():
    factors = [decay_factor(NOW - timedelta(days=d), NOW) for d in (0, 1, 7, 14, 30, 90)]
    assert factors == sorted(factors, reverse=True)
    assert len(set(factors)) == len(factors)


def test_future_is_not_a_boost():
    assert decay_factor(NOW + timedelta(days=3), NOW) == 1.0


def test_naive_datetimes_refused():
    with pytest.raises(ValueError):
        decay_factor(datetime(2026, 1, 1), NOW)
    with pytest.raises(ValueError):
        decay_factor(NOW, NOW, lam=-0.1)
    with pytest.raises(ValueError):
        half_life_days(0)


def test_access_boost_small_and_capped():
    assert access_boost(0) == 1.0
    assert access_boost(3) == pytest.approx(1.06)
    assert access_boost(5) == pytest.approx(1.10)
    assert access_boost(500) == pytest.approx(1.10)
    assert access_boost(2, step=0.1, cap=1) == pytest.approx(1.1)
    with pytest.raises(ValueError):
        access_boost(-1)
    # The cap is worth ~1.9 days of decay: a popular memory cannot outrank a much newer one.
    old_popular = decay_factor(NOW - timedelta(days=10), NOW) * access_boost(99)
    new_unused = decay_factor(NOW - timedelta(days=7), NOW) * access_boost(0)
    assert new_unused > old_popular


def test_last_used_prefers_access_time():
    record = MemoryRecord("preference", "s", "c", created_at=NOW - timedelta(days=9))
    assert last_used(record) == NOW - timedelta(days=9)
    record.last_accessed_at = NOW - timedelta(days=1)
    assert last_used(record) == NOW - timedelta(days=1)


# -- recency in ranking: bounded, by type, since written -----------------------------------------
from memcourse.recall.decay import RECENCY_WEIGHT, importance_factor, recency_factor  # noqa: E402
from memcourse.records import MemoryType  # noqa: E402


def _record(kind: str, days_old: float, **extra) -> MemoryRecord:
    return MemoryRecord(kind, f"{kind}_{days_old}", "content", created_at=NOW - timedelta(days=days_old), **extra)


def test_recency_by_hand_for_an_event():
    assert recency_factor(_record("event", 0), NOW) == 1.0
    assert recency_factor(_record("event", 30), NOW) == pytest.approx(1 - 0.10 * (1 - math.exp(-1.5)))
    assert recency_factor(_record("event", 10), NOW, lam=0.1) == pytest.approx(1 - 0.10 * (1 - math.exp(-1)))


@pytest.mark.parametrize("kind", [t.value for t in MemoryType])
def test_age_never_takes_more_than_the_type_weight(kind):
    """Time is a tie-breaker: however old, a memory keeps at least 1 - weight (0.9 for an
    event) of its relevance, so a newer memory overtakes it only if it is nearly as relevant."""
    ancient = recency_factor(_record(kind, 10_000), NOW)
    assert ancient >= 1 - RECENCY_WEIGHT[MemoryType(kind)] - 1e-12
    assert ancient >= 0.9


@pytest.mark.parametrize("kind", ["preference", "entity", "rule"])
def test_durable_types_do_not_fade(kind):
    assert recency_factor(_record(kind, 365), NOW) == 1.0


def test_events_fade_more_than_decisions_which_fade_more_than_preferences():
    old = {kind: recency_factor(_record(kind, 90), NOW) for kind in ("event", "decision", "preference")}
    assert old["event"] < old["decision"] < old["preference"] == 1.0


def test_a_memory_nobody_asked_about_is_not_punished_for_that():
    """Age counts from when the memory was written, not from its last recall: a memory
    recalled yesterday and one never recalled, written the same day, age the same."""
    asked = _record("event", 60, last_accessed_at=NOW - timedelta(days=1), access_count=3)
    never = _record("event", 60)
    assert recency_factor(asked, NOW) == recency_factor(never, NOW)


def test_lambda_zero_switches_recency_off_and_bad_lambda_is_refused():
    assert recency_factor(_record("event", 400), NOW, lam=0) == 1.0
    with pytest.raises(ValueError):
        recency_factor(_record("event", 4), NOW, lam=-1)
    with pytest.raises(ValueError):
        recency_factor(_record("preference", 4), NOW, lam=float("nan"))


def test_future_timestamps_are_not_a_boost():
    assert recency_factor(_record("event", -3), NOW) == 1.0


def test_importance_is_a_bounded_nudge():
    assert importance_factor(0.5) == 1.0
    assert importance_factor(1.0) == pytest.approx(1.05)
    assert importance_factor(0.0) == pytest.approx(0.95)
    for bad in (-0.1, 1.1, True, "0.5", float("nan")):
        with pytest.raises(ValueError):
            importance_factor(bad)
