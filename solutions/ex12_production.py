"""Solution 12 — a batched writer with bounded, backed-off retries (see exercises/ex12_production.py)."""

from __future__ import annotations

import time
from typing import Any, Callable, Sequence

TRANSIENT = (ConnectionError, TimeoutError)


def write_in_batches(
    records: Sequence[Any],
    write_batch: Callable[[list[Any]], Any],
    *,
    batch_size: int = 50,
    max_attempts: int = 3,
    base_delay: float = 0.1,
    sleep: Callable[[float], Any] = time.sleep,
) -> dict[str, int]:
    if batch_size < 1:
        raise ValueError(f"batch_size must be >= 1, got {batch_size}")
    if max_attempts < 1:
        raise ValueError(f"max_attempts must be >= 1, got {max_attempts}")
    records = list(records)
    stats = {"batches": 0, "written": 0, "attempts": 0, "retries": 0}
    for start in range(0, len(records), batch_size):
        batch = records[start : start + batch_size]
        for attempt in range(1, max_attempts + 1):
            if attempt > 1:
                sleep(base_delay * 2 ** (attempt - 2))
            stats["attempts"] += 1
            try:
                write_batch(list(batch))
            except TRANSIENT:
                if attempt == max_attempts:
                    raise
                continue
            break
        stats["batches"] += 1
        stats["written"] += len(batch)
    stats["retries"] = stats["attempts"] - stats["batches"]
    return stats
