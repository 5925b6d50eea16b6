"""Forgetting in the three steps the engineering guide takes (§5.3), and every copy in each.

"删除涉及三处：主存储的记录、Embedding向量副本、以及可能已经被复制到会话日志或缓存里的内容":
a deletion touches the record in the main store, its embedding copies, and whatever was copied
into session logs or caches. Deleting the row alone leaves the agent able to "remember" it. So:

1. **the store and its derived copies**: the store forgets the whole chain (every version, the
   records derived from it, vectors, keyword index, verdicts) and the audit log drops every line
   naming any of those ids (:func:`memcourse.extraction.audit.forget_everywhere`);
2. **the caches**: the hot-read cache drops the user's entries
   (:class:`memcourse.recall.hot_cache.HotReadCache`);
3. **the session logs**: every sentence of the user's transcripts that carried any version of the
   memory becomes a placeholder (:meth:`memcourse.session_log.SessionLog.redact`); the rest of
   each conversation stays.

The contents to redact are read *before* step 1, since afterwards nothing holds them.
"""

from __future__ import annotations

from dataclasses import dataclass

from memcourse.extraction.audit import AuditLog, forget_everywhere
from memcourse.recall.hot_cache import HotReadCache
from memcourse.session_log import SessionLog
from memcourse.stores.base import MemoryStore

__all__ = ["ForgetReport", "forget_in_three_steps"]


@dataclass(frozen=True)
class ForgetReport:
    removed_ids: tuple[str, ...]  # step 1: every record the store removed
    cache_entries_dropped: int  # step 2
    sentences_redacted: int  # step 3

    def __bool__(self) -> bool:
        return bool(self.removed_ids)


def forget_in_three_steps(store: MemoryStore, memory_id: str, *, audit: AuditLog | None = None,
                          cache: HotReadCache | None = None, session_log: SessionLog | None = None) -> ForgetReport:
    """Forget ``memory_id`` everywhere this process can reach; an unknown id changes nothing."""
    try:
        chain = store.history(memory_id)
    except KeyError:
        return ForgetReport((), 0, 0)
    user_id = chain[-1].user_id
    chain_ids = {record.memory_id for record in chain}
    derived = [record for record in store.list_all(user_id=user_id)
               if set(_derived_from(record)) & chain_ids]
    contents = [record.content for record in (*chain, *derived)]
    removed = forget_everywhere(store, memory_id, audit)
    dropped = cache.invalidate(user_id) if cache is not None else 0
    redacted = session_log.redact(contents, user_id=user_id) if session_log is not None else 0
    return ForgetReport(removed, dropped, redacted)


def _derived_from(record) -> list[str]:
    value = (record.metadata or {}).get("derived_from", [])
    return [value] if isinstance(value, str) else [v for v in value if isinstance(v, str)]
