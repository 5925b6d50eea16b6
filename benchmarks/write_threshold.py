"""Choose the write threshold (memcourse.extraction.importance.WRITE_THRESHOLD) on development data.

The threshold decides which admitted candidates are written. It is chosen on development data
only: ``benchmarks/data/extraction_dev.json`` (19 messages written for this choice: small
events and passing states said once, events tied to the user's active task, facts said again
in a later session, mangled e-mail addresses and ids), with the shipped conversation set
(``memcourse/data/extraction_conversations.json``, what ``memcourse eval --extraction`` and
the course report) as a floor that must not drop. Both rows run: ``rules`` and the scripted
``hybrid``.

**The rule, written before the run**: over the grid 0.00, 0.05, ... 0.95, keep the thresholds
at which neither row of the shipped set loses precision or recall against threshold 0 (no
threshold); among them, take those with the best dev F1 summed over both rows; of that run of
equal best thresholds, take the middle (the value farthest from both edges, so that a score
exactly on a grid step does not decide). If none qualifies, say so.

Run (from the repository root; about a minute)::

    .venv/bin/python benchmarks/write_threshold.py
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from memcourse.evaluations.extraction import evaluate, load_set  # noqa: E402

DEV = Path(__file__).resolve().parent / "data" / "extraction_dev.json"


def f1(precision: float, recall: float) -> float:
    return 2 * precision * recall / (precision + recall) if precision + recall else 0.0


def measure(data: dict, threshold: float) -> list[tuple[float, float]]:
    with tempfile.TemporaryDirectory(prefix="memcourse-threshold-") as tmp:
        rows = evaluate(data, workdir=Path(tmp), live=False, write_threshold=threshold)
    return [(score.precision, score.recall) for _, score in rows]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dev", type=Path, default=DEV)
    args = parser.parse_args(argv)
    dev, shipped = load_set(args.dev), load_set(None)
    floor = measure(shipped, 0.0)
    grid = [round(0.05 * step, 2) for step in range(20)]
    print(f"{'threshold':>9}  {'dev rules P/R':>13}  {'dev hybrid P/R':>14}  {'dev F1 sum':>10}  "
          f"{'shipped rules P/R':>17}  {'shipped hybrid P/R':>18}  floor kept")
    results = []
    for threshold in grid:
        dev_rows, shipped_rows = measure(dev, threshold), measure(shipped, threshold)
        kept = all(p >= fp and r >= fr for (p, r), (fp, fr) in zip(shipped_rows, floor, strict=True))
        total = sum(f1(p, r) for p, r in dev_rows)
        results.append((threshold, total, kept))
        (drp, drr), (dhp, dhr) = dev_rows
        (srp, srr), (shp, shr) = shipped_rows
        print(f"{threshold:>9.2f}  {drp:>6.2f}/{drr:<6.2f}  {dhp:>7.2f}/{dhr:<6.2f}  {total:>10.3f}  "
              f"{srp:>10.2f}/{srr:<6.2f}  {shp:>11.2f}/{shr:<6.2f}  {'yes' if kept else 'NO'}")
    eligible = [(t, total) for t, total, kept in results if kept]
    if not eligible:
        print("no threshold keeps the shipped set's figures")
        return 1
    best = max(total for _, total in eligible)
    best_run = [t for t, total in eligible if abs(total - best) < 1e-9]
    chosen = best_run[(len(best_run) - 1) // 2] if len(best_run) % 2 else \
        round((best_run[len(best_run) // 2 - 1] + best_run[len(best_run) // 2]) / 2, 3)
    print(f"best dev F1 sum {best:.3f} at {best_run}; chosen: {chosen}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
