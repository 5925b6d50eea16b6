"""The PostgreSQL + pgvector store (``pip install 'memcourse[postgres]'``).

- :mod:`.server`: which server (``MEMCOURSE_DATABASE_URL``, a DSN, or an embedded one) and its lifecycle;
- :mod:`.database`: the pool, the schema, transactions with retried deadlocks;
- :mod:`.rows`: the SQL of each storage primitive (reads, writes, locks, candidate queries);
- :mod:`.keyword`: BM25 over keyword candidates; :mod:`.sealing`: per-user keys (crypto-shredding);
- :mod:`.store`: :class:`PostgresMemoryStore`, the public verbs on top of them.
"""

from memcourse.stores.postgres.store import PostgresMemoryStore

__all__ = ["PostgresMemoryStore"]
