"""Choose the MiniLM weight ``w`` of the composite embedder (memcourse.embeddings.composite).

The composite's cosine is ``w · cos_MiniLM + (1 - w) · cos_USE``. ``w`` is chosen on
development data only: LoCoMo's development conversations (English) and
``benchmarks/data/composite_dev.json`` (50 queries written for this script: Chinese, English and
mixed paraphrases, and cross-lingual questions in one mixed store per user), never on the
measurement sets in memcourse/data.

Two variants are swept: the plain concatenation (``keep-unread``) and the one that drops a
part's half of a text that part cannot read (``drop-unread``: MiniLM's half of a Chinese
sentence; memcourse.embeddings.composite says why). For each variant and ``w`` of the grid
the composite is first *calibrated* exactly as ``benchmarks/calibrate_embedder.py``
calibrates a model (floor, near-duplicate threshold and dense exponent mapped from MiniLM's
on LoCoMo dev), then measured with that profile.

**The rule, written before the run**: among the grid's (variant, weight) pairs whose LoCoMo dev hybrid R@10
is within 0.01 of MiniLM's (measured in the same run), take the one with the best hybrid MRR
on the development set (all queries); a tie goes to the larger ``w`` (closer to the course's
first model), then to ``drop-unread``. If none qualifies, say so.

Each model's vectors are computed once (cached part embedders) and reused for every ``w``.

Run (from the repository root; ~2-3 minutes per weight on 2 quiet cores)::

    .venv/bin/python benchmarks/composite_weight.py --data ../shared/benchmarks/locomo/locomo-dev.json \
        --grid 0.5,0.6,0.4,0.7 --keep-grid 0.5 --reference-r10 0.729
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from calibrate_embedder import calibrate, measure  # noqa: E402
from locomo import load_locomo, run_store  # noqa: E402

from memcourse.embeddings import MINILM_MODEL, USE_MULTILINGUAL_MODEL, Embedder, profile_for  # noqa: E402
from memcourse.embeddings.composite import CompositeBackend, composite_id  # noqa: E402
from memcourse.embeddings.profiles import ModelProfile  # noqa: E402
from memcourse.evaluations.recall import evaluate  # noqa: E402
from memcourse.evaluations.recall_set import load_eval_set  # noqa: E402

DEV_SET = Path(__file__).resolve().parent / "data" / "composite_dev.json"
GRID = (0.3, 0.4, 0.5, 0.6, 0.7, 0.8)
TOLERANCE = 0.01


class SweepEmbedder(Embedder):
    """A composite at one weight over shared, cached part embedders, with a profile given here."""

    def __init__(self, weight: float, drop_unread: bool, parts: list[Embedder]):
        super().__init__(composite_id(weight, drop_unread))
        self.backend = CompositeBackend(self.model_id, parts=parts, drop_unread=drop_unread, weights=(
            (MINILM_MODEL, weight), (USE_MULTILINGUAL_MODEL, 1.0 - weight)))
        self._profile = replace(profile_for(MINILM_MODEL), model_id=self.model_id, reads_cjk=True)

    @property
    def profile(self) -> ModelProfile:
        return self._profile


def locomo_hybrid(conversations, embedder: Embedder) -> dict[str, float]:
    with tempfile.TemporaryDirectory(prefix="composite-locomo-") as tmp:
        result = run_store(conversations, ["hybrid"], Path(tmp), embedder)["memcourse hybrid"]
    return result.summary((1, 2, 3, 4))


def dev_set(embedder: Embedder, eval_set) -> dict[str, float]:
    from memcourse.stores.chroma import ChromaMemoryStore

    with tempfile.TemporaryDirectory(prefix="composite-dev-") as tmp:
        counter = iter(range(1000))
        report = evaluate(lambda: ChromaMemoryStore(path=str(Path(tmp) / f"s{next(counter)}"), embedder=embedder),
                          modes=("vector", "hybrid"), progress=False, eval_set=eval_set)
    out = {"hybrid MRR": report.mrr("hybrid"), "hybrid R@5": report.metrics("hybrid")["recall@5"]}
    for group in ("lang:zh", "lang:en", "lang:mixed", "kind:crosslingual"):
        out[f"hybrid R@5 {group}"] = report.metrics("hybrid", group)["recall@5"]
    out["vector R@5 kind:chinese"] = report.metrics("vector", "kind:chinese")["recall@5"]
    out["vector R@5 kind:crosslingual"] = report.metrics("vector", "kind:crosslingual")["recall@5"]
    return out


COLUMNS = ["floor", "threshold", "sharpen", "R@10", "MRR@10", "hybrid MRR", "hybrid R@5", "hybrid R@5 lang:zh",
           "hybrid R@5 lang:en", "hybrid R@5 lang:mixed", "hybrid R@5 kind:crosslingual",
           "vector R@5 kind:chinese", "vector R@5 kind:crosslingual"]


def print_row(name: str, scores: dict[str, float]) -> None:
    print(f"{name:9} " + " ".join(f"{scores.get(c, float('nan')):12.3f}" for c in COLUMNS), flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", required=True, type=Path, help="LoCoMo development JSON (locomo-dev.json)")
    parser.add_argument("--grid", default=",".join(map(str, GRID)), help="comma-separated MiniLM weights (drop-unread)")
    parser.add_argument("--keep-grid", default=None, help="the weights of the keep-unread variant (default: --grid)")
    parser.add_argument("--reference-r10", type=float, default=None,
                        help="MiniLM's LoCoMo dev hybrid R@10 (docs/benchmarks.md section 1) instead of re-running it")
    args = parser.parse_args(argv)
    conversations, _ = load_locomo(args.data)
    eval_set = load_eval_set(DEV_SET)
    grid = [float(w) for w in args.grid.split(",") if w.strip()]
    keep_grid = grid if args.keep_grid is None else [float(w) for w in args.keep_grid.split(",") if w.strip()]
    minilm, use = Embedder(MINILM_MODEL), Embedder(USE_MULTILINGUAL_MODEL)
    start = time.perf_counter()
    reference = measure(minilm, conversations)
    print(f"reference measured ({time.perf_counter() - start:.0f} s)", flush=True)
    print("LoCoMo dev hybrid (R@10, MRR@10, categories 1-4) | development set (benchmarks/data/composite_dev.json)")
    print(f"{'':9} " + " ".join(f"{c.replace('kind:', '').replace('lang:', ''):>12}" for c in COLUMNS))
    rows: list[tuple[str, dict[str, float]]] = []
    if args.reference_r10 is None:
        base = {"floor": 0.30, "threshold": 0.92, "sharpen": 1.5, **locomo_hybrid(conversations, minilm),
                **dev_set(minilm, eval_set)}
    else:
        base = {"floor": 0.30, "threshold": 0.92, "sharpen": 1.5, "R@10": args.reference_r10,
                **dev_set(minilm, eval_set)}
    print_row("minilm", base)
    for drop_unread, weight in [(True, w) for w in grid] + [(False, w) for w in keep_grid]:
        embedder = SweepEmbedder(weight, drop_unread, [minilm, use])
        mapping = calibrate(measure(embedder, conversations), reference)
        embedder._profile = replace(embedder.profile, similarity_floor=round(mapping["floor"], 3),
                                    dedupe_threshold=round(mapping["threshold"], 3),
                                    vector_sharpen=round(mapping["sharpen"], 2))
        scores = {"floor": mapping["floor"], "threshold": mapping["threshold"], "sharpen": mapping["sharpen"],
                  **dev_set(embedder, eval_set)}
        print_row(f"{'drop' if drop_unread else 'keep'} {weight:g}", scores)  # the cheap half first
        scores.update(locomo_hybrid(conversations, embedder))
        rows.append((f"{'drop' if drop_unread else 'keep'} {weight:g}", scores))
        print_row(rows[-1][0], scores)
        print(f"    ({time.perf_counter() - start:.0f} s)", flush=True)
    floor = base["R@10"] - TOLERANCE
    qualified = [(scores["hybrid MRR"], float(name.split()[1]), name.startswith("drop"), name)
                 for name, scores in rows if scores["R@10"] >= floor]
    if qualified:
        best = max(qualified)
        print(f"rule: {len(qualified)} of {len(rows)} reach LoCoMo dev R@10 >= {floor:.3f}; best development "
              f"hybrid MRR: {best[3]} ({best[0]:.3f})")
    else:
        print(f"rule: nothing reaches LoCoMo dev R@10 >= {floor:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
