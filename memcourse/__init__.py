"""memcourse: long-term memory for LLM agents, built to be read.

Everything a notebook needs is importable from here. Heavy libraries (chromadb,
sentence-transformers, torch) are imported only when a class that needs them is first used,
so ``import memcourse`` stays fast.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from memcourse.policy import MemoryPolicy, PolicyDecision
from memcourse.recall.config import RecallConfig
from memcourse.recall.hit import Hit
from memcourse.records import (
    MAX_CONTENT_CHARS,
    HistoryEntry,
    MemoryRecord,
    MemoryType,
    Source,
    Status,
    make_memory_id,
    utc_now,
)
from memcourse.state import ShortTermState
from memcourse.stores.base import CorruptStoreError, MemoryStore, StoreError, TenancyError
from memcourse.stores.json_store import JsonMemoryStore

__version__ = "0.1.0"

# name -> module, imported on first attribute access (PEP 562).
_LAZY = {
    "MemoryAwareAgent": "memcourse.agent.agent",
    "AgentReply": "memcourse.agent.agent",
    "ChromaMemoryStore": "memcourse.stores.chroma",
    "PostgresMemoryStore": "memcourse.stores.postgres",  # psycopg is imported only on first use
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        value = getattr(import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'memcourse' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


__all__ = [
    "AgentReply",
    "ChromaMemoryStore",
    "CorruptStoreError",
    "HistoryEntry",
    "Hit",
    "JsonMemoryStore",
    "MAX_CONTENT_CHARS",
    "MemoryAwareAgent",
    "MemoryPolicy",
    "MemoryRecord",
    "MemoryStore",
    "MemoryType",
    "PolicyDecision",
    "PostgresMemoryStore",
    "RecallConfig",
    "ShortTermState",
    "Source",
    "Status",
    "StoreError",
    "TenancyError",
    "make_memory_id",
    "utc_now",
]
