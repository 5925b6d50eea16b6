"""The memory stores: JSON file, Chroma, PostgreSQL (each imported only when used).

``from memcourse.stores import PostgresMemoryStore`` works without importing psycopg until then.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

_LAZY = {
    "JsonMemoryStore": "memcourse.stores.json_store",
    "ChromaMemoryStore": "memcourse.stores.chroma",
    "PostgresMemoryStore": "memcourse.stores.postgres",
}

__all__ = sorted(_LAZY)


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'memcourse.stores' has no attribute {name!r}")
