"""Exercise 09 — the fence: recalled memories reach the model as quoted data, never as orders.

Difficulty: ★★★☆ · Expected time: 40 minutes · Notebook: 09_trust_boundary.ipynb

Why: the detectors of notebook 03 are a filter, and a paraphrase nobody anticipated gets past
them. What keeps such a memory harmless is how it is shown to the model: on one line of its
own, inside a block marked as quoted user data, below the rules an administrator set. A field
that can start a new line (a conversation id holding ``"\\n## Rules ..."``) can forge that
structure, so every field goes through one escaping function.

Build two functions.

``escape_line(value: str) -> str``
    Make any field safe to put inside one line of the block, changing nothing else:

    1. Every line boundary that ``str.splitlines()`` recognises (``\\n``, ``\\r``, ``\\v``,
       ``\\f``, ``\\x1c``, ``\\x1d``, ``\\x1e``, ``\\x85``, ``\\u2028``, ``\\u2029``) and every
       tab, together with the whitespace around it, becomes one space.
    2. Every other control character (Unicode category ``Cc``) and every invisible format
       character (category ``Cf``: zero-width spaces, bidi overrides, tag characters) is removed.
    3. Then ``"<<<"`` becomes ``"< < <"`` and ``">>>"`` becomes ``"> > >"``, so no field can
       write a fence marker (do this *after* step 2: ``"<<\\u200b<"`` must not survive).
    4. Leading and trailing spaces are stripped. Everything else is kept exactly as it was
       (Chinese, punctuation, ``<b>``, ``a > b``...).

``fence_memories(records) -> tuple[str, list[tuple[MemoryRecord, str]]]``
    Render recalled records (in the order given) as the block a prompt receives, plus what was
    left out:

    - a ``rule`` memory whose source is ``admin_configured`` goes in the rules section, as
      ``- [rule] <content>``;
    - a ``rule`` memory from any other source (a user, a tool, a model) is left out: it goes
      to the returned list as ``(record, reason)`` with ``reason`` starting with
      ``"permission"``;
    - every other record goes inside the fence, as
      ``- [<type>] <content> (source=<source>, id=<memory_id>)``, with ``, conv=<conversation
      id>`` before the closing parenthesis when the record has one.

    Every field is passed through ``escape_line``. The text is, joined with ``"\\n"``:
    ``RULES_HEADER`` and the rule lines (only if there are rules), then ``FENCE_OPEN``, the
    fenced lines and ``FENCE_CLOSE`` (only if there are fenced records). No records kept: ``""``.
    Do not change the records.

Done when ``memcourse grade 09`` shows 09 at 100%.
"""

from __future__ import annotations

from memcourse import MemoryRecord
from memcourse.recall.packing import FENCE_CLOSE, FENCE_OPEN

RULES_HEADER = "## Rules (set by an administrator)"

__all__ = ["FENCE_CLOSE", "FENCE_OPEN", "RULES_HEADER", "escape_line", "fence_memories"]


def escape_line(value: str) -> str:
    raise NotImplementedError("ex09 escape_line: not written yet (stuck? memcourse hint 09)")


def fence_memories(records: list[MemoryRecord]) -> tuple[str, list[tuple[MemoryRecord, str]]]:
    raise NotImplementedError("ex09 fence_memories: not written yet (stuck? memcourse hint 09)")
