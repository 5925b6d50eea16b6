"""Exercise 05 — a store that never loses data: full write-back and atomic saves.

Difficulty: ★★★☆ · Expected time: 35 minutes · Notebook: 05_bug_clinic_typed_search.ipynb

Why: search *writes* (it records ``access_count`` and ``last_accessed_at``), so every search is
a read-modify-write, and every save can be interrupted. The notebook showed two ways a store
shreds data: writing back the filtered view, and writing the file in place. Here you design
both halves of the fix from their invariants; how you meet them is up to you.

Build two functions:

``typed_search(records, query, *, now, memory_type=None, limit=5)`` -> ``(hits, to_save)``
    ``to_save`` is what the caller writes back as the *whole* store; ``hits`` is what it shows.

    - **Which hits.** A record can be a hit when its ``status`` is active, it has the requested
      type (any type when ``memory_type`` is None; the enum or its string), and
      ``memcourse.recall.keyword.keyword_score(query, record)`` is above 0. ``hits`` are the
      ``limit`` *best* of those, best score first, ties in the order of ``records`` (a search that
      cuts first and ranks after returns the earliest matches, not the best).
    - **A hit is an access.** Each hit has ``access_count`` one higher and ``last_accessed_at`` equal
      to ``now``, both in ``hits`` and in ``to_save``; nothing else about it changes.
    - **Nothing is lost or altered.** ``to_save`` holds every record of ``records``, in the same
      order, of every type and status; every record that was not a hit is equal to its input
      (``to_dict()``). A filtered write-back deletes every other type with one search.
    - **No shared objects.** The input records are not changed (the caller may still hold them),
      and ``hits`` and ``to_save`` do not share objects: editing a hit for display must not edit
      what is saved.

``atomic_write_json(path, data)``
    Save ``data`` as JSON in UTF-8, with non-ASCII text written as itself (a person opening the
    file reads 智能客服助手, not ``\\u667a...``), replacing whatever ``path`` held.

    The crash model, and the invariants that must hold in it:

    - **Power cut.** The machine may stop between any two file-system operations, and data the
      program wrote but did not force to the disk (``os.fsync``) may be lost. At every such point
      ``path`` must hold either the complete old content or the complete new content: never
      empty, never half a file. So the new content must be durable before it becomes visible
      under ``path``, and it must become visible in one atomic step. On every common OS that step
      is a rename *within one file system* that overwrites the target: a rename from another disk
      (the system's temporary folder may be one) fails, and on Windows ``os.rename`` refuses to
      replace an existing file.
    - **Failure.** Any file-system operation may raise instead (disk full, permission denied,
      ``KeyboardInterrupt``), and so may ``json`` for data it cannot serialise. Then the original
      exception reaches the caller, ``path`` holds the old or the new content as above, and the
      folder holds no file the call created (no temporary debris that piles up crash after crash).
    - Files are opened with an explicit ``encoding="utf-8"``: the default differs between machines.

    The graded tests inject a failure at every file-system operation your function makes, one
    run per operation, and check ``path`` and the folder at every step.

Done when ``memcourse grade 05`` shows 05 at 100%.

中文说明（练习 05 · 永不丢数据的存储：完整写回与原子保存）

难度：★★★☆ · 预计时间：35 分钟 · Notebook：notebooks/zh/05_bug_clinic_typed_search.ipynb

为什么：搜索会*写入*（它记录 ``access_count`` 和 ``last_accessed_at``），所以每次搜索都是一次
读-改-写，而每次保存都可能被打断。Notebook 展示了存储粉碎数据的两种方式：写回过滤后的视图，以及
就地写文件。这里你要从不变量（invariant）出发设计修复的两半；怎样满足它们由你决定。

写两个函数：

``typed_search(records, query, *, now, memory_type=None, limit=5)`` -> ``(hits, to_save)``
    ``to_save`` 是调用方作为*整个*存储写回的内容；``hits`` 是要展示的内容。

    - **哪些是命中项。** 一条记录可以成为命中项的条件：``status`` 为活跃，属于请求的类型
      （``memory_type`` 为 None 时任何类型都行；枚举或其字符串都接受），且
      ``memcourse.recall.keyword.keyword_score(query, record)`` 大于 0。``hits`` 是其中*最好*的
      ``limit`` 条，得分最高的在前，同分时按 ``records`` 中的顺序（先截断再排序的搜索返回的是最早的
      匹配，而不是最好的）。
    - **命中就是一次访问。** 每个命中项的 ``access_count`` 加一、``last_accessed_at`` 等于 ``now``，
      在 ``hits`` 和 ``to_save`` 里都是如此；它的其他内容都不变。
    - **什么都不丢、什么都不改。** ``to_save`` 包含 ``records`` 中的每一条记录，顺序相同，所有类型、
      所有状态都在；每条不是命中项的记录都与输入相等（``to_dict()``）。写回过滤后的列表，一次搜索
      就删光了其他所有类型。
    - **不共享对象。** 输入的记录不被修改（调用方可能还持有它们），``hits`` 和 ``to_save`` 也不共享
      对象：为了展示而修改一个命中项，不能改到要保存的内容。

``atomic_write_json(path, data)``
    把 ``data`` 以 UTF-8 保存为 JSON，非 ASCII 文本按原样写出（打开文件的人读到的是 智能客服助手，
    而不是 ``\\u667a...``），替换 ``path`` 原有的内容。

    崩溃（crash）模型，以及在其中必须成立的不变量：

    - **断电。** 机器可能在任意两次文件系统操作之间停下，程序写了但没有强制落盘（``os.fsync``）的
      数据可能丢失。在每一个这样的时刻，``path`` 都必须是完整的旧内容或完整的新内容：绝不为空，
      绝不是半个文件。所以新内容必须先落盘、再在 ``path`` 下可见，而且要一步原子地变为可见。在所有
      常见操作系统上，这一步是*同一文件系统内*、会覆盖目标的重命名：从另一块磁盘（系统临时文件夹
      可能就是）重命名会失败，而在 Windows 上 ``os.rename`` 拒绝替换已存在的文件。
    - **失败。** 任何文件系统操作都可能抛出异常（磁盘满、权限不足、``KeyboardInterrupt``），``json``
      遇到无法序列化的数据也会。这时原来的异常要传给调用方，``path`` 如上所述是旧内容或新内容，
      文件夹里也没有这次调用创建的文件（不能留下临时文件残骸，一次次崩溃后越堆越多）。
    - 打开文件时显式写 ``encoding="utf-8"``：默认编码因机器而异。

    评分测试会在你的函数做的每一次文件系统操作处注入失败（每个操作跑一次），并在每一步检查
    ``path`` 和文件夹。

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
