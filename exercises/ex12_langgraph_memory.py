"""Exercise 12 — the memory nodes of a LangGraph graph: recall for the user, ground on documents.

Difficulty: ★★★☆ · Expected time: 35 minutes · Notebook: 12_langgraph_memory.ipynb

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

Done when ``memcourse grade 12`` shows 12 at 100%.
"""

from __future__ import annotations

from typing import Any

from langgraph.store.base import BaseStore


def recall_memories(store: BaseStore, user_id: str, message: str, *, limit: int = 5) -> list[dict[str, Any]]:
    raise NotImplementedError("ex12 recall_memories: not written yet (stuck? memcourse hint 12)")


def check_grounding(claims: list[str], docs: list[dict[str, Any]], memories: list[dict[str, Any]]) -> dict[str, Any]:
    raise NotImplementedError("ex12 check_grounding: not written yet (stuck? memcourse hint 12)")
