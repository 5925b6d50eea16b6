"""Near-duplicate supersede: a new memory retires the older one that says the same.

A near-duplicate (cosine at least the store's ``recall.dedupe_threshold``: its model's
profile's, 0.92 for MiniLM, 0.976 for e5-small; same user, agent and
type; a different id; both texts readable by the model; the decision is
:func:`memcourse.recall.dedupe.may_supersede`) supersedes the older record: it becomes
``superseded`` with ``superseded_by`` pointing at the new one. The chain of such records is
one fact: ``history`` shows it and ``forget`` removes it whole (:mod:`memcourse.stores.contract`).

A mixin of :class:`~memcourse.stores.chroma.store.ChromaMemoryStore`.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Callable, Iterable

import numpy as np

from memcourse.embeddings import Embedder
from memcourse.recall.config import RecallConfig
from memcourse.recall.dedupe import may_supersede, merged_by_similarity
from memcourse.records import MemoryRecord, Status

if TYPE_CHECKING:  # the store imports this mixin: its state's type is named for the checker only
    from memcourse.stores.chroma.store import SharedState

__all__ = ["DUPLICATE_PROBE", "NEAR_DUPLICATES", "NearDuplicates"]

#: Stored near-duplicates a new memory is compared with, and how many unfiltered neighbours
#: are asked for to find them (see _stored_near_duplicates).
NEAR_DUPLICATES, DUPLICATE_PROBE = 3, 10


class NearDuplicates:
    """Finding and superseding near-duplicates at upsert (mixed into the Chroma store)."""

    # What the store this is mixed into provides.
    recall: RecallConfig  #: the store's default: what is a near-duplicate is decided at write time
    embedder: Embedder
    _state: Callable[[], SharedState]  #: the collection's shared state (raises once the store is closed)
    _fetch: Callable[[Iterable[str]], dict[str, MemoryRecord]]  #: stored records by id, pending access counted

    def _supersede(
        self, fresh: list[MemoryRecord], vector_of: dict[str, np.ndarray], readable: dict[str, float], now: datetime
    ) -> list[MemoryRecord]:
        """Mark older near-duplicates of ``fresh`` records superseded; return the changed ones.

        Compared within the same user, agent and type, against stored active rows and against
        earlier records of the same batch. Events are never merged by similarity (two
        meetings are two facts: :func:`~memcourse.recall.dedupe.may_supersede`), so they are
        not compared at all; nor are texts the model cannot read (their vectors are [UNK]
        soup: "用户喜欢猫" and "用户讨厌狗" would look identical).
        """
        if self.recall.dedupe_threshold > 1 or not fresh:
            return []
        groups: dict[tuple[str, str, str], list[MemoryRecord]] = {}
        min_known = self.recall.min_known_tokens  # the store's own: what it indexes was decided at write time
        for record in fresh:
            if not merged_by_similarity(record.memory_type) or readable[record.memory_id] < min_known:
                continue
            groups.setdefault((record.user_id, record.agent_id, record.memory_type.value), []).append(record)
        stored = self._stored_near_duplicates([m for members in groups.values() for m in members], vector_of)
        changed: dict[str, MemoryRecord] = {}
        for members in groups.values():
            successor: dict[str, MemoryRecord] = {}  # predecessor id -> newest near-duplicate
            for member in members:
                for candidate, similarity in stored[member.memory_id]:
                    candidate = changed.get(candidate.memory_id, candidate)
                    if candidate.memory_id == member.memory_id or candidate.status is not Status.ACTIVE:
                        continue
                    if not may_supersede(candidate, member, similarity, threshold=self.recall.dedupe_threshold):
                        continue
                    successor[candidate.memory_id] = member  # later members overwrite: newest wins
                    changed.setdefault(candidate.memory_id, candidate)
            # Near-duplicates inside the batch: the later record supersedes the earlier.
            matrix = np.stack([vector_of[m.memory_id] for m in members])
            similarities = matrix @ matrix.T
            pairs = np.argwhere(np.triu(similarities >= self.recall.dedupe_threshold, k=1))
            for i, j in sorted(pairs.tolist(), key=lambda pair: pair[1]):  # i < j; the later j wins
                similarity = float(similarities[i, j])
                if not may_supersede(members[i], members[j], similarity, threshold=self.recall.dedupe_threshold):
                    continue
                successor[members[i].memory_id] = members[j]
                changed[members[i].memory_id] = members[i]
            for old_id, new in successor.items():
                old = changed[old_id]
                old.status = Status.SUPERSEDED
                old.superseded_by = new.memory_id
                old.updated_at = now
        return list(changed.values())

    def _stored_near_duplicates(
        self, members: list[MemoryRecord], vector_of: dict[str, np.ndarray]
    ) -> dict[str, list[tuple[MemoryRecord, float]]]:
        """For each member, up to ``NEAR_DUPLICATES`` stored active memories of its user, agent
        and type that the model could read, at cosine ≥ ``dedupe_threshold``, nearest first.

        The same choice as the vector channel's (``_vector_channel``): a kNN query filtered
        by tenant and type costs Chroma a pass over every row the filter matches (hundreds of
        milliseconds at 100k rows), once per (user, agent, type) group in the batch. So the
        whole batch asks one *unfiltered* query for its ``DUPLICATE_PROBE`` nearest rows each,
        and the scope is checked on the few that are close enough. That answer is complete
        when the probe reached a row below the threshold (every row at or above it was
        returned) or the whole collection; only a member whose probe was close all the way
        down (a crowd of near-identical rows, of anyone) is asked again with the filter.
        """
        shared = self._state()
        count = shared.row_count
        if not members or not count:
            return {m.memory_id: [] for m in members}
        found: dict[str, list[tuple[str, float]]] = {}
        threshold = self.recall.dedupe_threshold
        probe = min(DUPLICATE_PROBE, count)
        answers = shared.records.nearest_unfiltered(np.stack([vector_of[m.memory_id] for m in members]), probe)
        unsure: dict[tuple[str, str, str], list[MemoryRecord]] = {}
        for member, (pairs, returned, last) in zip(members, answers, strict=True):
            found[member.memory_id] = [(cid, 1.0 - d) for cid, d in pairs if 1.0 - d >= threshold]
            if returned >= probe and probe < count and 1.0 - last >= threshold:
                unsure.setdefault((member.user_id, member.agent_id, member.memory_type.value), []).append(member)
        for (user, agent, kind), group in unsure.items():
            scope = {"user_id": user, "agent_id": agent, "memory_type": kind, "active": True, "readable": True}
            vectors = np.stack([vector_of[m.memory_id] for m in group])
            answered = shared.records.nearest(vectors, min(NEAR_DUPLICATES, count), scope)
            for member, pairs in zip(group, answered, strict=True):
                found[member.memory_id] = [(cid, 1.0 - d) for cid, d in pairs if 1.0 - d >= threshold]
        loaded = self._fetch({cid for close in found.values() for cid, _ in close})
        result: dict[str, list[tuple[MemoryRecord, float]]] = {}
        min_known = self.recall.min_known_tokens
        for member in members:
            kept = []
            for cid, similarity in found[member.memory_id]:
                record = loaded.get(cid)
                if (
                    record is None
                    or record.user_id != member.user_id
                    or record.agent_id != member.agent_id
                    or record.memory_type != member.memory_type
                    or record.status is not Status.ACTIVE
                    or self.embedder.known_token_ratio(record.content) < min_known
                ):
                    continue
                kept.append((record, similarity))
            result[member.memory_id] = kept[:NEAR_DUPLICATES]
        return result
