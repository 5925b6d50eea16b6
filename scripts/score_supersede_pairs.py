"""Score the course's labelled supersede pairs with the two models exercise 08 compares.

Exercise 08's graded tests choose a merge threshold on these cosines. Computing them means
loading MiniLM and USE in every graded run (seven seconds, and the suite grades the course
five times), so the cosines are saved once, next to the pairs they score::

    .venv/bin/python scripts/score_supersede_pairs.py          # write memcourse/data/supersede_pair_cosines.json
    .venv/bin/python scripts/score_supersede_pairs.py --check  # exit 1 when the saved cosines are stale

``tests/test_dedupe.py`` runs the check's comparison on every test run, so the file cannot
drift from the models or the pairs.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAIRS = ROOT / "memcourse" / "data" / "supersede_labelled_pairs.json"
COSINES = ROOT / "memcourse" / "data" / "supersede_pair_cosines.json"
MODELS = ("minilm", "use-multilingual")
DIGITS = 6  # cosines agree to about 1e-7 across runs on one machine; six digits are stable


def score(pairs_path: Path = PAIRS) -> dict:
    """Every pair's cosine under each model, in the pairs file's order, with the file's digest."""
    import numpy as np

    from memcourse.embeddings import Embedder

    raw = pairs_path.read_bytes()
    pairs = json.loads(raw.decode("utf-8"))["pairs"]
    cosines = {}
    for name in MODELS:
        model = Embedder(name)
        old = np.asarray(model.embed([p["old"] for p in pairs]))
        new = np.asarray(model.embed([p["new"] for p in pairs]))
        cosines[name] = [round(float(c), DIGITS) for c in (old * new).sum(axis=1)]
    return {
        "about": "Cosine of each pair in supersede_labelled_pairs.json (same order), under each model; "
                 "written by scripts/score_supersede_pairs.py, checked by tests/test_dedupe.py.",
        "pairs_sha256": hashlib.sha256(raw).hexdigest(),
        "cosines": cosines,
    }


def stale(saved: dict, now: dict, tolerance: float = 2e-5) -> list[str]:
    """What differs between the saved scores and fresh ones (empty: the file is current)."""
    problems = []
    if saved.get("pairs_sha256") != now["pairs_sha256"]:
        problems.append("the pairs file changed since the cosines were saved")
    for name, values in now["cosines"].items():
        old = saved.get("cosines", {}).get(name)
        if old is None or len(old) != len(values):
            problems.append(f"{name}: {0 if old is None else len(old)} saved cosines for {len(values)} pairs")
        elif any(abs(a - b) > tolerance for a, b in zip(old, values, strict=True)):
            worst = max(abs(a - b) for a, b in zip(old, values, strict=True))
            problems.append(f"{name}: a cosine moved by {worst:.2g}")
    return problems


def main(argv: list[str] | None = None) -> int:
    from memcourse.stores.files import atomic_write

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="compare with the saved file; write nothing")
    args = parser.parse_args(argv)
    now = score()
    if args.check:
        problems = stale(json.loads(COSINES.read_text(encoding="utf-8")), now)
        print("\n".join(problems) or f"{COSINES.name} is current")
        return 1 if problems else 0
    atomic_write(COSINES, (json.dumps(now, indent=1, ensure_ascii=False) + "\n").encode("utf-8"))
    print(f"wrote {COSINES.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
