"""SIGKILL crash loop for the memory stores, through their public API only.

    .venv/bin/python scripts/crash_stores.py --store json --kills 40
    .venv/bin/python scripts/crash_stores.py --store chroma --kills 20
    .venv/bin/python scripts/crash_stores.py --store both --kills 40 --seed 7
    .venv/bin/python scripts/crash_stores.py --store postgres --kills 20

Each round starts writer processes on one store path (several at once for the JSON store,
which serialises processes with a file lock; one at a time for embedded Chroma; several for
PostgreSQL, one embedded server started by this script for the whole loop), lets them
upsert new memories, update memories every writer shares, and forget some of their own, and
kills them with SIGKILL at a random moment. A writer appends a line to its acknowledgement
log (fsynced) only *after* the store call returned, so every line is a promise the store made.

Before writing, each new writer opens the store left by the killed ones and checks every
promise so far: an acknowledged upsert's content must be the memory's current content or in
its history; an acknowledged forget must have removed the memory. For the JSON store it also
counts the crash debris (``.<name>.*.tmp``) found before opening and checks that opening
removed it. The script prints kills survived and records lost, and exits 1 if anything was lost
or the store did not open cleanly.

This is a stress script, not part of the test suite (a short smoke run is in
``tests/test_json_store.py``); ``docs/reliability.md`` quotes its figures.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SHARED_SUBJECTS = 5  # memories every writer updates, so lost updates would show


# -- the writer (a child process) ---------------------------------------------------------------
#: The hash stand-in embedder the tests use (tests/standin.py): a writer checks bookkeeping, and
#: loading the model in every one of hundreds of writers would cost minutes and prove nothing.
_STANDIN = Path(__file__).resolve().parents[1] / "tests" / "standin.py"


def _standin_embedder():
    namespace: dict = {}
    exec(compile(_STANDIN.read_text(encoding="utf-8"), str(_STANDIN), "exec"), namespace)
    exec(namespace["STANDIN_EMBEDDER"], namespace)
    return namespace["StandInEmbedder"]()


def open_store(kind: str, path: Path):
    if kind == "postgres":
        from memcourse.stores.postgres import PostgresMemoryStore

        return PostgresMemoryStore(os.environ["MEMCOURSE_CRASH_DSN"], schema="crash",
                                   key_store=path / "keys.sqlite", embedder=_standin_embedder())
    if kind == "json":
        from memcourse.stores.json_store import JsonMemoryStore

        return JsonMemoryStore(path / "memories.json")
    from memcourse.stores.chroma import ChromaMemoryStore

    return ChromaMemoryStore(path / "chroma")


def read_promises(acks: Path) -> list[dict]:
    """Every complete line of every acknowledgement log (a line cut by the kill is no promise)."""
    promises = []
    for log in sorted(acks.glob("*.log")):
        text = log.read_text(encoding="utf-8")
        for line in text.splitlines(keepends=True):
            if line.endswith("\n"):
                promises.append(json.loads(line))
    return promises


def verify(store, promises: list[dict]) -> dict:
    """Check every promise against the store; return counts and the first few problems."""
    forgetting = {p["id"] for p in promises if p["op"] in ("forget-intent", "forget")}
    forgotten = {p["id"] for p in promises if p["op"] == "forget"}
    problems, checked = [], 0
    # One read of the whole store: every active memory's current content and its history.
    versions = {r.memory_id: [h.content for h in r.history] + [r.content] for r in store.list_all()}
    for promise in promises:
        memory_id = promise["id"]
        if promise["op"] == "upsert":
            if memory_id in forgetting:
                continue  # its writer set out to forget it; present or not, both are honest
            checked += 1
            if promise["content"] not in versions.get(memory_id, ()):
                problems.append(f"acknowledged upsert lost: {memory_id} {promise['content']!r}")
        elif promise["op"] == "forget":
            checked += 1
            if memory_id in versions:
                problems.append(f"acknowledged forget undone: {memory_id}")
    return {"checked": checked, "lost": len(problems), "problems": problems[:5], "forgotten": len(forgotten)}


def writer(args: argparse.Namespace) -> None:
    from memcourse.records import MemoryRecord, MemoryType

    path, acks = Path(args.path), Path(args.path) / "acks"
    debris_before = 0
    if args.store == "json":
        from memcourse.stores.files import debris

        debris_before = len(debris(path / "memories.json"))
    try:
        store = open_store(args.store, path)
        report = verify(store, read_promises(acks))
        if args.store == "json":
            report["debris_after_open"] = len(debris(path / "memories.json"))
    except Exception as error:  # noqa: BLE001 - the finding is reported to the parent
        report = {"open_error": f"{type(error).__name__}: {error}"}
    report["debris_before_open"] = debris_before
    print("READY " + json.dumps(report), flush=True)
    if "open_error" in report or args.verify_only:
        return

    rng = random.Random(f"{args.name}")
    log = open(acks / f"{args.name}.log", "a", encoding="utf-8")

    def promise(**entry) -> None:
        log.write(json.dumps(entry, ensure_ascii=False) + "\n")
        log.flush()
        os.fsync(log.fileno())

    mine: list[str] = []
    for i in range(args.ops):
        roll = rng.random()
        if roll < 0.1 and mine:
            memory_id = mine.pop(rng.randrange(len(mine)))
            promise(op="forget-intent", id=memory_id)
            store.forget(memory_id)
            promise(op="forget", id=memory_id)
            continue
        if roll < 0.4:
            subject = f"shared topic {rng.randrange(SHARED_SUBJECTS)}"
        else:
            subject = f"{args.name} topic {i}"
        content = f"{args.name} 第 {i} 次写入 ({subject})"
        stored = store.upsert(MemoryRecord(MemoryType.EVENT, subject, content))
        promise(op="upsert", id=stored.memory_id, content=content)
        if i == 0:
            print("WRITING", flush=True)  # the parent times its kill from the first promise
        if not subject.startswith("shared"):
            mine.append(stored.memory_id)


# -- the parent: start, kill, check ---------------------------------------------------------------
def start_writer(kind: str, path: Path, name: str, ops: int, verify_only: bool = False) -> subprocess.Popen:
    command = [sys.executable, __file__, "--writer", "--store", kind, "--path", str(path), "--name", name,
               "--ops", str(ops)]
    if verify_only:
        command.append("--verify-only")
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def wait_for(process: subprocess.Popen, marker: str, timeout: float) -> str:
    """The rest of the first line the writer prints starting with ``marker``.

    Reads the pipe with ``os.read`` into our own buffer: a buffered ``readline`` could pull
    two lines at once and leave ``select`` waiting for bytes already read."""
    buffer = _buffers.setdefault(process.pid, bytearray())
    fd = process.stdout.fileno()
    deadline = time.monotonic() + timeout
    while True:
        while b"\n" in buffer:
            line, _, rest = bytes(buffer).partition(b"\n")
            buffer[:] = rest
            text = line.decode("utf-8", "replace")
            if text.startswith(marker):
                return text[len(marker):].strip()
        remaining = deadline - time.monotonic()
        ready = select.select([fd], [], [], max(0.0, remaining))[0] if remaining > 0 else []
        chunk = os.read(fd, 65536) if ready else b""
        if not chunk:
            break
        buffer.extend(chunk)
    process.kill()
    process.wait()
    raise RuntimeError(f"writer did not print {marker!r} within {timeout}s: {process.stderr.read()[-2000:]}")


_buffers: dict[int, bytearray] = {}


def wait_ready(process: subprocess.Popen, timeout: float) -> dict:
    return json.loads(wait_for(process, "READY ", timeout))


def crash_loop(kind: str, kills: int, seed: int, writers: int, max_delay: float, ops: int) -> dict:
    if kind != "postgres":
        return _crash_loop(kind, kills, seed, writers, max_delay, ops)
    from memcourse.stores.postgres.server import EmbeddedServer

    server = EmbeddedServer(durable=True)  # writers die; the server and its fsync stay honest
    os.environ["MEMCOURSE_CRASH_DSN"] = server.dsn
    try:
        return _crash_loop(kind, kills, seed, writers, max_delay, ops)
    finally:
        server.stop()


def _crash_loop(kind: str, kills: int, seed: int, writers: int, max_delay: float, ops: int) -> dict:
    rng = random.Random(seed)
    root = Path(tempfile.mkdtemp(prefix=f"crash-{kind}-"))
    (root / "acks").mkdir()
    totals = {"store": kind, "kills": 0, "survived": 0, "lost": 0, "open_errors": 0, "checked": 0,
              "debris_seen": 0, "debris_left": 0, "problems": []}
    started = time.monotonic()
    processes: list[subprocess.Popen] = []
    try:
        for round_no in range(kills + 1):  # the last round only verifies
            last = round_no == kills
            count = 1 if last else writers
            # The first writer checks the store alone (before the others start, so a live
            # write of theirs is never mistaken for debris); the rest join it after.
            processes = [start_writer(kind, root, f"r{round_no}w0", ops, verify_only=last)]
            reports = [wait_ready(processes[0], timeout=120)]
            for n in range(1, count):
                processes.append(start_writer(kind, root, f"r{round_no}w{n}", ops))
                reports.append(wait_ready(processes[-1], timeout=120))
            for report in reports:
                if "open_error" in report:
                    totals["open_errors"] += 1
                    totals["problems"].append(report["open_error"])
            first = reports[0]  # the first writer's check covers everything acknowledged so far
            if round_no > 0:
                ok = "open_error" not in first and first["lost"] == 0 and first.get("debris_after_open", 0) == 0
                totals["survived"] += ok
                totals["lost"] = max(totals["lost"], first.get("lost", 0))
                totals["checked"] = first.get("checked", totals["checked"])
                totals["debris_seen"] += first["debris_before_open"] > 0
                totals["debris_left"] += first.get("debris_after_open", 0) > 0
                totals["problems"].extend(first.get("problems", []))
            if last:
                for process in processes:
                    process.wait(timeout=60)
                    _buffers.pop(process.pid, None)
                break
            wait_for(processes[-1], "WRITING", timeout=120)  # every writer is past its warm-up
            time.sleep(rng.uniform(0.0, max_delay))
            for process in processes:
                os.kill(process.pid, signal.SIGKILL)
            for process in processes:
                process.wait()
                _buffers.pop(process.pid, None)
                process.stdout.close()
                process.stderr.close()
            totals["kills"] += 1
    finally:
        for process in processes:  # a failed round must not leave writers running
            if process.poll() is None:
                process.kill()
                process.wait()
        shutil.rmtree(root, ignore_errors=True)
    totals["seconds"] = round(time.monotonic() - started, 1)
    totals["problems"] = totals["problems"][:5]
    return totals


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--store", choices=["json", "chroma", "postgres", "both"], default="both",
                        help="both: json and chroma")
    parser.add_argument("--kills", type=int, default=40, help="kill rounds per store")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--writers", type=int, default=None,
                        help="writers per round (JSON: 3, Chroma: 1, PostgreSQL: 3)")
    parser.add_argument("--max-delay", type=float, default=None, help="latest kill, seconds after the last writer's "
                        "first write")
    parser.add_argument("--ops", type=int, default=10_000, help="operations a writer attempts before exiting")
    parser.add_argument("--json", action="store_true", help="print the totals as JSON")
    # the child's arguments
    parser.add_argument("--writer", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--verify-only", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--path", help=argparse.SUPPRESS)
    parser.add_argument("--name", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.writer:
        writer(args)
        return 0
    failed = False
    for kind in (["json", "chroma"] if args.store == "both" else [args.store]):
        writers = args.writers or (1 if kind == "chroma" else 3)
        delay = args.max_delay if args.max_delay is not None else {"json": 0.5, "chroma": 3.0, "postgres": 2.0}[kind]
        totals = crash_loop(kind, args.kills, args.seed, writers, delay, args.ops)
        failed |= bool(totals["lost"] or totals["open_errors"] or totals["debris_left"])
        if args.json:
            print(json.dumps(totals, ensure_ascii=False))
            continue
        print(
            f"{kind}: {totals['kills']} kills ({writers} writer(s) each), {totals['survived']} survived "
            f"(opened cleanly, every acknowledged write present); records lost: {totals['lost']} of "
            f"{totals['checked']} acknowledged operations checked; open errors: {totals['open_errors']}"
            + (f"; kills that left crash debris: {totals['debris_seen']}, debris left after open: "
               f"{totals['debris_left']}" if kind == "json" else "")
            + f"; {totals['seconds']} s"
        )
        for problem in totals["problems"]:
            print(f"  {problem}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
