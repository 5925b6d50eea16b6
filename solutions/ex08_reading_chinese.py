"""Reference solution for exercise 08 (calibrating a near-duplicate threshold from labelled pairs)."""

from __future__ import annotations

import math
from typing import Sequence


def merge_report(scored_pairs: Sequence[tuple[float, bool]], threshold: float) -> dict:
    pairs = list(scored_pairs)
    if not pairs:
        raise ValueError("no pairs to measure")
    merged = [same for cosine, same in pairs if cosine >= threshold]
    same_total = sum(1 for _, same in pairs if same)
    right = sum(1 for same in merged if same)
    return {
        "merged": len(merged),
        "precision": right / len(merged) if merged else 1.0,
        "recall": right / same_total if same_total else 0.0,
        "lost_distinct": len(merged) - right,
    }


def choose_threshold(scored_pairs: Sequence[tuple[float, bool]], *, min_precision: float) -> float:
    pairs = list(scored_pairs)
    if not pairs:
        raise ValueError("no pairs to calibrate on")
    if not 0 < min_precision <= 1:  # NaN fails both comparisons
        raise ValueError(f"min_precision must be in (0, 1], got {min_precision!r}")
    for threshold in sorted({cosine for cosine, _ in pairs}):
        if merge_report(pairs, threshold)["precision"] >= min_precision:
            return threshold
    return math.inf
