"""The write pipeline: screen -> extract -> gate -> reconcile -> store -> audit.

One message goes through five steps, each one's verdict recorded in the audit log:

1. **Screen.** The policy looks at the whole message first. A secret, an injected instruction
   or a user-made behaviour rule stops everything here: nothing is extracted from it, and it
   is never sent to a model (a model is a third party, and a poisoned message can steer it
   into laundering the instruction into an innocent-looking memory).
2. **Extract.** Any :class:`~memcourse.extraction.base.Extractor` proposes candidates.
3. **Gate.** Every memory candidate passes :meth:`MemoryPolicy.evaluate` (confidence >= 0.8
   for a model's guess, secrets, injections, rules only from an admin). The gate decides,
   whoever extracted.
3b. **Importance.** An admitted candidate is judged part by part
   (:func:`memcourse.extraction.importance.judge`: stability, relevance to the user's active
   tasks, repetition, an explicit request) and written only if the score reaches the write
   threshold. One below it is not written and not lost: the audit log keeps its parts and the
   reason, and :class:`~memcourse.extraction.mentions.PendingMentions` keeps the mention, so the
   same fact said again counts as a repetition and may pass. A stored memory stating the same
   fact counts as one earlier mention too. An administrator's rule and a message that asked to
   remember ("记住…", "remember …") are never dropped by importance. The judged score is the
   importance stored with the memory (a model's own figure stays in the audit line only: it
   cannot be explained).
4. **Reconcile.** :class:`~memcourse.extraction.reconcile.Reconciler` decides ADD / UPDATE /
   SUPERSEDE / DELETE / NOOP against the most similar stored memories, and it is applied
   through the store's public API only, so any store works.
5. **Audit.** Each decision is appended to the user's audit log.

Forgetting goes through the pipeline too (:meth:`MemoryPipeline.forget`,
:meth:`MemoryPipeline.forget_user`, and a DELETE decision): the store forgets the memory's
whole chain (every version, and the summaries derived from it), the audit log forgets
every line that names any of those ids, the lines that added the forgotten fact included,
and the pending mentions of the same fact go too (a retraction removes them even when no
memory matched).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Callable

from memcourse.extraction.audit import AuditLog, forget_everywhere
from memcourse.extraction.base import (
    RETRACTION,
    Candidate,
    Extraction,
    Extractor,
    Message,
)
from memcourse.extraction.importance import WRITE_THRESHOLD, Judgement, judge
from memcourse.extraction.mentions import PendingMentions, same_fact
from memcourse.extraction.reconcile import Decision, Reconciler, apply, neighbours
from memcourse.extraction.rules import RuleExtractor
from memcourse.policy import MemoryPolicy, PolicyDecision
from memcourse.recognisers import unwrap
from memcourse.records import DEFAULT_AGENT, DEFAULT_USER, MemoryRecord, MemoryType, Source, Status, utc_now
from memcourse.stores.base import MemoryStore
from memcourse.vocabulary import GUARD_REFUSALS, DecisionRule

#: Screen verdicts that stop a message before extraction.
REFUSED_AT_SCREEN = frozenset({*GUARD_REFUSALS, DecisionRule.TOO_LONG})
WITHHELD = "[withheld: the gate found a secret]"


@dataclass
class Step:
    """One candidate's way through the gate and reconciliation."""

    candidate: Candidate
    verdict: PolicyDecision | None  # the gate (None for a retraction: it writes nothing)
    decision: Decision | None  # None when the gate refused or the importance was below the threshold
    written: MemoryRecord | None = None
    judgement: Judgement | None = None  # the importance judgement (memory candidates the gate admitted)

    @property
    def below_threshold(self) -> bool:
        return self.judgement is not None and not self.judgement.passes


@dataclass
class PipelineResult:
    message: Message
    screen: PolicyDecision | None  # set when the whole message was refused
    extraction: Extraction | None
    steps: list[Step] = field(default_factory=list)

    @property
    def written(self) -> list[MemoryRecord]:
        return [step.written for step in self.steps if step.written is not None]

    @property
    def decision(self) -> PolicyDecision:
        """One gate verdict that sums the message up (what the agent's composer is told)."""
        if self.screen is not None:
            return self.screen
        verdicts = [PolicyDecision(None, step.judgement.reason, DecisionRule.BELOW_THRESHOLD)
                    if step.judgement is not None and not step.judgement.passes else step.verdict
                    for step in self.steps if step.verdict is not None]
        admitted = [v for v in verdicts if v.accepted]
        if admitted:
            return admitted[0]
        if verdicts:
            return verdicts[0]
        detail = self.extraction.detail if self.extraction else ""
        outcome = self.extraction.outcome if self.extraction else "nothing"
        return PolicyDecision(
            None, f"{outcome}: {detail}".strip(": "), "no_signal" if outcome == "nothing" else outcome
        )


class MemoryPipeline:
    """Extraction, gate, reconciliation, store and audit, wired together."""

    def __init__(
        self,
        store: MemoryStore,
        *,
        extractor: Extractor | None = None,
        policy: MemoryPolicy | None = None,
        reconciler: Reconciler | None = None,
        audit: AuditLog | None = None,
        clock: Callable[[], datetime] = utc_now,
        mentions: PendingMentions | None = None,
        write_threshold: float = WRITE_THRESHOLD,
    ):
        self.store = store
        self.policy = policy or MemoryPolicy(clock=clock)
        self.extractor = extractor or RuleExtractor(self.policy)
        self.reconciler = reconciler or Reconciler(store)
        self.audit = audit
        self.clock = clock
        #: Below-threshold mentions; in memory unless given (pass a folder to keep them across runs).
        self.mentions = mentions if mentions is not None else PendingMentions()
        judge(MemoryType.EVENT, "", threshold=write_threshold)  # a bad threshold fails here, not mid-write
        self.write_threshold = float(write_threshold)

    def process(self, message: Message | str, *, user_id: str = DEFAULT_USER, agent_id: str = DEFAULT_AGENT,
                conversation_id: str | None = None) -> PipelineResult:
        if isinstance(message, str):
            message = Message(message, conversation_id, self.clock(), user_id, agent_id)
        if not isinstance(message, Message):
            raise TypeError(f"message must be a Message or a string, got {type(message).__name__}")
        screen = self.policy.decide(message.text, user_id=message.user_id, agent_id=message.agent_id,
                                    conversation_id=message.conversation_id)
        if screen.rule in REFUSED_AT_SCREEN:
            self._log(message, "screen", "REFUSED", screen.reason, by="policy")
            return PipelineResult(message, screen, None)
        extraction = self.extractor.extract(message)
        rejected = [reason for _, reason in extraction.rejected]
        if not extraction.candidates or rejected:
            # With candidates, the extraction's detail goes into each candidate's own entry, so
            # that forgetting the memory also removes the words that led to it.
            self._log(message, "extraction", extraction.outcome, "" if extraction.candidates else extraction.detail,
                      by=extraction.extractor, rejected=rejected)
        result = PipelineResult(message, None, extraction)
        # The write wrapper ("记住…", "remember: …") asks to remember, whatever the gate judged the rest.
        explicit = screen.rule == DecisionRule.EXPLICIT or unwrap(message.text) != message.text.strip()
        for candidate in extraction.candidates:
            result.steps.append(self._handle(candidate, extraction, explicit=explicit))
        return result

    def judge(self, candidate: Candidate, *, explicit: bool = False) -> Judgement:
        """The importance judgement of one memory candidate against this user's store and
        pending mentions (read-only: looking does not count as recalling)."""
        message = candidate.message
        goals = [m.content for m in self.store.list_all(memory_type=MemoryType.TASK, user_id=message.user_id,
                                                        agent_id=message.agent_id) if m.status is Status.ACTIVE]
        earlier = self.mentions.count(message.user_id, message.agent_id, candidate.content, now=self.clock(),
                                      conversation_id=message.conversation_id, at=message.at)

        def judged(mentions: int) -> Judgement:
            return judge(candidate.memory_type, candidate.content, goals=goals, earlier_mentions=mentions,
                         explicit=explicit, admin=candidate.source is Source.ADMIN_CONFIGURED,
                         threshold=self.write_threshold)
        judgement = judged(earlier)
        if not judgement.passes and any(same_fact(candidate.content, m.content)
                                        for m in neighbours(self.store, candidate)):
            judgement = judged(earlier + 1)  # already stored: that memory was the first mention
        return judgement

    def _handle(self, candidate: Candidate, extraction: Extraction, *, explicit: bool = False) -> Step:
        message = candidate.message
        if candidate.kind == RETRACTION:
            if candidate.source is Source.LLM_INFERRED and candidate.confidence < self.policy.min_inferred_confidence:
                # A guessed retraction deletes real memories: it needs the same confidence as a guessed write.
                verdict = PolicyDecision(None, f"LLM-inferred retraction with confidence {candidate.confidence:.2f}; "
                                         f"at least {self.policy.min_inferred_confidence:.2f} is "
                                         f"required", DecisionRule.LOW_CONFIDENCE)
                self._log(message, "gate", "REFUSED", verdict.reason, by="policy",
                          candidate=candidate.summary(), rule=verdict.rule)
                return Step(candidate, verdict, None)
            decision = self.reconciler.decide(candidate)
            if decision.action == "DELETE" and decision.target is not None:
                self.forget(decision.target.memory_id)
                # The entry keeps no text, subject or id of what was forgotten: those are copies too.
                self._log(message, "reconcile", "DELETE", "a memory was forgotten at the user's request",
                          by=decision.decided_by, candidate={"kind": RETRACTION, "type": candidate.memory_type.value})
            else:
                self._log(message, "reconcile", decision.action, decision.reason, by=decision.decided_by,
                          candidate=candidate.summary(), fallback=decision.fallback, extraction=extraction.detail)
            self.mentions.remove_fact(message.user_id, message.agent_id, candidate.content, retraction=True)
            return Step(candidate, None, decision)
        try:
            record = candidate.to_record()
        except (TypeError, ValueError) as error:
            verdict = PolicyDecision(None, f"not a valid memory: {error}", "invalid")
        else:
            verdict = self.policy.evaluate(record)
        if not verdict.accepted:
            summary, memory_id = candidate.summary(), record_id(candidate)
            if verdict.rule == DecisionRule.SECRET:  # an id's slug quotes the subject: withhold it too
                summary.update(content=WITHHELD, evidence=WITHHELD, subject=WITHHELD)
                memory_id = None
            self._log(message, "gate", "REFUSED", verdict.reason, by="policy", candidate=summary,
                      rule=verdict.rule, memory_id=memory_id)
            return Step(candidate, verdict, None)
        judgement = self.judge(candidate, explicit=explicit)
        if not judgement.passes:
            self.mentions.add(message.user_id, message.agent_id, candidate.memory_type.value, candidate.content,
                              at=message.at, conversation_id=message.conversation_id, now=self.clock())
            self._log(message, "importance", "BELOW_THRESHOLD", judgement.reason, by="importance",
                      candidate=candidate.summary(), importance=judgement.summary(),
                      memory_id=record_id(candidate), extraction=extraction.detail)
            return Step(candidate, verdict, None, judgement=judgement)
        candidate.importance = judgement.score
        decision = self.reconciler.decide(candidate)
        written = apply(decision, candidate, self.store)
        self.mentions.remove_fact(message.user_id, message.agent_id, candidate.content)
        memory_id = written.memory_id if written is not None else (decision.target_id or record.memory_id)
        self._log(message, "reconcile", decision.action, decision.reason, by=decision.decided_by,
                  candidate=candidate.summary(), memory_id=memory_id, target_id=decision.target_id,
                  gate=verdict.reason, extraction=extraction.detail, fallback=decision.fallback,
                  reconfirm=decision.reconfirm, importance=judgement.reason)
        return Step(candidate, verdict, decision, written, judgement)

    # -- forgetting reaches the audit log too -------------------------------------------------
    def forget(self, memory_id: str) -> tuple[str, ...]:
        """Forget one memory's whole chain in the store and every audit line naming any of its
        ids; returns the ids removed (empty, and so false, if there was no such memory). The
        pending mentions of the same fact as any removed version go too."""
        try:
            chain = self.store.history(memory_id)
        except KeyError:
            chain = []
        removed = forget_everywhere(self.store, memory_id, self.audit)
        for record in chain:
            self.mentions.remove_fact(record.user_id, record.agent_id, record.content)
        return removed

    def forget_user(self, user_id: str) -> int:
        """Forget all of a user's memories and their whole audit file."""
        removed = self.store.forget_user(user_id)
        if self.audit is not None:
            self.audit.purge_user(user_id)
        self.mentions.purge_user(user_id)
        return removed

    def _log(self, message: Message, stage: str, decision: str, reason: str, *, by: str, **extra: Any) -> None:
        if self.audit is None:
            return
        entry = {"at": message.at.isoformat(), "user_id": message.user_id, "agent_id": message.agent_id,
                 "conversation_id": message.conversation_id, "stage": stage, "decision": decision,
                 "reason": reason, "by": by}
        entry.update({key: value for key, value in extra.items() if value not in (None, "", [], False)})
        self.audit.append(entry)


def record_id(candidate: Candidate) -> str | None:
    """The id the candidate would be stored under (None if it is not a valid record)."""
    try:
        return candidate.to_record().memory_id
    except (TypeError, ValueError):
        return None
