"""Exercise 01 — checkpoint or memory? Save a run, restore it, and promote only what lasts.

Difficulty: ★★☆☆ · Expected time: 25 minutes · Notebook: 01_rag_checkpoint_memory.ipynb

Why: a checkpoint lets *this run* resume; long-term memory shapes *every later session*. Mixing
them is how "the search failed" ends up recalled into next week's prompt. You will write the
checkpoint half (save and restore run state) and the one door between the layers: at the end
of a run, only user messages that pass the policy gate reach the long-term store.

Build three functions:

``save_checkpoint(state, path)``
    Write ``state.snapshot()`` to ``path`` as JSON, UTF-8, with Chinese kept readable
    (``ensure_ascii=False``). The file holds exactly the four snapshot keys, nothing else.

``load_checkpoint(path) -> ShortTermState``
    Read that file back into an equal ``ShortTermState`` (``ShortTermState.restore`` helps).

``finish_run(state, user_messages, policy, store) -> list[MemoryRecord]``
    The end of a run. For each user message, in order, ask ``policy.decide(message)``; upsert
    the accepted records into ``store`` and return what the store returned, in order. The run
    state (goal, steps, observations, pending actions) is *never* written to the store, even
    when a step looks memorable, and ``state`` itself is left unchanged.

Done when ``memcourse grade 01`` shows 01 at 100%.

中文说明（练习 01 · 检查点还是记忆？保存一次运行、恢复它，只提升能长久保留的内容）

难度：★★☆☆ · 预计时间：25 分钟 · Notebook：notebooks/zh/01_rag_checkpoint_memory.ipynb

为什么：检查点（checkpoint）让*这次运行*能够继续；长期记忆（long-term memory）影响*之后的每一次
会话*。把两者混在一起，"搜索失败了"就会被召回（recall）进下周的提示词里。你要写检查点这一半
（保存并恢复运行状态），以及两层之间唯一的那扇门：运行结束时，只有通过写入门（write gate）的
用户消息才能进入长期存储。

写三个函数：

``save_checkpoint(state, path)``
    把 ``state.snapshot()`` 以 JSON、UTF-8 写入 ``path``，中文保持可读（``ensure_ascii=False``）。
    文件里恰好是快照的四个键，别无其他。

``load_checkpoint(path) -> ShortTermState``
    把这个文件读回成一个相等的 ``ShortTermState``（``ShortTermState.restore`` 可以帮忙）。

``finish_run(state, user_messages, policy, store) -> list[MemoryRecord]``
    一次运行的结尾。按顺序对每条用户消息调用 ``policy.decide(message)``；把被接受的记录 upsert
    进 ``store``，并按顺序返回存储返回的结果。运行状态（目标、步骤、观察、待执行动作）*永远不*
    写入存储，即使某一步看起来值得记住；``state`` 本身也保持不变。

完成标准：``memcourse grade 01`` 显示 01 为 100%。提示：``MEMCOURSE_LANG=zh memcourse hint 01``。
"""

from __future__ import annotations

from pathlib import Path

from memcourse import MemoryPolicy, MemoryRecord, ShortTermState


def save_checkpoint(state: ShortTermState, path: str | Path) -> None:
    raise NotImplementedError("ex01 save_checkpoint: not written yet (stuck? memcourse hint 01)")


def load_checkpoint(path: str | Path) -> ShortTermState:
    raise NotImplementedError("ex01 load_checkpoint: not written yet (stuck? memcourse hint 01)")


def finish_run(
    state: ShortTermState,
    user_messages: list[str],
    policy: MemoryPolicy,
    store,
) -> list[MemoryRecord]:
    raise NotImplementedError("ex01 finish_run: not written yet (stuck? memcourse hint 01)")
