"""Time in ranking: a tie-breaker, not a tyrant.

Relevance alone treats a plan mentioned yesterday and one from last year the same. The
textbook fix is exponential decay, a factor that shrinks with age::

    decay = exp(-λ · days)

**Half-life.** The factor halves when ``exp(-λ·t) = 1/2``, i.e. ``t = ln 2 / λ``. With the
default λ = 0.05 that is ln 2 / 0.05 ≈ **13.9 days** (not "about 20 days": that would be
λ ≈ 0.035). After 30 days ``exp(-λ·t)`` is e^-1.5 ≈ 22 %, after 90 days ≈ 1 %. Pick λ from
the half-life you want: ``λ = ln 2 / half_life_days`` (:func:`decay_factor` computes it).

**Why recall does not multiply relevance by it.** Multiplied straight into a relevance
score, that factor *is* the ranking after a few weeks: a month-old memory keeps 22 % of its
score, so any recent memory that matches a little beats the old one that matches exactly.
On LoCoMo (long conversations, each turn stored at the time it was said), that
multiplication took hybrid Recall@10 from 0.54 to 0.20 (measured in the project's recall
issue; docs/benchmarks.md has the figures for the bounded factor below). Age must
reorder memories that are about equally relevant and demote stale ones, never outweigh
relevance. So recall uses a *bounded* factor (:func:`recency_factor`)::

    recency = 1 - weight[type] · (1 - exp(-λ · days since the memory was written))

It starts at 1 and sinks towards ``1 - weight`` (never below): with ``weight = 0.10`` the
oldest event keeps 90 % of its relevance, so it loses to a newer memory only when the two are
within 10 % of each other. Three choices inside it:

- **By type.** Events and tasks are about a time ("went to the support group yesterday",
  "migrating the orders service"): they go stale, weight 0.10. Decisions change less often,
  0.05. Preferences, entities and rules stay true until replaced, weight 0: they do not fade
  at all; an outdated one is *superseded* by its newer version (see ``dedupe``), not aged.
- **Since it was written** (``updated_at``: created, or last confirmed by an update), not
  since it was last recalled: a memory nobody has asked about yet is not punished for that.
  Being recalled is a separate, small, capped bonus (:func:`access_boost`).
- **λ** is the store's ``decay_lambda`` (default 0.05); ``decay_lambda=0`` switches time off.

**Access boost.** A memory that keeps being recalled is probably useful, so each use adds a
small multiplicative bonus, capped so that popularity can never beat relevance:
``1 + min(access_count, cap) · step``, at most 1.10 with the defaults.

**Importance.** :func:`importance_factor` turns ``MemoryRecord.importance`` (0..1, 0.5 by
default, set by whoever writes the memory, e.g. an extraction pipeline) into a factor in
[0.95, 1.05]: enough to order near-equals, never enough to make an irrelevant memory relevant.
"""

from __future__ import annotations

import math
from datetime import datetime

from memcourse.records import MemoryRecord, MemoryType, parse_timestamp

__all__ = [
    "DEFAULT_LAMBDA",
    "IMPORTANCE_WEIGHT",
    "RECENCY_WEIGHT",
    "access_boost",
    "decay_factor",
    "half_life_days",
    "importance_factor",
    "lambda_for_half_life",
    "last_used",
    "recency_factor",
]

DEFAULT_LAMBDA = 0.05
SECONDS_PER_DAY = 86_400.0
#: The most age can take from a memory's relevance, by type (see the module docstring).
RECENCY_WEIGHT = {
    MemoryType.EVENT: 0.10,
    MemoryType.TASK: 0.10,
    MemoryType.DECISION: 0.05,
    MemoryType.PREFERENCE: 0.0,
    MemoryType.ENTITY: 0.0,
    MemoryType.RULE: 0.0,
}
#: importance 0 -> x(1 - w/2), 0.5 -> x1, 1 -> x(1 + w/2).
IMPORTANCE_WEIGHT = 0.10


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


def recency_factor(record: MemoryRecord, now: datetime, *, lam: float = DEFAULT_LAMBDA) -> float:
    """``1 - weight[type] · (1 - exp(-lam · days since updated_at))``, in ``[1 - weight, 1]``.

    >>> from datetime import timedelta, timezone
    >>> now = datetime(2026, 1, 31, tzinfo=timezone.utc)
    >>> event = MemoryRecord("event", "trip", "Went hiking", created_at=now - timedelta(days=60))
    >>> round(recency_factor(event, now), 3)    # 60 days: nearly the full 10 %, no more
    0.905
    >>> rule = MemoryRecord("preference", "tea", "Likes tea", created_at=now - timedelta(days=600))
    >>> recency_factor(rule, now)               # preferences do not fade
    1.0
    """
    weight = RECENCY_WEIGHT[record.memory_type]
    if weight == 0.0:
        _check_lambda(lam, allow_zero=True)
        return 1.0
    return 1.0 - weight * (1.0 - decay_factor(record.updated_at, now, lam=lam))


def importance_factor(importance: float) -> float:
    """``1 + IMPORTANCE_WEIGHT · (importance - 0.5)``: 0.95 .. 1.05 for importance 0 .. 1."""
    if isinstance(importance, bool) or not isinstance(importance, (int, float)) or not 0.0 <= importance <= 1.0:
        raise ValueError(f"importance must be a number in [0, 1], got {importance!r}")
    return 1.0 + IMPORTANCE_WEIGHT * (float(importance) - 0.5)
