"""Exercise 03 — the two gates: what may be written, and what may be recalled.

Difficulty: ★★★☆ · Expected time: 35 minutes · Notebook: 03_policy_gate.ipynb

Why: in production the candidate memories often come from an LLM extractor, not from regular
expressions. The extractor proposes; a gate you control decides. And a memory that got in is
not automatically fit for every prompt: it may have expired, or it may be a guess. "Remember
right, not more" puts it as *write conservatively, recall conservatively*.

Build two functions. Each returns ``(allowed, reason)`` where ``reason`` is one of the short
codes below; checks run in the order listed and the first one that fails decides.

``gate_candidate(candidate, *, min_inferred_confidence=0.8) -> tuple[bool, str]`` (write gate)
    1. ``"secret"``: ``memcourse.guards.find_secrets`` finds something in the content or subject.
       (The detectors normalise the text first, so look-alike letters and split words are
       caught; and they judge what would be stored: "I forgot my password" is not a secret.
       Do not add keyword checks of your own.)
    2. ``"injection"``: ``memcourse.guards.find_injection`` finds something in the content.
    3. ``"rule_from_non_admin"``: the candidate is a ``rule`` memory, *or* its content is a
       behaviour rule (``find_behaviour_rules``), and its source is not ``admin_configured``.
    4. ``"low_confidence"``: source ``llm_inferred`` with confidence below the threshold.
    5. otherwise ``(True, "ok")``.

``usable_memory(record, now, *, min_confidence=0.6) -> tuple[bool, str]`` (read gate)
    1. ``"inactive"``: status is not ``active``.
    2. ``"expired"``: ``expires_at`` is set and is at or before ``now``.
    3. ``"low_confidence"``: confidence below ``min_confidence``.
    4. ``"rule_not_admin"``: a ``rule`` memory whose source is not ``admin_configured`` (a user, a
       tool or a model: every source but an administrator).
    5. ``"unsafe"``: ``memcourse.guards.unsafe_for_context(record.content)`` finds something.
    6. otherwise ``(True, "ok")``.

Done when ``memcourse grade 03`` shows 03 at 100%.

中文说明（练习 03 · 两道门：什么可以写入，什么可以召回）

难度：★★★☆ · 预计时间：35 分钟 · Notebook：notebooks/zh/03_policy_gate.ipynb

为什么：在生产环境里，候选记忆往往来自 LLM 抽取器（extraction），而不是正则表达式。抽取器提议；
由你掌控的门来决定。一条已经写入的记忆也并不自动适合放进每个提示词：它可能已经过期，也可能只是
一个猜测。"记得对，而不是记得多"的说法是：*写入要保守，召回也要保守*。

写两个函数。每个都返回 ``(allowed, reason)``，其中 ``reason`` 是下面的简短代码之一；检查按列出的
顺序进行，第一个失败的检查决定结果。

``gate_candidate(candidate, *, min_inferred_confidence=0.8) -> tuple[bool, str]``（写入门，write gate）
    1. ``"secret"``：``memcourse.guards.find_secrets`` 在内容或主题中发现了密钥（secret）。
       （检测器会先规范化文本，所以形近字母和被拆开的词也能被抓到；它们判断的是将被存储的内容：
       "我忘了密码"不是密钥。不要自己另加关键词检查。）
    2. ``"injection"``：``memcourse.guards.find_injection`` 在内容中发现了提示注入（prompt injection）。
    3. ``"rule_from_non_admin"``：候选是一条 ``rule`` 记忆，*或者*其内容是一条行为规则
       （``find_behaviour_rules``），并且来源（source）不是 ``admin_configured``。
    4. ``"low_confidence"``：来源为 ``llm_inferred`` 且置信度（confidence）低于阈值。
    5. 其他情况返回 ``(True, "ok")``。

``usable_memory(record, now, *, min_confidence=0.6) -> tuple[bool, str]``（读取门，read gate）
    1. ``"inactive"``：状态不是 ``active``。
    2. ``"expired"``：设置了 ``expires_at``，且它早于或等于 ``now``。
    3. ``"low_confidence"``：置信度低于 ``min_confidence``。
    4. ``"rule_not_admin"``：一条来源不是 ``admin_configured`` 的 ``rule`` 记忆（用户、工具或模型：
       除管理员之外的所有来源）。
    5. ``"unsafe"``：``memcourse.guards.unsafe_for_context(record.content)`` 发现了问题。
    6. 其他情况返回 ``(True, "ok")``。

完成标准：``memcourse grade 03`` 显示 03 为 100%。提示：``MEMCOURSE_LANG=zh memcourse hint 03``。
"""

from __future__ import annotations

from datetime import datetime

from memcourse import MemoryRecord


def gate_candidate(candidate: MemoryRecord, *, min_inferred_confidence: float = 0.8) -> tuple[bool, str]:
    raise NotImplementedError("ex03 gate_candidate: not written yet (stuck? memcourse hint 03)")


def usable_memory(record: MemoryRecord, now: datetime, *, min_confidence: float = 0.6) -> tuple[bool, str]:
    raise NotImplementedError("ex03 usable_memory: not written yet (stuck? memcourse hint 03)")
