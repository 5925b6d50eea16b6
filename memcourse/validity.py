"""Validity time: when a fact held, not only when it was written.

"I lived in Guangzhou; since April I live in Chengdu" is two facts, each true for a while.
A store that overwrites the first with the second answers "where do you live?" correctly
and "where did you live in March?" wrongly, with full confidence. Systems that take time
seriously (Zep/Graphiti's bi-temporal edges are the best-known) keep an *interval* per fact.

memcourse keeps it small and additive:

- A record may carry ``valid_from`` / ``valid_to``. ``None`` means the obvious thing:
  valid since the record was created, still valid now.
- When an update changes a fact's *value* (its content), the store does not erase the old
  value: it moves into ``history`` with its interval closed at the moment the new value
  starts (``new.valid_from`` if the caller knows it, "now" otherwise). An update that only
  changes confidence or provenance is the same fact and keeps its interval.
- A record superseded by another one (a different id) stops holding when it was
  superseded, unless it says otherwise.
- Recall answers "as of" a time by rebuilding, for each record, the version that held then
  (:func:`version_as_of`); the current view stays the default.

Only one time axis is modelled (when the fact held in the world, as far as we were told).
When we *learned* it is ``created_at`` / ``history[].replaced_at``, kept but not queried.

Retention is a different thing from validity: ``expires_at`` says when we must stop
*keeping* a memory. An expired record is absent from the current view and from any view of a
moment after it expired; a view of an earlier moment still shows it until consolidation deletes
it (:mod:`memcourse.consolidation`), which is why expiry is enforced by deleting, not by hiding.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from memcourse.records import HistoryEntry, MemoryRecord, Source, Status


@dataclass(frozen=True)
class Version:
    """One value a record held, and for how long (``end=None``: still holds)."""

    content: str
    confidence: float
    source: str
    start: datetime
    end: datetime | None

    def holds_at(self, moment: datetime) -> bool:
        return self.start <= moment and (self.end is None or moment < self.end)


def current_end(record: MemoryRecord) -> datetime | None:
    """When the record's current value stopped holding (``None``: it still holds)."""
    if record.valid_to is not None:
        return record.valid_to
    if record.status is Status.SUPERSEDED:
        return record.updated_at  # superseded then, and not said otherwise
    return None


def versions(record: MemoryRecord) -> list[Version]:
    """Every value of ``record`` with its interval, oldest first, the current value last.

    History entries written before validity time existed have no interval: each is taken to
    have held from the previous entry's end (or the record's creation) to ``replaced_at``.
    """
    result: list[Version] = []
    previous_end = record.created_at
    for entry in record.history:
        start = entry.valid_from or previous_end
        end = entry.valid_to or entry.replaced_at
        result.append(Version(entry.content, entry.confidence, entry.source, start, max(start, end)))
        previous_end = end
    start = record.valid_from or (previous_end if record.history else record.created_at)
    result.append(Version(record.content, record.confidence, record.source.value, start, current_end(record)))
    return result


def is_current(record: MemoryRecord, now: datetime) -> bool:
    """Is ``record`` part of the current view? Active, unexpired, and its validity (when the
    record states one) has started and not ended.

    Only an *explicit* ``valid_from`` can keep a record out: a record's creation time comes
    from whichever clock built it, and must not hide a fact from a store whose clock differs.
    """
    if record.status is not Status.ACTIVE or record.is_expired(now):
        return False
    if record.valid_from is not None and record.valid_from > now:
        return False
    return record.valid_to is None or now < record.valid_to


def version_as_of(record: MemoryRecord, moment: datetime) -> MemoryRecord | None:
    """The record as it stood at ``moment``: a copy holding the value valid then, or ``None``
    if no value of it held then (not yet true, already ended, deleted, or expired).

    The copy keeps the id (so an answer can be traced) and the interval of that value in
    ``valid_from``/``valid_to``; its ``history`` is empty, since it *is* a point in history.
    """
    if record.status is Status.DELETED or record.is_expired(moment):
        return None
    chosen = None
    for version in versions(record):
        if version.holds_at(moment):
            chosen = version  # the latest version whose interval contains the moment
    if chosen is None:
        return None
    view = record.copy()
    view.content, view.confidence = chosen.content, chosen.confidence
    view.source = Source(chosen.source)
    view.valid_from, view.valid_to, view.history = chosen.start, chosen.end, []
    view.status = Status.ACTIVE
    view.superseded_by = None
    view.validate()
    return view


def close_on_update(old: MemoryRecord, new: MemoryRecord, now: datetime) -> HistoryEntry | None:
    """A store calls this when ``new`` replaces ``old`` under the same id.

    Returns the history entry to append for ``old`` (``None`` if nothing about the fact
    changed) and sets ``new.valid_from``: a new value starts when the caller says it did,
    or now; the same value keeps its start. Does not touch ``old``.
    """
    value_changed = old.content != new.content
    if not value_changed and (old.confidence, old.source) == (new.confidence, new.source):
        if new.valid_from is None:
            new.valid_from = old.valid_from
        return None
    start = versions(old)[-1].start
    if value_changed:
        # A valid_from copied over from the old record (an update built from a copy of it) is
        # not news about when the new value began: the new value begins now.
        told = new.valid_from if new.valid_from not in (None, old.valid_from) else None
        begins = told or now
        end = max(start, min(begins, old.valid_to or begins))
        new.valid_from = begins
        return HistoryEntry(old.content, old.confidence, old.source.value, now, valid_from=start, valid_to=end)
    if new.valid_from is None:
        new.valid_from = old.valid_from  # same fact, new confidence or provenance: same interval
    return HistoryEntry(old.content, old.confidence, old.source.value, now)
