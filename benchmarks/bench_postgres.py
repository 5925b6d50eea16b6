"""The PostgreSQL store back to back with the embedded Chroma store: insert, hybrid search, cold open.

    PYTHONPATH=. .venv/bin/python benchmarks/bench_postgres.py --n 10000 --tenants 1 10

Same synthetic records and queries as ``bench_recall.py``, one embedder shared by both stores (its
cache holds every vector after the first store's inserts, so the second store's insert time is
storage, not the model: the Chroma store runs first and pays for the model). PostgreSQL is the
embedded server (``MEMCOURSE_DATABASE_URL`` to use another), fsync on. Searches ask as tenant 0,
``record_access=False``. Cold open: a new store object on the same data plus its first search.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
import uuid
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from bench_recall import make_queries, make_records, percentiles, timed, user_of  # noqa: E402

from memcourse.embeddings import default_embedder  # noqa: E402
from memcourse.stores.chroma import ChromaMemoryStore  # noqa: E402
from memcourse.stores.postgres import PostgresMemoryStore  # noqa: E402
from memcourse.stores.postgres.server import EmbeddedServer, database_url  # noqa: E402

CHUNK = 500


def run(kind: str, opener, records, queries, tenants: int) -> dict:
    store = opener()
    start = time.perf_counter()
    for i in range(0, len(records), CHUNK):
        store.upsert_many([r.copy() for r in records[i:i + CHUNK]])
    insert_s = time.perf_counter() - start
    user = user_of(0, tenants)
    p50, p95 = percentiles(timed(lambda q: store.search_hits(q, user_id=user, record_access=False), queries))
    store.close()
    start = time.perf_counter()
    again = opener()
    again.search_hits(queries[0], user_id=user, record_access=False)
    cold_s = time.perf_counter() - start
    again.close()
    return {"store": kind, "tenants": tenants, "n": len(records), "insert_per_s": len(records) / insert_s,
            "p50_ms": p50, "p95_ms": p95, "cold_open_s": cold_s}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=10_000)
    parser.add_argument("--tenants", type=int, nargs="+", default=[1, 10])
    parser.add_argument("--queries", type=int, default=100)
    args = parser.parse_args(argv)
    embedder = default_embedder()
    server = None if database_url() else EmbeddedServer()
    dsn = database_url() or server.dsn
    rows = []
    try:
        with tempfile.TemporaryDirectory() as tmp:
            for tenants in args.tenants:
                rng = random.Random(0)
                records = make_records(args.n, rng, tenants)
                queries = make_queries(args.queries, rng, args.n, tenants)
                path = Path(tmp) / f"chroma-{tenants}"
                rows.append(run("chroma (embedded)", partial(ChromaMemoryStore, path, embedder=embedder),
                                records, queries, tenants))
                schema, keys = f"bench_{uuid.uuid4().hex}", Path(tmp) / f"keys-{tenants}.sqlite"
                rows.append(run("postgres (embedded server)",
                                partial(PostgresMemoryStore, dsn, schema=schema, key_store=keys, embedder=embedder),
                                records, queries, tenants))
    finally:
        if server is not None:
            server.stop()
    print("| store | memories | tenants | insert /s | hybrid p50 ms | hybrid p95 ms | cold open + 1st search s |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['store']} | {r['n']:,} | {r['tenants']} | {r['insert_per_s']:.0f} | {r['p50_ms']:.1f} | "
              f"{r['p95_ms']:.1f} | {r['cold_open_s']:.2f} |")


if __name__ == "__main__":
    main()
