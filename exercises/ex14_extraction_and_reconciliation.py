"""Exercise 14 — read a model's reply as untrusted input, then reconcile what survives.

Difficulty: ★★★☆ · Expected time: 40 minutes · Notebook: 14_extraction_and_reconciliation.ipynb

Why: a model asked for JSON sends JSON most of the time. The rest of the time it wraps it in
prose, invents a field, writes ``"confidence": "high"``, quotes words the user never said, or
names a subject that is a sentence. Every one of those, accepted, becomes a memory that is
recalled into every later prompt. And what survives must not pile up: a restatement is not a
second memory, a model's guess does not overwrite what the user said, and "forget that" deletes.

Build three functions.

``parse_reply(text) -> dict``
    The reply as a JSON object. Accept exactly two shapes, surrounding whitespace aside: the
    whole reply is a JSON object, or the whole reply is *one* Markdown fence
    (three backticks, optionally ``json``, a newline, the JSON, three backticks). Anything else
    raises ``ValueError``: empty text, a reply with no text at all (``None``: a chat API gives that
    when the model answered with a tool call), prose before or after, two fences, a list,
    invalid JSON, ``NaN``/``Infinity``, the same key twice in one object.

``check_item(item, message) -> str | None``
    ``None`` when ``item`` is usable, else the *first* failing check's name, in this order:

    - ``"fields"``: ``item`` is not a dict, or its keys are not exactly ``FIELDS``;
    - ``"type"``: ``kind``/``type``/``subject``/``content``/``evidence`` are not strings, or
      ``confidence``/``importance`` are not numbers (``bool`` is not a number here);
    - ``"range"``: ``confidence`` or ``importance`` outside [0, 1] (both ends allowed);
    - ``"subject"``: ``subject`` does not match ``SUBJECT_PATTERN`` (a short snake_case key);
    - ``"ungrounded"``: ``evidence`` is empty, or not found in ``message`` once both are
      case-folded and every run of whitespace is one space (and ends are stripped).

``decide(candidate, existing, *, retraction=False) -> tuple[str, str | None]``
    ``candidate`` is a ``MemoryRecord``; ``existing`` the records already stored. Only
    **active** records of the **same user** count. ``same`` is the one whose ``memory_id`` is
    ``candidate.memory_id`` (same type and subject), if any.

    - ``retraction=True``: ``("DELETE", same.memory_id)`` if ``same`` exists, else ``("NOOP", None)``;
    - ``same`` exists and says the same thing (equal once NFKC-normalised, case-folded and
      stripped of everything that is not a letter or digit: punctuation and spaces do not make
      a new fact): ``("NOOP", same.memory_id)``;
    - ``same`` exists and ``candidate.source`` is *less trusted* than ``same.source`` (order in
      ``TRUST``): ``("NOOP", same.memory_id)`` -- a guess never overwrites what the user said;
    - ``same`` exists: ``("UPDATE", same.memory_id)``;
    - otherwise ``("ADD", None)``.

Done when ``memcourse grade 14`` shows 14 at 100%.

中文说明（练习 14 · 把模型的回复当作不可信输入来读，再对留下的内容做对账）

难度：★★★☆ · 预计时间：40 分钟 · Notebook：notebooks/zh/14_extraction_and_reconciliation.ipynb

为什么：要求模型输出 JSON，它多数时候会照做。其余时候，它会用散文把 JSON 包起来、编造一个字段、写出
``"confidence": "high"``、引用用户从没说过的话，或者给出一个本身是句子的主题。这些只要被接受一个，
就会变成一条记忆，被召回进之后的每一个提示词。而留下来的内容也不能越堆越多：复述不是第二条记忆，
模型的猜测不能覆盖用户说过的话，"忘掉它"就是删除。这就是抽取（extraction）与对账
（reconciliation，ADD/UPDATE/DELETE/NOOP）。

写三个函数。

``parse_reply(text) -> dict``
    把回复作为 JSON 对象返回。只接受两种形状（都不计首尾空白）：整个回复是一个 JSON 对象，或者整个
    回复是*一个* Markdown 围栏（三个反引号，可选 ``json``，换行，JSON，三个反引号）。其他一切都抛出
    ``ValueError``：空文本、根本没有文本的回复（``None``：模型以工具调用作答时，聊天 API 就会给出它）、
    前后有散文、两个围栏、列表、无效 JSON、``NaN``/``Infinity``、同一对象中出现两次相同的键。

``check_item(item, message) -> str | None``
    ``item`` 可用时返回 ``None``，否则按以下顺序返回*第一个*失败检查的名称：

    - ``"fields"``：``item`` 不是 dict，或者它的键不恰好是 ``FIELDS``；
    - ``"type"``：``kind``/``type``/``subject``/``content``/``evidence`` 不是字符串，或
      ``confidence``/``importance`` 不是数字（这里 ``bool`` 不算数字）；
    - ``"range"``：``confidence`` 或 ``importance`` 不在 [0, 1] 内（两端都允许）；
    - ``"subject"``：``subject`` 不匹配 ``SUBJECT_PATTERN``（一个简短的 snake_case 键）；
    - ``"ungrounded"``：``evidence`` 为空，或者在两者都做大小写折叠（case-fold）、每段连续空白都变为
      一个空格（并去掉首尾空白）之后，``evidence`` 不在 ``message`` 中。

``decide(candidate, existing, *, retraction=False) -> tuple[str, str | None]``
    ``candidate`` 是一个 ``MemoryRecord``；``existing`` 是已存储的记录。只有**同一用户**的**活跃**
    记录才算数。``same`` 是其中 ``memory_id`` 等于 ``candidate.memory_id`` 的那条（同类型同主题），
    如果有的话。

    - ``retraction=True``：``same`` 存在时返回 ``("DELETE", same.memory_id)``，否则 ``("NOOP", None)``；
    - ``same`` 存在且说的是同一件事（经过 NFKC 规范化、大小写折叠，并去掉所有非字母非数字的字符后
      相等：标点和空格不构成新事实）：``("NOOP", same.memory_id)``；
    - ``same`` 存在且 ``candidate.source`` 比 ``same.source`` *更不可信*（按 ``TRUST`` 中的顺序）：
      ``("NOOP", same.memory_id)``——猜测绝不覆盖用户说过的话；
    - ``same`` 存在：``("UPDATE", same.memory_id)``；
    - 否则返回 ``("ADD", None)``。

完成标准：``memcourse grade 14`` 显示 14 为 100%。提示：``MEMCOURSE_LANG=zh memcourse hint 14``。
"""

from __future__ import annotations

from typing import Any, Sequence

from memcourse import MemoryRecord, Source

FIELDS = ("kind", "type", "subject", "content", "confidence", "importance", "evidence")
SUBJECT_PATTERN = r"^[a-z][a-z0-9_]{1,47}$"
#: Least trusted first.
TRUST = (Source.LLM_INFERRED, Source.TOOL_OBSERVED, Source.USER_STATED, Source.ADMIN_CONFIGURED)


def parse_reply(text: str) -> dict[str, Any]:
    raise NotImplementedError("ex14 parse_reply: not written yet (stuck? memcourse hint 14)")


def check_item(item: Any, message: str) -> str | None:
    raise NotImplementedError("ex14 check_item: not written yet (stuck? memcourse hint 14)")


def decide(
    candidate: MemoryRecord, existing: Sequence[MemoryRecord], *, retraction: bool = False
) -> tuple[str, str | None]:
    raise NotImplementedError("ex14 decide: not written yet (stuck? memcourse hint 14)")
