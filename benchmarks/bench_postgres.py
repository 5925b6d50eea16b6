"""The PostgreSQL store back to back with the embedded Chroma store: insert, search, cold open, writers.

    PYTHONPATH=. .venv/bin/python benchmarks/bench_postgres.py --n 10000 --tenants 1 10
    PYTHONPATH=. .venv/bin/python benchmarks/bench_postgres.py --n 100000 --tenants 1 --embedder standin

Same synthetic records and queries as ``bench_recall.py``, one embedder shared by both stores (its
cache holds every vector after the first store's inserts, so the second store's insert time is
storage, not the model: the Chroma store runs first and pays for the model). ``--embedder
standin`` replaces the model by the tests' hash stand-in (``tests/standin.py``: a vector from a
hash of the text, every token "known"): latency then measures the stores, not the meaning, and
100,000 memories load in minutes instead of an hour of embedding on a small CPU. PostgreSQL is
the embedded server (``MEMCOURSE_DATABASE_URL`` to use another), fsync on. Searches ask as
tenant 0, ``limit=10``, ``record_access=False``, a fresh query set per mode. Cold open: a new
store object on the same data plus its first search.

Several writers (``--writers N``): N processes each upsert ``--writer-records`` records of their
own plus the same ``--writer-records // 10`` shared ids (updates racing each other), in
transactions of 50, all into one PostgreSQL schema at once; then the rows are counted (0 lost
means every id is there and each shared id holds one writer's last version). The embedded Chroma
store refuses a second process (it says so at open), so there is no Chroma column for this.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
import uuid
from functools import partial
from pathlib import Path

ROOT = Path(__file__).parents[1]
sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(ROOT / "tests"))
from bench_recall import make_queries, make_records, percentiles, timed, user_of  # noqa: E402
from standin import STANDIN_EMBEDDER  # noqa: E402

from memcourse.embeddings import default_embedder  # noqa: E402
from memcourse.stores.chroma import ChromaMemoryStore  # noqa: E402
from memcourse.stores.postgres import PostgresMemoryStore  # noqa: E402
from memcourse.stores.postgres.sealing import KeyStore  # noqa: E402
from memcourse.stores.postgres.server import EmbeddedServer, database_url  # noqa: E402

CHUNK = 500
MODES = ("vector", "keyword", "hybrid")


def standin_embedder():
    namespace: dict = {}
    exec(STANDIN_EMBEDDER, namespace)
    namespace["StandInEmbedder"].dimension = 384  # the default model's, without loading it
    return namespace["StandInEmbedder"](cache_size=300_000)


def run(kind: str, opener, records, rng: random.Random, tenants: int, n_queries: int) -> dict:
    store = opener()
    start = time.perf_counter()
    for i in range(0, len(records), CHUNK):
        store.upsert_many([r.copy() for r in records[i:i + CHUNK]])
    insert_s = time.perf_counter() - start
    user = user_of(0, tenants)
    row = {"store": kind, "tenants": tenants, "n": len(records), "insert_per_s": len(records) / insert_s}
    for mode in MODES:
        queries = make_queries(n_queries, rng, len(records), tenants)
        row[mode] = percentiles(timed(
            lambda q, m=mode: store.search_hits(q, limit=10, mode=m, user_id=user, record_access=False), queries))
    first_query = make_queries(1, rng, len(records), tenants)[0]
    store.close()
    start = time.perf_counter()
    again = opener()
    again.search_hits(first_query, user_id=user, record_access=False)
    row["cold_open_s"] = time.perf_counter() - start
    again.close()
    return row


WRITER = STANDIN_EMBEDDER + '''
import sys, time
from memcourse.records import MemoryRecord
from memcourse.stores.postgres import PostgresMemoryStore
StandInEmbedder.dimension = 384
dsn, schema, keys, index, count, go = sys.argv[1:7]
index, count = int(index), int(count)
store = PostgresMemoryStore(dsn, schema=schema, key_store=keys, embedder=StandInEmbedder())
own = [MemoryRecord("event", f"own {index} {i}", f"writer {index} wrote note {i} about topic {i % 97}",
                    user_id="bench", memory_id=f"w{index}-{i}") for i in range(count)]
shared = [MemoryRecord("event", f"shared {i}", f"writer {index} updated shared note {i}", user_id="bench",
                       memory_id=f"shared-{i}") for i in range(count // 10)]
batch = own + shared
store.embedder.embed([r.content for r in batch])  # vectors before the clock starts
while not __import__("os").path.exists(go):
    time.sleep(0.005)
for i in range(0, len(batch), 50):
    store.upsert_many(batch[i:i + 50])
print(store.retries)
store.close()
'''


def several_writers(dsn: str, tmp: Path, writers: int, count: int) -> dict:
    import psycopg

    # A go-file of this run's own: a shared one, left by the previous run, let the next run's
    # writers start before the clock did (4 writers once "wrote" 4.7 million upserts a second).
    run = uuid.uuid4().hex
    schema, keys, go = f"writers_{run}", tmp / f"writers-keys-{run}.sqlite", tmp / f"writers-go-{run}"
    PostgresMemoryStore(dsn, schema=schema, key_store=keys, embedder=standin_embedder()).close()  # schema first
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), *sys.path])}
    procs = [subprocess.Popen([sys.executable, "-c", WRITER, dsn, schema, str(keys), str(i), str(count), str(go)],
                              stdout=subprocess.PIPE, env=env, text=True) for i in range(writers)]
    time.sleep(8 + writers)  # let every process import and embed (not timed)
    start = time.perf_counter()
    go.touch()
    if any(p.poll() is not None for p in procs):
        raise SystemExit("a writer finished before the clock started: the measurement would be void")
    outputs = [p.communicate()[0] for p in procs]
    elapsed = time.perf_counter() - start
    if any(p.returncode for p in procs):
        raise SystemExit(f"a writer failed: {[p.returncode for p in procs]}")
    with psycopg.connect(dsn) as conn:
        ids = {r[0] for r in conn.execute(f"SELECT id FROM {schema}.agent_memory")}
    row_key = KeyStore(keys).row_keys()  # the table holds keyed hashes of the ids
    expected = {row_key(f"w{i}-{j}") for i in range(writers) for j in range(count)} | {
        row_key(f"shared-{j}") for j in range(count // 10)}
    upserts = writers * (count + count // 10)
    return {"writers": writers, "upserts": upserts, "per_s": upserts / elapsed, "lost": len(expected - ids),
            "retries": sum(int(o.strip() or 0) for o in outputs)}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=10_000)
    parser.add_argument("--tenants", type=int, nargs="+", default=[1, 10])
    parser.add_argument("--queries", type=int, default=100)
    parser.add_argument("--embedder", choices=["model", "standin"], default="model")
    parser.add_argument("--writers", type=int, nargs="*", default=[1, 4], help="writer process counts (none: skip)")
    parser.add_argument("--writer-records", type=int, default=500)
    parser.add_argument("--stores", nargs="+", choices=["chroma", "postgres"], default=["chroma", "postgres"])
    args = parser.parse_args(argv)
    embedder = standin_embedder() if args.embedder == "standin" else default_embedder()
    server = None if database_url() else EmbeddedServer()
    dsn = database_url() or server.dsn
    rows, writers = [], []
    try:
        with tempfile.TemporaryDirectory() as tmp:
            for tenants in args.tenants:
                records = make_records(args.n, random.Random(0), tenants)
                path = Path(tmp) / f"chroma-{tenants}"
                if "chroma" in args.stores:
                    rows.append(run("chroma (embedded)", partial(ChromaMemoryStore, path, embedder=embedder),
                                    records, random.Random(1), tenants, args.queries))
                schema, keys = f"bench_{uuid.uuid4().hex}", Path(tmp) / f"keys-{tenants}.sqlite"
                if "postgres" in args.stores:
                    rows.append(run("postgres (embedded server)",
                                    partial(PostgresMemoryStore, dsn, schema=schema, key_store=keys, embedder=embedder),
                                    records, random.Random(1), tenants, args.queries))
                print(f"... {tenants} tenant(s) done", file=sys.stderr, flush=True)
            for count in args.writers:
                writers.append(several_writers(dsn, Path(tmp), count, args.writer_records))
    finally:
        if server is not None:
            server.stop()
    print(f"embedder: {embedder.model_id} ({args.embedder}); load average {os.getloadavg()[0]:.1f} at the end\n")
    print("| store | memories | tenants | insert /s | vector p50/p95 ms | keyword p50/p95 ms | hybrid p50/p95 ms "
          "| cold open + 1st search s |")
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        cells = " | ".join(f"{r[m][0]:.1f} / {r[m][1]:.1f}" for m in MODES)
        print(f"| {r['store']} | {r['n']:,} | {r['tenants']} | {r['insert_per_s']:.0f} | {cells} "
              f"| {r['cold_open_s']:.2f} |")
    if writers:
        print("\n| writer processes (PostgreSQL) | upserts | upserts /s | lost | deadlocks retried |")
        print("|---|---|---|---|---|")
        for w in writers:
            print(f"| {w['writers']} | {w['upserts']:,} | {w['per_s']:.0f} | {w['lost']} | {w['retries']} |")


if __name__ == "__main__":
    main()
