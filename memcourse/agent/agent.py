"""A memory-aware agent: read before reasoning, write after acting.

One turn of :class:`MemoryAwareAgent` is the whole memory lifecycle in miniature:

1. **Read.** Load the user's standing preferences (they shape *every* answer, whatever the
   question) and search for memories relevant to this message. Every recalled memory then
   passes the read gate (:func:`memcourse.recall.admission.admit`): active, unexpired,
   confident, permitted (no user-made rules), safe (a planted instruction or secret that
   slipped into the store through another door still never reaches the answer).
2. **Reason.** Compose the answer from the message and the recalled memories. The default
   composer is deterministic and needs no LLM, on purpose: with a model in the loop, fluent
   text can hide that nothing was recalled. Pass ``composer=`` to plug in a model.
3. **Write.** Offer the message to the policy gate; only what it accepts is upserted. With
   ``writer=`` (a :class:`~memcourse.agent.writer.BackgroundMemoryWriter`) this happens on the cold
   path, after the reply has been returned. Inline, a store that fails (disk full, a lock held too
   long) costs the memory, not the reply: the answer is returned with ``write_error`` set.

The run's own steps live in a :class:`ShortTermState` that is returned for inspection and
then thrown away: run state is checkpoint material, never long-term memory.
"""

from __future__ import annotations

from concurrent.futures import Future
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, Callable

from memcourse.agent.compose import Composer, compose_answer
from memcourse.policy import MemoryPolicy, PolicyDecision
from memcourse.recall.admission import admit
from memcourse.records import (
    DEFAULT_AGENT,
    DEFAULT_USER,
    MemoryRecord,
    MemoryType,
    utc_now,
)
from memcourse.state import ShortTermState
from memcourse.stores.arguments import MAX_QUERY_CHARS
from memcourse.stores.base import MemoryStore, StoreError
from memcourse.text import token_set
from memcourse.vocabulary import DecisionRule

if TYPE_CHECKING:
    from memcourse.agent.writer import BackgroundMemoryWriter
    from memcourse.extraction.base import Extractor
    from memcourse.extraction.pipeline import MemoryPipeline




@dataclass
class AgentReply:
    answer: str
    retrieved: list[MemoryRecord]
    written: MemoryRecord | None
    decision: PolicyDecision
    state: dict[str, Any] = field(default_factory=dict)  # this turn's ShortTermState snapshot
    blocked: list[MemoryRecord] = field(default_factory=list)  # recalled but refused by the read guard
    pending: "Future[PolicyDecision] | None" = None  # the cold-path write, when a writer is used
    write_error: Exception | None = None  # the store failed: the answer stands, the memory was not kept


class MemoryAwareAgent:
    def __init__(
        self,
        store: MemoryStore,
        policy: MemoryPolicy | None = None,
        *,
        user_id: str = DEFAULT_USER,
        agent_id: str = DEFAULT_AGENT,
        recall_limit: int = 3,
        composer: Composer | None = None,
        conversation_id: str | None = None,
        writer: "BackgroundMemoryWriter | None" = None,
        clock: Callable[[], datetime] = utc_now,
        pipeline: "MemoryPipeline | None" = None,
        extractor: "Extractor | None" = None,
    ):
        """``pipeline`` (a :class:`~memcourse.extraction.MemoryPipeline`) or just ``extractor``
        (rules, a model, or both) replaces the plain policy write with extraction, the gate,
        reconciliation and (if the pipeline has one) the audit log. Without either, the
        policy's rule recognisers decide, offline, as in the first notebooks."""
        self.store = store
        self.policy = policy or MemoryPolicy()
        if pipeline is None and extractor is not None:
            from memcourse.extraction.pipeline import MemoryPipeline

            pipeline = MemoryPipeline(store, extractor=extractor, policy=self.policy, clock=clock)
        self.pipeline = pipeline
        self.user_id = user_id
        self.agent_id = agent_id
        self.recall_limit = recall_limit
        self.composer = composer or compose_answer
        self.conversation_id = conversation_id
        self.writer = writer
        self.clock = clock

    def reply(self, message: str) -> AgentReply:
        if not isinstance(message, str):
            raise TypeError(f"message must be a string, got {type(message).__name__}")
        if not message.strip():
            raise ValueError("message must not be empty")
        state = ShortTermState(goal=f"answer: {message.strip()[:80]}")

        state.add_step("read: load standing preferences and search relevant memories")
        retrieved, refused = self._recall(message)
        blocked = [record for record, _ in refused]
        for record, reason in refused:
            state.add_observation(f"read gate dropped {record.memory_id}: {reason}")

        if self.writer is not None:
            # Cold path: the policy and the store run in the background; the reply does not wait.
            state.add_step("write: hand the message to the background memory writer")
            pending = self.writer.submit(
                message, user_id=self.user_id, agent_id=self.agent_id, conversation_id=self.conversation_id
            )
            decision = PolicyDecision(None, "queued for the background memory writer", "queued")
            state.add_step("reason: compose the answer from the message and recalled memories")
            answer = self.composer(message, retrieved, decision)
            return AgentReply(answer, retrieved, None, decision, state.snapshot(), blocked, pending)

        if self.pipeline is not None:
            from memcourse.extraction.base import Message

            state.add_step("write: extract, gate, reconcile and store through the memory pipeline")
            try:
                result = self.pipeline.process(
                    Message(message, self.conversation_id, self.clock(), self.user_id, self.agent_id)
                )
            except (StoreError, OSError) as error:
                failed = PolicyDecision(None, f"the store failed, nothing was kept: {error}",
                                        DecisionRule.WRITE_FAILED)
                state.add_observation(f"write failed, the answer stands: {error}")
                state.add_step("reason: compose the answer from the message and recalled memories")
                answer = self.composer(message, retrieved, failed)
                return AgentReply(answer, retrieved, None, failed, state.snapshot(), blocked, write_error=error)
            for step in result.steps:
                if step.decision is not None:
                    state.add_observation(f"reconcile: {step.decision}")
            state.add_step("reason: compose the answer from the message and recalled memories")
            answer = self.composer(message, retrieved, result.decision)
            written = result.written[0] if result.written else None
            return AgentReply(answer, retrieved, written, result.decision, state.snapshot(), blocked)

        state.add_step("decide: offer the message to the write policy")
        decision = self.policy.decide(
            message, user_id=self.user_id, agent_id=self.agent_id, conversation_id=self.conversation_id
        )
        state.add_step("reason: compose the answer from the message and recalled memories")
        answer = self.composer(message, retrieved, decision)

        written, write_error = None, None
        if decision.accepted and decision.record is not None:
            state.add_step("write: upsert the accepted memory")
            try:
                written = self.store.upsert(decision.record)
            except (StoreError, OSError) as error:  # a bug (TypeError, ...) still raises
                write_error = error
                state.add_observation(f"write failed, the answer stands: {error}")
        state.add_observation(f"policy: {decision.rule}")
        return AgentReply(answer, retrieved, written, decision, state.snapshot(), blocked, write_error=write_error)

    def _recall(self, message: str) -> tuple[list[MemoryRecord], list[tuple[MemoryRecord, str]]]:
        """Standing preferences first, then the best matches for this message, no duplicates;
        split into what the read gate admits and what it refuses (with the reason)."""
        standing = self.store.list_all(
            user_id=self.user_id, agent_id=self.agent_id, memory_type=MemoryType.PREFERENCE
        )
        relevant = self.store.search(  # a pasted document is searched by its first part
            message[:MAX_QUERY_CHARS], limit=self.recall_limit, user_id=self.user_id, agent_id=self.agent_id
        ) if token_set(message) else []
        seen: dict[str, MemoryRecord] = {}
        for record in standing + relevant:
            seen.setdefault(record.memory_id, record)
        admitted, refused = [], []
        now = self.clock()
        for record in seen.values():
            verdict = admit(record, now=now)
            if verdict:
                admitted.append(record)
            else:
                refused.append((record, verdict.reason))
        return admitted, refused
