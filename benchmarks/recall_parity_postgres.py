"""The shipped bilingual recall set on the PostgreSQL store, next to the embedded Chroma store.

    PYTHONPATH=. .venv/bin/python benchmarks/recall_parity_postgres.py

``memcourse eval`` builds one fresh store per search mode and prints R@k and MRR; this runs the
same evaluation (``memcourse.evaluation.evaluate``, the same eval set, one embedder and its
profile's store arguments for both) with a PostgreSQL store in a schema of its own per mode
on one embedded server, then with the Chroma store, and prints both tables. Parity means the
same figures within rounding.
"""

from __future__ import annotations

import tempfile
import uuid
from pathlib import Path

from memcourse.embeddings import default_embedder
from memcourse.evaluation import evaluate
from memcourse.stores.chroma import ChromaMemoryStore
from memcourse.stores.postgres import PostgresMemoryStore
from memcourse.stores.postgres.server import EmbeddedServer, database_url


def main() -> None:
    embedder = default_embedder()
    options = embedder.profile.store_arguments()
    server = None if database_url() else EmbeddedServer()
    dsn = database_url() or server.dsn
    opened: list = []
    try:
        with tempfile.TemporaryDirectory() as tmp:
            def postgres():
                store = PostgresMemoryStore(dsn, schema=f"eval_{uuid.uuid4().hex}", embedder=embedder,
                                            key_store=Path(tmp) / f"keys-{uuid.uuid4().hex}.sqlite", **options)
                opened.append(store)
                return store

            def chroma():
                return ChromaMemoryStore(path=tempfile.mkdtemp(dir=tmp), embedder=embedder, **options)

            for name, factory in (("postgres", postgres), ("chroma", chroma)):
                print(f"store: {name}, embedding model {embedder.model_id}")
                print(evaluate(factory, progress=False).table(), flush=True)
    finally:
        for store in opened:
            store.close()
        if server is not None:
            server.stop()


if __name__ == "__main__":
    main()
