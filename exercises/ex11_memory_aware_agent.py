"""Exercise 11 — a context packer: recalled memories to a sourced prompt block, within budget.

Difficulty: ★★★☆ · Expected time: 35 minutes · Notebook: 11_memory_aware_agent.ipynb

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

Done when ``memcourse grade 11`` shows 11 at 100%.

中文说明（练习 11 · 上下文打包器：在预算内把召回的记忆变成带来源的提示词块）

难度：★★★☆ · 预计时间：35 分钟 · Notebook：notebooks/zh/11_memory_aware_agent.ipynb

为什么：召回（recall）给出一个排好序的列表；模型需要的是一个它能读、你能审计的简短块。按类型分组
告诉模型每条记忆的用途（偏好约束每一个回答，事实描述用户的世界，任务说明正在进行的事）。每一行
都带来源（provenance），让你能把一个错误回答追溯到它背后的那条记忆。预算让提示词保持短小，放不下
的记忆要*整条*排除：把"不喜欢邮件通知，除非是账单"在逗号处截断，意思就完全反了。

写一个函数：

``pack_memories(records, *, budget=600, max_items=8)`` -> ``str``
    ``records`` 是召回的记忆，最好的在前（假定它们已经通过了读取门）。

    - **选择。** 按顺序遍历 ``records``。如果已纳入的记录少于 ``max_items`` 条，*并且*加入这条
      之后渲染出的文本不超过 ``budget`` 个字符（整个字符串的 ``len``），就纳入它。否则跳过它继续：
      后面更短的记录可能仍然放得下。同一个 ``memory_id`` 绝不纳入两次。
    - **渲染。** 各部分按此类型顺序：rule、preference、entity、task、event、decision
      （``TYPE_ORDER``）；只出现有已纳入记录的类型。每部分是一行标题 ``## <type>``，后面按召回
      顺序每条记录一行：``- <content> (<source>, id=<memory_id>)``，其中内容里的换行符（``\r``、
      ``\n``）变成单个空格，使记忆无法伪造标题。各行用 ``"\n"`` 连接；末尾没有换行符。
    - 什么都没纳入：返回 ``""``。

完成标准：``memcourse grade 11`` 显示 11 为 100%。提示：``MEMCOURSE_LANG=zh memcourse hint 11``。
"""

from __future__ import annotations

from memcourse import MemoryRecord

TYPE_ORDER = ("rule", "preference", "entity", "task", "event", "decision")


def pack_memories(records: list[MemoryRecord], *, budget: int = 600, max_items: int = 8) -> str:
    raise NotImplementedError("ex11 pack_memories: not written yet (stuck? memcourse hint 11)")
