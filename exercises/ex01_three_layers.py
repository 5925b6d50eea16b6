"""Exercise 01 — checkpoint or memory? Save a run, restore it, and promote only what lasts.

Difficulty: ★★☆☆ · Expected time: 25 minutes · Notebook: 01_rag_checkpoint_memory.ipynb

Why: a checkpoint lets *this run* resume; long-term memory shapes *every later session*. Mixing
them is how "the search failed" ends up recalled into next week's prompt. You will write the
checkpoint half (save and restore run state) and the one door between the layers: at the end
of a run, only user messages that pass the policy gate reach the long-term store.

Build three functions:

``save_checkpoint(state, path)``
    Write ``state.snapshot()`` to ``path`` as JSON, UTF-8, with Chinese kept readable
    (``ensure_ascii=False``). The file holds exactly the four snapshot keys, nothing else.

``load_checkpoint(path) -> ShortTermState``
    Read that file back into an equal ``ShortTermState`` (``ShortTermState.restore`` helps).

``finish_run(state, user_messages, policy, store) -> list[MemoryRecord]``
    The end of a run. For each user message, in order, ask ``policy.decide(message)``; upsert
    the accepted records into ``store`` and return what the store returned, in order. The run
    state (goal, steps, observations, pending actions) is *never* written to the store, even
    when a step looks memorable, and ``state`` itself is left unchanged.

Done when ``memcourse grade 01`` shows 01 at 100%.
"""

from __future__ import annotations

from pathlib import Path

from memcourse import MemoryPolicy, MemoryRecord, ShortTermState


def save_checkpoint(state: ShortTermState, path: str | Path) -> None:
    raise NotImplementedError("ex01 save_checkpoint: not written yet (stuck? memcourse hint 01)")


def load_checkpoint(path: str | Path) -> ShortTermState:
    raise NotImplementedError("ex01 load_checkpoint: not written yet (stuck? memcourse hint 01)")


def finish_run(
    state: ShortTermState,
    user_messages: list[str],
    policy: MemoryPolicy,
    store,
) -> list[MemoryRecord]:
    raise NotImplementedError("ex01 finish_run: not written yet (stuck? memcourse hint 01)")
