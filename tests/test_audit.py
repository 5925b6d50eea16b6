"""The audit log: per user, append-only, atomic under concurrency, readable, and forgettable."""

from __future__ import annotations

import json
import multiprocessing
import threading

import pytest

from memcourse import JsonMemoryStore
from memcourse.extraction import AuditLog, AuditLogError, MemoryPipeline, format_entries


def entry(user="lin", n=0, **extra):
    return {"at": "2026-03-02T09:00:00+00:00", "user_id": user, "stage": "reconcile", "decision": "ADD",
            "reason": f"entry {n}", "by": "rules", **extra}


def test_entries_are_appended_per_user_in_order_and_read_back(tmp_path):
    log = AuditLog(tmp_path / "audit")
    log.append(entry("lin", 1))
    log.append(entry("sam", 2))
    log.append(entry("lin", 3, candidate={"content": "我养了一只猫叫年糕"}))
    assert [e["reason"] for e in log.entries("lin")] == ["entry 1", "entry 3"]
    assert [e["reason"] for e in log.entries("sam")] == ["entry 2"]
    assert log.entries("nobody") == []
    assert log.users() == ["lin", "sam"]
    raw = log.path_for("lin").read_bytes()
    assert "我养了一只猫叫年糕".encode("utf-8") in raw, "UTF-8, not \\u escapes"
    assert "年糕" in format_entries(log.entries("lin"))


def test_a_lone_surrogate_is_kept_escaped_and_never_breaks_the_log(tmp_path):
    log = AuditLog(tmp_path / "audit")
    log.append(entry(memory_id="m1", candidate={"content": "broken \ud800 text"}))
    log.append(entry(memory_id="m2"))
    assert log.entries("lin")[0]["candidate"]["content"] == "broken \ud800 text"
    assert log.purge_memory("m2") == 1
    assert [e["memory_id"] for e in log.entries("lin")] == ["m1"]


def test_a_user_id_never_becomes_a_path(tmp_path):
    log = AuditLog(tmp_path / "audit")
    log.append(entry("../../etc/passwd"))
    log.append(entry("lin/../sam"))
    assert sorted(p.parent for p in (tmp_path / "audit").rglob("*.jsonl")) == [tmp_path / "audit"] * 2
    assert log.entries("../../etc/passwd")[0]["user_id"] == "../../etc/passwd"


def test_bad_entries_are_refused_before_writing(tmp_path):
    log = AuditLog(tmp_path / "audit")
    with pytest.raises(ValueError, match="user_id"):
        log.append({"reason": "no user"})
    with pytest.raises(ValueError):
        log.append(entry(score=float("nan")))
    assert list((tmp_path / "audit").glob("*.jsonl")) == [] or log.entries("lin") == []


def test_a_damaged_line_is_reported_not_skipped(tmp_path):
    log = AuditLog(tmp_path / "audit")
    log.append(entry())
    with open(log.path_for("lin"), "a", encoding="utf-8") as handle:
        handle.write('{"user_id": "lin", "broken\n')
    with pytest.raises(AuditLogError, match=":2: damaged"):
        log.entries("lin")
    with pytest.raises(AuditLogError):
        log.purge_memory("entity:x:1")
    assert log.path_for("lin").read_text(encoding="utf-8").count("\n") == 2, "left untouched"


def test_concurrent_threads_lose_no_line(tmp_path):
    log = AuditLog(tmp_path / "audit")
    threads = [threading.Thread(target=lambda k=k: [log.append(entry("lin", k * 100 + i)) for i in range(50)])
               for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    reasons = [e["reason"] for e in log.entries("lin")]
    assert len(reasons) == 400 and len(set(reasons)) == 400


def _append_many(directory: str, worker: int) -> None:
    log = AuditLog(directory)
    for i in range(40):
        log.append(entry("lin", worker * 1000 + i, padding="x" * 3000))


def test_concurrent_processes_lose_no_line_and_interleave_nothing(tmp_path):
    directory = str(tmp_path / "audit")
    AuditLog(directory)
    ctx = multiprocessing.get_context("spawn")
    workers = [ctx.Process(target=_append_many, args=(directory, w)) for w in range(4)]
    for w in workers:
        w.start()
    for w in workers:
        w.join(60)
        assert w.exitcode == 0
    lines = AuditLog(directory).path_for("lin").read_text(encoding="utf-8").splitlines()
    assert len(lines) == 160 and all(json.loads(line)["padding"] == "x" * 3000 for line in lines)


def test_purging_a_memory_removes_every_line_about_it_and_keeps_the_rest(tmp_path):
    log = AuditLog(tmp_path / "audit")
    log.append(entry(memory_id="entity:cat:1", candidate={"content": "我养了一只猫叫年糕"}))
    log.append(entry(memory_id="entity:dog:2", candidate={"content": "my dog is Biscuit"}))
    log.append(entry(target_id="entity:cat:1", memory_id="entity:cat2:3", candidate={"content": "猫改名叫汤圆"}))
    assert log.purge_memory("entity:cat:1") == 2
    text = log.path_for("lin").read_text(encoding="utf-8")
    assert "年糕" not in text and "汤圆" not in text and "Biscuit" in text
    assert not list((tmp_path / "audit").glob(".audit-*")), "no temporary file left behind"


def test_purging_a_user_removes_their_file(tmp_path):
    log = AuditLog(tmp_path / "audit")
    log.append(entry("lin"))
    log.append(entry("sam"))
    assert log.purge_user("lin") == 1
    assert not log.path_for("lin").exists() and log.entries("sam")
    assert log.purge_user("lin") == 0


def test_forgetting_through_the_pipeline_leaves_no_trace_in_store_or_audit(tmp_path, clock):
    """Every byte under the data directory is searched for the forgotten words."""
    store = JsonMemoryStore(tmp_path / "data" / "memories.json", clock=clock)
    pipeline = MemoryPipeline(store, audit=AuditLog(tmp_path / "data" / "audit"), clock=clock)
    pipeline.process("记住：我的保险柜放在书房左边第二格", user_id="lin", conversation_id="c1")
    pipeline.process("我住在杭州", user_id="lin", conversation_id="c1")
    pipeline.process("以后回答我时，代码示例尽量用 Python", user_id="sam", conversation_id="c2")
    [safe] = [r for r in store.list_all(user_id="lin") if "保险柜" in r.content]

    def everything() -> bytes:
        return b"".join(p.read_bytes() for p in (tmp_path / "data").rglob("*") if p.is_file())

    assert "保险柜".encode() in everything()
    assert pipeline.forget(safe.memory_id)
    assert "保险柜".encode() not in everything() and "书房".encode() not in everything()
    assert "杭州".encode() in everything()
    assert pipeline.forget_user("lin") == 1
    assert "杭州".encode() not in everything() and b"lin" not in everything()
    assert "Python".encode() in everything()


def test_a_retraction_leaves_no_trace_of_what_was_retracted(tmp_path, clock):
    store = JsonMemoryStore(tmp_path / "data" / "memories.json", clock=clock)
    audit = AuditLog(tmp_path / "data" / "audit")
    pipeline = MemoryPipeline(store, audit=audit, clock=clock)
    pipeline.process("我住在杭州西湖区", user_id="lin", conversation_id="c1")
    result = pipeline.process("忘掉我住在杭州西湖区这件事", user_id="lin", conversation_id="c2")
    assert [s.decision.action for s in result.steps] == ["DELETE"]
    everything = b"".join(p.read_bytes() for p in (tmp_path / "data").rglob("*") if p.is_file())
    assert "西湖".encode() not in everything
    assert [e["decision"] for e in audit.entries("lin")] == ["DELETE"]


def test_a_secret_refused_at_the_gate_is_not_copied_into_the_audit(tmp_path, clock):
    """A model that proposes a secret the screen did not see: the entry keeps the reason only."""
    from memcourse.extraction import Candidate, Extraction, Message
    from memcourse.records import MemoryType, Source

    class Leaky:
        name = "llm:leaky"

        def extract(self, message, context=None):
            c = Candidate(MemoryType.ENTITY, "aws_key", "AWS key AKIAIOSFODNN7EXAMPLE", 0.95, 0.5,
                          message.text, Source.LLM_INFERRED, self.name, message)
            return Extraction(self.name, "ok", [c])

    audit = AuditLog(tmp_path / "audit")
    pipeline = MemoryPipeline(JsonMemoryStore(tmp_path / "m.json", clock=clock), extractor=Leaky(), audit=audit)
    result = pipeline.process(Message("今天把部署脚本改好了", "c1", user_id="lin"))
    assert result.steps[0].verdict.rule == "secret" and not result.written
    raw = audit.path_for("lin").read_text(encoding="utf-8")
    assert "AKIAIOSFODNN7EXAMPLE" not in raw and "aws_key" not in raw
    assert "withheld" in raw


@pytest.mark.parametrize("kind", ["json", "chroma"])
def test_no_residue_of_a_forgotten_memory_in_any_spelling_on_either_store(tmp_path, clock, kind):
    """memcourse.evaluations.residue greps every byte (UTF-8, UTF-16, escaped JSON, case-folded)."""
    from memcourse.evaluations.residue import describe, find_residue

    data = tmp_path / "data"
    if kind == "json":
        store = JsonMemoryStore(data / "memories.json", clock=clock)
    else:
        from memcourse.stores.chroma import ChromaMemoryStore

        store = ChromaMemoryStore(data / "chroma", clock=clock)
    pipeline = MemoryPipeline(store, audit=AuditLog(data / "audit"), clock=clock)
    pipeline.process("记住：金丝雀暗号 CanaryQx7 放在第三个抽屉", user_id="lin", conversation_id="c1")
    pipeline.process("Remember that the CanaryZz9 drill is on Friday", user_id="sam", conversation_id="c2")
    [lin] = store.list_all(user_id="lin")
    assert find_residue(data, ["CanaryQx7"]), "the canary is on disk before forgetting"
    assert pipeline.forget(lin.memory_id)
    leaks = find_residue(data, ["CanaryQx7", "金丝雀暗号", "第三个抽屉"])
    assert leaks == [], describe(leaks)
    assert pipeline.forget_user("sam") == 1
    leaks = find_residue(data, ["CanaryZz9"])
    assert leaks == [], describe(leaks)


def test_a_purge_drops_every_line_naming_any_id_of_the_chain_wherever_it_names_it(tmp_path):
    log = AuditLog(tmp_path / "audit")
    log.append(entry(memory_id="entity:cat:1", candidate={"content": "猫叫年糕"}))
    log.append(entry(memory_id="entity:cat:2", target_id="entity:cat:1", candidate={"content": "猫改名叫汤圆"}))
    log.append(entry(memory_id="event:session:3", sources=["entity:dog:9", "entity:cat:2"]))  # nested
    log.append(entry(memory_id="entity:dog:9", candidate={"content": "my dog is Biscuit"}))
    assert log.purge_memories(("entity:cat:1", "entity:cat:2", "event:session:3")) == 3
    assert [e["memory_id"] for e in log.entries("lin")] == ["entity:dog:9"]
    assert log.purge_memories([]) == 0
    with pytest.raises(TypeError):
        log.purge_memories("entity:dog:9")  # one string is not a list of ids
    with pytest.raises(ValueError):
        log.purge_memories(["entity:dog:9", " "])
    assert len(log.entries("lin")) == 1, "a refused purge removes nothing"
    assert not (tmp_path / "audit" / "purge-pending.json").exists()


def test_the_rewrite_keeps_the_files_mode_and_leaves_no_temporary_file(tmp_path):
    log = AuditLog(tmp_path / "audit")
    log.append(entry(memory_id="a"))
    log.append(entry(memory_id="b"))
    mode = log.path_for("lin").stat().st_mode & 0o777
    assert log.purge_memory("a") == 1
    assert log.path_for("lin").stat().st_mode & 0o777 == mode == 0o600
    assert sorted(p.name for p in (tmp_path / "audit").iterdir() if not p.name.endswith(".lock")) == [
        log.path_for("lin").name
    ]


def test_opening_the_log_sweeps_the_debris_of_killed_rewrites_and_only_that(tmp_path):
    folder = tmp_path / "audit"
    log = AuditLog(folder)
    log.append(entry(memory_id="a", candidate={"content": "CANARYau1"}))
    name = log.path_for("lin").name
    debris = [folder / f".{name}.k3y_ab12.tmp", folder / ".audit-x1y2z3w4.tmp"]  # ours, and the old rewrite's
    kept = [folder / f".{name}.tmp", folder / "notes.tmp", folder / f".{name}.TOOLONG123.tmp"]
    for path in debris + kept:
        path.write_text("CANARYau1")
    reopened = AuditLog(folder)
    assert reopened.swept == 2
    assert not any(path.exists() for path in debris) and all(path.exists() for path in kept)
    assert reopened.entries("lin") == log.entries("lin")


# A purge killed after writing its temporary file and before renaming it over the log: the
# pause is a test hook (os.replace of the log blocks and says so), so the kill lands in
# exactly that window, every run, without timing guesses.
KILLED_PURGE = """
import os, sys, time
real_replace = os.replace

def paused_replace(src, dst):
    if str(dst).endswith(".jsonl"):
        print("paused", flush=True)
        time.sleep(600)  # the parent kills us here
    return real_replace(src, dst)

os.replace = paused_replace
from memcourse.extraction.audit import AuditLog
AuditLog(sys.argv[1]).purge_memories(sys.argv[2:])
"""


def test_a_purge_killed_mid_rewrite_leaves_debris_the_next_open_sweeps_and_finishes(tmp_path):
    import signal
    import subprocess
    import sys

    from memcourse.evaluations.residue import describe, find_residue
    from memcourse.stores.files import debris

    folder = tmp_path / "audit"
    log = AuditLog(folder)
    canary = "CANARYau7"
    log.append(entry(memory_id=f"entity:locker_{canary.lower()}:1", candidate={"content": f"locker {canary}"}))
    log.append(entry(memory_id="entity:locker:2", target_id=f"entity:locker_{canary.lower()}:1",
                     candidate={"content": "the locker moved"}))
    log.append(entry(memory_id="entity:dog:9", candidate={"content": "my dog is Biscuit"}))
    log.append(entry("sam", memory_id="entity:sam:1", candidate={"content": "sam's note"}))
    child = subprocess.Popen(
        [sys.executable, "-c", KILLED_PURGE, str(folder), f"entity:locker_{canary.lower()}:1", "entity:locker:2"],
        stdout=subprocess.PIPE, text=True,
    )
    try:
        assert child.stdout.readline().strip() == "paused"
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=30)
        child.stdout.close()
    assert debris(log.path_for("lin")), "the kill must leave the rewrite's temporary file"
    assert find_residue(folder, [canary]), "the log itself was never replaced: the canary is still in it"
    assert (folder / "purge-pending.json").exists()
    assert canary not in (folder / "purge-pending.json").read_text(), "the journal holds digests, not ids"

    reopened = AuditLog(folder)
    assert reopened.swept == 1 and debris(log.path_for("lin")) == []
    leaks = find_residue(folder, [canary, "the locker moved"])
    assert leaks == [], describe(leaks, folder)
    assert [e["memory_id"] for e in reopened.entries("lin")] == ["entity:dog:9"]
    assert [e["memory_id"] for e in reopened.entries("sam")] == ["entity:sam:1"]
    assert not (folder / "purge-pending.json").exists()
