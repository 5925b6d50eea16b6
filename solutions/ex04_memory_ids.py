"""Solution 04 — memory ids that survive Chinese (see exercises/ex04_memory_ids.py)."""

from __future__ import annotations

import hashlib
import re
import unicodedata

from memcourse import MemoryType


def make_id(memory_type: MemoryType | str, subject: str) -> str:
    kind = MemoryType(memory_type).value
    if not isinstance(subject, str) or not subject.strip():
        raise ValueError("subject must be a non-empty string")
    key = re.sub(r"\s+", " ", unicodedata.normalize("NFKC", subject).strip().lower())
    slug = re.sub(r"\s", "_", key)
    slug = re.sub(r"[^a-z0-9_\-\u4e00-\u9fff]", "_", slug).strip("_")
    slug = slug[:32] or "memory"
    # 16 hex digits = 64 bits: by the birthday bound the first collision is expected after about
    # 2 ** 32 (four billion) ids per type, far more memories than one store will ever hold.
    digest = hashlib.sha256(f"{kind}\x1f{key}".encode("utf-8")).hexdigest()[:16]
    return f"{kind}:{slug}:{digest}"
