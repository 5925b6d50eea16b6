"""Did forgetting leave anything behind? Grep every byte of every file for a canary.

An API that says "deleted" proves little: databases keep deleted rows in free pages,
write-ahead logs keep old versions, crashed writes leave temporary files, and indexes keep
their own copies. The only honest check is the one an attacker with a copy of the disk
would run: plant a unique string (a *canary*) in a memory, forget the memory, then search
the raw bytes of every file under the store's directory for it.

A string can be on disk in more than one spelling, so each canary is searched in every
form a store might plausibly write it:

- UTF-8 (SQLite text, our JSON files written with ``ensure_ascii=False``);
- UTF-16, little- and big-endian (SQLite databases may use them; Windows tools do);
- escaped JSON (``json.dumps`` with the default ``ensure_ascii=True`` writes 金 as
  ``\\u91d1``), also with upper-case hex digits;
- lower- and upper-case variants of each, because tokenisers and full-text indexes fold
  case (a BM25 vocabulary holds ``canaryxq7``, not ``CANARYxq7``).

Use it in a test or a notebook::

    leaks = find_residue(store_dir, ["CANARYxq7", "金丝雀暗号"])
    assert leaks == [], describe(leaks)
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

#: Files are read in blocks of this size; a canary split across two blocks is still found
#: because each block overlaps the previous one by the longest needle.
BLOCK = 1 << 20
#: The files hnswlib writes for one Chroma vector segment (vectors, links, sizes). Measured in
#: clean-clone runs: they can hold text fragments from the writing process's memory, in capacity
#: written out without being cleared (the store never gives Chroma any text). A known, open leak
#: of Chroma's, reported by the forget tests rather than hidden; every other file must hold no byte.
HNSW_SEGMENT_FILES = frozenset({"data_level0.bin", "length.bin", "link_lists.bin", "header.bin"})


@dataclass(frozen=True)
class Residue:
    """One place a canary was found: which canary, in which spelling, in which file, where."""

    canary: str
    encoding: str
    file: Path
    offset: int

    def __str__(self) -> str:
        return f"{self.canary!r} ({self.encoding}) in {self.file} at byte {self.offset}"


def spellings(canary: str) -> dict[str, bytes]:
    """Every byte form of ``canary`` we look for, keyed by a readable name."""
    if not isinstance(canary, str) or not canary:
        raise ValueError("a canary must be a non-empty string")
    forms: dict[str, bytes] = {}
    for case, text in (("", canary), ("lower ", canary.lower()), ("upper ", canary.upper())):
        escaped = json.dumps(text)[1:-1]  # ensure_ascii=True: non-ASCII becomes \u and four hex digits
        candidates = {
            "utf-8": text.encode("utf-8"),
            "utf-16-le": text.encode("utf-16-le"),
            "utf-16-be": text.encode("utf-16-be"),
            "json-escaped": escaped.encode("ascii"),
            "json-escaped-upper-hex": _upper_hex(escaped).encode("ascii"),
        }
        for name, needle in candidates.items():
            if needle not in forms.values():  # an ASCII canary's escaped form is its UTF-8 form
                forms[case + name] = needle
    return forms


def _upper_hex(escaped: str) -> str:
    """``\\u91d1`` -> ``\\u91D1`` (some encoders write upper-case hex digits)."""
    out, i = [], 0
    while i < len(escaped):
        if escaped.startswith("\\u", i) and i + 6 <= len(escaped):
            out.append("\\u" + escaped[i + 2 : i + 6].upper())
            i += 6
        else:
            out.append(escaped[i])
            i += 1
    return "".join(out)


def find_residue(root: str | os.PathLike[str], canaries: Iterable[str]) -> list[Residue]:
    """Every occurrence (first per file and spelling) of each canary under ``root``.

    ``root`` may be a directory (walked recursively, symlinks not followed, so a link out
    of the store cannot make us read the whole disk) or a single file. Files that cannot be
    read are reported as an error, not skipped: an unread file is an unproven claim.
    """
    root = Path(root)
    needles = [(canary, name, needle) for canary in canaries for name, needle in spellings(canary).items()]
    if not needles:
        raise ValueError("give at least one canary")
    if not root.exists():
        raise FileNotFoundError(f"{root} does not exist; nothing to search")
    files = [root] if root.is_file() else sorted(_files_under(root))
    overlap = max(len(needle) for _, _, needle in needles) - 1
    found: list[Residue] = []
    for file in files:
        seen: set[tuple[str, str]] = set()
        with open(file, "rb") as handle:
            start, tail = 0, b""
            while True:
                block = handle.read(BLOCK)
                if not block:
                    break
                window = tail + block
                for canary, name, needle in needles:
                    if (canary, name) in seen:
                        continue
                    at = window.find(needle)
                    if at >= 0:
                        seen.add((canary, name))
                        found.append(Residue(canary, name, file, start - len(tail) + at))
                start += len(block)
                tail = window[-overlap:] if overlap else b""
    return found


def _files_under(root: Path) -> Iterable[Path]:
    for folder, _dirs, names in os.walk(root, followlinks=False):
        for name in names:
            path = Path(folder) / name
            if path.is_file() and not path.is_symlink():
                yield path


def describe(found: list[Residue], root: str | os.PathLike[str] | None = None) -> str:
    """A short report: one line per finding (paths relative to ``root`` when given)."""
    if not found:
        return "no residue: no canary in any spelling in any file"
    lines = []
    for item in found:
        file = item.file.relative_to(root) if root is not None else item.file
        lines.append(f"{item.canary!r} ({item.encoding}) in {file} at byte {item.offset}")
    return "\n".join(lines)
