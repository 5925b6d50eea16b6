"""Graded tests for exercise 05: full write-back after a typed search, and atomic saves."""

from __future__ import annotations

import json
import os
from datetime import datetime, timezone

import pytest

from memcourse import MemoryRecord, MemoryType, Status

T0 = datetime(2026, 1, 1, 9, 0, tzinfo=timezone.utc)
NOW = datetime(2026, 1, 5, 10, 0, tzinfo=timezone.utc)


@pytest.fixture(scope="module")
def ex(exercise):
    return exercise("ex05_safe_store")


def records() -> list[MemoryRecord]:
    return [
        MemoryRecord(MemoryType.PREFERENCE, "response_style", "以后回答我问题时，代码示例尽量用 Python",
                     created_at=T0, tags=["response_style"]),
        MemoryRecord(MemoryType.ENTITY, "project_name", "我的项目叫 智能客服助手", created_at=T0),
        MemoryRecord(MemoryType.TASK, "phase4_current_task", "Phase4 当前任务是实现 AgentMemorySystem",
                     created_at=T0, tags=["task_state", "phase4"]),
        MemoryRecord(MemoryType.TASK, "phase3_current_task", "Phase3 task: finish the LangGraph memory demo",
                     created_at=T0, status=Status.SUPERSEDED),
    ]


def test_typed_search_keeps_every_record_in_the_write_back(ex):
    hits, to_save = ex.typed_search(records(), "Phase4 Memory", now=NOW, memory_type=MemoryType.TASK)
    assert [r.subject for r in hits] == ["phase4_current_task"], "a task-typed search returns only the matching task"
    assert [r.subject for r in to_save] == [r.subject for r in records()], (
        "write back the FULL list, in order: a filtered view would delete the preference and the entity"
    )
    assert sorted({r.memory_type.value for r in to_save}) == ["entity", "preference", "task"]


def test_typed_search_updates_access_metadata_of_hits_only(ex):
    hits, to_save = ex.typed_search(records(), "Phase4 Memory", now=NOW, memory_type="task")
    by_subject = {r.subject: r for r in to_save}
    assert by_subject["phase4_current_task"].access_count == 1, "a hit's access_count goes up by one in to_save"
    assert by_subject["phase4_current_task"].last_accessed_at == NOW, "a hit's last_accessed_at is now, in to_save"
    assert hits[0].access_count == 1 and hits[0].last_accessed_at == NOW, "the returned hits show the update too"
    for subject in ("response_style", "project_name", "phase3_current_task"):
        assert by_subject[subject].access_count == 0, f"{subject} was not a hit; leave it alone"
        assert by_subject[subject].last_accessed_at is None, f"{subject} was not a hit; leave it alone"


def test_typed_search_filters_type_and_inactive(ex):
    hits, _ = ex.typed_search(records(), "Python 代码示例 Phase3 LangGraph", now=NOW, memory_type=MemoryType.PREFERENCE)
    assert [r.subject for r in hits] == ["response_style"], "only the requested type"
    hits, _ = ex.typed_search(records(), "Phase3 LangGraph memory demo", now=NOW)
    assert "phase3_current_task" not in [r.subject for r in hits], "a superseded record is not returned"


def test_untyped_search_ranks_and_limits(ex):
    hits, to_save = ex.typed_search(records(), "Phase4 memory Python 示例", now=NOW, limit=2)
    assert [r.subject for r in hits] == ["phase4_current_task", "response_style"], (
        "best keyword_score first (the task boost puts the Phase4 task before the style preference)"
    )
    assert len(to_save) == 4, "to_save always holds every record"


def test_no_hits_changes_nothing(ex):
    original = records()
    hits, to_save = ex.typed_search(original, "天气 weather", now=NOW)
    assert hits == [], "no record shares a word with the query"
    assert [r.to_dict() for r in to_save] == [r.to_dict() for r in original], "without hits, to_save equals the input"


def test_typed_search_does_not_modify_its_input(ex):
    original = records()
    ex.typed_search(original, "Phase4 Memory", now=NOW, memory_type=MemoryType.TASK)
    assert all(r.access_count == 0 for r in original), "work on copies"


def test_atomic_write_creates_and_overwrites_utf8_json(ex, tmp_path):
    path = tmp_path / "memories.json"
    ex.atomic_write_json(path, {"records": ["我的项目叫 智能客服助手"]})
    assert "智能客服助手" in path.read_text(encoding="utf-8"), "ensure_ascii=False keeps Chinese readable"
    ex.atomic_write_json(path, {"records": ["Phase4", "Python"]})
    assert json.loads(path.read_text(encoding="utf-8")) == {"records": ["Phase4", "Python"]}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["memories.json"], "no temporary files left behind"


class SimulatedCrash(BaseException):
    """Stands in for the power going out; BaseException so `except Exception` cannot swallow it."""


def test_crash_before_replace_leaves_old_file(ex, tmp_path, monkeypatch):
    path = tmp_path / "memories.json"
    path.write_text('{"records": ["old"]}', encoding="utf-8")

    def crash(*args, **kwargs):
        raise SimulatedCrash("power cut before the rename")

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(SimulatedCrash):
        ex.atomic_write_json(path, {"records": ["new"] * 1000})
    monkeypatch.undo()
    assert path.read_text(encoding="utf-8") == '{"records": ["old"]}', "the old file must be untouched"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["memories.json"], "remove the temporary file"


def test_fsync_happens_before_the_rename(ex, tmp_path, monkeypatch):
    calls = []
    real_fsync, real_replace = os.fsync, os.replace
    monkeypatch.setattr(os, "fsync", lambda fd: (calls.append("fsync"), real_fsync(fd))[1])
    sources = []
    monkeypatch.setattr(os, "replace", lambda a, b: (calls.append("replace"), sources.append(a), real_replace(a, b))[2])
    path = tmp_path / "memories.json"
    ex.atomic_write_json(path, {"records": []})
    assert "replace" in calls, "use os.replace: it swaps the file in one step"
    assert "fsync" in calls[: calls.index("replace")], "fsync the data before the rename makes it visible"
    assert os.path.dirname(os.path.abspath(sources[0])) == str(tmp_path), (
        "the temporary file must be in the same folder: os.replace is only atomic within one file system"
    )


def test_unserialisable_data_fails_before_touching_the_file(ex, tmp_path):
    path = tmp_path / "memories.json"
    path.write_text('{"records": ["old"]}', encoding="utf-8")
    with pytest.raises(TypeError):
        ex.atomic_write_json(path, {"records": [object()]})
    assert path.read_text(encoding="utf-8") == '{"records": ["old"]}', "serialise before touching any file"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["memories.json"], "no temporary file may be left"


def many_tasks() -> list[MemoryRecord]:
    return [
        MemoryRecord(MemoryType.TASK, f"task_{i}", f"Phase4 memory task number {i}", created_at=T0)
        for i in range(5)
    ]


def test_limit_is_respected_when_more_records_match(ex):
    original = many_tasks()
    hits, to_save = ex.typed_search(original, "Phase4 memory task", now=NOW, limit=2)
    assert len(hits) == 2, f"five records match, limit=2: return exactly 2 hits, got {len(hits)}"
    assert [r.subject for r in hits] == ["task_0", "task_1"], "equal scores keep the records' original order"
    touched = [r.subject for r in to_save if r.access_count]
    assert touched == ["task_0", "task_1"], f"only the returned hits count as accessed, got {touched}"
    assert len(to_save) == 5, "to_save still holds every record"


def test_the_temporary_file_is_flushed_before_fsync(ex, tmp_path, monkeypatch):
    """fsync saves what the operating system has; text still in Python's buffer is not there yet."""
    sizes = []
    real_fsync = os.fsync

    def fsync(fd):
        sizes.append(os.fstat(fd).st_size)
        return real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    path = tmp_path / "memories.json"
    data = {"records": ["我的项目叫 智能客服助手"] * 50}
    ex.atomic_write_json(path, data)
    monkeypatch.undo()
    final = path.stat().st_size
    assert sizes, "call os.fsync on the temporary file before replacing"
    assert sizes[0] == final, (
        f"at fsync time the temporary file held {sizes[0]} of {final} bytes: call flush() before os.fsync()"
    )


def test_files_are_written_as_utf8_explicitly(ex, tmp_path, run_with_encoding_checks):
    ok, message = run_with_encoding_checks("ex05_safe_store", """
        import json
        ex.atomic_write_json("memories.json", {"records": ["我的项目叫 智能客服助手"]})
        assert json.loads(open("memories.json", encoding="utf-8").read()) == {"records": ["我的项目叫 智能客服助手"]}
    """, cwd=tmp_path)
    assert ok, f"open the temporary file with encoding='utf-8' (os.fdopen(fd, 'w', encoding='utf-8')): {message}"


def test_a_failure_while_writing_leaves_no_temporary_file(ex, tmp_path, monkeypatch):
    path = tmp_path / "memories.json"
    path.write_text('{"records": ["old"]}', encoding="utf-8")

    def broken_fsync(fd):
        raise OSError("disk full")

    monkeypatch.setattr(os, "fsync", broken_fsync)
    with pytest.raises(OSError, match="disk full"):
        ex.atomic_write_json(path, {"records": ["new"]})
    monkeypatch.undo()
    assert path.read_text(encoding="utf-8") == '{"records": ["old"]}', "the old file must be untouched"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["memories.json"], (
        "the temporary file is removed, the error re-raised"
    )


def test_skipping_one_record_does_not_stop_the_search(ex):
    """An inactive record, or one of another type, early in the list is skipped; the search goes on."""
    retired = MemoryRecord(MemoryType.TASK, "old_task", "Phase4 memory task, retired", created_at=T0,
                           status=Status.SUPERSEDED)
    style = MemoryRecord(MemoryType.PREFERENCE, "memory_style", "Phase4 memory notes in Python", created_at=T0)
    live = MemoryRecord(MemoryType.TASK, "live_task", "Phase4 memory task, current", created_at=T0)
    hits, _ = ex.typed_search([retired, style, live], "Phase4 memory", now=NOW, memory_type=MemoryType.TASK)
    assert [r.subject for r in hits] == ["live_task"], (
        "skip (continue past) the superseded task and the preference; do not stop at them (break)"
    )


def test_the_type_filter_excludes_matching_records_of_other_types(ex):
    note = MemoryRecord(MemoryType.ENTITY, "phase4_note", "Phase4 memory design notes", created_at=T0)
    task = MemoryRecord(MemoryType.TASK, "phase4_task", "Phase4 memory task", created_at=T0)
    hits, to_save = ex.typed_search([note, task], "Phase4 memory", now=NOW, memory_type="task")
    assert [r.subject for r in hits] == ["phase4_task"], "the entity matches the words too, but it is not a task"
    assert [r.access_count for r in to_save] == [0, 1], "only the task was returned, so only the task was accessed"


def test_a_single_shared_word_is_a_hit_whatever_the_confidence(ex):
    low = MemoryRecord(MemoryType.ENTITY, "project_name", "我的项目叫 智能客服助手", confidence=0.0, created_at=T0)
    hits, _ = ex.typed_search([low], "智能", now=NOW)
    assert [r.subject for r in hits] == ["project_name"], "keyword_score above 0 (here exactly 1.0) is a hit"


def test_hits_are_copies_of_what_will_be_saved(ex):
    """A caller may edit a hit (to display it, say); that must not edit the list written back."""
    hits, to_save = ex.typed_search(records(), "Phase4 Memory", now=NOW, memory_type=MemoryType.TASK)
    saved = next(r for r in to_save if r.subject == hits[0].subject)
    assert hits[0] is not saved, "return copies of the hits (record.copy()), not the records inside to_save"
    hits[0].content = "edited for display"
    assert saved.content != "edited for display"


def test_limit_keeps_the_best_not_the_first_matches(ex):
    weak = MemoryRecord(MemoryType.ENTITY, "weak", "Phase4 notes", created_at=T0)
    strong = MemoryRecord(MemoryType.ENTITY, "strong", "Phase4 memory design notes in Python", created_at=T0)
    stronger = MemoryRecord(MemoryType.ENTITY, "stronger", "Phase4 memory design notes in Python, 示例 included",
                            created_at=T0)
    hits, _ = ex.typed_search([weak, strong, stronger], "Phase4 memory Python 示例", now=NOW, limit=2)
    assert [r.subject for r in hits] == ["stronger", "strong"], (
        "rank every match first, then cut to `limit`: cutting first keeps the earliest matches, not the best"
    )
