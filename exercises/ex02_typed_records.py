"""Exercise 02 — upsert by subject: a changed preference updates, it does not append.

Difficulty: ★★☆☆ · Expected time: 25 minutes · Notebook: 02_typed_records.ipynb

Why: chat history appends; memory updates. When the user says "代码示例优先用 TypeScript" after
"代码示例尽量用 Python", the agent must hold *one* response-style preference, the new one, and
keep the old one only as history. You will write that rule over a plain list of records, the
same rule ``JsonMemoryStore.upsert`` applies to its file.

Build one function:

``upsert_by_subject(records, new, now) -> list[MemoryRecord]``
    Return a *new* list of copies (``record.copy()``): do not change ``records`` or any record
    in it, and share no record with it (a caller may change the result later).

    - Two records are the same memory when they have the same ``user_id``, the same
      ``memory_type`` and the same subject compared case-insensitively after stripping spaces
      (``"Response_Style "`` and ``"response_style"`` are one subject).
    - If ``new`` matches an existing record, it replaces it *at the same position*. The result
      keeps the old ``created_at`` and ``memory_id``, sets ``updated_at`` to ``now``, and its
      ``history`` is the old history plus one ``HistoryEntry(old.content, old.confidence,
      old.source.value, now)``.
    - Otherwise a copy of ``new`` is appended at the end.

Done when ``memcourse grade 02`` shows 02 at 100%.

中文说明（练习 02 · 按主题 upsert：偏好变了就更新，而不是追加）

难度：★★☆☆ · 预计时间：25 分钟 · Notebook：notebooks/zh/02_typed_records.ipynb

为什么：聊天历史是追加；记忆是更新。用户先说"代码示例尽量用 Python"，后来又说"代码示例优先用
TypeScript"，智能体（agent）必须只保留*一条*回复风格偏好，也就是新的那条，旧的只作为历史保留。
你要在一个普通的记录列表上写出这条规则，它和 ``JsonMemoryStore.upsert`` 对文件施加的规则相同。

写一个函数：

``upsert_by_subject(records, new, now) -> list[MemoryRecord]``
    返回一个由副本（``record.copy()``）组成的*新*列表：不要改动 ``records`` 或其中任何记录，
    也不要与它共享任何记录（调用方之后可能会修改结果）。

    - 两条记录是同一条记忆，当且仅当它们的 ``user_id`` 相同、``memory_type`` 相同，且主题在
      去掉首尾空格后不区分大小写地相同（``"Response_Style "`` 和 ``"response_style"`` 是同一个主题）。
    - 如果 ``new`` 与某条已有记录匹配，就*在同一位置*替换它。结果保留旧的 ``created_at`` 和
      ``memory_id``，把 ``updated_at`` 设为 ``now``，其 ``history`` 是旧的历史再加一条
      ``HistoryEntry(old.content, old.confidence, old.source.value, now)``。
    - 否则把 ``new`` 的一个副本追加到末尾。

完成标准：``memcourse grade 02`` 显示 02 为 100%。提示：``MEMCOURSE_LANG=zh memcourse hint 02``。
"""

from __future__ import annotations

from datetime import datetime

from memcourse import MemoryRecord


def upsert_by_subject(records: list[MemoryRecord], new: MemoryRecord, now: datetime) -> list[MemoryRecord]:
    raise NotImplementedError("ex02 upsert_by_subject: not written yet (stuck? memcourse hint 02)")
