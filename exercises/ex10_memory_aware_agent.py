"""Exercise 10 — a context packer: recalled memories to a sourced prompt block, within budget.

Difficulty: ★★★☆ · Expected time: 35 minutes · Notebook: 10_memory_aware_agent.ipynb

Why: recall gives a ranked list; the model needs a short block it can read and you can audit.
Grouping by type tells the model what each memory is for (preferences constrain every answer,
facts describe the user's world, tasks say what is in progress). Provenance on every line lets
you trace a wrong answer to the memory behind it. A budget keeps the prompt small, and a memory
that does not fit is left out *whole*: cutting "不喜欢邮件通知，除非是账单" after the comma
inverts what it says.

Build one function:

``pack_memories(records, *, budget=600, max_items=8)`` -> ``str``
    ``records`` are recalled memories, best first (assume they already passed the read guard).

    - **Selection.** Walk ``records`` in order. Include a record if fewer than ``max_items`` are
      included so far *and* the rendered text with it added is at most ``budget`` characters
      (``len`` of the whole string). Otherwise skip it and go on: a later, shorter record may
      still fit. Never include the same ``memory_id`` twice.
    - **Rendering.** Sections in this type order: rule, preference, entity, task, event,
      decision (``TYPE_ORDER``); only types that have an included record appear. Each section
      is a header line ``## <type>`` followed by one line per record, in recall order::

          - <content> (<source>, id=<memory_id>)

      where line breaks (``\\r``, ``\\n``) inside the content become single spaces, so a memory
      cannot fake a header. Lines are joined with ``"\\n"``; no trailing newline.
    - Nothing included: return ``""``.

Done when ``memcourse grade 10`` shows 10 at 100%.
"""

from __future__ import annotations

from memcourse import MemoryRecord

TYPE_ORDER = ("rule", "preference", "entity", "task", "event", "decision")


def pack_memories(records: list[MemoryRecord], *, budget: int = 600, max_items: int = 8) -> str:
    raise NotImplementedError("ex10 pack_memories: not written yet (stuck? memcourse hint 10)")
