"""memcourse as a LangGraph store.

LangGraph keeps long-term memory in a ``BaseStore``: JSON dicts ("items") addressed by a
namespace tuple and a key, shared by every thread of a graph. :class:`MemcourseStore` is that
interface over any memcourse store (``JsonMemoryStore``, ``ChromaMemoryStore``...), so a graph
compiled with ``store=MemcourseStore(JsonMemoryStore("memories.json"))`` gets memcourse's
validation, write gate, tenancy and recall behind LangGraph's ``put/get/search``.

How an item becomes a memory
----------------------------
- **Namespace -> scope.** ``("users", u, ...)`` belongs to user ``u``;
  ``("users", u, "agents", a, ...)`` to user ``u`` and agent ``a``; any other namespace to
  the pseudo-user :data:`SHARED_USER`. Pass ``scope=`` to map differently. Why it matters:
  memcourse's tenancy then holds for LangGraph items too (a memcourse search never crosses
  users, ``forget_user(u)`` deletes every item under ``("users", u)``). The namespace itself
  can be of any depth; it is kept whole, so LangGraph's prefix semantics are exact.
- **(namespace, key) -> memory_id.** ``lg:<key slug>:<hash of namespace and key>``, so a put
  to the same place updates the same record (``created_at`` stays, ``updated_at`` moves, the
  old text goes into the record's history), and two places never share a record.
- **Value -> record.** If ``value["content"]`` is a string it is the memory's text (what
  recall ranks); otherwise the value is flattened to ``"field: value; ..."`` text. The names
  ``memory_type, confidence, source, importance, tags`` and ``subject`` are memcourse's own
  fields: when a value has them they are used, and validated like any record
  (``{"confidence": 7}`` is an error). The value itself, the namespace and the key are kept
  in ``record.metadata["langgraph"]``, so ``get`` returns exactly what was put.
- Only records written through this adapter are items. Records that memcourse wrote directly
  (``MemoryAwareAgent``, say) share the store but are not visible here, and are never touched.

Writes are validated and gated
------------------------------
Every put builds a :class:`~memcourse.records.MemoryRecord` (a bad value raises
``ValueError``/``TypeError`` naming the item and the field) and passes the write gate: the
guards scan the key and *every* string in the value (a secret in an unindexed field is still a
secret), behaviour rules are refused unless the value says ``source: admin_configured``, and
``MemoryPolicy.evaluate`` has the last word. A refusal raises :class:`WriteRefused`. There is
no switch to turn the gate off: the course's rule is that nothing enters long-term memory
without passing it. Pass ``policy=`` to use a differently configured policy.

The store API is for application code, so a value's ``source`` is believed: a value that says
``admin_configured`` may hold a rule. Text a *user* typed must first go through
``MemoryPolicy.decide`` (as the memory graph's ``write_memories`` does), which sets the source
itself.

Batches behave like LangGraph's own stores
------------------------------------------
``batch(ops)`` returns one result per op, in op order. As in ``InMemoryStore`` and
``PostgresStore``, reads (get, search, list) see the store as it was *before* the batch, and
the writes are applied after them, the last write to a ``(namespace, key)`` winning. Every op
is checked (namespace labels, limits, filters, values, the gate) before anything is written,
so a bad op fails the whole batch and writes nothing. Once writing starts, each write is its
own store transaction: the batch is not atomic against a crash halfway. ``batch`` accepts the
ops ``InMemoryStore.batch`` accepts: the write-only namespace rules (not empty, no
``"langgraph"`` root) are ``put``'s, as in LangGraph; labels must still be non-empty strings
without ``.`` or NUL (``validate_op_namespace``).

Deleting an item forgets it for real, the memcourse way: the store removes the record's whole
supersede chain and the records derived from it (a session summary quoting it), and, when
the adapter is given the application's ``audit=`` log, every audit line naming any of those
ids. :meth:`MemcourseStore.sweep_expired` forgets the same way.

Tenancy: an item belongs to the user and agent its namespace maps to, for life. A put whose
item id is already stored under another user or agent raises
:class:`~memcourse.stores.base.TenancyError` before anything in the batch is written, and a
delete removes only the record that is this item in this scope.

Search
------
- ``filter`` works as in LangGraph: exact match on value fields (nested dicts match
  recursively), or operators ``$eq $ne $gt $gte $lt $lte``. A comparison operator on a missing
  or non-numeric field does not match (``InMemoryStore`` raises there instead).
- Without ``query``, items come oldest first (the memcourse store's own order), then
  ``offset``/``limit``; ``score`` is ``None``.
- With ``query``, ranking is memcourse recall: the store's ``search_hits`` (keyword on the
  JSON store, hybrid on Chroma; ``recall_mode=`` picks a Chroma mode), run once per user the
  candidates belong to, merged by score, then ``offset``/``limit``. Only items recall finds
  relevant are returned (no zero-score padding), and items put with ``index=False`` are left
  out of query search (they stay visible to get and filter search). Recall's own gates
  apply (Chroma's admission gate skips memories with confidence below 0.6), and recall records
  access as it always does, for every record of that user it ranks.

Near-duplicates
---------------
``ChromaMemoryStore`` supersedes a near-duplicate memory by default (same user, agent and
type, cosine >= 0.92): good memory hygiene, but it breaks the key-value contract (put two
near-identical items under two keys and the first one disappears). The adapter therefore
refuses such a store unless ``allow_supersede=True``; for LangGraph semantics build it with
``ChromaMemoryStore(path, dedupe_threshold=2)``.

TTL
---
``put(..., ttl=minutes)`` maps onto memcourse's own expiry: the record's ``expires_at`` is
set to *now + ttl*. An expired item is invisible to ``get``, ``search`` and
``list_namespaces`` at once (and to memcourse recall, whose admission gate refuses expired
memories); :meth:`MemcourseStore.sweep_expired` deletes expired items for real.

Deliberately not supported
--------------------------
``refresh_ttl`` (a TTL counts from the last put: refreshing on read would be a write, and a
memcourse write moves ``updated_at``, which LangGraph's reads must not do), and per-field
``index=[...]`` paths (recall indexes the content text; a list is accepted and ignored).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
from collections.abc import Callable, Iterable, Mapping
from datetime import datetime, timedelta
from typing import Any, Protocol, TypeGuard, cast

from langgraph.store.base import (
    BaseStore,
    GetOp,
    Item,
    ListNamespacesOp,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
)

from memcourse.errors import MemcourseError
from memcourse.extraction.audit import AuditLog, forget_everywhere
from memcourse.guards import find_behaviour_rules, find_injection, find_secrets
from memcourse.integrations.langgraph_items import (
    ENVELOPE,
    check_op,
    envelope_of,
    item_envelope,
    matches_filter,
    namespace_matches,
    strings_in,
    to_item,
    to_search_item,
    value_text,
)
from memcourse.policy import MemoryPolicy
from memcourse.records import (
    DEFAULT_AGENT,
    MAX_SUBJECT_CHARS,
    MemoryRecord,
    MemoryType,
    Source,
    Status,
    utc_now,
)
from memcourse.stores.base import MemoryStore, check_owner
from memcourse.stores.contract import SUPERSEDE, capabilities_of
from memcourse.vocabulary import DecisionRule

#: The user that items outside ``("users", <id>, ...)`` belong to.
SHARED_USER = "langgraph:shared"
#: Value fields that carry memcourse meaning (and are validated as record fields).
RECORD_FIELDS = ("memory_type", "confidence", "source", "importance", "tags")

Scope = Callable[[tuple[str, ...]], tuple[str, str]]



class WriteRefused(MemcourseError, ValueError):
    """The write gate refused an item. Nothing in the batch was written.

    ``rule`` names the gate that said no ("secret", "injection", "rule_from_non_admin", ...);
    the message explains why, with secrets masked (a refusal never repeats the secret)."""

    def __init__(self, namespace: tuple[str, ...], key: str, rule: str, reason: str):
        self.namespace, self.key, self.rule, self.reason = namespace, key, rule, reason
        super().__init__(f"refused to store {namespace}/{key!r} [{rule}]: {reason}")


def user_scope(namespace: tuple[str, ...]) -> tuple[str, str]:
    """The default namespace -> (user_id, agent_id) mapping (see the module docstring)."""
    if len(namespace) >= 2 and namespace[0] == "users":
        agent = namespace[3] if len(namespace) >= 4 and namespace[2] == "agents" else DEFAULT_AGENT
        return namespace[1], agent
    return SHARED_USER, DEFAULT_AGENT


def item_id(namespace: tuple[str, ...], key: str) -> str:
    """The memory_id of the item at (namespace, key): readable slug + unambiguous hash.

    The hash covers a JSON encoding of the whole path, so ``("a", "b")/"c"`` and
    ``("a",)/"b.c"`` can never share an id (joining with a separator could)."""
    path = json.dumps([list(namespace), key], ensure_ascii=False)
    digest = hashlib.sha256(path.encode("utf-8")).hexdigest()[:24]
    slug = re.sub(r"[^\w\-]+", "_", key).strip("_")[:32] or "item"
    return f"lg:{slug}:{digest}"


class _Superseding(Protocol):
    """What a store declaring the ``SUPERSEDE`` capability also has (see ``stores.contract``)."""

    dedupe_threshold: float


class MemcourseStore(BaseStore):
    """A LangGraph ``BaseStore`` backed by a memcourse store. See the module docstring."""

    supports_ttl = True

    def __init__(
        self,
        store: MemoryStore,
        *,
        policy: MemoryPolicy | None = None,
        scope: Scope = user_scope,
        default_type: MemoryType | str = MemoryType.ENTITY,
        default_source: Source | str = Source.TOOL_OBSERVED,
        recall_mode: str | None = None,
        allow_supersede: bool = False,
        clock: Callable[[], datetime] = utc_now,
        audit: AuditLog | None = None,
    ):
        """``default_type``/``default_source`` apply to values that do not name them: an
        item written by graph code is, by default, a fact a program observed. ``recall_mode``
        is passed to ``search_hits(mode=...)`` (for Chroma); ``None`` keeps the store's
        default. ``clock`` stamps new items (use the same fake clock as the store in tests).
        ``audit``: the audit log the application's pipeline and tools write to; a delete
        purges it of every forgotten id.

        ``allow_supersede``: a store that supersedes near-duplicates on its own
        (``ChromaMemoryStore`` with ``dedupe_threshold <= 1``, its default) would let a put
        retire *another key's* item, so ``get`` on that key returns ``None``. LangGraph's
        contract says keys are independent, so such a store is refused unless you say that
        memcourse's lifecycle should win.
        """
        threshold = cast(_Superseding, store).dedupe_threshold if SUPERSEDE in capabilities_of(store) else None
        if threshold is not None and threshold <= 1 and not allow_supersede:
            raise ValueError(
                f"{store!r} supersedes near-duplicate records (dedupe_threshold={threshold}), so a put "
                "could silently retire another key's item. Build the store with dedupe_threshold=2 "
                "(off) for key-value semantics, or pass allow_supersede=True to accept that."
            )
        self.store = store
        self.policy = policy or MemoryPolicy()
        self.scope = scope
        self.default_type = MemoryType(default_type)
        self.default_source = Source(default_source)
        self.recall_mode = recall_mode
        self._clock = clock
        self.audit = audit

    def __repr__(self) -> str:
        return f"MemcourseStore({self.store!r})"

    # -- the one method LangGraph calls -----------------------------------------------------
    def batch(self, ops: Iterable[Op]) -> list[Result]:
        ops = list(ops)
        writes: dict[tuple[tuple[str, ...], str], MemoryRecord | None] = {}
        for op in ops:  # check everything first: a bad op must not leave half a batch behind
            check_op(op)
            if isinstance(op, PutOp):
                writes[(op.namespace, op.key)] = None if op.value is None else self._record_for(op)
        items: list[MemoryRecord] | None = None  # loaded once, shared by the batch's reads
        results: list[Result] = []
        now = self._clock()
        for op in ops:
            if isinstance(op, GetOp):
                results.append(self._get(op, now))
                continue
            if isinstance(op, PutOp):
                results.append(None)
                continue
            if items is None:
                items = [r for r in self.store.list_all() if self._is_item(r) and not r.is_expired(now)]
            if isinstance(op, SearchOp):
                results.append(self._search(op, items))
            else:
                results.append(self._list_namespaces(op, items))
        deletes = self._check_owners(writes)  # before any write: a refused op writes nothing
        for (namespace, key), record in writes.items():
            if record is None:
                if (namespace, key) in deletes:
                    forget_everywhere(self.store, item_id(namespace, key), self.audit)
            else:
                self.store.upsert(record)
        return results

    def _check_owners(self, writes: dict[tuple[tuple[str, ...], str], MemoryRecord | None]) -> set:
        """Tenancy for the whole batch, checked before anything is written.

        A put whose item id is already stored under another user or agent (a record written
        around the adapter, or an item put under another ``scope=`` mapping) raises the
        store's :class:`~memcourse.stores.base.TenancyError`. A delete only removes a record
        that *is* this item (its envelope names this namespace and key, and its owner is
        the namespace's scope); anything else is not an item here, so the delete is a
        no-op, as deleting a missing key is in LangGraph. Returns the deletes to perform."""
        deletes = set()
        for (namespace, key), record in writes.items():
            stored = self.store.get(item_id(namespace, key))
            if record is not None:
                check_owner(stored, record)
                continue
            if not self._is_item(stored):
                continue
            envelope = item_envelope(stored)
            if (tuple(envelope["namespace"]), envelope["key"]) == (namespace, key):
                deletes.add((namespace, key))
        return deletes

    def _is_item(self, record: MemoryRecord | None) -> TypeGuard[MemoryRecord]:
        """Whether ``record`` really is the item its envelope names.

        The envelope (namespace, key) is data anyone who can write to the memcourse store can
        put there, so it proves nothing on its own. A record is served as an item only if its
        id is the id of that (namespace, key) AND its owner (user_id, agent_id) is exactly
        what ``scope`` maps that namespace to: Bob's record claiming Alice's namespace is not
        Alice's item, whatever its metadata says."""
        if record is None:
            return False
        envelope = envelope_of(record)
        if envelope is None:
            return False
        namespace, key = envelope.get("namespace"), envelope.get("key")
        if not isinstance(namespace, (list, tuple)) or not all(isinstance(label, str) for label in namespace):
            return False
        if not isinstance(key, str) or record.memory_id != item_id(tuple(namespace), key):
            return False
        try:
            owner = tuple(self.scope(tuple(namespace)))
        except (TypeError, ValueError, KeyError):  # a custom mapping that rejects this namespace
            return False
        return record.scope == owner

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        """The same batch, run in a worker thread so file and Chroma I/O do not block the
        event loop."""
        return await asyncio.to_thread(self.batch, list(ops))

    # -- reads ------------------------------------------------------------------------------
    def sweep_expired(self) -> int:
        """Delete every item whose TTL has run out, for real; returns how many."""
        now = self._clock()
        expired = [r for r in self.store.list_all() if self._is_item(r) and r.is_expired(now)]
        return sum(bool(forget_everywhere(self.store, record.memory_id, self.audit)) for record in expired)

    def _get(self, op: GetOp, now: datetime) -> Item | None:
        record = self.store.get(item_id(op.namespace, op.key))
        if not self._is_item(record) or record.status is not Status.ACTIVE or record.is_expired(now):
            return None
        envelope = item_envelope(record)
        if (tuple(envelope["namespace"]), envelope["key"]) != (op.namespace, op.key):
            return None  # an id collision would be astronomically rare; never return the wrong item
        return to_item(record)

    def _search(self, op: SearchOp, items: list[MemoryRecord]) -> list[SearchItem]:
        prefix = tuple(op.namespace_prefix)
        candidates = [
            record
            for record in items
            if tuple(item_envelope(record)["namespace"][: len(prefix)]) == prefix
            and matches_filter(item_envelope(record)["value"], op.filter)
        ]
        if op.query is None or not op.query.strip():
            return [to_search_item(record) for record in candidates[op.offset : op.offset + op.limit]]
        wanted = {r.memory_id for r in candidates if item_envelope(r).get("indexed", True)}
        extra: dict[str, Any] = {"mode": self.recall_mode} if self.recall_mode else {}
        scored: list[tuple[float, MemoryRecord]] = []
        for user in dict.fromkeys(r.user_id for r in candidates if r.memory_id in wanted):
            # memcourse recall never crosses users, so rank each user's records separately.
            # Ask for as many hits as the user has records (non-adapter ones included): the
            # prefix/filter check below can then only drop hits, never starve the page.
            total = len(self.store.list_all(user_id=user))
            for hit in self.store.search_hits(op.query, limit=max(total, 1), user_id=user, **extra):
                if hit.record.memory_id in wanted:
                    scored.append((float(hit.score), hit.record))
        scored.sort(key=lambda pair: -pair[0])  # stable: ties keep recall's own order
        ranked = scored[op.offset : op.offset + op.limit]
        return [to_search_item(record, score=score) for score, record in ranked]

    def _list_namespaces(self, op: ListNamespacesOp, items: list[MemoryRecord]) -> list[tuple[str, ...]]:
        namespaces = {tuple(item_envelope(record)["namespace"]) for record in items}
        conditions = op.match_conditions or ()
        found = {
            ns if op.max_depth is None else ns[: op.max_depth]
            for ns in namespaces
            if all(namespace_matches(condition, ns) for condition in conditions)
        }
        return sorted(found)[op.offset : op.offset + op.limit]

    # -- writes -----------------------------------------------------------------------------
    def _record_for(self, op: PutOp) -> MemoryRecord:
        """Build, validate and gate the record for a put. Raises, writing nothing, if any
        of that fails."""
        namespace, key, value = tuple(op.namespace), op.key, op.value
        where = f"{namespace}/{key!r}"
        if not isinstance(value, Mapping):
            raise TypeError(f"cannot store {where}: a value must be a dict, got {type(value).__name__}")
        value = dict(value)
        user_id, agent_id = self.scope(namespace)
        fields: dict[str, Any] = {name: value[name] for name in RECORD_FIELDS if name in value}
        fields.setdefault("memory_type", self.default_type)
        fields.setdefault("source", self.default_source)
        content = value.get("content")
        subject = value.get("subject")
        envelope: dict[str, Any] = {"namespace": list(namespace), "key": key, "value": value}
        if op.index is False:
            envelope["indexed"] = False
        now = self._clock()
        if op.ttl is not None:
            fields["expires_at"] = now + timedelta(minutes=op.ttl)
        try:
            record = MemoryRecord(
                subject=subject if isinstance(subject, str) else key[:MAX_SUBJECT_CHARS],
                content=content if isinstance(content, str) else (value_text(value) or key),
                user_id=user_id,
                agent_id=agent_id,
                memory_id=item_id(namespace, key),
                created_at=now,
                metadata={ENVELOPE: envelope},
                **fields,
            )
        except (TypeError, ValueError) as error:
            hint = " (the item's value, namespace and key are kept in record.metadata)"
            raise type(error)(f"cannot store {where}: {error}{hint if 'metadata' in str(error) else ''}") from None
        self._gate(record, namespace, key, value)
        return record

    def _gate(self, record: MemoryRecord, namespace: tuple[str, ...], key: str, value: dict) -> None:
        content = value.get("content") if isinstance(value, dict) else None
        # the key names the value
        text = "\n".join([f"{key}: {content}" if isinstance(content, str) else key, *strings_in(value)])
        findings = find_secrets(text) or find_injection(text)
        if not findings and record.source is not Source.ADMIN_CONFIGURED:
            # each field on its own, as a prompt would show it: the joined text above reads
            # "k8: …\n…", a shape no single stored field has (the learned reader would judge
            # that shape, not the memory)
            fields = dict.fromkeys([key, *([content] if isinstance(content, str) else []), *strings_in(value)])
            rules = next((found for found in map(find_behaviour_rules, fields) if found), [])
            if rules:
                raise WriteRefused(
                    namespace, key, DecisionRule.RULE_FROM_NON_ADMIN,
                    f"behaviour rule ({rules[0].label}); only an administrator may set rules",
                )
        if findings:
            rule = DecisionRule.INJECTION if findings[0].kind == "injection" else DecisionRule.SECRET
            raise WriteRefused(namespace, key, rule, "; ".join(map(str, findings)))
        decision = self.policy.evaluate(record.copy())
        if not decision.accepted:
            raise WriteRefused(namespace, key, decision.rule, decision.reason)
