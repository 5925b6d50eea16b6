"""Exercise 15 — memory tools a model can call, with the boundary in code (reference solution)."""

from __future__ import annotations

from typing import Any

from memcourse.policy import MemoryPolicy
from memcourse.records import MemoryRecord, Source

SCOPE_WORDS = ("user", "agent", "tenant", "namespace", "owner", "scope")
ALLOWED = {
    "save_memory": {"content", "memory_type", "subject", "confidence"},
    "forget_memory": {"memory_id"},
}


def scope_from_runtime(config: dict[str, Any]) -> tuple[str, str, str | None]:
    configurable = (config or {}).get("configurable") or {}
    user = configurable.get("user_id")
    if not isinstance(user, str) or not user.strip():
        raise PermissionError("no user_id in config['configurable']: the runtime must say whose memory this is")
    return user, configurable.get("agent_id") or "default", configurable.get("thread_id")


def run_tool(
    store, policy: MemoryPolicy, name: str, arguments: dict[str, Any], config: dict[str, Any]
) -> dict[str, Any]:
    user, agent, thread = scope_from_runtime(config)
    if name not in ALLOWED:
        return {"ok": False, "refused": "unknown_tool", "error": f"no tool named {name!r}"}
    extra = sorted(set(arguments) - ALLOWED[name])
    if any(word in key.lower() for key in extra for word in SCOPE_WORDS):
        return {"ok": False, "refused": "scope_in_arguments",
                "error": f"argument(s) {', '.join(extra)} refused: whose memory it is comes from the runtime"}
    if extra:
        return {"ok": False, "refused": "bad_arguments", "error": f"unknown argument(s) {', '.join(extra)}"}
    if name == "save_memory":
        try:
            record = MemoryRecord(arguments["memory_type"], arguments["subject"], arguments["content"],
                                  confidence=arguments["confidence"], source=Source.LLM_INFERRED,
                                  user_id=user, agent_id=agent, source_conversation_id=thread)
        except (KeyError, TypeError, ValueError) as error:
            return {"ok": False, "refused": "bad_arguments", "error": str(error)}
        decision = policy.evaluate(record)
        if not decision.accepted:
            return {"ok": False, "refused": decision.rule, "error": decision.reason}
        stored = store.upsert(decision.record)
        return {"ok": True, "memory_id": stored.memory_id}
    memory_id = arguments.get("memory_id")
    record = store.get(memory_id) if isinstance(memory_id, str) and memory_id.strip() else None
    if record is None or (record.user_id, record.agent_id) != (user, agent):
        return {"ok": False, "refused": "not_found", "error": "no such memory among this user's memories"}
    store.forget(record.memory_id)
    return {"ok": True, "forgotten": record.memory_id}
