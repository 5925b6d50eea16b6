"""JsonMemoryStore specifics: the file itself. Behaviour shared with every store is in
test_store_contract.py; here we check bytes, atomicity, locking and corrupt files."""

from __future__ import annotations

import json
import multiprocessing
import os
import threading
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from filelock import FileLock

from memcourse.policy import MemoryPolicy
from memcourse.records import MemoryRecord, MemoryType, Status
from memcourse.stores.base import CorruptStoreError, StoreError
from memcourse.stores.json_store import FORMAT, VERSION, JsonMemoryStore

POLICY = MemoryPolicy()


@pytest.fixture
def path(tmp_path) -> Path:
    return tmp_path / "memories.json"


@pytest.fixture
def json_store(path, clock) -> JsonMemoryStore:
    store = JsonMemoryStore(path, clock=clock)
    for text in (
        "以后回答我问题时，代码示例尽量用Python。",
        "记住：我的项目叫智能客服助手。",
        "记住：Phase4当前任务是实现AgentMemorySystem。",
    ):
        store.upsert(POLICY.extract(text))
    return store


def make(clock, subject="response_style", content="回答尽量简短", **kwargs) -> MemoryRecord:
    kwargs.setdefault("memory_type", MemoryType.PREFERENCE)
    kwargs.setdefault("created_at", clock())
    return MemoryRecord(subject=subject, content=content, **kwargs)


def on_disk(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


# -- the file format --------------------------------------------------------------------------
def test_a_new_store_creates_no_file_until_the_first_write(tmp_path, clock):
    path = tmp_path / "nested" / "dir" / "memories.json"
    store = JsonMemoryStore(path, clock=clock)
    assert store.list_all() == [] and not path.exists()
    store.upsert(make(clock))
    assert path.exists()


def test_file_is_versioned_readable_json_with_chinese_kept(json_store, path):
    data = on_disk(path)
    assert (data["format"], data["version"]) == (FORMAT, VERSION)
    assert len(data["records"]) == 3
    raw = path.read_bytes()
    assert "智能客服助手".encode("utf-8") in raw
    assert b"\\u" not in raw


def test_a_second_instance_sees_everything_the_first_wrote(json_store, path, clock):
    json_store.search("Phase4 memory")
    reopened = JsonMemoryStore(path, clock=clock)
    assert [r.to_dict() for r in reopened.list_all()] == [r.to_dict() for r in json_store.list_all()]
    assert reopened.get(json_store.search("Phase4", limit=1)[0].memory_id).access_count == 2


def test_search_access_metadata_is_written_to_the_file(json_store, path, clock):
    accessed_at = clock.advance(minutes=1)
    [task] = json_store.search("Phase4 AgentMemorySystem", memory_type="task")
    [stored] = [r for r in on_disk(path)["records"] if r["memory_id"] == task.memory_id]
    assert stored["access_count"] == 1
    assert stored["last_accessed_at"] == accessed_at.isoformat()


def test_typed_search_writes_every_record_back(json_store, path):
    json_store.search("Phase4 Memory", memory_type=MemoryType.TASK)
    assert sorted(r["memory_type"] for r in on_disk(path)["records"]) == ["entity", "preference", "task"]


def test_a_search_that_finds_nothing_does_not_rewrite_the_file(json_store, path):
    before = path.read_bytes()
    mtime = path.stat().st_mtime_ns
    assert json_store.search("完全无关的天气 weather") == []
    assert path.read_bytes() == before and path.stat().st_mtime_ns == mtime


def test_upsert_timestamps_and_history_on_disk(path, clock):
    store = JsonMemoryStore(path, clock=clock)
    created = clock()
    store.upsert(make(clock, content="先用 Python"))
    later = clock.advance(days=2)
    store.upsert(make(clock, content="改用 TypeScript"))
    clock.advance(days=1)
    store.upsert(make(clock, content="改用 TypeScript", created_at=clock()))  # same content again
    [record] = on_disk(path)["records"]
    assert record["created_at"] == created.isoformat()
    assert record["updated_at"] == (later + timedelta(days=1)).isoformat()
    assert record["content"] == "改用 TypeScript"
    assert [(h["content"], h["replaced_at"]) for h in record["history"]] == [("先用 Python", later.isoformat())]


def test_expired_and_inactive_records_stay_in_the_file_but_are_not_returned(path, clock):
    store = JsonMemoryStore(path, clock=clock)
    store.upsert(make(clock, subject="expired", expires_at=clock() + timedelta(minutes=1)))
    store.upsert(make(clock, subject="superseded", status=Status.SUPERSEDED))
    store.upsert(make(clock, subject="deleted", status="deleted"))
    store.upsert(make(clock, subject="live"))
    clock.advance(minutes=2)
    assert [r.subject for r in store.search("回答 简短", limit=10)] == ["live"]
    assert len(on_disk(path)["records"]) == 4


def test_search_never_returns_another_users_memory(path, clock):
    store = JsonMemoryStore(path, clock=clock)
    store.upsert(make(clock, content="A 的秘密偏好：回答简短", user_id="user-a"))
    store.upsert(make(clock, content="B 的偏好：回答简短", user_id="user-b"))
    assert [r.user_id for r in store.search("偏好 回答 简短", user_id="user-a", limit=10)] == ["user-a"]
    assert [r.user_id for r in store.search("偏好 回答 简短", user_id="user-b", limit=10)] == ["user-b"]


def test_forget_removes_the_text_and_its_history_from_the_file(path, clock):
    store = JsonMemoryStore(path, clock=clock)
    store.upsert(make(clock, subject="keep", content="保留的记忆"))
    first = store.upsert(make(clock, content="旧版本 Alpha-7731"))
    store.upsert(make(clock, content="新版本 Beta-5512"))
    assert b"Alpha-7731" in path.read_bytes()  # history holds the old version
    assert store.forget(first.memory_id)
    raw = path.read_bytes()
    assert b"Alpha-7731" not in raw and b"Beta-5512" not in raw and first.memory_id.encode() not in raw
    assert "保留的记忆".encode() in raw


def test_forget_user_removes_their_text_from_the_file(path, clock):
    store = JsonMemoryStore(path, clock=clock)
    store.upsert(make(clock, content="alice 住在杭州", user_id="alice"))
    store.upsert(make(clock, content="bob 住在成都", user_id="bob"))
    assert store.forget_user("alice") == 1
    raw = path.read_bytes()
    assert "杭州".encode() not in raw and b"alice" not in raw
    assert "成都".encode() in raw


# -- bad input: error raised, file bytes untouched ---------------------------------------------
def broken(clock, **change) -> MemoryRecord:
    """A valid record, then changed into an invalid state (records are mutable)."""
    record = make(clock, subject="new_subject")
    for name, value in change.items():
        setattr(record, name, value)
    return record


BAD_INPUT = [
    ("upsert dict", lambda s, c: s.upsert({"subject": "x", "content": "y"}), TypeError),
    ("upsert None", lambda s, c: s.upsert(None), TypeError),
    ("upsert str", lambda s, c: s.upsert("以后回答都用中文"), TypeError),
    ("upsert list of records", lambda s, c: s.upsert([make(c)]), TypeError),
    ("mutated confidence", lambda s, c: s.upsert(broken(c, confidence=1.5)), ValueError),
    ("mutated confidence NaN", lambda s, c: s.upsert(broken(c, confidence=float("nan"))), ValueError),
    ("mutated empty content", lambda s, c: s.upsert(broken(c, content="  ")), ValueError),
    ("mutated huge content", lambda s, c: s.upsert(broken(c, content="长" * 2001)), ValueError),
    ("mutated memory_type", lambda s, c: s.upsert(broken(c, memory_type="fact")), ValueError),
    ("mutated naive created_at", lambda s, c: s.upsert(broken(c, created_at=datetime(2026, 1, 1))), ValueError),
    ("mutated access_count", lambda s, c: s.upsert(broken(c, access_count=-3)), ValueError),
    ("mutated tags", lambda s, c: s.upsert(broken(c, tags="python")), TypeError),
    ("search None", lambda s, c: s.search(None), TypeError),
    ("search int", lambda s, c: s.search(42), TypeError),
    ("search empty", lambda s, c: s.search(""), ValueError),
    ("search blank", lambda s, c: s.search(" \t "), ValueError),
    ("limit 0", lambda s, c: s.search("Phase4", limit=0), ValueError),
    ("limit -1", lambda s, c: s.search("Phase4", limit=-1), ValueError),
    ("limit True", lambda s, c: s.search("Phase4", limit=True), TypeError),
    ("limit float", lambda s, c: s.search("Phase4", limit=3.0), TypeError),
    ("limit text", lambda s, c: s.search("Phase4", limit="5"), TypeError),  # None means the config's limit
    ("unknown memory_type", lambda s, c: s.search("Phase4", memory_type="fact"), ValueError),
    ("int memory_type", lambda s, c: s.search("Phase4", memory_type=42), TypeError),
    ("search_hits limit 0", lambda s, c: s.search_hits("Phase4", limit=0), ValueError),
    ("search user_id None", lambda s, c: s.search("Phase4", user_id=None), TypeError),
    ("search user_id empty", lambda s, c: s.search("Phase4", user_id=""), ValueError),
    ("search agent_id int", lambda s, c: s.search("Phase4", agent_id=7), TypeError),
    ("list_all unknown type", lambda s, c: s.list_all(memory_type="fact"), ValueError),
    ("list_all user_id int", lambda s, c: s.list_all(user_id=1), TypeError),
    ("forget a record", lambda s, c: s.forget(make(c)), TypeError),
    ("forget empty id", lambda s, c: s.forget(""), ValueError),
    ("get None", lambda s, c: s.get(None), TypeError),
    ("forget_user empty", lambda s, c: s.forget_user(""), ValueError),
    ("forget_user None", lambda s, c: s.forget_user(None), TypeError),
    ("unexpected keyword", lambda s, c: s.search("Phase4", top_k=3), TypeError),
]


@pytest.mark.parametrize(("call", "error"), [case[1:] for case in BAD_INPUT], ids=[case[0] for case in BAD_INPUT])
def test_bad_input_raises_and_leaves_the_file_bytes_unchanged(json_store, path, clock, call, error):
    before = path.read_bytes()
    with pytest.raises(error):
        call(json_store, clock)
    assert path.read_bytes() == before


def test_a_clock_returning_naive_time_is_refused_before_writing(json_store, path):
    naive_clock_store = JsonMemoryStore(path, clock=lambda: datetime(2026, 1, 2))
    before = path.read_bytes()
    with pytest.raises(ValueError, match="clock"):
        naive_clock_store.upsert(MemoryRecord("preference", "response_style", "详细"))
    assert path.read_bytes() == before


# -- atomic writes -------------------------------------------------------------------------------
def test_writes_leave_no_temporary_files(json_store, path, clock):
    for i in range(5):
        json_store.upsert(make(clock, subject=f"s{i}"))
    json_store.search("回答 简短")
    json_store.forget(make(clock, subject="s0").memory_id)
    assert sorted(p.name for p in path.parent.iterdir()) == ["memories.json", "memories.json.lock"]


def test_a_failed_replace_keeps_the_old_file_and_cleans_up(json_store, path, clock, monkeypatch):
    before = path.read_bytes()

    def crash(*args, **kwargs):
        raise OSError("disk on fire")

    monkeypatch.setattr("memcourse.stores.json_store.os.replace", crash)
    with pytest.raises(StoreError, match="disk on fire") as caught:
        json_store.upsert(make(clock, subject="never_written"))
    assert isinstance(caught.value.__cause__, OSError)  # the cause stays attached
    assert path.read_bytes() == before
    assert not [p for p in path.parent.iterdir() if p.name.endswith(".tmp")]


def test_a_concurrent_reader_always_sees_valid_json(json_store, path, clock):
    stop = threading.Event()
    problems: list[str] = []
    reads = 0

    def reader():
        nonlocal reads
        while not stop.is_set():
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
                assert data["format"] == FORMAT
                reads += 1
            except Exception as error:  # noqa: BLE001 - any failure is the finding
                problems.append(repr(error))

    thread = threading.Thread(target=reader)
    thread.start()
    try:
        for i in range(60):
            json_store.upsert(make(clock, subject=f"topic {i}", content=f"第 {i} 条记忆 " + "内容" * 50))
    finally:
        stop.set()
        thread.join()
    assert problems == []
    assert reads > 0
    assert len(on_disk(path)["records"]) == 63


# -- many processes, one file ------------------------------------------------------------------------
WRITERS, UPSERTS_PER_WRITER = 4, 100


def _writer(path: str, writer: int, barrier) -> None:
    store = JsonMemoryStore(path)
    barrier.wait()
    for i in range(UPSERTS_PER_WRITER):
        store.upsert(MemoryRecord("event", f"writer {writer} event {i}", f"进程 {writer} 写的第 {i} 条"))


@pytest.mark.timeout(120)
def test_concurrent_writers_in_separate_processes_lose_nothing(path):
    ctx = multiprocessing.get_context("spawn")
    barrier = ctx.Barrier(WRITERS)
    processes = [ctx.Process(target=_writer, args=(str(path), n, barrier)) for n in range(WRITERS)]
    for process in processes:
        process.start()
    for process in processes:
        process.join(timeout=110)
    assert [p.exitcode for p in processes] == [0] * WRITERS
    records = JsonMemoryStore(path).list_all()
    assert len(records) == WRITERS * UPSERTS_PER_WRITER
    assert len({r.memory_id for r in records}) == WRITERS * UPSERTS_PER_WRITER
    assert not [p for p in path.parent.iterdir() if p.name.endswith(".tmp")]


def test_a_held_lock_times_out_with_a_store_error(json_store, path, clock):
    impatient = JsonMemoryStore(path, clock=clock, lock_timeout=0.2)
    before = path.read_bytes()
    with FileLock(f"{path}.lock"):  # another writer is in the middle of a transaction
        with pytest.raises(StoreError, match="lock"):
            impatient.upsert(make(clock, subject="blocked"))
    assert path.read_bytes() == before
    impatient.upsert(make(clock, subject="unblocked"))  # released: writes work again
    assert impatient.get(make(clock, subject="unblocked").memory_id) is not None


# -- corrupt files: reported, never overwritten ----------------------------------------------------
def valid_record_dict(**change) -> dict:
    data = MemoryRecord("preference", "response_style", "简短").to_dict()
    data.update(change)
    return data


def store_file(records) -> bytes:
    return json.dumps({"format": FORMAT, "version": VERSION, "records": records}, ensure_ascii=False).encode()


CORRUPT_FILES = [
    ("invalid JSON", b'{"format": "memcourse.json-store", "version": 1, "records": [', "not valid JSON"),
    ("truncated to nothing", b"", "not valid JSON"),
    ("foreign JSON object", b'{"todo": ["buy milk"]}', "not a memcourse JSON store"),
    ("foreign JSON list", b"[1, 2, 3]", "not a memcourse JSON store"),
    ("wrong version", json.dumps({"format": FORMAT, "version": 99, "records": []}).encode(), "version 99"),
    ("records not a list", json.dumps({"format": FORMAT, "version": VERSION, "records": {}}).encode(), "not a list"),
    ("invalid record", store_file([valid_record_dict(confidence=3)]), "record #0 is invalid"),
    ("record with unknown field", store_file([valid_record_dict(colour="red")]), "record #0 is invalid"),
    ("record not an object", store_file(["just text"]), "record #0 is invalid"),
    (
        "invalid history entry",
        store_file([valid_record_dict(history=[{"content": None, "confidence": 0.5, "source": "user_stated",
                                                 "replaced_at": "2026-01-01T00:00:00+00:00"}])]),
        "record #0 is invalid",
    ),
    ("duplicate ids", store_file([valid_record_dict(), valid_record_dict(content="另一条")]), "duplicate memory_id"),
    ("not UTF-8", "记住：用户喜欢短回答".encode("gbk"), "not UTF-8"),
]


@pytest.mark.parametrize(("content", "problem"), [c[1:] for c in CORRUPT_FILES], ids=[c[0] for c in CORRUPT_FILES])
def test_corrupt_file_is_reported_and_left_untouched(path, clock, content, problem):
    path.write_bytes(content)
    with pytest.raises(CorruptStoreError, match=problem) as caught:
        JsonMemoryStore(path, clock=clock)
    assert str(path) in str(caught.value)
    assert caught.value.path == path
    assert isinstance(caught.value, StoreError)
    assert path.read_bytes() == content


LATER_CALLS = [
    ("upsert", lambda s, c: s.upsert(make(c, subject="after"))),
    ("search", lambda s, c: s.search("Phase4 memory")),
    ("typed search", lambda s, c: s.search("Phase4", memory_type="task")),
    ("list_all", lambda s, c: s.list_all()),
    ("get", lambda s, c: s.get("x")),
    ("forget", lambda s, c: s.forget("x")),
    ("forget_user", lambda s, c: s.forget_user("default")),
]


@pytest.mark.parametrize(("content", "problem"), [c[1:] for c in CORRUPT_FILES], ids=[c[0] for c in CORRUPT_FILES])
@pytest.mark.parametrize("call", [c[1] for c in LATER_CALLS], ids=[c[0] for c in LATER_CALLS])
def test_a_file_corrupted_after_opening_is_reported_at_the_next_call(json_store, path, clock, content, problem, call):
    path.write_bytes(content)
    with pytest.raises(CorruptStoreError, match=problem) as caught:
        call(json_store, clock)
    assert str(path) in str(caught.value)
    assert path.read_bytes() == content


def test_a_directory_is_not_a_store(tmp_path):
    with pytest.raises(StoreError, match="directory"):
        JsonMemoryStore(tmp_path)
    assert tmp_path.is_dir() and list(tmp_path.iterdir()) == []


# -- hostile files (issue 11): the right error, no hang, nothing overwritten -----------------------------
def test_deeply_nested_json_is_a_corrupt_store_not_a_recursion_error(path, clock):
    path.write_bytes(b"[" * 100_000)
    with pytest.raises(CorruptStoreError, match="nested too deeply"):
        JsonMemoryStore(path, clock=clock)
    assert path.read_bytes() == b"[" * 100_000


@pytest.mark.parametrize(
    "change",
    [
        {"created_at": "0001-01-01T00:00:00+05:00"},  # OverflowError before
        {"expires_at": "9999-12-31T23:59:59-05:00"},
        {"confidence": 10**400},
        {"metadata": json.loads("{\"a\": " + "[" * 500 + "]" * 500 + "}")},
        {"user_id": "bob\n## Rules"},
        {"source_conversation_id": " c-1"},
    ],
    ids=["year 1 +05:00", "year 9999 -05:00", "huge confidence", "deep metadata", "newline in user_id", "space in id"],
)
def test_a_file_holding_an_invalid_record_is_a_corrupt_store(path, clock, change):
    content = store_file([valid_record_dict(**change)])
    path.write_bytes(content)
    with pytest.raises(CorruptStoreError, match="record #0 is invalid"):
        JsonMemoryStore(path, clock=clock)
    assert path.read_bytes() == content


@pytest.mark.timeout(20)
def test_a_fifo_is_refused_instead_of_blocking_forever(tmp_path, clock):
    fifo = tmp_path / "memories.json"
    os.mkfifo(fifo)
    with pytest.raises(StoreError, match="not a regular file.*FIFO"):
        JsonMemoryStore(fifo, clock=clock)


@pytest.mark.timeout(20)
def test_a_file_swapped_for_a_fifo_after_opening_is_refused(json_store, path, clock):
    path.unlink()
    os.mkfifo(path)
    with pytest.raises(StoreError, match="FIFO"):
        json_store.list_all()
    with pytest.raises(StoreError, match="FIFO"):
        json_store.upsert(make(clock, subject="after"))
    assert path.is_fifo()


def test_a_symlinked_store_writes_through_to_its_target(tmp_path, clock):
    target = tmp_path / "real" / "memories.json"
    target.parent.mkdir()
    link = tmp_path / "link.json"
    link.symlink_to(target)  # dangling until the first write
    store = JsonMemoryStore(link, clock=clock)
    store.upsert(make(clock, subject="first"))
    store.forget(make(clock, subject="first").memory_id)
    store.upsert(make(clock, subject="second"))
    assert link.is_symlink() and link.resolve() == target  # still a link...
    assert [r["subject"] for r in on_disk(target)["records"]] == ["second"]  # ...and the target got the writes
    assert JsonMemoryStore(target, clock=clock).list_all()[0].subject == "second"
    assert sorted(p.name for p in target.parent.iterdir()) == ["memories.json", "memories.json.lock"]


def test_two_links_to_one_file_share_one_lock_and_lose_nothing(tmp_path):
    target = tmp_path / "memories.json"
    links = [tmp_path / "a.json", tmp_path / "b.json"]
    for link in links:
        link.symlink_to(target)
    stores = [JsonMemoryStore(link) for link in links]

    def write(n):
        for i in range(40):
            stores[n].upsert(MemoryRecord("event", f"writer {n} event {i}", f"第 {i} 条"))

    threads = [threading.Thread(target=write, args=(n,)) for n in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(JsonMemoryStore(target).list_all()) == 80


def test_a_symlink_loop_is_a_store_error(tmp_path, clock):
    loop = tmp_path / "loop.json"
    loop.symlink_to(loop)
    with pytest.raises(StoreError, match="loop.json"):
        JsonMemoryStore(loop, clock=clock)


@pytest.mark.parametrize("mode", [0o664, 0o640, 0o600, 0o644])
def test_a_write_keeps_the_files_mode(json_store, path, clock, mode):
    path.chmod(mode)
    json_store.upsert(make(clock, subject="after chmod"))
    json_store.forget(make(clock, subject="after chmod").memory_id)
    assert path.stat().st_mode & 0o777 == mode


def test_a_new_store_file_gets_the_usual_mode_not_0600(tmp_path, clock):
    old = os.umask(0o002)
    try:
        store = JsonMemoryStore(tmp_path / "new.json", clock=clock)
        store.upsert(make(clock))
    finally:
        os.umask(old)
    assert (tmp_path / "new.json").stat().st_mode & 0o777 == 0o664


CANARY = "canary-4f1c-去了火星"


def plant_debris(path: Path, text: str) -> Path:
    """What a writer killed between mkstemp and os.replace leaves: a whole copy of the store."""
    leftover = path.parent / f".{path.name}.k1ll3d_x.tmp"
    leftover.write_text(text, encoding="utf-8")
    return leftover


def test_crash_debris_is_removed_when_the_store_opens(json_store, path, clock):
    leftover = plant_debris(path, f'{{"format": "{FORMAT}", "records": ["{CANARY}"]}}')
    unrelated = [
        path.parent / f".{path.name}.backup.tmp",
        path.parent / "notes.tmp",
        path.parent / f"{path.name}.x1234567.tmp",
    ]
    for other in unrelated:
        other.write_text("not ours", encoding="utf-8")
    JsonMemoryStore(path, clock=clock)
    assert not leftover.exists()
    assert all(other.exists() for other in unrelated), "only the exact names atomic writes make are debris"


@pytest.mark.parametrize("forget", ["forget", "forget_user"])
def test_forgetting_removes_crash_debris_holding_the_forgotten_text(json_store, path, clock, forget):
    record = json_store.upsert(make(clock, subject="secret_plan", content=f"我的计划是 {CANARY}", user_id="alice"))
    leftover = plant_debris(path, path.read_text(encoding="utf-8"))  # killed mid-save after the write above
    assert CANARY in leftover.read_text(encoding="utf-8")
    if forget == "forget":
        assert json_store.forget(record.memory_id)
    else:
        assert json_store.forget_user("alice") == 1
    for file in path.parent.iterdir():
        assert CANARY.encode() not in file.read_bytes(), f"{file.name} still holds the forgotten text"


def test_a_lock_file_that_cannot_be_created_is_reported_as_such(path, clock):
    Path(f"{path}.lock").mkdir()  # something that is not a file sits where the lock must go
    store = JsonMemoryStore(path, clock=clock, lock_timeout=0.2)
    with pytest.raises(StoreError, match="cannot create or open the lock file") as caught:
        store.upsert(make(clock))
    assert "stuck" not in str(caught.value)
    assert not path.exists()


def _write_as(uid: int | None, path: Path) -> str:
    """Upsert from a forked child (dropping to ``uid`` first when given); return what it raised.
    A fork, not a new interpreter: the unprivileged user may not be able to read the venv."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child
        message = "no error"
        try:
            if uid is not None:
                os.setgid(uid)
                os.setuid(uid)
            JsonMemoryStore(path, lock_timeout=0.5).upsert(MemoryRecord("entity", "s", "c"))
        except BaseException as error:  # noqa: BLE001 - reported to the parent
            message = f"{type(error).__name__}: {error}"
        os.write(write_end, message.encode("utf-8", "replace"))
        os._exit(0)
    os.close(write_end)
    with os.fdopen(read_end, "rb") as pipe:
        message = pipe.read().decode("utf-8")
    os.waitpid(pid, 0)
    return message


@pytest.mark.timeout(60)
def test_a_read_only_folder_is_reported_as_an_unwritable_lock_file(tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    path = folder / "memories.json"
    path.write_bytes(store_file([]))
    folder.chmod(0o555)
    for parent in (tmp_path, *tmp_path.parents):  # let an unprivileged user reach the folder
        if str(parent) in ("/", "/tmp"):
            break
        parent.chmod(parent.stat().st_mode | 0o005)
    try:
        message = _write_as(65534 if os.geteuid() == 0 else None, path)  # root ignores permissions
    finally:
        folder.chmod(0o755)
    assert message.startswith("StoreError") and "cannot create or open the lock file" in message, message
    assert "Permission denied" in message and "stuck" not in message
    assert path.read_bytes() == store_file([])


PATH_ARGUMENTS = [
    (None, TypeError), (42, TypeError), (b"memories.json", TypeError), (["memories.json"], TypeError),
    ("", ValueError), ("mem\x00ories.json", ValueError), ("mem\ud800ories.json", ValueError),
]


@pytest.mark.parametrize(("value", "error"), PATH_ARGUMENTS, ids=[repr(v[0])[:20] for v in PATH_ARGUMENTS])
def test_a_bad_path_argument_names_path(value, error):
    with pytest.raises(error, match="path"):
        JsonMemoryStore(value)


def test_a_path_below_a_file_is_a_store_error(tmp_path):
    (tmp_path / "plain").write_text("x", encoding="utf-8")
    with pytest.raises(StoreError, match="cannot create its folder"):
        JsonMemoryStore(tmp_path / "plain" / "memories.json")


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"clock": "now"}, TypeError),
        ({"lock_timeout": -1}, ValueError),
        ({"lock_timeout": float("nan")}, ValueError),
        ({"lock_timeout": "5"}, TypeError),
    ],
)
def test_bad_clock_or_timeout_names_the_argument(path, kwargs, error):
    with pytest.raises(error, match=next(iter(kwargs))):
        JsonMemoryStore(path, **kwargs)


# -- the crash script (scripts/crash_stores.py), smoke-sized ------------------------------------------
def _crash_script():
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "crash_stores", Path(__file__).parents[1] / "scripts" / "crash_stores.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.timeout(60)
def test_the_crash_script_kills_json_writers_and_finds_every_promise_kept():
    totals = _crash_script().crash_loop("json", kills=3, seed=3, writers=2, max_delay=0.3, ops=10_000)
    assert totals["kills"] == 3 and totals["checked"] > 0, totals
    assert (totals["survived"], totals["lost"], totals["open_errors"], totals["debris_left"]) == (3, 0, 0, 0), totals


def test_the_crash_scripts_check_would_see_a_lost_write_or_an_undone_forget(json_store, clock):
    verify = _crash_script().verify
    kept = json_store.upsert(make(clock, subject="kept", content="第一版"))
    gone = json_store.upsert(make(clock, subject="gone"))
    json_store.forget(gone.memory_id)
    promises = [
        {"op": "upsert", "id": kept.memory_id, "content": "第一版"},
        {"op": "upsert", "id": kept.memory_id, "content": "never stored"},  # lost
        {"op": "upsert", "id": "event:missing:0", "content": "x"},  # lost
        {"op": "forget", "id": json_store.list_all(memory_type="task")[0].memory_id},  # undone
    ]
    report = verify(json_store, promises)
    assert (report["checked"], report["lost"]) == (4, 3), report


def test_threads_sharing_one_store_object_lose_no_record_and_no_version(path):
    store = JsonMemoryStore(path)

    def write(n):
        for i in range(25):
            store.upsert(MemoryRecord("event", f"thread {n} note {i}", "独立的记录"))
            store.upsert(MemoryRecord("event", "shared note", f"thread {n} version {i}"))

    threads = [threading.Thread(target=write, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    records = store.list_all()
    assert len(records) == 4 * 25 + 1
    [shared] = [r for r in records if r.subject == "shared note"]
    versions = [h.content for h in shared.history] + [shared.content]
    assert sorted(versions) == sorted(f"thread {n} version {i}" for n in range(4) for i in range(25))


def test_opening_while_another_process_saves_never_trips_over_its_temp_file(path, monkeypatch):
    # Found by scripts/crash_stores.py: a temp file listed by one process and renamed by the
    # writer before it was inspected raised FileNotFoundError from JsonMemoryStore(path).
    JsonMemoryStore(path).upsert(MemoryRecord("event", "first", "第一条"))
    real_lstat = os.lstat

    def renamed_meanwhile(target, *args, **kwargs):
        if str(target).endswith(".tmp"):
            raise FileNotFoundError(2, "No such file or directory", str(target))
        return real_lstat(target, *args, **kwargs)

    plant_debris(path, "{}")
    monkeypatch.setattr("memcourse.stores.files.os.lstat", renamed_meanwhile)
    store = JsonMemoryStore(path)
    assert [r.subject for r in store.list_all()] == ["first"]


# -- a file too big to be a JSON store (issue 11) ---------------------------------------------------
def test_a_huge_file_is_refused_with_the_limit_named_not_read(tmp_path):
    from memcourse.stores.json_store import MAX_FILE_BYTES

    huge = tmp_path / "huge.json"
    with open(huge, "wb"):
        pass
    os.truncate(huge, 3 * 1024**3)  # sparse: 3 GB on paper, no disk used
    with pytest.raises(StoreError, match=f"{MAX_FILE_BYTES:,} bytes") as refused:
        JsonMemoryStore(huge)
    assert str(huge) in str(refused.value)
    assert huge.stat().st_size == 3 * 1024**3, "the file is left as it was"


def test_a_save_past_the_limit_is_refused_and_writes_nothing(path, clock, monkeypatch):
    import memcourse.stores.json_store as module

    store = JsonMemoryStore(path, clock=clock)
    store.upsert(MemoryRecord(MemoryType.ENTITY, "home", "住在上海", created_at=clock()))
    before = path.read_bytes()
    monkeypatch.setattr(module, "MAX_FILE_BYTES", len(before) + 100)
    with pytest.raises(StoreError, match="over the store-file limit"):
        store.upsert(MemoryRecord(MemoryType.ENTITY, "notes", "x" * 500, created_at=clock()))
    assert path.read_bytes() == before
    assert [r.subject for r in store.list_all()] == ["home"], "the store still opens and reads"
