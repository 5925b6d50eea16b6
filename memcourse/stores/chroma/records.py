"""The record keeper: where a Chroma store keeps its records, and the one interface to it.

How Chroma runs decides where records live, because forgetting and concurrency have
different answers in each case (see the package docstring), so there are two keepers with
one interface, and the store never asks which one it has:

* :class:`~memcourse.stores.chroma.embedded.EmbeddedRecords`: a ``PersistentClient`` or
  ``EphemeralClient``; records in a SQLite database of ours, Chroma holding only vectors.
* :class:`~memcourse.stores.chroma.server.ServerRecords`: an ``HttpClient`` against
  ``chroma run``; records as append-only version rows in the shared collection.
"""

from __future__ import annotations

from typing import Any, Iterable, Protocol, Sequence

import numpy as np

from memcourse.records import MemoryRecord

__all__ = ["RecordKeeper"]


class RecordKeeper(Protocol):
    """What a Chroma store asks of the place its records live."""

    def fetch(self, ids: Iterable[str]) -> dict[str, MemoryRecord]:
        """Stored records by id (unknown ids left out)."""
        ...

    def select(
        self,
        *,
        user_id: str | None = None,
        agent_id: str | None = None,
        memory_type: str | None = None,
        status: str | None = None,
        superseded_by: Sequence[str] | None = None,
    ) -> list[tuple[MemoryRecord, float]]:
        """Matching records with how readable each text was to the model, in insertion order."""
        ...

    def passage_vectors(self, ids: Iterable[str], dimension: int) -> dict[str, np.ndarray]:
        """Stored passage vectors (:mod:`memcourse.recall.passages`) of the ids that have them."""
        ...

    def row_count(self) -> int:
        """Rows in the Chroma collection (the vector channel's pre-/post-filter choice)."""
        ...

    def nearest(self, vectors: np.ndarray, n: int, scope: dict[str, Any]) -> list[list[tuple[str, float]]]:
        """For each vector, up to ``n`` (memory_id, cosine distance) pairs inside ``scope``."""
        ...

    def nearest_unfiltered(self, vectors: np.ndarray, n: int) -> list[tuple[list[tuple[str, float]], int, float]]:
        """For each vector, its ``n`` nearest rows of anyone: (pairs, rows returned, last distance)."""
        ...

    def write(
        self,
        records: Sequence[MemoryRecord],
        *,
        vectors: dict[str, np.ndarray],
        readable: dict[str, float],
        existing: dict[str, MemoryRecord],
        passages: dict[str, np.ndarray] | None = None,
    ) -> None:
        """Store merged records (a vector for every record whose content is new or changed)."""
        ...

    def write_access(self, records: Sequence[MemoryRecord]) -> None:
        """Store the access statistics of records (the write-behind's flush)."""
        ...

    def delete(self, ids: Sequence[str]) -> None:
        """Forget records: every row and vector of theirs."""
        ...

    def reconcile(self) -> list[MemoryRecord]:
        """After a crash: make Chroma agree with the records; return records left without a vector."""
        ...
