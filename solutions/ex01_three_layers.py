"""Solution 01 — checkpoint or memory? (see exercises/ex01_three_layers.py)."""

from __future__ import annotations

import json
from pathlib import Path

from memcourse import MemoryPolicy, MemoryRecord, ShortTermState


def save_checkpoint(state: ShortTermState, path: str | Path) -> None:
    text = json.dumps(state.snapshot(), ensure_ascii=False, indent=2)
    Path(path).write_text(text, encoding="utf-8")


def load_checkpoint(path: str | Path) -> ShortTermState:
    return ShortTermState.restore(json.loads(Path(path).read_text(encoding="utf-8")))


def finish_run(
    state: ShortTermState,
    user_messages: list[str],
    policy: MemoryPolicy,
    store,
) -> list[MemoryRecord]:
    # `state` is deliberately unused: run state ends with the run. Only the user's own words,
    # and only those the gate accepts, cross into long-term memory.
    written = []
    for message in user_messages:
        decision = policy.decide(message)
        if decision.record is not None:
            written.append(store.upsert(decision.record))
    return written
