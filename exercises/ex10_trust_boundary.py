"""Exercise 10 — the fence: recalled memories reach the model as quoted data, never as orders.

Difficulty: ★★★☆ · Expected time: 40 minutes · Notebook: 10_trust_boundary.ipynb

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

Done when ``memcourse grade 10`` shows 10 at 100%.

中文说明（练习 10 · 围栏：召回的记忆以引用数据的形式交给模型，而不是命令）

难度：★★★☆ · 预计时间：40 分钟 · Notebook：notebooks/zh/10_trust_boundary.ipynb

为什么：notebook 03 的检测器只是一道过滤器，没人预料到的改写说法就能绕过它们。让这样一条记忆保持
无害的，是它呈现给模型的方式：独占一行，放在标明为"引用的用户数据"的块内，位于管理员设定的规则
之下。一个能开启新行的字段（例如一个含有 ``"\n## Rules ..."`` 的会话 id）就能伪造这种结构，所以
每个字段都要经过同一个转义函数。这就是信任边界（trust boundary）。

写两个函数。

``escape_line(value: str) -> str``
    让任意字段都能安全地放进块中的一行，其余一概不变：

    1. ``str.splitlines()`` 认得的每种行边界（``\n``、``\r``、``\v``、``\f``、``\x1c``、``\x1d``、
       ``\x1e``、``\x85``、``\u2028``、``\u2029``）和每个制表符，连同其周围的空白，变成一个空格。
    2. 删除其他所有控制字符（Unicode 类别 ``Cc``）和所有不可见格式字符（类别 ``Cf``：零宽空格、
       双向文本覆盖符、标签字符）。
    3. 然后把 ``"<<<"`` 变成 ``"< < <"``，``">>>"`` 变成 ``"> > >"``，使任何字段都写不出围栏标记
       （要在第 2 步*之后*做：``"<<\u200b<"`` 不能留下来）。
    4. 去掉首尾空格。其他一切原样保留（中文、标点、``<b>``、``a > b``……）。

``fence_memories(records) -> tuple[str, list[tuple[MemoryRecord, str]]]``
    把召回的记录（按给定顺序）渲染成提示词接收的块，并返回被排除的内容：

    - 来源为 ``admin_configured`` 的 ``rule`` 记忆进入规则部分，形如 ``- [rule] <content>``；
    - 来自其他任何来源（用户、工具、模型）的 ``rule`` 记忆被排除：以 ``(record, reason)`` 的形式
      进入返回的列表，``reason`` 以 ``"permission"`` 开头；
    - 其他每条记录都放进围栏内，形如 ``- [<type>] <content> (source=<source>, id=<memory_id>)``，
      若记录有会话 id，则在右括号前加上 ``, conv=<conversation id>``。

    每个字段都经过 ``escape_line``。文本以 ``"\n"`` 连接：先是 ``RULES_HEADER`` 和规则行（仅当有
    规则时），然后是 ``FENCE_OPEN``、围栏内的行和 ``FENCE_CLOSE``（仅当有围栏内的记录时）。没有保留
    任何记录：返回 ``""``。不要修改记录。

完成标准：``memcourse grade 10`` 显示 10 为 100%。提示：``MEMCOURSE_LANG=zh memcourse hint 10``。
"""

from __future__ import annotations

from memcourse import MemoryRecord
from memcourse.recall.packing import FENCE_CLOSE, FENCE_OPEN

RULES_HEADER = "## Rules (set by an administrator)"

__all__ = ["FENCE_CLOSE", "FENCE_OPEN", "RULES_HEADER", "escape_line", "fence_memories"]


def escape_line(value: str) -> str:
    raise NotImplementedError("ex10 escape_line: not written yet (stuck? memcourse hint 10)")


def fence_memories(records: list[MemoryRecord]) -> tuple[str, list[tuple[MemoryRecord, str]]]:
    raise NotImplementedError("ex10 fence_memories: not written yet (stuck? memcourse hint 10)")
