"""The memory timeline (notebook 09): versions of one memory, updates and supersedes."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from memcourse.course.widgets import TIMELINE_CLASS, render_timeline_html, timeline_view, timeline_widget
from memcourse.course.widgets.timeline import TIMELINE_RESULT_CLASS, TIMELINE_SELECT_CLASS, timeline_choices
from memcourse.records import MemoryRecord, MemoryType

T0 = datetime(2026, 3, 1, 9, 0, tzinfo=timezone.utc)


class Clock:
    def __init__(self):
        self.now = T0

    def __call__(self):
        return self.now


@pytest.fixture(params=["chroma", "json"])
def store(request, tmp_path):
    from memcourse.stores.json_store import JsonMemoryStore

    clock = Clock()
    if request.param == "json":
        store = JsonMemoryStore(tmp_path / "memories.json", clock=clock)
    else:
        from memcourse.stores.chroma import ChromaMemoryStore

        store = ChromaMemoryStore(tmp_path / "chroma", clock=clock)
    store.clock = clock
    return store


def write(store, subject, content, **extra):
    return store.upsert(MemoryRecord(MemoryType.PREFERENCE, subject, content, created_at=store.clock(), **extra))


def test_updates_in_place_become_versions(store):
    write(store, "response_style", "回答尽量简短")
    store.clock.now += timedelta(days=1)
    write(store, "response_style", "回答要详细，并给出 Python 示例")
    rows = timeline_view(store, "response_style")
    assert [(r["change"], r["status"]) for r in rows] == [("created", "superseded"), ("updated", "active")]
    assert rows[0]["content"] == "回答尽量简短" and rows[1]["content"].startswith("回答要详细")
    assert rows[0]["until"] == rows[1]["since"] == (T0 + timedelta(days=1)).isoformat()
    assert rows[1]["until"] is None and [r["step"] for r in rows] == [1, 2]
    assert timeline_view(store, rows[1]["memory_id"]) == rows, "by id or by subject: the same timeline"


def test_near_duplicate_supersedes_and_the_chain_is_shown(tmp_path):
    from memcourse.stores.chroma import ChromaMemoryStore  # only this store supersedes near-duplicates

    clock = Clock()
    store = ChromaMemoryStore(tmp_path / "chroma", clock=clock)
    store.clock = clock
    first = write(store, "notify", "The user does not like email notifications")
    store.clock.now += timedelta(days=2)
    second = write(store, "notifications", "The user doesn't like email notifications")
    rows = timeline_view(store, second.memory_id)
    assert [(r["memory_id"], r["status"], r["change"]) for r in rows] == [
        (first.memory_id, "superseded", "created"),
        (second.memory_id, "active", "superseded"),
    ]
    assert timeline_view(store, first.memory_id) == rows, "any version shows the whole chain"
    assert rows[0]["until"] == rows[1]["since"]


def test_forgotten_and_unknown_have_no_timeline(store):
    record = write(store, "secret_hobby", "用户周末去攀岩")
    assert len(timeline_view(store, "secret_hobby")) == 1
    store.forget(record.memory_id)
    assert timeline_view(store, "secret_hobby") == []
    assert timeline_view(store, record.memory_id) == []
    assert "memcourse-timeline-event" not in render_timeline_html([])


def test_another_users_memory_is_not_resolved_by_subject(store):
    write(store, "drink", "Mallory drinks black tea", user_id="mallory")
    assert timeline_view(store, "drink") == []
    assert len(timeline_view(store, "drink", "mallory")) == 1


def test_render_and_widget(store):
    write(store, "response_style", "回答尽量简短")
    store.clock.now += timedelta(hours=3)
    write(store, "response_style", "<b>回答要详细</b>")
    write(store, "language", "用中文回答")
    page = render_timeline_html(timeline_view(store, "response_style"))
    assert page.count("memcourse-timeline-event") == 2
    assert 'data-status="superseded"' in page and 'data-status="active"' in page
    assert "<b>回答要详细</b>" not in page and "&lt;b&gt;" in page

    box = timeline_widget(store, "response_style")
    assert TIMELINE_CLASS in box._dom_classes
    select = next(w for w in box.children if TIMELINE_SELECT_CLASS in w._dom_classes)
    result = next(w for w in box.children if TIMELINE_RESULT_CLASS in w._dom_classes)
    assert [label for label, _ in timeline_choices(store)] == ["language (preference)", "response_style (preference)"]
    assert result.value.count("memcourse-timeline-event") == 2
    select.value = dict(timeline_choices(store))["language (preference)"]
    assert result.value.count("memcourse-timeline-event") == 1 and "用中文回答" in result.value


def test_the_current_version_never_reads_as_superseded(tmp_path):
    """The newest version of a superseding chain was created *by* superseding; it is current.
    Its label must not read "active · superseded"."""
    import re

    from memcourse.stores.chroma import ChromaMemoryStore

    clock = Clock()
    store = ChromaMemoryStore(tmp_path / "chroma", clock=clock)
    store.clock = clock
    write(store, "notify", "The user does not like email notifications")
    store.clock.now += timedelta(days=2)
    second = write(store, "notifications", "The user doesn't like email notifications")
    store.clock.now += timedelta(days=1)
    write(store, "notifications", "The user doesn't like email notifications, except invoices")
    rows = timeline_view(store, second.memory_id)
    assert [r["state"] for r in rows] == ["superseded", "replaced", "current"]
    page = render_timeline_html(rows)
    labels = re.findall(r'data-state="(\w+)"[^>]*><b[^>]*>([^<]+)</b> · ([^·]+) ·', page)
    assert labels[-1][0] == "current" and labels[-1][1] == "current"
    assert "superseded" not in labels[-1][1] and "active" not in labels[-1][1]
    assert labels[0][1] == "superseded" and labels[1][1] == "replaced by an update"
    assert "replaced an older record" in labels[1][2] or "updated in place" in labels[1][2]
