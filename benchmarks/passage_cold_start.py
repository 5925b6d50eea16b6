"""What passage scoring costs a store that was just reopened (its embedder's cache is empty).

Passage vectors (memcourse.recall.passages) are derived data: computed when a memory is
written and kept only in the embedder's in-memory cache. A process that opens an existing
store computes them again the first time each memory is a vector candidate. This script builds
a store from one LoCoMo conversation, reopens it with a fresh embedder whose only cached vectors
are the questions', and times the same questions twice (limit 10, hybrid).

Run (from the repository root)::

    .venv/bin/python benchmarks/passage_cold_start.py --data ../shared/benchmarks/locomo/locomo-dev.json
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import locomo  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", required=True, type=Path, help="a LoCoMo JSON file")
    parser.add_argument("--conversation", default="conv-26", help="the sample_id to load (default: conv-26)")
    parser.add_argument("--questions", type=int, default=40, help="how many of its questions to ask")
    args = parser.parse_args(argv)
    from memcourse.embeddings import Embedder
    from memcourse.stores.chroma import ChromaMemoryStore

    try:
        conversations, _ = locomo.load_locomo(args.data, [args.conversation])
    except (OSError, ValueError, KeyError, TypeError) as error:
        print(f"passage_cold_start: cannot read {args.data}: {error}", file=sys.stderr)
        return 2
    conv = conversations[0]
    questions = [q.text for q in conv.questions][: args.questions]
    with tempfile.TemporaryDirectory(prefix="passages-") as tmp:
        clock = locomo.Clock()
        clock.now = conv.asked_at
        store = ChromaMemoryStore(path=Path(tmp) / "store", embedder=Embedder(), clock=clock)
        store.upsert_many([locomo.turn_record(conv, t) for t in conv.turns])
        store.close()
        embedder = Embedder()
        embedder.embed(questions)  # the model loaded, the questions' vectors cached: time passages only
        store = ChromaMemoryStore(path=Path(tmp) / "store", embedder=embedder, clock=clock)

        def one_pass() -> list[float]:
            times = []
            for question in questions:
                start = time.perf_counter()
                store.search_hits(question, limit=10, user_id=conv.sample_id, mode="hybrid", record_access=False)
                times.append((time.perf_counter() - start) * 1000)
            return times

        cold, warm = one_pass(), one_pass()
        store.close()
    print(f"{conv.sample_id}: {len(conv.turns)} turns, {len(questions)} questions, store reopened with an empty cache")
    print(f"first pass  p50 {statistics.median(cold):6.1f} ms  max {max(cold):6.1f} ms")
    print(f"second pass p50 {statistics.median(warm):6.1f} ms  max {max(warm):6.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
