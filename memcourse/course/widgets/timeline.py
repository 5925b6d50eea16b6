"""The memory timeline: every version of one memory, oldest first, and what happened to it.

A memory changes in two ways, and the timeline shows both:

- **updated** in place: the same ``memory_id`` (same type and subject) was written again; the
  old content went into the record's ``history``;
- **superseded**: a *new* record (another id) was so close in meaning to an active one
  (cosine ≥ 0.92 in the Chroma store) that it replaced it; the old record stays, with status
  ``superseded`` and ``superseded_by`` pointing at the new one.

:func:`timeline_view` is the plain function (tests call it); :func:`render_timeline_html` draws
the rows; :func:`timeline_widget` adds a drop-down to pick the memory. Forgotten memories have
no timeline at all: ``forget`` removes every version, which is the point of notebook 09.

Stable hooks for browser tests and custom styling:

- the whole widget is a ``VBox`` with class ``memcourse-timeline``;
- the chooser is a ``Dropdown`` with class ``memcourse-timeline-select`` (values: memory ids);
- the rows are in an ``HTML`` widget with class ``memcourse-timeline-result``; each version is
  an element ``.memcourse-timeline-event`` with ``data-status`` (active / superseded),
  ``data-state`` (current / replaced / superseded), ``data-change`` (created / updated /
  superseded) and ``data-memory-id``.
"""

from __future__ import annotations

import html
from typing import Any

from memcourse.course.i18n import t
from memcourse.records import DEFAULT_USER, Status

__all__ = [
    "TIMELINE_CLASS",
    "TIMELINE_EVENT_CLASS",
    "TIMELINE_RESULT_CLASS",
    "TIMELINE_SELECT_CLASS",
    "render_timeline_html",
    "timeline_choices",
    "timeline_view",
    "timeline_widget",
]

TIMELINE_CLASS = "memcourse-timeline"
TIMELINE_EVENT_CLASS = "memcourse-timeline-event"
TIMELINE_RESULT_CLASS = "memcourse-timeline-result"
TIMELINE_SELECT_CLASS = "memcourse-timeline-select"
#: One word for where a version stands now, and a phrase for how it came to be: "active ·
#: superseded" on the current version read as a contradiction, so neither is a raw status.
STATE_LABELS = {"current": "current", "replaced": "replaced by an update", "superseded": "superseded"}
CHANGE_LABELS = {"created": "first written", "updated": "updated in place (same id)",
                 "superseded": "replaced an older record (new id)"}
NOT_FOUND = "No memory here: it was never written, or it was forgotten (every version is gone)."


def _resolve(store: Any, memory_id_or_subject: str, user_id: str) -> str | None:
    """A memory id for the argument: itself if it is an id of this user, else the id of the
    user's active memory with that subject (the most recently updated if several types share it)."""
    record = store.get(memory_id_or_subject)
    if record is not None and record.user_id == user_id:
        return record.memory_id
    matches = [r for r in store.list_all(user_id=user_id) if r.subject == memory_id_or_subject]
    if not matches:
        return None
    return max(matches, key=lambda r: (r.updated_at, r.memory_id)).memory_id


def timeline_view(store: Any, memory_id_or_subject: str, user_id: str = DEFAULT_USER) -> list[dict[str, Any]]:
    """Every version of one memory, oldest first, as plain dicts.

    ``memory_id_or_subject`` is a memory id, or the subject of one of ``user_id``'s active
    memories. Keys of each row: ``step`` (1-based), ``memory_id``, ``subject``, ``memory_type``,
    ``content``, ``status`` (the record's status: active / superseded), ``state`` (this version
    now: current / replaced by an update / superseded by a newer record), ``change`` (created /
    updated / superseded: how this version came to be), ``since`` and ``until`` (ISO timestamps; ``until`` is ``None``
    for the current version), ``confidence``. Unknown or forgotten: ``[]``. Read-only.
    """
    if not isinstance(memory_id_or_subject, str) or not memory_id_or_subject.strip():
        raise ValueError("memory_id_or_subject must be a non-empty string")
    memory_id = _resolve(store, memory_id_or_subject, user_id)
    if memory_id is None:
        return []
    versions = store.history(memory_id)
    rows: list[dict[str, Any]] = []
    previous = None
    for step, version in enumerate(versions, start=1):
        is_last_of_record = step == len(versions) or versions[step].memory_id != version.memory_id
        if previous is None:
            change, since = "created", version.created_at
        elif previous.memory_id == version.memory_id:
            change, since = "updated", previous.updated_at  # the moment the old content was replaced
        else:
            change, since = "superseded", version.created_at
        if not is_last_of_record:
            until = version.updated_at  # an in-place version: replaced at this time
        elif version.status is Status.ACTIVE:
            until = None
        else:
            until = version.updated_at  # the record itself was superseded at this time
        if until is None:
            state = "current"
        elif not is_last_of_record:
            state = "replaced"  # an older content of the same record, overwritten by an update
        else:
            state = "superseded"  # a whole record, replaced by a newer one
        rows.append(
            {
                "step": step,
                "memory_id": version.memory_id,
                "subject": version.subject,
                "memory_type": version.memory_type.value,
                "content": version.content,
                "status": version.status.value,
                "state": state,
                "change": change,
                "since": since.isoformat(),
                "until": None if until is None else until.isoformat(),
                "confidence": version.confidence,
            }
        )
        previous = version
    return rows


def timeline_choices(store: Any, user_id: str = DEFAULT_USER) -> list[tuple[str, str]]:
    """``(label, memory_id)`` for each of the user's active memories, for the drop-down."""
    records = sorted(store.list_all(user_id=user_id), key=lambda r: (r.subject, r.memory_type.value))
    return [(f"{r.subject} ({r.memory_type.value})", r.memory_id) for r in records]


def render_timeline_html(rows: list[dict[str, Any]]) -> str:
    """The timeline's HTML. Every value is escaped."""
    esc = html.escape
    if not rows:
        return f'<div class="memcourse-timeline-empty">{esc(t(NOT_FOUND))}</div>'
    colours = {"current": "#1a7f37", "replaced": "#8a8a8a", "superseded": "#8a8a8a"}
    items = []
    for row in rows:
        colour = colours.get(row["state"], "#b42318")
        until = row["until"][:16].replace("T", " ") if row["until"] else t("now")
        items.append(
            f'<li class="{TIMELINE_EVENT_CLASS}" data-status="{esc(row["status"])}" data-state="{esc(row["state"])}" '
            f'data-change="{esc(row["change"])}" data-memory-id="{esc(row["memory_id"])}" '
            f'style="margin:0.3em 0;border-left:4px solid {colour};padding-left:0.6em">'
            f'<b style="color:{colour}">{esc(t(STATE_LABELS[row["state"]]))}</b> · '
            f'{esc(t(CHANGE_LABELS[row["change"]]))} · '
            f"{esc(row['since'][:16].replace('T', ' '))} → {esc(until)}<br>"
            f"{esc(row['content'])}"
            f'<br><span style="color:#777;font-size:85%">{esc(row["memory_id"])}</span></li>'
        )
    return f'<ol class="memcourse-timeline-list" style="list-style:none;padding-left:0">{"".join(items)}</ol>'


def timeline_widget(store: Any, memory_id_or_subject: str | None = None, *, user_id: str = DEFAULT_USER):
    """Pick one of a user's memories and see its versions (read-only)."""
    import ipywidgets as widgets

    choices = timeline_choices(store, user_id)
    initial = _resolve(store, memory_id_or_subject, user_id) if memory_id_or_subject else None
    if initial is None and choices:
        initial = choices[0][1]
    values = [value for _, value in choices]
    if initial is not None and initial not in values:  # e.g. a superseded id: show it too
        choices = choices + [(t("{memory_id} (superseded)", memory_id=initial), initial)]
    select = widgets.Dropdown(options=choices, value=initial, description=t("Memory"),
                              layout=widgets.Layout(width="95%"))
    select.add_class(TIMELINE_SELECT_CLASS)
    result = widgets.HTML()
    result.add_class(TIMELINE_RESULT_CLASS)

    def update(_change: Any = None) -> None:
        result.value = render_timeline_html(timeline_view(store, select.value, user_id) if select.value else [])

    select.observe(update, names="value")
    update()
    box = widgets.VBox([select, result])
    box.add_class(TIMELINE_CLASS)
    return box
