"""Exercise 00 — warm-up: look at memories as typed records.

Difficulty: ★☆☆☆ (warm-up) · Expected time: 10 minutes · Notebook: 00_start_here.ipynb

Why: the rest of the course treats a memory as a typed record, not a string. This warm-up gets
you touching records (``memory_type``, ``subject``, ``status``) and running the grade loop once:
edit this file, run ``memcourse grade 00``, watch the tests turn green.

Build two small functions:

``count_by_type(records)``
    A dict with one key per ``MemoryType`` value, in the order the enum defines them
    (preference, entity, task, event, decision, rule), mapping to how many *active* records
    of that type are in ``records``. Types with no records map to 0. Superseded or deleted
    records are not counted.

``format_memory(record)``
    One line a person can read: ``"[<type>] <subject>: <content>"``, for example
    ``"[preference] response_style: 代码示例尽量用 Python"``.

Done when ``memcourse grade 00`` shows 00 at 100%.

中文说明（练习 00 · 热身：把记忆看作类型化记录）

难度：★☆☆☆（热身）· 预计时间：10 分钟 · Notebook：notebooks/zh/00_start_here.ipynb

为什么：课程后面的部分都把一条记忆当作类型化记录，而不是一个字符串。这个热身让你亲手接触记录
（``memory_type``、``subject``、``status``），并把评分循环跑一遍：编辑这个文件，运行
``memcourse grade 00``，看着测试变绿。

写两个小函数：

``count_by_type(records)``
    返回一个 dict：每个 ``MemoryType`` 值一个键，顺序与枚举的定义一致（preference、entity、
    task、event、decision、rule），值是 ``records`` 中该类型的*活跃*记录条数。没有记录的类型
    对应 0。被取代（superseded）或已删除（deleted）的记录不计入。

``format_memory(record)``
    一行人能读懂的文本：``"[<type>] <subject>: <content>"``，例如
    ``"[preference] response_style: 代码示例尽量用 Python"``。

完成标准：``memcourse grade 00`` 显示 00 为 100%。提示：``MEMCOURSE_LANG=zh memcourse hint 00``。
"""

from __future__ import annotations

from memcourse import MemoryRecord


def count_by_type(records: list[MemoryRecord]) -> dict[str, int]:
    raise NotImplementedError("ex00 count_by_type: not written yet (stuck? memcourse hint 00)")


def format_memory(record: MemoryRecord) -> str:
    raise NotImplementedError("ex00 format_memory: not written yet (stuck? memcourse hint 00)")
