"""Benchmark: write throughput and search latency of ChromaMemoryStore, with baselines.

What it measures, per store size (default 1k, 10k, 100k memories; one user, or ``--tenants N``
users sharing the collection, which is where a tenant filter has work to do):

* **upsert, cold** — a fresh embedder (empty cache) and a fresh collection: embedding dominates.
* **re-upsert, warm** — the same records again into the same store: unchanged content is
  never re-embedded, and an unchanged vector is not rewritten (metadata-only update).
* **insert, warm cache** — the same records into a *new* collection with the warm embedder:
  what a rebuild or migration costs when the vectors are already known.
* **search latency** p50/p95 per mode (hybrid, vector, keyword), each including the query
  embedding, next to two baselines run in the same process on the same data:
  a plain ``collection.query`` (query embedding + Chroma kNN with the same user filter) and a
  plain ``bm25s`` query over the same tokens (no tenant filter, no fusion, no records).

Every mode gets its own fresh query set, so no mode profits from another's cached query vector.

Run (from the repository root):

    .venv/bin/python benchmarks/bench_recall.py                       # 1k, 10k, 100k (slow: ~10 min)
    .venv/bin/python benchmarks/bench_recall.py --sizes 1000 --queries 50   # quick look (~1 min)
    .venv/bin/python benchmarks/bench_recall.py --sizes 100000 --tenants 10  # multi-tenant, synthetic vectors
    MEMCOURSE_EMBEDDING_MODEL=use-multilingual .venv/bin/python benchmarks/bench_recall.py --sizes 10000  # another
    model

Results for this repository's reference machine are in docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from memcourse.embeddings import Embedder  # noqa: E402
from memcourse.records import MemoryRecord, MemoryType  # noqa: E402
from memcourse.text import tokenize  # noqa: E402

WORDS = """
account address agenda airport album alert analysis answer apartment api app april archive
article assistant audit august backup badge balance bank battery bicycle billing birthday
blog board book booking bookmark branch browser budget bug build bus cache calendar camera
campaign car card career cart catalog chart chat checkout chinese city class client cloud
club code coffee colleague comment commute company compiler concert conference config
contract cooking course credit customer dashboard database deadline debug december delivery
dentist deploy design desk diet dinner discount doctor document dog domain draft email
english exam expense family feedback festival file flight football friday garden gift github
goal grocery guitar gym hiking holiday hotel insurance interview invoice java january journal
kernel kitchen kotlin language laptop lease library linux lunch manager march market meeting
memory menu metrics migration monday monitor mortgage movie museum music network newsletter
notebook november office onboarding order package painting parking password payment pdf
photo piano pizza plan podcast policy portfolio postgres presentation printer project python
quarter query recipe refund release report repository research restaurant resume review
roadmap router running rust salary sales schedule school script security server shipping
shoes sister skiing slack sprint spreadsheet startup storage subscription sunday supplier
survey swimming tax team tea teacher tennis ticket timezone train translation travel
tuesday typescript uber umbrella university update vacation vendor video visa wallet
warehouse weather website wedding weekend wifi workshop yoga zoom
""".split()
VERBS = "likes prefers avoids uses needs booked moved cancelled scheduled bought finished started".split()
TYPES = [MemoryType.PREFERENCE, MemoryType.ENTITY, MemoryType.TASK, MemoryType.EVENT, MemoryType.DECISION]


def user_of(i: int, tenants: int) -> str:
    """Memory ``i`` belongs to one of ``tenants`` users, round robin; searches ask as user 0."""
    return "bench" if tenants == 1 else f"bench-{i % tenants}"


def make_records(n: int, rng: random.Random, tenants: int = 1) -> list[MemoryRecord]:
    records = []
    for i in range(n):
        words = rng.sample(WORDS, 6)
        content = (
            f"user {rng.choice(VERBS)} {words[0]} {words[1]} for the {words[2]} {words[3]}, "
            f"see {words[4]} {words[5]} ref {rng.choice('ABCDEFGH')}{i:06d}"
        )
        records.append(
            MemoryRecord(
                memory_type=rng.choice(TYPES),
                subject=f"{words[0]}_{words[2]}_{i}",
                content=content,
                user_id=user_of(i, tenants),
                confidence=0.9,
            )
        )
    return records


def make_queries(count: int, rng: random.Random, n: int, tenants: int = 1) -> list[str]:
    queries = []
    for _ in range(count):
        words = rng.sample(WORDS, 3)
        if rng.random() < 0.2:  # an exact reference number (of user 0), the case keyword search exists for
            queries.append(f"what about ref {rng.choice('ABCDEFGH')}{rng.randrange(0, n, tenants):06d}")
        else:
            queries.append(f"what does the user think about {words[0]} {words[1]} {words[2]}")
    return queries


def percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]
    return statistics.median(ordered) * 1000, p95 * 1000


def timed(fn, queries: list[str]) -> list[float]:
    fn(queries[0])  # warm-up (builds lazy indexes), not timed
    samples = []
    for q in queries[1:]:
        start = time.perf_counter()
        fn(q)
        samples.append(time.perf_counter() - start)
    return samples


def bench_size(n: int, args, rng: random.Random) -> dict:
    from memcourse.stores.chroma import ChromaMemoryStore

    records = make_records(n, rng, args.tenants)
    user = user_of(0, args.tenants)
    out: dict = {"size": n, "tenants": args.tenants}
    with tempfile.TemporaryDirectory(prefix="memcourse-bench-") as tmp:
        embedder = Embedder(cache_size=max(n * 2, 1000))
        out["synthetic_vectors"] = n > args.real_vectors_up_to
        if out["synthetic_vectors"]:
            # Embedding 100k sentences takes many minutes on a shared 2-core CPU, and search
            # latency depends on the index size and vector distribution, not on the exact
            # meaning. So each content vector is the normalised sum of *real* model vectors of
            # its words, primed into the cache. Queries are still embedded by the model.
            word_vectors = dict(zip(WORDS + VERBS, embedder.embed(WORDS + VERBS), strict=True))
            vectors = [
                sum(word_vectors[w] for w in r.content.replace(",", "").split() if w in word_vectors)
                for r in records
            ]
            embedder.prime([r.content for r in records], np.stack(vectors))
            embedder.reset_stats()
        store = ChromaMemoryStore(Path(tmp) / "a", embedder=embedder)

        start = time.perf_counter()
        for i in range(0, n, args.batch):
            store.upsert_many(records[i : i + args.batch])
        out["upsert_cold_s"] = time.perf_counter() - start
        calls_before = embedder.stats.model_calls

        start = time.perf_counter()
        for i in range(0, n, args.batch):
            store.upsert_many(records[i : i + args.batch])
        out["reupsert_warm_s"] = time.perf_counter() - start
        out["reupsert_model_calls"] = embedder.stats.model_calls - calls_before

        other = ChromaMemoryStore(Path(tmp) / "b", embedder=embedder)
        start = time.perf_counter()
        for i in range(0, n, args.batch):
            other.upsert_many(records[i : i + args.batch])
        out["insert_warm_cache_s"] = time.perf_counter() - start
        out["insert_warm_model_calls"] = embedder.stats.model_calls - calls_before
        del other
        out["active"] = len(store.list_all(user_id=user))

        # -- search latency --------------------------------------------------------------------
        latencies = {}
        for mode in ("hybrid", "vector", "keyword"):
            queries = make_queries(args.queries, rng, n, args.tenants)
            latencies[mode] = timed(lambda q, m=mode: store.search_hits(q, limit=10, mode=m, user_id=user), queries)

        # The same filter the store's vector channel gives Chroma (opaque tenant token, active).
        where = store._records._where({"user_id": user, "active": True})
        queries = make_queries(args.queries, rng, n, args.tenants)
        queries = make_queries(args.queries, rng, n, args.tenants)
        latencies["plain query, no filter"] = timed(
            lambda q: store.collection.query(
                query_embeddings=embedder.embed_queries([q]), n_results=10, include=["distances"]
            ),
            queries,
        )
        queries = make_queries(args.queries, rng, n, args.tenants)
        latencies["plain chroma.query"] = timed(
            lambda q: store.collection.query(
                query_embeddings=embedder.embed_queries([q]),
                n_results=10,
                where=where,
                include=["metadatas", "distances"],
            ),
            queries,
        )

        import bm25s

        corpus_tokens = [tokenize(" ".join([r.subject, r.content])) for r in records]
        plain = bm25s.BM25(k1=1.5, b=0.75, method="lucene")
        plain.index(corpus_tokens, show_progress=False)

        def bm25_query(q: str):
            ids = plain.get_tokens_ids(tokenize(q))
            if not ids:
                return []
            scores = plain.get_scores_from_ids(ids)
            top = scores.argsort()[-10:][::-1]
            return [(int(i), float(scores[i])) for i in top if scores[i] > 0]

        queries = make_queries(args.queries, rng, n, args.tenants)
        latencies["plain bm25s"] = timed(bm25_query, queries)
        out["latency_ms"] = {name: percentiles(samples) for name, samples in latencies.items()}
        store.close()
    return out


def print_report(results: list[dict], model_load_s: float) -> None:
    print(f"\ncpus: {os.cpu_count()}, load average at the end: {', '.join(f'{x:.1f}' for x in os.getloadavg())}")
    print(f"model load (once per process): {model_load_s:.1f} s")
    print(f"users: {ARGS.tenants} (searches ask as one of them)\n")
    print("write throughput (memories/s; batches of %d)" % ARGS.batch)
    print(
        f"{'size':>8} {'cold':>10} {'re-upsert warm':>15} {'speed-up':>9} {'insert, warm cache':>19} {'speed-up':>9}"
        f" {'model calls (warm)':>19}"
    )
    for r in results:
        n = r["size"]
        cold, warm, ins = n / r["upsert_cold_s"], n / r["reupsert_warm_s"], n / r["insert_warm_cache_s"]
        if r["synthetic_vectors"]:
            cold = float("nan")  # the cache was primed: no cold measurement at this size
        print(
            f"{n:>8} {cold:>10.0f} {warm:>15.0f} {warm / cold:>8.1f}x {ins:>19.0f} {ins / cold:>8.1f}x "
            f"{r['reupsert_model_calls']:>9} / {r['insert_warm_model_calls']:<8}"
        )
    print("\nsearch latency, limit=10, including the query embedding (ms)")
    print(f"{'size':>8} {'channel':<20} {'p50':>8} {'p95':>8} {'p50 / plain chroma':>19}")
    for r in results:
        base = r["latency_ms"]["plain chroma.query"][0]
        for name, (p50, p95) in r["latency_ms"].items():
            print(f"{r['size']:>8} {name:<20} {p50:>8.1f} {p95:>8.1f} {p50 / base:>18.2f}x")


def main(argv: list[str] | None = None) -> None:
    global ARGS
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1000,10000,100000", help="comma-separated store sizes")
    parser.add_argument("--queries", type=int, default=200, help="queries per mode and size")
    parser.add_argument("--batch", type=int, default=1000, help="records per upsert_many call")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--real-vectors-up-to", type=int, default=20000,
        help="above this size, content vectors are synthesised from real word vectors (see docs)",
    )
    parser.add_argument(
        "--tenants", type=int, default=1,
        help="spread the memories over this many users (round robin) and search as one of them",
    )
    parser.add_argument("--json", help="also write the raw results to this file")
    ARGS = args = parser.parse_args(argv)
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    start = time.perf_counter()
    _ = Embedder().model  # load the model ($MEMCOURSE_EMBEDDING_MODEL, else the default) once, timed
    model_load_s = time.perf_counter() - start
    rng = random.Random(args.seed)
    results = []
    for n in (int(s) for s in args.sizes.split(",")):
        print(f"... {n} memories", file=sys.stderr, flush=True)
        results.append(bench_size(n, args, rng))
        if args.json:
            Path(args.json).write_text(json.dumps({"model_load_s": model_load_s, "results": results}, indent=2))
    print_report(results, model_load_s)


ARGS: argparse.Namespace

if __name__ == "__main__":
    main()
