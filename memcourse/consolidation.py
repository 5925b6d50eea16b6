"""Consolidation: tidying a user's memory after the session, off the hot path.

During a conversation the write path must be quick, so it decides one message at a time.
What it cannot see is the whole: two phrasings of the same fact written ten minutes apart,
an old fact the user has since contradicted, memories whose time is up. "Sleep-time" agents
(Letta) and background reflection (LangMem) do that work after the session; "Remember right,
not more" warns that a summary written in the hot path is not memory. This module is that
cold-path job, deterministic and conservative, so every decision can be explained:

1. **Expire.** A memory past ``expires_at`` is deleted for real (retention ended).
2. **Merge near-duplicates, safely.** Two active memories of the same user, agent and type
   whose texts say the same thing are merged: the older is marked superseded by the newer
   (history kept, nothing erased). Looking alike is not enough: if the two texts carry
   different numbers, ids or dates ("ticket SUP-1 closed" / "ticket SUP-2 closed"), or one
   replaces a word of the other ("in Frankfurt" / "in Singapore"), they are distinct facts or
   events and both stay. The final word is
   :func:`memcourse.recall.dedupe.may_supersede`, the same decision the stores use.
3. **Flag contradictions.** Two memories about the same thing that disagree (a number
   changed, or one negates the other) are not silently resolved: the older one's confidence
   drops below the read gate's minimum and it is tagged ``needs_reconfirmation``, so it stops
   steering answers until the user confirms it. Events are never "contradicted": two
   similar events both happened.
4. **Record the session.** One episodic ``event`` memory says what the session left behind,
   with the conversation ids it came from, and goes through the write gate like any memory.

A summary is a copy, and copies are where forgetting fails. "Alice has 2 cats" restated in
a summary would outlive ``forget`` of the memory that said it, and would keep saying it at
full trust next to a newer "Alice has 3 cats". So a summary is a *derived record*, and three
rules follow:

- **It names its sources.** ``metadata["derived_from"]`` lists the ids of the memories it
  restates, and forgetting any one of them forgets the summary too (every store's
  ``forget`` removes the records derived from what it removes, and says which in
  ``forget_chain``). We chose removal over rewriting the summary without the forgotten
  fact: which words came from which source is not recorded, so a rewrite could keep a
  fragment, and the next session-end job writes a fresh summary anyway.
- **It never outranks its sources.** Its confidence is :data:`SUMMARY_DISCOUNT` below the
  least confident memory it quotes (and at most :data:`SUMMARY_CONFIDENCE`), and a memory
  flagged for reconfirmation is not quoted at all: a second-hand restatement must not be
  recalled ahead of, or instead of, what the user said. (Confidence is what the read gate
  and the ranking read; its source stays ``tool_observed``, the job that wrote it.)
- **It follows its sources' doubts.** When a source is later contradicted (step 3, in a
  later session), the summary that quotes it drops to the same low confidence and is tagged
  for reconfirmation, so the old value stops steering answers from there as well.

Every decision is appended to the audit log. Rules (administrator memories) are never
touched. Running the job twice changes nothing the second time.
"""

from __future__ import annotations

from concurrent.futures import Future
from dataclasses import dataclass, field
from datetime import datetime
from typing import Callable, Iterable

from memcourse.extraction.audit import AuditLog, forget_everywhere
from memcourse.extraction.reconcile import RECONFIRM_TAG
from memcourse.policy import MemoryPolicy, PolicyDecision
from memcourse.recall.admission import MIN_CONFIDENCE
from memcourse.recall.dedupe import may_supersede
from memcourse.records import (
    DEFAULT_AGENT,
    DERIVED_FROM,
    MemoryRecord,
    MemoryType,
    Source,
    Status,
    parse_timestamp,
    utc_now,
)
from memcourse.same_fact import (
    MERGE_SIMILARITY,
    contradicts,
    same_event_or_fact,
    text_similarity,
)
from memcourse.stores.base import MemoryStore
from memcourse.text import has_cjk

#: Confidence a contradicted memory drops to: below the read gate's minimum, so it is not
#: recalled until reconfirmed, but kept, because the newer statement may be the wrong one.
CONTRADICTED_CONFIDENCE = round(MIN_CONFIDENCE - 0.1, 2)
SUMMARY_TAG = "session_summary"
#: A summary's confidence when it quotes nothing, and its ceiling otherwise.
SUMMARY_CONFIDENCE = 0.9
#: How far below its least confident source a summary stays: a restatement is second-hand.
SUMMARY_DISCOUNT = 0.1

#: ``summarise(memories_written, messages) -> text``: plug a model in here if you like.
Summariser = Callable[[list[MemoryRecord], list[str]], str]


@dataclass
class ConsolidationReport:
    """What one run did, decision by decision (the same entries go to the audit log)."""

    expired: list[str] = field(default_factory=list)
    merged: list[tuple[str, str]] = field(default_factory=list)  # (superseded id, kept id)
    contradicted: list[tuple[str, str]] = field(default_factory=list)  # (flagged id, newer id)
    summary: MemoryRecord | None = None
    summary_decision: PolicyDecision | None = None
    decisions: list[dict] = field(default_factory=list)


def consolidate(
    store: MemoryStore,
    *,
    user_id: str,
    agent_id: str = DEFAULT_AGENT,
    conversation_ids: Iterable[str] = (),
    messages: Iterable[str] = (),
    policy: MemoryPolicy | None = None,
    audit: AuditLog | None = None,
    now: datetime | None = None,
    similarity: Callable[[MemoryRecord, MemoryRecord], float] = text_similarity,
    merge_threshold: float = MERGE_SIMILARITY,
    summarise: Summariser | None = None,
) -> ConsolidationReport:
    """Run the session-end job for one user (and agent); see the module docstring."""
    policy = policy or MemoryPolicy()
    now = parse_timestamp(now or utc_now(), "now")
    conversation_ids = list(dict.fromkeys(conversation_ids))
    report = ConsolidationReport()

    def log(decision: str, reason: str, **extra) -> None:
        entry = {"at": now.isoformat(), "user_id": user_id, "agent_id": agent_id, "conversation_id": None,
                 "stage": "consolidation", "decision": decision, "reason": reason, "by": "consolidation", **extra}
        report.decisions.append(entry)
        if audit is not None:
            audit.append(entry)

    records = [r for r in store.list_all(user_id=user_id, agent_id=agent_id) if r.memory_type is not MemoryType.RULE]

    # 1. expire
    alive = []
    for record in records:
        if record.is_expired(now):
            # Its chain and the summaries quoting it go too, and every audit line naming them.
            forget_everywhere(store, record.memory_id, audit)
            report.expired.append(record.memory_id)
            # No id, subject or text: what is gone leaves no trace.
            log("EXPIRE", f"expired ({record.memory_type.value}): deleted for real")
        else:
            alive.append(record)

    # 2 and 3: pairs of the same type, older first
    alive.sort(key=lambda r: (r.updated_at, r.memory_id))
    gone: set[str] = set()
    for i, older in enumerate(alive):
        for newer in alive[i + 1:]:
            if older.memory_id in gone or newer.memory_id in gone or older.memory_type is not newer.memory_type:
                continue
            if SUMMARY_TAG in older.tags or SUMMARY_TAG in newer.tags:
                continue
            score = similarity(older, newer)
            if same_event_or_fact(older, newer) and may_supersede(older, newer, score, threshold=merge_threshold):
                older.status, older.superseded_by = Status.SUPERSEDED, newer.memory_id
                store.upsert(older)
                gone.add(older.memory_id)
                report.merged.append((older.memory_id, newer.memory_id))
                log("MERGE", "the same fact said twice; the newer wording is kept", memory_id=older.memory_id,
                    target_id=newer.memory_id, similarity=round(score, 3))
            elif RECONFIRM_TAG not in older.tags and contradicts(older, newer):
                older.confidence = min(older.confidence, CONTRADICTED_CONFIDENCE)
                older.tags = [*older.tags, RECONFIRM_TAG]
                older.metadata = {**older.metadata, "contradicted_by": newer.memory_id}
                store.upsert(older)
                report.contradicted.append((older.memory_id, newer.memory_id))
                log("CONTRADICT", "a newer memory on the same topic disagrees; confidence lowered until reconfirmed",
                    memory_id=older.memory_id, target_id=newer.memory_id)

    # 3b. a summary that quotes a doubted memory is doubted with it
    doubted = {r.memory_id: r.metadata.get("contradicted_by") for r in alive if RECONFIRM_TAG in r.tags}
    for summary in alive:
        if SUMMARY_TAG not in summary.tags or RECONFIRM_TAG in summary.tags:
            continue
        quoted = [i for i in summary.metadata.get(DERIVED_FROM) or [] if i in doubted]
        if quoted:
            summary.confidence = min(summary.confidence, CONTRADICTED_CONFIDENCE)
            summary.tags = [*summary.tags, RECONFIRM_TAG]
            store.upsert(summary)
            report.contradicted.append((summary.memory_id, doubted[quoted[0]] or quoted[0]))
            log("CONTRADICT", "the summary quotes a memory flagged for reconfirmation; confidence lowered with it",
                memory_id=summary.memory_id, target_id=quoted[0])

    # 4. one episodic record of the session
    if conversation_ids:
        # What the session left behind, after the merges: a superseded wording is not repeated,
        # and a memory flagged for reconfirmation is not restated as if it were settled.
        session_memories = [
            r for r in store.list_all(user_id=user_id, agent_id=agent_id)
            if r.source_conversation_id in conversation_ids and SUMMARY_TAG not in r.tags
            and RECONFIRM_TAG not in r.tags
        ]
        _record_session(store, policy, report, log, user_id, agent_id, conversation_ids, session_memories,
                        list(messages), now, summarise or summarise_session)
    return report


def summarise_session(memories: list[MemoryRecord], messages: list[str]) -> str:
    """A deterministic summary: what the session left in memory (already gated text), never
    the raw messages (they may hold what the gate refused)."""
    chinese = sum(has_cjk(m.content) for m in memories) * 2 > len(memories) if memories else any(map(has_cjk, messages))
    parts = [m.content if len(m.content) <= 80 else m.content[:77] + "..." for m in memories[:8]]
    if chinese:
        head = f"本次会话共 {len(messages)} 条消息" if messages else "本次会话"
        return head + ("；记下：" + "；".join(parts) if parts else "；没有写入新的记忆")
    head = f"Session summary ({len(messages)} messages)" if messages else "Session summary"
    return head + ("; remembered: " + "; ".join(parts) if parts else "; nothing new was remembered")


def _record_session(
    store, policy, report, log, user_id, agent_id, conversation_ids, memories, messages, now, summarise
):
    times = [m.created_at for m in memories]
    # Second-hand: below the least confident memory it quotes, never above SUMMARY_CONFIDENCE.
    confidence = min([SUMMARY_CONFIDENCE, *(m.confidence - SUMMARY_DISCOUNT for m in memories)])
    candidate = MemoryRecord(
        MemoryType.EVENT,
        "session:" + "+".join(sorted(conversation_ids))[:190],
        summarise(memories, messages),
        confidence=round(max(0.0, confidence), 3),
        source=Source.TOOL_OBSERVED,
        tags=[SUMMARY_TAG],
        user_id=user_id,
        agent_id=agent_id,
        importance=0.4,
        source_conversation_id=",".join(conversation_ids)[:500],
        created_at=now,
        metadata={
            "conversation_ids": conversation_ids,
            DERIVED_FROM: [m.memory_id for m in memories],  # forgetting any of them forgets this
            "started": min(times).isoformat() if times else None,
        },
    )
    decision = policy.evaluate(candidate)
    report.summary_decision = decision
    if decision.accepted:
        report.summary = store.upsert(decision.record)
        log("SUMMARY", decision.reason, memory_id=report.summary.memory_id, conversation_ids=conversation_ids)
    else:
        log("SUMMARY_REFUSED", decision.reason, conversation_ids=conversation_ids, rule=decision.rule)


def consolidate_later(writer, store: MemoryStore, **kwargs) -> "Future[ConsolidationReport]":
    """Run :func:`consolidate` on a :class:`~memcourse.agent.writer.BackgroundMemoryWriter`'s worker,
    after the session's queued writes (so it sees them), off the hot path."""
    return writer.run_later(lambda: consolidate(store, **kwargs))
