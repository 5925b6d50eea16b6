"""Exercise 04 — memory ids that survive Chinese: slug + hash.

Difficulty: ★★☆☆ · Expected time: 25 minutes · Notebook: 04_bug_clinic_memory_ids.ipynb

Why: the store finds "the same memory" by its id. An id built from an ASCII-only slug turns
every Chinese subject into ``entity:_`` — and each new Chinese memory silently overwrites the
last. A readable slug is nice; uniqueness must come from a hash of the *full* subject.

Build one function:

``make_id(memory_type, subject) -> str``
    Return ``"<type>:<slug>:<digest>"``.

    - ``<type>`` is ``MemoryType(memory_type).value`` (accept the enum or its string).
    - Normalise the subject first: ``unicodedata.normalize("NFKC", subject)``, strip, lower-case,
      and collapse runs of whitespace to one space. Subjects that normalise equal are the same
      subject and must get the same id (``"Response_Style"`` == ``" response_style "``).
    - ``<slug>``: the normalised subject with whitespace turned into ``_``, every character that
      is not ``a-z``, ``0-9``, ``_``, ``-`` or a CJK ideograph (``\\u4e00``–``\\u9fff``) turned
      into ``_``, leading/trailing ``_`` stripped, cut to 32 characters; ``"memory"`` if empty.
      Chinese stays readable: ``entity:用户喜欢短回答:…``.
    - ``<digest>``: the first 16 hex characters of the SHA-256 of
      ``f"{type}\\x1f{normalised subject}"`` encoded as UTF-8.
    - An empty or whitespace-only subject raises ``ValueError``.

Done when ``memcourse grade 04`` shows 04 at 100% (a Hypothesis property test included).

中文说明（练习 04 · 经得起中文的记忆 id：slug + 哈希）

难度：★★☆☆ · 预计时间：25 分钟 · Notebook：notebooks/zh/04_bug_clinic_memory_ids.ipynb

为什么：存储（store）靠 id 找到"同一条记忆"。用只含 ASCII 的 slug 拼出的 id 会把每个中文主题都
变成 ``entity:_``——于是每条新的中文记忆都悄无声息地覆盖上一条。可读的 slug 固然好；唯一性必须
来自对*完整*主题的哈希。

写一个函数：

``make_id(memory_type, subject) -> str``
    返回 ``"<type>:<slug>:<digest>"``。

    - ``<type>`` 是 ``MemoryType(memory_type).value``（枚举或其字符串都接受）。
    - 先规范化主题：``unicodedata.normalize("NFKC", subject)``，去掉首尾空白，转小写，并把连续
      空白合并为一个空格。规范化后相等的主题就是同一个主题，必须得到同一个 id
      （``"Response_Style"`` == ``" response_style "``）。
    - ``<slug>``：规范化后的主题，空白变为 ``_``，所有不属于 ``a-z``、``0-9``、``_``、``-`` 或中日韩
      表意文字（``\u4e00``–``\u9fff``）的字符变为 ``_``，去掉首尾的 ``_``，截到 32 个字符；为空时
      用 ``"memory"``。中文保持可读：``entity:用户喜欢短回答:…``。
    - ``<digest>``：把 ``f"{type}\x1f{normalised subject}"`` 以 UTF-8 编码后求 SHA-256，取前 16 个
      十六进制字符。
    - 主题为空或只含空白时抛出 ``ValueError``。

完成标准：``memcourse grade 04`` 显示 04 为 100%（包括一个 Hypothesis 性质测试）。
提示：``MEMCOURSE_LANG=zh memcourse hint 04``。
"""

from __future__ import annotations

from memcourse import MemoryType


def make_id(memory_type: MemoryType | str, subject: str) -> str:
    raise NotImplementedError("ex04 make_id: not written yet (stuck? memcourse hint 04)")
