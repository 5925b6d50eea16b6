"""Solution 13 — the memory nodes of a LangGraph graph (see exercises/ex13_langgraph_memory.py)."""

from __future__ import annotations

from typing import Any

from langgraph.store.base import BaseStore

from memcourse.guards import unsafe_for_context
from memcourse.integrations.grounding import SUPPORT_THRESHOLD, support
from memcourse.integrations.memory_graph import memory_namespace
from memcourse.text import token_set


def recall_memories(store: BaseStore, user_id: str, message: str, *, limit: int = 5) -> list[dict[str, Any]]:
    namespace = memory_namespace(user_id)  # this user's memories, nobody else's
    found = list(store.search(namespace, filter={"memory_type": "preference"}, limit=limit))
    if token_set(message):
        found += store.search(namespace, query=message, limit=limit)
    recalled: dict[str, dict[str, Any]] = {}
    for item in found:
        content = item.value.get("content", "")
        if item.key in recalled or unsafe_for_context(content):
            continue
        recalled[item.key] = {
            "key": item.key,
            "memory_type": item.value.get("memory_type", "entity"),
            "content": content,
            "score": item.score,  # None for a standing preference
        }
    return list(recalled.values())


def check_grounding(claims: list[str], docs: list[dict[str, Any]], memories: list[dict[str, Any]]) -> dict[str, Any]:
    evidence = [doc["en"] + " " + doc["zh"] for doc in docs]  # documents only: memory is not evidence
    supported, unsupported = [], []
    for claim in claims:
        best = max((support(claim, text) for text in evidence), default=0.0)
        (supported if best >= SUPPORT_THRESHOLD else unsupported).append(claim)
    from_memory = {}
    for claim in unsupported:  # memory explains an unsupported claim; it never supports one
        for memory in memories:
            if support(claim, memory["content"]) >= SUPPORT_THRESHOLD:
                from_memory[claim] = memory["key"]
                break
    return {
        "grounded": not unsupported,
        "supported": supported,
        "unsupported": unsupported,
        "evidence": [f"doc:{doc['id']}" for doc in docs],
        "from_memory": from_memory,
    }
