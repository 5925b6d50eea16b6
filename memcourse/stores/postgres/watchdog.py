"""Stop an embedded PostgreSQL server when its owner process ends, however it ends.

Run by :class:`memcourse.stores.postgres.server.EmbeddedServer` as
``python -m memcourse.stores.postgres.watchdog <root> <bindir> <user>``, with its stdin the read
end of a pipe only the owner can write to. Reading returns end-of-file when the owner closes it
(``stop()``) or when the owner dies (the kernel closes its descriptors, even after SIGKILL). Then
the server is stopped (``fast``: open transactions are rolled back, then ``immediate`` if that
hangs) and the temporary directory deleted. The watchdog runs in its own session, so a signal
sent to the owner's process group does not take it down first.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path


def main(root: str, bindir: str, user: str) -> None:
    try:
        while sys.stdin.buffer.read(4096):
            pass  # the owner never writes; anything read is ignored
    except OSError:
        pass
    data = Path(root) / "data"
    pg_ctl = str(Path(bindir) / "pg_ctl")
    if (data / "postmaster.pid").exists():
        for mode in ("fast", "immediate"):
            try:
                done = subprocess.run([pg_ctl, "-D", str(data), "-m", mode, "-w", "-t", "20", "stop"],
                                      user=user or None, capture_output=True, timeout=30)
                if done.returncode == 0:
                    break
            except subprocess.TimeoutExpired:
                continue
    shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main(*sys.argv[1:4])
