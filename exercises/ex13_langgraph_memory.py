"""Exercise 13 — the memory nodes of a LangGraph graph: recall for the user, ground on documents.

Difficulty: ★★★☆ · Expected time: 35 minutes · Notebook: 13_langgraph_memory.ipynb

Why: in a LangGraph agent, memory enters at one node and must stay out of another. The
``recall_memories`` node reads the user's standing preferences and the memories relevant to
the message from the graph's store, for *this* user only, and drops anything unsafe to put in
front of a model. The grounding check must judge the answer against the retrieved documents
only: a memory is what the user said, not what the documents say, and counting it as evidence
lets a false memory certify itself. Your ``recall_memories`` runs inside the real graph:
``build_memory_graph(store, recall=recall_memories)``.

Build two functions:

``recall_memories(store, user_id, message, *, limit=5) -> list[dict]``
    ``store`` is a LangGraph ``BaseStore``; the user's memories live under the namespace
    ``("users", user_id, "memories")`` (``memory_namespace(user_id)``).
    1. Standing preferences first: ``store.search(namespace, filter={"memory_type": "preference"},
       limit=limit)``. They apply to every message, whatever it says.
    2. Then the memories relevant to the message: ``store.search(namespace, query=message,
       limit=limit)``. Skip this search when the message has no words
       (``memcourse.text.token_set(message)`` is empty).
    3. Each key at most once: its first appearance wins (a preference the query also finds
       stays where step 1 put it, with ``score`` ``None``).
    4. Drop items whose ``value["content"]`` is unsafe: ``memcourse.guards.unsafe_for_context``
       returns findings for it.
    5. Return one dict per memory, in that order: ``{"key": item.key, "memory_type":
       value.get("memory_type", "entity"), "content": value.get("content", ""), "score":
       item.score}``.

``check_grounding(claims, docs, memories) -> dict``
    ``docs`` are retrieved documents (dicts with ``id``, ``en``, ``zh``); ``memories`` are
    what ``recall_memories`` returned. A claim is *supported* when, for at least one document,
    ``support(claim, doc["en"] + " " + doc["zh"]) >= SUPPORT_THRESHOLD`` (both imported from
    ``memcourse.integrations.grounding``). Memories never support a claim. Return::

        {"grounded": bool,            # True when no claim is unsupported
         "supported": [...],          # claims in input order
         "unsupported": [...],        # claims in input order
         "evidence": ["doc:<id>", ...],   # one label per document, in order: what you accepted
         "from_memory": {claim: key}}     # for each UNSUPPORTED claim that a memory states
                                          # (support(claim, memory content) >= threshold):
                                          # the first such memory's key

Done when ``memcourse grade 13`` shows 13 at 100%.

中文说明（练习 13 · LangGraph 图中的记忆节点：为用户召回，以文档为依据）

难度：★★★☆ · 预计时间：35 分钟 · Notebook：notebooks/zh/13_langgraph_memory.ipynb

为什么：在 LangGraph 智能体（agent）中，记忆从一个节点进入，又必须挡在另一个节点之外。
``recall_memories`` 节点从图的存储中读取用户的常驻偏好和与消息相关的记忆，只针对*这个*用户，并
丢掉任何不宜放到模型面前的内容。依据检查（grounding）必须只拿检索到的文档来评判回答：记忆是用户
说过的话，不是文档里写的内容，把它算作证据，就会让一条错误的记忆为自己作证。你的
``recall_memories`` 运行在真实的图中：``build_memory_graph(store, recall=recall_memories)``。

写两个函数：

``recall_memories(store, user_id, message, *, limit=5) -> list[dict]``
    ``store`` 是 LangGraph 的 ``BaseStore``；用户的记忆位于命名空间（namespace）
    ``("users", user_id, "memories")`` 下（``memory_namespace(user_id)``）。
    1. 先取常驻偏好：``store.search(namespace, filter={"memory_type": "preference"}, limit=limit)``。
       它们适用于每条消息，不论消息说什么。
    2. 再取与消息相关的记忆：``store.search(namespace, query=message, limit=limit)``。消息里没有词
       时（``memcourse.text.token_set(message)`` 为空）跳过这次搜索。
    3. 每个键最多出现一次：以第一次出现为准（查询也找到的偏好留在第 1 步放的位置，``score`` 为
       ``None``）。
    4. 丢掉 ``value["content"]`` 不安全的条目：即 ``memcourse.guards.unsafe_for_context`` 对它有发现。
    5. 按上述顺序，每条记忆返回一个 dict：``{"key": item.key, "memory_type":
       value.get("memory_type", "entity"), "content": value.get("content", ""), "score":
       item.score}``。

``check_grounding(claims, docs, memories) -> dict``
    ``docs`` 是检索到的文档（含 ``id``、``en``、``zh`` 的 dict）；``memories`` 是 ``recall_memories``
    返回的结果。如果至少有一篇文档满足 ``support(claim, doc["en"] + " " + doc["zh"]) >=
    SUPPORT_THRESHOLD``（两者都从 ``memcourse.integrations.grounding`` 导入），这个论断就*得到
    支持*。记忆永远不支持论断。返回的 dict 含五个键（格式见上面英文部分）：``"grounded"``（没有
    未得到支持的论断时为 True）、``"supported"`` 和 ``"unsupported"``（都按输入顺序）、
    ``"evidence"``（每篇文档一个 ``"doc:<id>"`` 标签，按顺序：即你采纳的证据），以及
    ``"from_memory"``（对每个有记忆陈述了它的*未得到支持*的论断，即
    ``support(claim, memory content) >= threshold``：第一条这样的记忆的键）。

完成标准：``memcourse grade 13`` 显示 13 为 100%。提示：``MEMCOURSE_LANG=zh memcourse hint 13``。
"""

from __future__ import annotations

from typing import Any

from langgraph.store.base import BaseStore


def recall_memories(store: BaseStore, user_id: str, message: str, *, limit: int = 5) -> list[dict[str, Any]]:
    raise NotImplementedError("ex13 recall_memories: not written yet (stuck? memcourse hint 13)")


def check_grounding(claims: list[str], docs: list[dict[str, Any]], memories: list[dict[str, Any]]) -> dict[str, Any]:
    raise NotImplementedError("ex13 check_grounding: not written yet (stuck? memcourse hint 13)")
