"""Where a model's cosines sit for unrelated and for answering (question, memory) pairs, by language.

The similarity floor is one number per model, calibrated on LoCoMo's English turns
(``benchmarks/calibrate_embedder.py``: the same share of unrelated question/turn pairs above it as
MiniLM's 0.30 leaves). Is that the same place in every language, and in a store of short curated
memories rather than chat turns? This prints, for each recall set, model and (query language, memory
language), the percentiles of the cosines of unrelated pairs (a user's query against that user's
memories that do not answer it) and the median and minimum of the answering pairs. Nothing here
changes the library; docs/benchmarks.md §5 ("Round 6") has the figures and what they decided::

    .venv/bin/python benchmarks/cosine_by_language.py
    .venv/bin/python benchmarks/cosine_by_language.py --models minilm,use-multilingual \\
        --sets benchmarks/data/composite_dev.json
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from memcourse.embeddings import Embedder  # noqa: E402
from memcourse.evaluations.recall_set import load_eval_set  # noqa: E402

SETS = ("benchmarks/data/composite_dev.json", "memcourse/data/recall_eval.json",
        "memcourse/data/recall_crosslingual.json")


def language(text: str) -> str:
    """``zh`` if the text holds a Han character, else ``en`` (the recall sets hold no third language)."""
    return "zh" if any("\u4e00" <= ch <= "\u9fff" for ch in text) else "en"


def cosines(dataset: Path, embedder: Embedder) -> tuple[dict, dict]:
    """(unrelated, answering) cosines keyed by (query language, memory language)."""
    eval_set = load_eval_set(dataset)
    records = eval_set.records()
    unrelated: dict[tuple[str, str], list[float]] = defaultdict(list)
    answering: dict[tuple[str, str], list[float]] = defaultdict(list)
    for query in eval_set.queries:
        mine = [r for r in records if r.user_id == query.user_id]
        answers = eval_set.relevant_ids(query)
        vectors = np.asarray(embedder.embed([r.content for r in mine]))
        scores = vectors @ np.asarray(embedder.embed_query(query.text)).ravel()
        for record, score in zip(mine, scores, strict=True):
            key = (language(query.text), language(record.content))
            (answering if record.memory_id in answers else unrelated)[key].append(float(score))
    return unrelated, answering


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--models", default="minilm,use-multilingual", help="comma-separated model names")
    parser.add_argument("--sets", default=",".join(SETS), help="comma-separated recall set files")
    args = parser.parse_args()
    for name in args.models.split(","):
        embedder = Embedder(name)
        floor = embedder.profile.similarity_floor
        for dataset in args.sets.split(","):
            unrelated, answering = cosines(ROOT / dataset, embedder)
            print(f"{embedder.model_id} (floor {floor}) on {dataset}")
            for key in sorted(unrelated):
                u = np.asarray(unrelated[key])
                a = np.asarray(answering.get(key, []))
                share = float((u >= floor).mean())
                tail = (f"answering n={len(a):3} median {np.median(a):.3f} min {a.min():.3f}" if len(a)
                        else "answering n=  0")
                print(f"  {key[0]} query, {key[1]} memory: unrelated n={len(u):5} p50 {np.percentile(u, 50):.3f} "
                      f"p90 {np.percentile(u, 90):.3f} p99 {np.percentile(u, 99):.3f}, "
                      f"above the floor {share:.3f} | {tail}")


if __name__ == "__main__":
    main()
