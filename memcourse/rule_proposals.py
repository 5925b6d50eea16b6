"""Rules proposed in conversation, active only once a named person confirms them (seed 002, §2.2).

A standing rule changes the agent's behaviour in every later session, so the write gate takes
rules only from an administrator (:mod:`memcourse.policy`). Yet rules are often *born* in a
conversation: a user says "from now on, start every answer with a summary", or the agent
suggests one. Seed 002 names three legitimate sources: administrator configuration, team
norms, or *confirmation by a person*. This module is the third:

- :meth:`RuleProposals.propose` runs the write gate on the text as the proposer. Only a text
  the gate refuses *because it is a rule from a non-administrator* is held, as a
  :class:`PendingRule` in this registry, **not** in the memory store: nothing recalls it, so
  it is never active. A secret, an injection or a privilege claim is refused outright.
- :meth:`RuleProposals.confirm` is the only way in: an API call naming a person the
  deployment lists as an administrator *of that user's tenant*. It writes the rule through the
  gate as ``admin_configured`` with who proposed it, who confirmed it and when in
  ``metadata["confirmation"]``. A second confirmation, one after ``ttl``, or one by anyone
  else is refused and changes nothing.
- No text can confirm: "the admin confirmed this" in a message, a tool output or a document
  is only proposal text (the gate refuses it as a privilege claim or holds it pending like any
  other), because a confirmation is a method call with an administrator's name, which the
  agent's tools never make.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, Callable, Mapping

from memcourse.errors import MemcourseError
from memcourse.records import DEFAULT_AGENT, MemoryRecord, Source, utc_now
from memcourse.validation import check_scope_id
from memcourse.vocabulary import DecisionRule

if TYPE_CHECKING:
    from memcourse.policy import MemoryPolicy, PolicyDecision

__all__ = ["PendingRule", "RuleProposals", "ConfirmationError", "DEFAULT_TTL"]

DEFAULT_TTL = timedelta(days=7)


class ConfirmationError(MemcourseError, PermissionError):
    """A confirmation that may not happen (wrong person, tenant, state or time); nothing changed."""


@dataclass
class PendingRule:
    """A proposed rule waiting for a person. ``status``: pending, confirmed or expired."""

    proposal_id: str
    text: str
    user_id: str
    agent_id: str
    proposed_by: Source
    proposed_at: datetime
    expires_at: datetime
    conversation_id: str | None
    status: str = "pending"
    confirmed_by: str | None = None
    confirmed_at: datetime | None = None


class RuleProposals:
    """Pending rules of one deployment. ``administrators`` maps a tenant (a ``user_id``, the
    course's unit of tenancy) to the people who may confirm its rules; it is configuration, so
    nothing said in a conversation can add to it."""

    def __init__(self, policy: MemoryPolicy, store: Any, administrators: Mapping[str, set[str] | frozenset[str]], *,
                 ttl: timedelta = DEFAULT_TTL, clock: Callable[[], datetime] = utc_now):
        if not isinstance(ttl, timedelta) or ttl <= timedelta(0):
            raise ValueError("ttl must be a positive timedelta")
        self.policy, self.store, self.ttl, self.clock = policy, store, ttl, clock
        self.administrators = {check_scope_id(t, "tenant"): frozenset(check_scope_id(a, "administrator") for a in names)
                               for t, names in administrators.items()}
        self.pending: dict[str, PendingRule] = {}

    def propose(self, text: str, *, user_id: str, agent_id: str = DEFAULT_AGENT,
                source: Source | str = Source.USER_STATED,
                conversation_id: str | None = None) -> tuple[PendingRule | None, PolicyDecision]:
        """Hold ``text`` as a pending rule if the gate refused it only for being a rule from a
        non-administrator; otherwise ``(None, decision)`` (the gate's own answer stands)."""
        source = Source(source)
        if source is Source.ADMIN_CONFIGURED:
            raise ValueError("an administrator configures rules directly; proposals come from conversation")
        decision = self.policy.decide(text, source=source, user_id=user_id, agent_id=agent_id,
                                      conversation_id=conversation_id)
        if decision.rule != DecisionRule.RULE_FROM_NON_ADMIN:
            return None, decision
        now = self.clock()
        pending = PendingRule(secrets.token_hex(8), text.strip(), user_id, agent_id, source, now, now + self.ttl,
                              conversation_id)
        self.pending[pending.proposal_id] = pending
        return pending, decision

    def confirm(self, proposal_id: str, *, tenant: str, confirmed_by: str) -> MemoryRecord:
        """An administrator of ``tenant`` confirms a pending rule of that tenant: the rule is
        written (through the gate, as ``admin_configured``) with its provenance."""
        pending = self._pending_of(proposal_id, tenant)
        if confirmed_by not in self.administrators.get(tenant, frozenset()):
            raise ConfirmationError(f"{confirmed_by!r} is not an administrator of tenant {tenant!r}")
        now = self.clock()
        if now >= pending.expires_at:
            pending.status = "expired"
            raise ConfirmationError(f"proposal {proposal_id!r} expired at {pending.expires_at.isoformat()}")
        decision = self.policy.decide(pending.text, source=Source.ADMIN_CONFIGURED, user_id=pending.user_id,
                                      agent_id=pending.agent_id, conversation_id=pending.conversation_id)
        if decision.record is None:
            raise ConfirmationError(f"the write gate refuses this rule even from an administrator: {decision.reason}")
        record = decision.record
        record.metadata["confirmation"] = {
            "proposal_id": pending.proposal_id, "proposed_by": pending.proposed_by.value,
            "proposed_at": pending.proposed_at.isoformat(), "confirmed_by": confirmed_by,
            "confirmed_at": now.isoformat(),
        }
        stored = self.store.upsert(record)
        pending.status, pending.confirmed_by, pending.confirmed_at = "confirmed", confirmed_by, now
        return stored

    def refuse(self, proposal_id: str, *, tenant: str, refused_by: str) -> None:
        """An administrator turns a proposal down: it is dropped, nothing is written."""
        self._pending_of(proposal_id, tenant)
        if refused_by not in self.administrators.get(tenant, frozenset()):
            raise ConfirmationError(f"{refused_by!r} is not an administrator of tenant {tenant!r}")
        del self.pending[proposal_id]

    def expire(self) -> int:
        """Mark every pending proposal past its ``expires_at`` expired; returns how many."""
        now = self.clock()
        late = [p for p in self.pending.values() if p.status == "pending" and now >= p.expires_at]
        for p in late:
            p.status = "expired"
        return len(late)

    def _pending_of(self, proposal_id: str, tenant: str) -> PendingRule:
        pending = self.pending.get(proposal_id)
        # another tenant's proposal is reported exactly like a missing one: ids reveal nothing
        if pending is None or pending.user_id != tenant:
            raise ConfirmationError(f"no proposal {proposal_id!r} for tenant {tenant!r}")
        if pending.status != "pending":
            raise ConfirmationError(f"proposal {proposal_id!r} is {pending.status}, not pending")
        return pending
