"""A file you can trust: the low-level file handling under :class:`JsonMemoryStore`.

Writing "a JSON file" safely takes more than ``open(path, "w")``. Each function here exists
because the simple version failed in a way someone hit:

- **Only regular files.** ``open()`` on a FIFO blocks until a writer appears (forever, for a
  store), and a device file is not a store. :func:`read_regular` opens without blocking and
  checks what it opened; :func:`resolve` refuses anything but a regular file up front.
- **Symlinks are written through.** An atomic write replaces the path it is given; done on a
  symlink, that puts a regular file where the link was and the target silently stops
  receiving writes. :func:`resolve` follows the link at every write, so the target's folder
  gets the temporary file and the target itself is replaced (the link stays a link). The
  lock lives next to the target too, so two links to one file share one lock.
- **The file keeps its mode and owner.** ``mkstemp`` creates ``0600`` files; replacing a
  ``0664`` store with one would lock out the group that could read it. :func:`atomic_write`
  copies the old file's permission bits (and, where allowed, its owner) to the new one; a new
  file gets the usual ``0666`` minus the umask.
- **Crash debris is ours to remove.** A writer killed between creating its temporary file and
  renaming it leaves ``.<name>.<random>.tmp`` holding a whole copy of the store: memories a
  later ``forget`` deletes would survive there. :func:`remove_debris` deletes exactly the
  names :func:`atomic_write` makes; callers hold the store's lock, so no live write can own
  one at that moment.
"""

from __future__ import annotations

import os
import re
import stat
import tempfile
from pathlib import Path

from memcourse.stores.base import StoreError

_TMP_SUFFIX = ".tmp"
# What tempfile.mkstemp puts between prefix and suffix: 8 characters from this alphabet.
_RANDOM_PART = r"[a-z0-9_]{8}"


def resolve(path: Path) -> Path:
    """The file a store at ``path`` really reads and writes: ``path`` with symlinks followed.

    Raises :class:`StoreError` if it is a directory, a FIFO, a device or a socket, or if the
    link cannot be followed (a loop). A missing file is fine: the first write creates it."""
    real = Path(os.path.realpath(path))
    try:
        mode = os.stat(real).st_mode
    except FileNotFoundError:
        return real
    except OSError as error:
        raise StoreError(f"{path}: cannot reach the store file ({error.strerror})") from None
    if stat.S_ISDIR(mode):
        raise StoreError(f"{path} is a directory; give the path of a .json file")
    if not stat.S_ISREG(mode):
        raise StoreError(f"{path} is not a regular file ({_kind(mode)}); a store must be a plain file")
    return real


def read_regular(path: Path, *, max_bytes: int | None = None) -> bytes | None:
    """The bytes of a regular file, or ``None`` if it does not exist. Never blocks on a FIFO:
    the file is opened non-blocking and checked *after* opening (a check before opening could
    be raced by someone swapping the file). A file over ``max_bytes`` is refused before any
    byte is read (a 3 GB file would otherwise end in MemoryError, not a clear error)."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        return None
    except OSError as error:
        raise StoreError(f"{path}: cannot open the store file ({error.strerror})") from None
    with os.fdopen(fd, "rb") as handle:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise StoreError(f"{path} is not a regular file ({_kind(mode)}); a store must be a plain file")
        if max_bytes is None:
            return handle.read()
        data = handle.read(max_bytes + 1)  # the file may have grown since fstat
        if len(data) > max_bytes:
            raise StoreError(
                f"{path} is larger than the store-file limit of {max_bytes:,} bytes; it was not read "
                "(is this the right file? a store this big belongs in ChromaMemoryStore)"
            )
        return data


def atomic_write(path: Path, data: bytes) -> None:
    """Replace ``path`` (already resolved) with ``data`` so that a crash at any moment leaves
    the old file or the new one, never a mix: write a temporary sibling, fsync it, rename it
    over the target, fsync the folder. The target's mode and owner are kept."""
    try:
        old = os.stat(path)
    except FileNotFoundError:
        old = None
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=_TMP_SUFFIX, dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            if old is not None:
                os.fchmod(handle.fileno(), stat.S_IMODE(old.st_mode))
                if (old.st_uid, old.st_gid) != (os.geteuid(), os.getegid()):
                    try:
                        os.fchown(handle.fileno(), old.st_uid, old.st_gid)
                    except PermissionError:
                        pass  # only root may give a file away; the mode is still kept
            else:
                os.fchmod(handle.fileno(), 0o666 & ~current_umask())
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    fsync_directory(path.parent)


def debris(path: Path) -> list[Path]:
    """Temporary files :func:`atomic_write` left beside ``path`` (a writer killed mid-save)."""
    pattern = re.compile(rf"\.{re.escape(path.name)}\.{_RANDOM_PART}{re.escape(_TMP_SUFFIX)}")
    try:
        names = os.listdir(path.parent)
    except FileNotFoundError:
        return []
    found = []
    for name in names:
        if not pattern.fullmatch(name):
            continue
        candidate = path.parent / name
        try:
            if stat.S_ISREG(os.lstat(candidate).st_mode):
                found.append(candidate)
        except FileNotFoundError:
            pass  # renamed or removed since listdir: another process's write just finished
    return sorted(found)


def remove_debris(path: Path) -> int:
    """Delete :func:`debris`; call it only while holding the store's lock. Returns how many."""
    removed = 0
    for leftover in debris(path):
        try:
            leftover.unlink()
            removed += 1
        except FileNotFoundError:
            pass
    if removed:
        fsync_directory(path.parent)
    return removed


def current_umask() -> int:
    """The process umask, read without changing it (``os.umask`` can only be read by setting
    it, which would race with other threads creating files)."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    return 0o022


def fsync_directory(directory: Path) -> None:
    """Make a rename or unlink itself durable (POSIX); a no-op where folders cannot be opened."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _kind(mode: int) -> str:
    for test, name in ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device")):
        if test(mode):
            return name
    return "not a regular file"
