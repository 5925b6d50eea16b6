"""An experiment not adopted: let vector hits below the similarity floor fill a list that has room.

The similarity floor does two jobs in one number: a vector hit below it is *not returned*, and in
weighted fusion it is the cosine that *counts as zero* (``memcourse.recall.fusion.normalise``). Read
per query on the development set (``benchmarks/data/composite_dev.json``), short questions lose
their answer to the first job: "How do I get to work?" is closest to "Commutes to the office by
bicycle" (MiniLM 0.21, the routed model 0.11), below the floor (0.30 / 0.161), and nothing else
answers, so the store returns nothing useful.

The idea tried here keeps the second job and relaxes the first: the vector channel cuts at
``--cut`` times the floor instead of the floor, and a hit between the two scores a tiny amount
proportional to its cosine in fusion (``1e-6 × cosine``), so it never outranks a hit with any
evidence and only fills the places nothing better claims, best cosine first. The price is the
floor's other meaning: a query about nothing the store holds now returns its nearest memories
instead of an empty list (``tests/test_store_recall_contract.py`` asserts the empty list for e5).

Nothing here changes the library: the script patches the Chroma store's vector channel and the
fusion in this process only, then runs the command after ``--``. ``--cut 1`` is the library as it
is. docs/benchmarks.md §5 ("A second experiment not adopted") has the figures and the decision::

    .venv/bin/python benchmarks/fill_below_floor.py --diagnose benchmarks/data/composite_dev.json

    .venv/bin/python benchmarks/fill_below_floor.py --cut 0.5 -- memcourse/cli.py eval --modes hybrid --quiet
    .venv/bin/python benchmarks/fill_below_floor.py --cut 0.5 -- benchmarks/locomo.py \\
        --data ../shared/benchmarks/locomo/locomo-dev.json --modes hybrid --no-baselines
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from patched_run import add_command, run_patched  # noqa: E402

import memcourse.recall.fusion as fusion  # noqa: E402
from memcourse.stores.chroma.search import ChannelSearch  # noqa: E402

#: what a hit below the floor is worth in fusion, per unit of cosine: less than any hit with evidence
FILLER = 1e-6


def patch(cut: float) -> None:
    """Cut the vector channel at ``cut`` × the floor; score the hits below the floor as fillers."""
    if cut >= 1.0:
        return
    channel = ChannelSearch._vector_channel
    normalise = fusion.normalise

    def vector_channel_cut_lower(self, query, user_id, allowed, depth, distance, fetch, config):
        lower = dataclasses.replace(config, similarity_floor=config.similarity_floor * cut)
        return channel(self, query, user_id, allowed, depth, distance, fetch, lower)

    def normalise_with_fillers(scores, *, floor=0.0):
        if floor <= 0.0:  # BM25's channel (floor 0): unchanged
            return normalise(scores, floor=floor)
        kept = normalise(scores, floor=floor)
        return {doc_id: kept[doc_id] if scores[doc_id] > floor else FILLER * max(scores[doc_id], 0.0)
                for doc_id in scores}

    ChannelSearch._vector_channel = vector_channel_cut_lower
    fusion.normalise = normalise_with_fillers


def diagnose(dataset: Path, model: str) -> None:
    """Each hybrid miss at rank 5 of ``dataset``, with its answer's whole-text cosine: is it the user's
    closest memory, and is it below the floor? (The library as it is; nothing patched.)"""
    import tempfile

    import numpy as np

    from memcourse.embeddings import Embedder
    from memcourse.evaluations.recall import evaluate
    from memcourse.evaluations.recall_set import load_eval_set
    from memcourse.stores.chroma import ChromaMemoryStore

    eval_set, embedder = load_eval_set(dataset), Embedder(model)
    floor = embedder.profile.similarity_floor
    with tempfile.TemporaryDirectory(prefix="fill-diagnose-") as tmp:
        stores = iter(range(1000))
        report = evaluate(lambda: ChromaMemoryStore(path=str(Path(tmp) / f"s{next(stores)}"), embedder=embedder),
                          modes=("hybrid",), progress=False, eval_set=eval_set)
    by_user: dict[str, list] = {}
    for record in eval_set.records():
        by_user.setdefault(record.user_id, []).append(record)
    misses = [result for result in report.results if result.recall[5] == 0]
    first_below = 0
    for result in misses:
        records = by_user[result.query.user_id]
        ids = [record.memory_id for record in records]
        cosines = np.asarray(embedder.embed([record.content for record in records])) @ np.asarray(
            embedder.embed_query(result.query.text)).ravel()
        answer = max(cosines[ids.index(i)] for i in eval_set.relevant_ids(result.query))
        first = answer >= cosines.max() - 1e-9
        first_below += bool(first and answer < floor)
        print(f"{result.query.id:10} cosine {answer:.3f}{'  closest' if first else ''}"
              f"{'  below the floor' if answer < floor else ''}  {result.query.text}")
    print(f"{len(misses)} hybrid misses at rank 5; {first_below} are the closest memory, below the floor ({floor})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cut", type=float, default=0.5, help="the vector channel's cut, as a share of the floor")
    parser.add_argument("--diagnose", type=Path, metavar="DATASET",
                        help="instead of running a command: print DATASET's hybrid misses and their cosines")
    parser.add_argument("--model", default="minilm+use-routed", help="the model --diagnose uses")
    add_command(parser)
    args = parser.parse_args()
    if args.diagnose:
        diagnose(args.diagnose, args.model)
        return
    run_patched(parser, args.command, lambda: patch(args.cut))


if __name__ == "__main__":
    main()
