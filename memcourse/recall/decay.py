"""Time decay and access boost: recent and well-used memories rank a little higher.

Relevance alone treats a preference stated yesterday and one last used a year ago the same.
Exponential decay multiplies a memory's relevance by::

    decay = exp(-λ · days since the memory was last used)

**Half-life.** The weight halves when ``exp(-λ·t) = 1/2``, i.e. ``t = ln 2 / λ``. With the
default λ = 0.05 that is ln 2 / 0.05 ≈ **13.9 days** (not "about 20 days": that would be
λ ≈ 0.035). After 30 days a memory keeps e^-1.5 ≈ 22 % of its weight, after 90 days ≈ 1 %.
Pick λ from the half-life you want: ``λ = ln 2 / half_life_days``.

Decay is a *ranking* signal, not deletion: multiplied into a fused score it only reorders
memories that are otherwise about equally relevant. A memory that is the only good match
still comes back, just with a smaller score. Forgetting for real is ``store.forget``.

**Access boost.** A memory that keeps being recalled is probably useful, so each use adds a
small multiplicative bonus, capped so that popularity can never beat relevance:
``1 + min(access_count, cap) · step``, at most 1.10 with the defaults. That cap is worth
ln 1.10 / 0.05 ≈ 1.9 days of decay: frequent use can offset a couple of days of age, no more.
"""

from __future__ import annotations

import math
from datetime import datetime

from memcourse.records import MemoryRecord, parse_timestamp

__all__ = [
    "DEFAULT_LAMBDA",
    "access_boost",
    "decay_factor",
    "half_life_days",
    "lambda_for_half_life",
    "last_used",
]

DEFAULT_LAMBDA = 0.05
SECONDS_PER_DAY = 86_400.0


def _check_lambda(lam: float, *, allow_zero: bool) -> float:
    if isinstance(lam, bool) or not isinstance(lam, (int, float)) or not math.isfinite(lam):
        raise ValueError(f"lam must be a finite number, got {lam!r}")
    if lam < 0 or (lam == 0 and not allow_zero):
        raise ValueError(f"lam must be {'>= 0' if allow_zero else '> 0'}, got {lam!r}")
    return float(lam)


def decay_factor(last_used: datetime, now: datetime, *, lam: float = DEFAULT_LAMBDA) -> float:
    """``exp(-lam * days)`` where days (fractional) have passed from ``last_used`` to ``now``.

    1.0 when no time has passed, or when ``last_used`` is in the future (clock skew between
    machines must not *boost* a memory). ``lam = 0`` switches decay off. Both times must be
    timezone-aware (or ISO-8601 strings with an offset).

    >>> from datetime import datetime, timedelta, timezone
    >>> now = datetime(2026, 1, 31, tzinfo=timezone.utc)
    >>> round(decay_factor(now - timedelta(days=14), now), 3)
    0.497
    """
    lam = _check_lambda(lam, allow_zero=True)
    last_used = parse_timestamp(last_used, "last_used")
    now = parse_timestamp(now, "now")
    days = (now - last_used).total_seconds() / SECONDS_PER_DAY
    if days <= 0:
        return 1.0
    return math.exp(-lam * days)


def access_boost(access_count: int, *, step: float = 0.02, cap: int = 5) -> float:
    """``1 + min(access_count, cap) * step``: a small, capped bonus for memories in use."""
    if isinstance(access_count, bool) or not isinstance(access_count, int) or access_count < 0:
        raise ValueError(f"access_count must be an int >= 0, got {access_count!r}")
    if isinstance(step, bool) or not isinstance(step, (int, float)) or not math.isfinite(step) or step < 0:
        raise ValueError(f"step must be a finite number >= 0, got {step!r}")
    if isinstance(cap, bool) or not isinstance(cap, int) or cap < 0:
        raise ValueError(f"cap must be an int >= 0, got {cap!r}")
    return 1.0 + min(access_count, cap) * step


def half_life_days(lam: float = DEFAULT_LAMBDA) -> float:
    """Days until the decay factor halves: ``ln 2 / lam`` (≈ 13.86 for lam = 0.05)."""
    return math.log(2) / _check_lambda(lam, allow_zero=False)


def lambda_for_half_life(days: float) -> float:
    """The λ that halves a memory's weight every ``days`` days: ``ln 2 / days``."""
    if isinstance(days, bool) or not isinstance(days, (int, float)) or not math.isfinite(days) or days <= 0:
        raise ValueError(f"days must be a finite number > 0, got {days!r}")
    return math.log(2) / days


def last_used(record: MemoryRecord) -> datetime:
    """When a memory was last *used*: last recalled if ever, else last written."""
    return record.last_accessed_at or record.updated_at or record.created_at
