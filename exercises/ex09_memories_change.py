"""Exercise 09 — memories change: update or supersede, follow the history, forget the whole chain.

Difficulty: ★★★★ · Expected time: 45 minutes · Notebook: 09_memories_change.ipynb

Why: a user who moved from Guangzhou to Chengdu must not be remembered as living in both. A new
fact either *updates* a memory (same subject, same id) or *supersedes* a near-duplicate (another
id, nearly the same meaning), and the old version is kept as history, never silently lost. And
when the user says "forget that", every version goes, not just the newest.

Build three functions. Records are ``memcourse.MemoryRecord``; ``similarity(a, b)`` is any
function returning a cosine similarity of two texts (the notebook uses the embedding model, the
tests a fake).

``decide_write(new, existing, similarity, *, threshold=0.92) -> tuple[str, str | None]``
    - ``("update", id)`` when an **active** record in ``existing`` has ``new.memory_id``;
    - else ``("supersede", old_id)`` for the active record of the **same user, agent and
      memory type** whose content is most similar to ``new.content`` (on a tie, the one that
      comes first in ``existing``), if that similarity is ``>= threshold`` (inactive records and other scopes are never
      candidates);
    - else ``("insert", None)``.

``history_chain(records, memory_id) -> list[MemoryRecord]``
    Every record linked to ``memory_id`` by ``superseded_by`` (in either direction, however
    long the chain), oldest first: the record nobody supersedes comes last. ``[]`` when
    ``memory_id`` is not in ``records``. (Each record supersedes at most one other. Corrupt
    data may link records in a cycle: each version still appears once, and the walk ends.)

``forget_chain(records, memory_id) -> tuple[list[MemoryRecord], list[str]]``
    ``(kept, removed_ids)``: ``kept`` is ``records`` without every record of ``memory_id``'s
    chain (order kept), ``removed_ids`` the removed ids, oldest first. Forgetting one version
    forgets them all: the old versions hold the same fact. Unknown id: ``(records, [])``.

Done when ``memcourse grade 09`` shows 09 at 100%.

中文说明（练习 09 · 记忆会变：更新或取代，追踪历史，遗忘整条链）

难度：★★★★ · 预计时间：45 分钟 · Notebook：notebooks/zh/09_memories_change.ipynb

为什么：一个从广州搬到成都的用户，不能被记成同时住在两地。一个新事实要么*更新*一条记忆（同一主题，
同一个 id），要么*取代*（supersede）一条近似重复（near-duplicate）的记忆（另一个 id，意思几乎相同），
旧版本作为历史保留，绝不悄悄丢失。而当用户说"忘掉它"时，每个版本都要删除，而不只是最新的那个。

写三个函数。记录是 ``memcourse.MemoryRecord``；``similarity(a, b)`` 是任意一个返回两段文本余弦
相似度（cosine similarity）的函数（notebook 用嵌入模型，测试用一个替身）。

``decide_write(new, existing, similarity, *, threshold=0.92) -> tuple[str, str | None]``
    - 当 ``existing`` 中某条**活跃**记录的 id 是 ``new.memory_id`` 时，返回 ``("update", id)``；
    - 否则，在**同一用户、同一智能体、同一记忆类型**的活跃记录中，找出内容与 ``new.content``
      最相似的那条（平局时取在 ``existing`` 中靠前的），若相似度 ``>= threshold`` 则返回
      ``("supersede", old_id)``（非活跃记录和其他范围的记录永远不是候选）；
    - 否则返回 ``("insert", None)``。

``history_chain(records, memory_id) -> list[MemoryRecord]``
    通过 ``superseded_by`` 与 ``memory_id`` 相连的每条记录（任一方向，无论链多长），最旧的在前：
    没有被任何记录取代的那条排在最后。``memory_id`` 不在 ``records`` 中时返回 ``[]``。（每条记录
    最多取代另一条。损坏的数据可能把记录连成环：每个版本仍只出现一次，遍历也会结束。）

``forget_chain(records, memory_id) -> tuple[list[MemoryRecord], list[str]]``
    返回 ``(kept, removed_ids)``：``kept`` 是去掉 ``memory_id`` 所在取代链（supersede chain）中每条
    记录后的 ``records``（保持顺序），``removed_ids`` 是被删除的 id，最旧的在前。遗忘（forget）一个
    版本就是遗忘全部版本：旧版本承载着同一个事实。未知 id：返回 ``(records, [])``。

完成标准：``memcourse grade 09`` 显示 09 为 100%。提示：``MEMCOURSE_LANG=zh memcourse hint 09``。
"""

from __future__ import annotations

from typing import Callable, Sequence

from memcourse import MemoryRecord


def decide_write(
    new: MemoryRecord,
    existing: Sequence[MemoryRecord],
    similarity: Callable[[str, str], float],
    *,
    threshold: float = 0.92,
) -> tuple[str, str | None]:
    raise NotImplementedError("ex09 decide_write: not written yet (stuck? memcourse hint 09)")


def history_chain(records: Sequence[MemoryRecord], memory_id: str) -> list[MemoryRecord]:
    raise NotImplementedError("ex09 history_chain: not written yet (stuck? memcourse hint 09)")


def forget_chain(records: Sequence[MemoryRecord], memory_id: str) -> tuple[list[MemoryRecord], list[str]]:
    raise NotImplementedError("ex09 forget_chain: not written yet (stuck? memcourse hint 09)")
