"""Exercise 05 — a store that never loses data: full write-back and atomic saves.

Difficulty: ★★★☆ · Expected time: 35 minutes · Notebook: 05_bug_clinic_typed_search.ipynb

Why: search *writes* (it records ``access_count`` and ``last_accessed_at``), so every search is
a read-modify-write. Write back the filtered view instead of the full list and a typed search
deletes every other type. Write the file in place and a crash halfway leaves half a file. You
will write both halves of the fix.

Build two functions:

``typed_search(records, query, *, now, memory_type=None, limit=5)`` -> ``(hits, to_save)``
    - ``hits``: up to ``limit`` records with ``status`` active and, if ``memory_type`` is given,
      of that type, whose ``memcourse.recall.keyword.keyword_score(query, record)`` is above 0,
      best score first.
    - Each hit gets ``access_count + 1`` and ``last_accessed_at = now``.
    - ``to_save``: the list to write back — *every* record of ``records`` in its original order
      (all types, all statuses), with the hits' access metadata updated. Non-hits are unchanged.
    - Work on copies (``record.copy()``); do not change the input records. The hits you return
      are copies too: changing a hit must not change ``to_save``.

``atomic_write_json(path, data)``
    Write ``data`` as JSON (UTF-8, ``ensure_ascii=False``) so that a crash at any moment leaves
    either the old file or the new one, never a mix: write to a temporary file *in the same
    folder* (``tempfile.mkstemp(dir=...)``), flush, ``os.fsync``, then ``os.replace`` it over
    ``path``. If anything fails, remove the temporary file and re-raise; the old file must be
    untouched and no temporary file may be left behind.

Done when ``memcourse grade 05`` shows 05 at 100%.

中文说明（练习 05 · 永不丢数据的存储：完整写回与原子保存）

难度：★★★☆ · 预计时间：35 分钟 · Notebook：notebooks/zh/05_bug_clinic_typed_search.ipynb

为什么：搜索会*写入*（它记录 ``access_count`` 和 ``last_accessed_at``），所以每次搜索都是一次
读-改-写。如果写回的是过滤后的视图而不是完整列表，一次按类型的搜索就会删掉所有其他类型。如果
就地写文件，中途崩溃（crash）就会留下半个文件。修复的两半都由你来写。

写两个函数：

``typed_search(records, query, *, now, memory_type=None, limit=5)`` -> ``(hits, to_save)``
    - ``hits``：最多 ``limit`` 条记录，``status`` 为活跃，若给了 ``memory_type`` 则属于该类型，且
      ``memcourse.recall.keyword.keyword_score(query, record)`` 大于 0，得分最高的在前。
    - 每个命中项的 ``access_count + 1``，并设 ``last_accessed_at = now``。
    - ``to_save``：要写回的列表——``records`` 中的*每一条*记录，保持原顺序（所有类型、所有状态），
      其中命中项的访问元数据已更新。非命中项保持不变。
    - 在副本（``record.copy()``）上操作；不要改动输入的记录。返回的命中项也是副本：修改一个命中项
      不能改变 ``to_save``。

``atomic_write_json(path, data)``
    把 ``data`` 写成 JSON（UTF-8，``ensure_ascii=False``），使得任何时刻的崩溃都只会留下旧文件或新
    文件，绝不是两者的混合（即原子写入，atomic write）：先写到*同一文件夹*中的临时文件
    （``tempfile.mkstemp(dir=...)``），flush，``os.fsync``，再用 ``os.replace`` 覆盖 ``path``。任何
    一步失败，都删除临时文件并重新抛出异常；旧文件必须原封不动，也不能留下临时文件。

完成标准：``memcourse grade 05`` 显示 05 为 100%。提示：``MEMCOURSE_LANG=zh memcourse hint 05``。
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any

from memcourse import MemoryRecord, MemoryType


def typed_search(
    records: list[MemoryRecord],
    query: str,
    *,
    now: datetime,
    memory_type: MemoryType | str | None = None,
    limit: int = 5,
) -> tuple[list[MemoryRecord], list[MemoryRecord]]:
    raise NotImplementedError("ex05 typed_search: not written yet (stuck? memcourse hint 05)")


def atomic_write_json(path: str | Path, data: Any) -> None:
    raise NotImplementedError("ex05 atomic_write_json: not written yet (stuck? memcourse hint 05)")
