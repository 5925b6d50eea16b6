"""Recall on the PostgreSQL store next to the embedded Chroma store: same data, same embedder.

    PYTHONPATH=. .venv/bin/python benchmarks/recall_parity_postgres.py
    PYTHONPATH=. .venv/bin/python benchmarks/recall_parity_postgres.py --locomo PATH/TO/locomo-dev.json

Without ``--locomo``: the shipped bilingual set. ``memcourse eval`` builds one fresh store per
search mode and prints R@k and MRR; this runs the same evaluation (``memcourse.evaluations.recall.evaluate``,
the same eval set, one embedder and its profile's store arguments for both) with a PostgreSQL
store in a schema of its own per mode on one embedded server, then with the Chroma store, and
prints both tables.

With ``--locomo``: the LoCoMo run of ``benchmarks/locomo.py`` (every turn a memory written at its
session's time, one user per conversation, questions after the last session) through
``locomo.run_store`` once with the Chroma store and once with the PostgreSQL store, the same
embedder and knobs, and prints both tables and the differences of the hybrid figures. Parity
means within 0.01 (the Chroma store's HNSW index and pgvector's are both approximate, so the
vector channel's candidates can differ at the margin).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from memcourse.embeddings import default_embedder  # noqa: E402
from memcourse.evaluations.recall import evaluate  # noqa: E402
from memcourse.stores.chroma import ChromaMemoryStore  # noqa: E402
from memcourse.stores.postgres import PostgresMemoryStore  # noqa: E402
from memcourse.stores.postgres.server import EmbeddedServer, database_url  # noqa: E402


def bilingual(dsn: str, tmp: Path, embedder, opened: list) -> None:
    options = embedder.profile.store_arguments()

    def postgres():
        store = PostgresMemoryStore(dsn, schema=f"eval_{uuid.uuid4().hex}", embedder=embedder,
                                    key_store=tmp / f"keys-{uuid.uuid4().hex}.sqlite", **options)
        opened.append(store)
        return store

    def chroma():
        return ChromaMemoryStore(path=tempfile.mkdtemp(dir=tmp), embedder=embedder, **options)

    for name, factory in (("postgres", postgres), ("chroma", chroma)):
        print(f"store: {name}, embedding model {embedder.model_id}")
        print(evaluate(factory, progress=False).table(), flush=True)


def locomo_parity(path: Path, only: list[str] | None, modes: list[str], dsn: str, tmp: Path, embedder,
                  opened: list) -> None:
    import locomo

    conversations, report = locomo.load_locomo(path, only)
    turns = sum(len(c.turns) for c in conversations)
    questions = sum(len(c.questions) for c in conversations)
    print(f"LoCoMo {path.name}: {len(conversations)} conversations, {turns} turns, {questions} questions "
          f"({len(report.repaired)} evidence ids repaired, {len(report.dropped)} dropped); "
          f"embedding model {embedder.model_id}")
    embedder.embed([t.content for c in conversations for t in c.turns])  # the model's cache, shared

    def postgres(path: Path, **kwargs):
        store = PostgresMemoryStore(dsn, schema=f"locomo_{uuid.uuid4().hex}",
                                    key_store=tmp / f"keys-{uuid.uuid4().hex}.sqlite", **kwargs)
        opened.append(store)
        return store

    results = {}
    for name, open_store in (("chroma", ChromaMemoryStore), ("postgres", postgres)):
        (tmp / name).mkdir()
        found = locomo.run_store(conversations, modes, tmp / name, embedder, open_store=open_store)
        results.update({f"{name} {mode.removeprefix('memcourse ')}": result for mode, result in found.items()})
    print(locomo.table(results))
    print("\ndifference postgres - chroma, categories 1-4:")
    for mode in modes:
        a, b = results[f"chroma {mode}"].summary((1, 2, 3, 4)), results[f"postgres {mode}"].summary((1, 2, 3, 4))
        print(f"  {mode:<8}" + "  ".join(f"{k} {b[k] - a[k]:+.4f}" for k in ("R@5", "R@10", "MRR@10")))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--locomo", type=Path, help="a LoCoMo JSON file: run it on both stores instead")
    parser.add_argument("--modes", default="hybrid,keyword,vector", help="with --locomo: the library's modes")
    parser.add_argument("--conversations", default="", help="with --locomo: comma-separated sample_ids (default: all)")
    args = parser.parse_args(argv)
    embedder = default_embedder()
    server = None if database_url() else EmbeddedServer()
    dsn = database_url() or server.dsn
    opened: list = []
    try:
        with tempfile.TemporaryDirectory() as tmp:
            if args.locomo:
                only = [c.strip() for c in args.conversations.split(",") if c.strip()] or None
                locomo_parity(args.locomo, only, [m.strip() for m in args.modes.split(",") if m.strip()], dsn,
                              Path(tmp), embedder, opened)
            else:
                bilingual(dsn, Path(tmp), embedder, opened)
    finally:
        for store in opened:
            store.close()
        if server is not None:
            server.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
