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
