"""Exercise 01 — checkpoint or memory? Save a run, restore it, and promote only what lasts.

Difficulty: ★★☆☆ · Expected time: 25 minutes · Notebook: 01_rag_checkpoint_memory.ipynb

Why: a checkpoint lets *this run* resume; long-term memory shapes *every later session*. Mixing
them is how "the search failed" ends up recalled into next week's prompt. You design the
checkpoint (its file and how it comes back) and the one door between the layers. The
requirements below say what must hold and which failure each prevents; the how is yours.

Build three functions:

``save_checkpoint(state, path)`` and ``load_checkpoint(path) -> ShortTermState``
    A checkpoint must:

    - **Round-trip exactly.** ``load_checkpoint`` of a saved state is a ``ShortTermState`` equal to
      it (the same ``snapshot()``), for any run state: Chinese, emoji, quotes, backslashes and
      line breaks in any field, any number of steps, none included. A run that resumes with a
      step lost or changed repeats or skips work.
    - **Come back independent.** The restored state shares nothing with the saved one, and the
      same file can be loaded again and again (a run may have to resume twice).
    - **Replace the previous checkpoint.** Saving to an existing file leaves only the new state,
      even when it is shorter than the old one.
    - **Be readable by a person.** JSON in UTF-8, Chinese written as itself (not ``\\u`` escapes):
      checkpoints are what you open when a run went wrong. Open files with an explicit
      ``encoding="utf-8"``; the default differs between machines.
    - **Hold run state only.** The JSON object has exactly the run state's fields (the keys of
      ``state.snapshot()``), nothing else: no memories, no store contents. A checkpoint is
      thrown away with its run; long-term facts stored in it would come back to life whenever
      an old run is resumed.

``finish_run(state, user_messages, policy, store) -> list[MemoryRecord]``
    The end of a run: the only door from this run into long-term memory.

    - **What may cross:** for each of the user's messages, in the order they were said, the
      record ``policy.decide(message)`` accepts (the write gate), and nothing else: a rejected
      message (small talk, a secret, an injection) leaves no trace in ``store``.
    - **How it crosses:** through ``store.upsert``, so the store decides the final record (its id,
      and an update with history when the subject is already known, the later message winning).
      Return the records the store returned, one per accepted message, in order, not the
      policy's candidates.
    - **What may not cross:** anything from the run state (goal, steps, observations, pending
      actions), even an observation that says "记住" (remember): tool errors and half-finished
      plans would be recalled next week as facts about the user.
    - **Leave the run alone:** ``state`` is not changed.

Done when ``memcourse grade 01`` shows 01 at 100% (Hypothesis property tests included).

中文说明（练习 01 · 检查点还是记忆？保存一次运行、恢复它，只提升能长久保留的内容）

难度：★★☆☆ · 预计时间：25 分钟 · Notebook：notebooks/zh/01_rag_checkpoint_memory.ipynb

为什么：检查点（checkpoint）让*这次运行*能够继续；长期记忆（long-term memory）影响*之后的每一次
会话*。把两者混在一起，"搜索失败了"就会被召回（recall）进下周的提示词里。你要设计检查点（它的文件
以及它怎样恢复）和两层之间唯一的那扇门。下面的要求说明什么必须成立、每一条防止什么失败；怎么做由
你决定。

写三个函数：

``save_checkpoint(state, path)`` 和 ``load_checkpoint(path) -> ShortTermState``
    检查点必须：

    - **精确往返。** 对保存过的状态调用 ``load_checkpoint``，得到与它相等（``snapshot()`` 相同）的
      ``ShortTermState``，对任何运行状态都成立：任何字段里有中文、emoji、引号、反斜杠、换行，步骤
      有多少条（包括零条）都一样。恢复时丢了或改了一步的运行，会重复或跳过工作。
    - **恢复出独立的对象。** 恢复出的状态与保存的状态不共享任何东西，同一个文件可以一次又一次地
      加载（一次运行可能要恢复两次）。
    - **替换上一个检查点。** 保存到已存在的文件时，只留下新的状态，即使它比旧的短。
    - **人能读懂。** UTF-8 的 JSON，中文按原样写出（不是 ``\\u`` 转义）：运行出了问题时，你打开的
      就是检查点。打开文件时显式写 ``encoding="utf-8"``；默认编码因机器而异。
    - **只装运行状态。** JSON 对象里恰好是运行状态的字段（``state.snapshot()`` 的键），别无其他：
      没有记忆，没有存储的内容。检查点随运行一起丢弃；存进去的长期事实会在每次恢复旧运行时复活。

``finish_run(state, user_messages, policy, store) -> list[MemoryRecord]``
    一次运行的结尾：从这次运行进入长期记忆的唯一一扇门。

    - **可以通过的：** 按用户说话的顺序，对每条用户消息，``policy.decide(message)`` 接受的记录
      （写入门，write gate），别无其他：被拒绝的消息（闲聊、密钥、注入）不在 ``store`` 里留下
      任何痕迹。
    - **怎样通过：** 经由 ``store.upsert``，由存储决定最终的记录（它的 id；主题已知时是一次带历史的
      更新，后一条消息胜出）。返回存储返回的记录，每条被接受的消息一条，按顺序；不是策略给出的
      候选记录。
    - **不可以通过的：** 运行状态里的任何东西（目标、步骤、观察、待执行动作），即使某条观察写着
      "记住"：工具错误和做了一半的计划会在下周被当作关于用户的事实召回。
    - **不动运行：** ``state`` 保持不变。

完成标准：``memcourse grade 01`` 显示 01 为 100%（包括 Hypothesis 性质测试）。
提示：``MEMCOURSE_LANG=zh memcourse hint 01``。
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
