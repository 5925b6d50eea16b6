"""Shared fixtures.

``store`` is the fixture behind the store contract suite: every test that takes it runs once
per store kind in ``STORE_KINDS``. A new store joins the contract by adding a kind here.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
import uuid
from pathlib import Path

import pytest

from memcourse.stores.json_store import JsonMemoryStore
from memcourse.testing import FakeClock

# The course speaks the learner's language (MEMCOURSE_LANG, else the locale; memcourse.course.i18n).
# The tests, and the notebook kernels nbval starts from this process, check the English edition's
# messages: a developer with a Chinese locale or MEMCOURSE_LANG=zh must get the same results.
# Tests of the Chinese messages set the variable themselves (monkeypatch).
os.environ["MEMCOURSE_LANG"] = "en"

# "chroma": embedded (PersistentClient in tmp_path); "chroma-server": a real `chroma run` on
# loopback, started once per session, one fresh collection per test.
# "postgres": one embedded PostgreSQL server per session (or MEMCOURSE_DATABASE_URL), one fresh
# schema per test. A server that cannot start is an error, never a skip.
STORE_KINDS = ["json", "chroma", "chroma-server", "postgres"]


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _chroma_cli() -> str | None:
    beside = Path(sys.executable).parent / "chroma"
    return str(beside) if beside.exists() else shutil.which("chroma")


class ChromaServer:
    """A `chroma run` child process with its own data directory, on a free loopback port."""

    def __init__(self, data_dir: Path, log_path: Path, *, timeout: float = 60.0):
        cli = _chroma_cli()
        if cli is None:
            pytest.skip("the `chroma` command (installed with chromadb) is not on PATH")
        self.host, self.port = "127.0.0.1", _free_port()
        self._log = open(log_path, "wb")
        self.process = subprocess.Popen(
            [cli, "run", "--path", str(data_dir), "--host", self.host, "--port", str(self.port)],
            stdout=self._log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group, so stop() reaches any children
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"chroma run exited with {self.process.returncode}; see {log_path}")
            try:
                with urllib.request.urlopen(f"http://{self.host}:{self.port}/api/v2/heartbeat", timeout=1):
                    return
            except OSError:
                time.sleep(0.2)
        self.stop()
        raise RuntimeError(f"chroma run did not answer its heartbeat within {timeout}s; see {log_path}")

    def client(self):
        import chromadb
        from chromadb.config import Settings

        return chromadb.HttpClient(host=self.host, port=self.port, settings=Settings(anonymized_telemetry=False))

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=10)
        self._log.close()


@pytest.fixture(scope="session")
def chroma_server(tmp_path_factory):
    """One real Chroma server for the whole session, stopped (by its pid) at the end."""
    root = tmp_path_factory.mktemp("chroma-server")
    server = ChromaServer(root / "data", root / "server.log")
    yield server
    server.stop()


@pytest.fixture(scope="session")
def postgres_dsn():
    """A PostgreSQL server for the session: MEMCOURSE_DATABASE_URL, or an embedded one (fsync
    off: its data dies with the session), stopped at the end."""
    from memcourse.stores.postgres.server import EmbeddedServer, database_url

    dsn = database_url()
    if dsn is not None:
        yield dsn
        return
    server = EmbeddedServer(durable=False)
    yield server.dsn
    server.stop()


@pytest.fixture
def make_postgres_store(request, postgres_dsn):
    """Builds PostgresMemoryStores, each in a schema of its own (keyword arguments reach the
    store). A fixture, not an import: under xdist, ``from conftest import`` can find
    tests/graded/conftest.py instead of this file."""

    def make(tmp_path, clock, **kwargs):
        return build_postgres_store(postgres_dsn, tmp_path, clock, request, **kwargs)

    return make


def build_postgres_store(dsn: str, tmp_path, clock, request=None, **kwargs):
    """A PostgresMemoryStore in a schema of its own, closed when the test ends."""
    from memcourse.stores.postgres import PostgresMemoryStore

    store = PostgresMemoryStore(
        dsn,
        schema=f"t_{uuid.uuid4().hex}",
        key_store=tmp_path / f"keys-{uuid.uuid4().hex}.sqlite",
        clock=clock,
        **kwargs,
    )
    if request is not None:
        request.addfinalizer(store.close)
    return store


def build_store(kind: str, tmp_path, clock, request=None):
    if kind == "json":
        return JsonMemoryStore(tmp_path / "memories.json", clock=clock)
    if kind == "chroma":
        from memcourse.stores.chroma import ChromaMemoryStore

        return ChromaMemoryStore(tmp_path / "chroma", clock=clock)
    if kind == "chroma-server":
        from memcourse.stores.chroma import ChromaMemoryStore

        server = request.getfixturevalue("chroma_server")
        # A collection per test: tests share the server, never each other's memories.
        return ChromaMemoryStore(client=server.client(), collection=f"t-{uuid.uuid4().hex}", clock=clock)
    if kind == "postgres":
        return build_postgres_store(request.getfixturevalue("postgres_dsn"), tmp_path, clock, request)
    raise ValueError(f"unknown store kind {kind!r}")


@pytest.fixture(params=STORE_KINDS)
def store(request, tmp_path, clock):
    return build_store(request.param, tmp_path, clock, request)
