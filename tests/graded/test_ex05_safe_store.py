"""Graded tests for exercise 05: full write-back after a typed search, and atomic saves.

The tests check the invariants in the exercise's docstring, whatever the mechanism: a property
test compares ``typed_search`` with the requirements on generated stores, and
``atomic_write_json`` runs in a simulated file system that checks the target file before every
file-system operation (the power-cut model) and fails each operation in turn (the failure model).
"""

from __future__ import annotations

import builtins
import errno
import io
import json
import os
from datetime import datetime, timezone

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memcourse import MemoryRecord, MemoryType, Status
from memcourse.recall.keyword import keyword_score

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
    assert hits[0] is not saved, (
        "hits and to_save must not share objects: a hit edited for display would edit what is saved"
    )
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


# --- typed_search: the invariants on generated stores -------------------------------------------

WORDS = ["Phase4", "memory", "Python", "示例", "智能", "客服", "task", "notes", "design", "天气", "代码"]
record_specs = st.lists(
    st.tuples(
        st.sampled_from(list(MemoryType)),
        st.sampled_from(list(Status)),
        st.lists(st.sampled_from(WORDS), min_size=1, max_size=5),
        st.integers(0, 3),
        st.booleans(),
    ),
    max_size=9,
)


def build(specs) -> list[MemoryRecord]:
    return [
        MemoryRecord(kind, f"subject_{i}", " ".join(words), created_at=T0, status=status, access_count=count,
                     last_accessed_at=T0 if seen else None, tags=["task_state"] if i % 4 == 0 else [])
        for i, (kind, status, words, count, seen) in enumerate(specs)
    ]


@settings(max_examples=200, deadline=None, database=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    specs=record_specs,
    query=st.lists(st.sampled_from(WORDS), min_size=1, max_size=4).map(" ".join),
    kind=st.one_of(st.none(), st.sampled_from(list(MemoryType)), st.sampled_from([k.value for k in MemoryType])),
    limit=st.integers(0, 6),
)
def test_property_typed_search_keeps_its_invariants(ex, specs, query, kind, limit):
    original = build(specs)
    before = [r.to_dict() for r in original]
    hits, to_save = ex.typed_search(original, query, now=NOW, memory_type=kind, limit=limit)
    where = f"(query {query!r}, memory_type {kind!r}, limit {limit}, {len(original)} records)"

    wanted = MemoryType(kind) if kind is not None else None
    eligible = [(-keyword_score(query, r), i) for i, r in enumerate(original)
                if r.status is Status.ACTIVE and (wanted is None or r.memory_type is wanted)
                and keyword_score(query, r) > 0]
    chosen = [i for _, i in sorted(eligible)[:limit]]
    expected = []
    for i, record in enumerate(original):
        data = dict(before[i])
        if i in chosen:
            accessed = record.copy()
            accessed.access_count += 1
            accessed.last_accessed_at = NOW
            data = accessed.to_dict()
        expected.append(data)

    assert [r.to_dict() for r in original] == before, f"typed_search changed its input records {where}"
    assert [r.subject for r in hits] == [f"subject_{i}" for i in chosen], (
        f"hits {[r.subject for r in hits]}, expected {[f'subject_{i}' for i in chosen]} {where}: active records "
        "of the requested type with keyword_score above 0, the `limit` best, best first, ties in input order"
    )
    assert [r.subject for r in to_save] == [r.subject for r in original], (
        f"to_save must hold every input record in input order {where}: it replaces the whole store"
    )
    for i, (got, want) in enumerate(zip(to_save, expected, strict=True)):
        role = "a hit: access_count + 1 and last_accessed_at = now, nothing else" if i in chosen else (
            "not a hit: equal to its input")
        assert got.to_dict() == want, f"to_save[{i}] ({got.subject}) is {role} {where}"
    assert [r.to_dict() for r in hits] == [expected[i] for i in chosen], (
        f"each hit shows its updated access metadata, like its entry in to_save {where}"
    )
    shared = {id(r) for r in hits} & ({id(r) for r in to_save} | {id(r) for r in original})
    assert not shared, f"hits share objects with to_save or the input {where}: editing a hit would edit them too"


# --- atomic_write_json in a simulated file system ------------------------------------------------

OLD = '{"records": ["old"]}'.encode("utf-8")
DATA = {"records": ["我的项目叫 智能客服助手"] * 40 + ["Phase4", "Python"]}
REAL = {"open": builtins.open, "stat": os.stat, "fstat": os.fstat}
OS_CALLS = ("open", "write", "close", "fsync", "fdatasync", "replace", "rename", "unlink", "remove", "ftruncate")


class SimulatedCrash(BaseException):
    """Stands in for the process being killed; BaseException so `except Exception` cannot swallow it."""


class Disk:
    """Watches every file-system operation that atomic_write_json makes.

    Before each operation it checks the power-cut invariant (the target holds the old content or the
    complete, fsynced new content), and it can make the operation number `fail_at` raise `error`.
    Renames behave as on the worst common platform: across folders they fail as across disks (EXDEV),
    and os.rename does not overwrite an existing file (Windows)."""

    def __init__(self, monkeypatch, path, fail_at=None, error=None):
        self.path, self.fail_at, self.error = os.path.abspath(path), fail_at, error
        self.ops: list[str] = []
        self.problems: list[str] = []
        self.fsynced: dict[int, int] = {}  # inode -> size when it was last fsynced
        self.busy = False
        for name in OS_CALLS:
            if hasattr(os, name):
                monkeypatch.setattr(os, name, self.wrap(name, getattr(os, name)))
        monkeypatch.setattr(builtins, "open", self.wrap_open(builtins.open))
        monkeypatch.setattr(io, "open", self.wrap_open(io.open))

    def content(self):
        try:
            with REAL["open"](self.path, "rb") as handle:
                return handle.read()
        except FileNotFoundError:
            return None

    def is_new(self, content) -> bool:
        try:
            return content is not None and json.loads(content.decode("utf-8")) == DATA
        except ValueError:
            return False

    def check(self, where: str) -> None:
        content = self.content()
        if content is None or content == self.old:
            return
        if self.is_new(content):
            st_ = REAL["stat"](self.path)
            synced = self.fsynced.get(st_.st_ino)
            if synced is None:
                self.problems.append(
                    f"{where}: the target shows the new content, but those bytes were never forced to the disk "
                    "(os.fsync) before they became visible; after a power cut the file could be empty")
            elif synced != st_.st_size:
                self.problems.append(
                    f"{where}: the target shows the new content, but os.fsync saw {synced} of its {st_.st_size} "
                    "bytes: the rest was still in a buffer of the program (write it all out, e.g. flush(), "
                    "before fsync), so a power cut could leave a truncated file")
            return
        self.problems.append(
            f"{where}: the target holds {content[:50]!r} ({len(content)} bytes), neither the old file nor the "
            "complete new one; a power cut now would keep that")

    def tick(self, name: str) -> None:
        if self.busy:
            return
        number = len(self.ops)
        self.check(f"before operation {number} ({name})")
        self.ops.append(name)
        if self.fail_at == number:
            raise self.error

    def wrap(self, name, real):
        disk = self

        def call(*args, **kwargs):
            if disk.busy:
                return real(*args, **kwargs)
            disk.tick(f"os.{name}")
            if name in ("replace", "rename") and len(args) >= 2:
                src, dst = (os.path.abspath(os.fspath(a)) for a in args[:2])
                if os.path.dirname(src) != os.path.dirname(dst):
                    raise OSError(errno.EXDEV, "Invalid cross-device link (simulated: the folders are on two disks)")
                if name == "rename" and os.path.exists(dst):
                    raise FileExistsError(errno.EEXIST, "simulated Windows: os.rename does not overwrite", dst)
            result = real(*args, **kwargs)
            if name in ("fsync", "fdatasync"):
                fd = args[0] if isinstance(args[0], int) else args[0].fileno()
                st_ = REAL["fstat"](fd)
                disk.fsynced[st_.st_ino] = st_.st_size
            return result

        return call

    def wrap_open(self, real):
        disk = self

        def call(*args, **kwargs):
            if disk.busy:
                return real(*args, **kwargs)
            disk.tick("open()")
            return WatchedFile(real(*args, **kwargs), disk)

        return call

    def run(self, ex, old: bytes | None):
        self.old = old
        try:
            ex.atomic_write_json(self.path, DATA)
        finally:
            self.busy = True
        self.check("after atomic_write_json returned")


class WatchedFile:
    """A file object whose write, flush and close are file-system operations the Disk sees."""

    def __init__(self, inner, disk):
        self._inner, self._disk = inner, disk

    def write(self, text):
        self._disk.tick("file.write")
        return self._inner.write(text)

    def writelines(self, lines):
        self._disk.tick("file.writelines")
        return self._inner.writelines(lines)

    def flush(self):
        self._disk.tick("file.flush")
        return self._inner.flush()

    def close(self):
        if not self._inner.closed:
            self._disk.tick("file.close")
        return self._inner.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def __iter__(self):
        return iter(self._inner)

    def __getattr__(self, name):
        return getattr(self._inner, name)


def listing(folder) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def clean_run(ex, tmp_path, monkeypatch, old: bytes | None) -> Disk:
    path = tmp_path / "memories.json"
    if old is not None:
        path.write_bytes(old)
    disk = Disk(monkeypatch, path)
    try:
        disk.run(ex, old)
    except BaseException as error:  # noqa: BLE001 - reported to the learner
        monkeypatch.undo()
        pytest.fail(
            f"atomic_write_json raised {error!r} after {disk.ops}. In the test's file system a rename between two "
            "folders fails as it does between two disks (EXDEV), and os.rename refuses to overwrite as on "
            "Windows: prepare the new file next to the target and replace the target in one step"
        )
    monkeypatch.undo()
    return disk


@pytest.mark.parametrize("old", [OLD, None], ids=["overwrite", "create"])
def test_atomic_write_saves_readable_utf8_json_and_leaves_nothing_else(ex, tmp_path, monkeypatch, old):
    clean_run(ex, tmp_path, monkeypatch, old)
    path = tmp_path / "memories.json"
    text = path.read_bytes().decode("utf-8")
    assert json.loads(text) == DATA, "the file must hold data as JSON"
    assert "智能客服助手" in text, "write Chinese as itself (json: ensure_ascii=False), not as \\u escapes"
    assert listing(tmp_path) == ["memories.json"], (
        f"the folder holds {listing(tmp_path)} after a successful save; leave nothing but the target"
    )


@pytest.mark.parametrize("old", [OLD, None], ids=["overwrite", "create"])
def test_atomic_write_survives_a_power_cut_at_every_step(ex, tmp_path, monkeypatch, old):
    disk = clean_run(ex, tmp_path, monkeypatch, old)
    assert not disk.problems, (
        "a power cut between two file-system operations would break the file:\n- " + "\n- ".join(disk.problems)
        + f"\n(operations seen: {disk.ops})"
    )


@pytest.mark.parametrize("kind", ["OSError", "crash"])
def test_a_failure_at_any_step_keeps_the_file_and_leaves_no_debris(ex, tmp_path, monkeypatch, kind):
    (tmp_path / "dry").mkdir()
    steps = clean_run(ex, tmp_path / "dry", monkeypatch, OLD).ops
    assert steps, "atomic_write_json made no file-system operation at all"
    for number, name in enumerate(steps):
        folder = tmp_path / f"step{number}"
        folder.mkdir()
        path = folder / "memories.json"
        path.write_bytes(OLD)
        error = OSError(errno.ENOSPC, f"injected at operation {number}") if kind == "OSError" else SimulatedCrash(
            f"injected at operation {number}")
        disk = Disk(monkeypatch, path, fail_at=number, error=error)
        where = f"when operation {number} of {steps} ({name}) fails with {error!r}"
        try:
            disk.run(ex, OLD)
            raised = None
        except BaseException as got:  # noqa: BLE001 - compared below
            raised = got
        monkeypatch.undo()
        assert raised is error, (
            f"{where}, atomic_write_json {'returned normally' if raised is None else f'raised {raised!r}'}: "
            "let the original exception reach the caller (clean up, then re-raise it), or the caller believes "
            "the save worked"
        )
        assert not disk.problems, f"{where}:\n- " + "\n- ".join(disk.problems)
        content = path.read_bytes() if path.exists() else None
        assert content == OLD or disk.is_new(content), f"{where}, the target holds {content!r}"
        assert listing(folder) == ["memories.json"], (
            f"{where}, the folder holds {listing(folder)}: remove what the call created before re-raising "
            "(catch BaseException, not only Exception, so a KeyboardInterrupt cleans up too)"
        )


def test_unserialisable_data_fails_before_touching_the_file(ex, tmp_path):
    path = tmp_path / "memories.json"
    path.write_bytes(OLD)
    with pytest.raises(TypeError):
        ex.atomic_write_json(path, {"records": [object()]})
    assert path.read_bytes() == OLD, "data json cannot serialise must leave the old file untouched"
    assert listing(tmp_path) == ["memories.json"], "no temporary file may be left when serialising fails"


def test_files_are_written_as_utf8_explicitly(ex, tmp_path, run_with_encoding_checks):
    ok, message = run_with_encoding_checks("ex05_safe_store", """
        import json
        ex.atomic_write_json("memories.json", {"records": ["我的项目叫 智能客服助手"]})
        assert json.loads(open("memories.json", encoding="utf-8").read()) == {"records": ["我的项目叫 智能客服助手"]}
    """, cwd=tmp_path)
    assert ok, f"open every text file with encoding='utf-8' (the default differs between machines): {message}"
