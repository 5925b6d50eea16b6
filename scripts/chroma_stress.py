"""Concurrency stress for ChromaMemoryStore: processes through a real Chroma server, threads
in one process, and a second process on an embedded path.

    .venv/bin/python scripts/chroma_stress.py server --processes 4 --upserts 200 --shared 10
    .venv/bin/python scripts/chroma_stress.py threads --stores 2 --updates 50
    .venv/bin/python scripts/chroma_stress.py embedded-second-process

``server`` starts ``chroma run`` on a free loopback port with its own data directory, then
``--processes`` writer processes each upsert ``--upserts`` records: every other write updates
one of ``--shared`` records all writers share, the rest are the writer's own. Each writer
reports every upsert that *returned* (an acknowledged version). Afterwards every acknowledged
version must be the record's current content or in its history; the script prints how many
were lost (the issue measured 4-5 of 800 before append-only version rows) and exits 1 if any.

``threads`` runs ``--stores`` store objects on one embedded path, each updating one memory
``--updates`` times from its own thread, and counts surviving versions (before the shared
per-collection state: 51 of 100).

``embedded-second-process`` opens an embedded store, then tries the same path from a second
process and prints what that process is told.

Writers embed with the real model unless ``--hash-embedder`` (same model id, vectors from a
hash: faster, and the bookkeeping under test is the same). Not part of the test suite (short
versions are in ``tests/test_chroma_concurrency.py``); ``docs/reliability.md`` quotes the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path


def hash_embedder():
    """The tests' stand-in for the model (tests/standin.py): same model id and dimension,
    vectors from a hash of the text, so workers start without loading the model."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
    from standin import STANDIN_EMBEDDER

    namespace: dict = {}
    exec(STANDIN_EMBEDDER, namespace)
    return namespace["StandInEmbedder"]()


# -- a Chroma server on loopback ---------------------------------------------------------------
class Server:
    def __init__(self, data: Path):
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            self.port = sock.getsockname()[1]
        cli = Path(sys.executable).parent / "chroma"
        self.process = subprocess.Popen(
            [str(cli if cli.exists() else shutil.which("chroma")), "run", "--path", str(data),
             "--host", "127.0.0.1", "--port", str(self.port)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/api/v2/heartbeat", timeout=1):
                    return
            except OSError:
                time.sleep(0.2)
        self.stop()
        raise RuntimeError("chroma run did not start within 60 s")

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            self.process.wait(timeout=30)


def server_store(port: int, name: str, fast: bool):
    import chromadb
    from chromadb.config import Settings

    from memcourse.stores.chroma import ChromaMemoryStore

    client = chromadb.HttpClient(host="127.0.0.1", port=port, settings=Settings(anonymized_telemetry=False))
    extra = {"embedder": hash_embedder()} if fast else {}
    return ChromaMemoryStore(client=client, collection=name, dedupe_threshold=2, **extra)


def server_writer(args: argparse.Namespace) -> None:
    from memcourse.records import MemoryRecord, MemoryType

    store = server_store(args.port, args.collection, args.hash_embedder)
    for i in range(args.upserts):
        subject = f"shared {(i // 2) % args.shared}" if i % 2 == 0 else f"own {args.worker} {i}"
        content = f"worker {args.worker} write {i}"
        stored = store.upsert(MemoryRecord(MemoryType.ENTITY, subject, content))
        print(json.dumps([stored.memory_id, content]), flush=True)


def run_server(args: argparse.Namespace) -> int:
    root = Path(tempfile.mkdtemp(prefix="chroma-stress-"))
    server = Server(root / "data")
    try:
        started = time.monotonic()
        name = "stress"
        reader = server_store(server.port, name, args.hash_embedder)  # creates the collection once
        command = [sys.executable, __file__, "server-writer", "--port", str(server.port), "--collection", name,
                   "--upserts", str(args.upserts), "--shared", str(args.shared)]
        if args.hash_embedder:
            command.append("--hash-embedder")
        workers = [subprocess.Popen([*command, "--worker", str(w)], stdout=subprocess.PIPE, text=True)
                   for w in range(args.processes)]
        acknowledged = []
        for worker in workers:
            out, _ = worker.communicate()
            acknowledged.extend(json.loads(line) for line in out.splitlines() if line.strip())
            if worker.returncode != 0:
                print(f"a writer failed with exit code {worker.returncode}")
        lost = []
        current = {}
        for memory_id, content in acknowledged:
            if memory_id not in current:
                record = reader.get(memory_id)
                current[memory_id] = [] if record is None else [h.content for h in record.history] + [record.content]
            if content not in current[memory_id]:
                lost.append((memory_id, content))
        elapsed = time.monotonic() - started
        print(
            f"server: {args.processes} processes x {args.upserts} upserts ({args.shared} shared records): "
            f"{len(acknowledged)} acknowledged, {len(lost)} lost; {len(reader.list_all())} active "
            f"records; {elapsed:.1f} s"
        )
        return 1 if lost or len(acknowledged) != args.processes * args.upserts else 0
    finally:
        server.stop()
        shutil.rmtree(root, ignore_errors=True)


# -- threads in one process ------------------------------------------------------------------------
def run_threads(args: argparse.Namespace) -> int:
    from memcourse.records import MemoryRecord, MemoryType
    from memcourse.stores.chroma import ChromaMemoryStore

    root = Path(tempfile.mkdtemp(prefix="chroma-threads-"))
    extra = {"embedder": hash_embedder()} if args.hash_embedder else {}
    stores = [ChromaMemoryStore(root / "db", **extra) for _ in range(args.stores)]
    first = stores[0].upsert(MemoryRecord(MemoryType.ENTITY, "counter", "version start"))

    def work(index: int) -> None:
        for i in range(args.updates):
            stores[index].upsert(MemoryRecord(MemoryType.ENTITY, "counter", f"version {index}-{i}"))

    threads = [threading.Thread(target=work, args=(i,)) for i in range(args.stores)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    record = stores[0].get(first.memory_id)
    survived = len(record.history) + 1
    expected = 1 + args.stores * args.updates
    print(f"threads: {args.stores} store objects x {args.updates} updates of one memory: {survived} of {expected} "
          f"versions survive")
    for store in stores:
        store.close()
    shutil.rmtree(root, ignore_errors=True)
    return 0 if survived == expected else 1


# -- a second process on an embedded path ------------------------------------------------------------
def run_second_process(args: argparse.Namespace) -> int:
    from memcourse.stores.chroma import ChromaMemoryStore

    root = Path(tempfile.mkdtemp(prefix="chroma-embedded-"))
    store = ChromaMemoryStore(root / "db")
    probe = "import sys\nfrom memcourse.stores.chroma import ChromaMemoryStore\nChromaMemoryStore(sys.argv[1])"
    done = subprocess.run([sys.executable, "-c", probe, str(root / "db")], capture_output=True, text=True)
    last = done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "(no error)"
    print(f"this process (pid {os.getpid()}) holds the path; a second process exits with {done.returncode}:\n{last}")
    store.close()
    shutil.rmtree(root, ignore_errors=True)
    return 0 if done.returncode != 0 else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    server = sub.add_parser("server", help="several processes through a real chroma run")
    server.add_argument("--processes", type=int, default=4)
    server.add_argument("--upserts", type=int, default=200)
    server.add_argument("--shared", type=int, default=10)
    server.add_argument("--hash-embedder", action="store_true")
    threads = sub.add_parser("threads", help="several store objects and threads, one process")
    threads.add_argument("--stores", type=int, default=2)
    threads.add_argument("--updates", type=int, default=50)
    threads.add_argument("--hash-embedder", action="store_true")
    sub.add_parser("embedded-second-process", help="what a second process on an embedded path is told")
    writer = sub.add_parser("server-writer", help=argparse.SUPPRESS)
    for name in ("--port", "--upserts", "--shared", "--worker"):
        writer.add_argument(name, type=int, required=True)
    writer.add_argument("--collection", required=True)
    writer.add_argument("--hash-embedder", action="store_true")
    args = parser.parse_args(argv)
    if args.command == "server-writer":
        server_writer(args)
        return 0
    return {"server": run_server, "threads": run_threads, "embedded-second-process": run_second_process}[args.command](
        args
    )


if __name__ == "__main__":
    sys.exit(main())
