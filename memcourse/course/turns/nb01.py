"""Notebook 01's tasks: a subject is what lets an update replace, and what the gate lets cross into memory."""

from __future__ import annotations

import tempfile
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from memcourse import JsonMemoryStore, MemoryPolicy, MemoryRecord, MemoryType
from memcourse.course.inline_tasks import Turn, Verdict, right, wrong


def _records_with_a_second_subject() -> int:
    """Section 2c's writes again, with Wednesday's city filed under ``current_city``: the store counts."""
    now = datetime(2026, 1, 5, 9, 0, tzinfo=timezone.utc)
    policy = MemoryPolicy()
    with tempfile.TemporaryDirectory() as folder:
        store = JsonMemoryStore(Path(folder) / "memories.json", clock=lambda: now)
        for message in ["以后回答我问题时，代码示例尽量用 Python。", "记住：Phase4 当前任务是实现 AgentMemorySystem。",
                        "我现在有点困", "以后回答我问题时，代码示例优先用 TypeScript。"]:
            decision = policy.decide(message)
            if decision.accepted and decision.record is not None:
                store.upsert(decision.record)
        store.upsert(MemoryRecord(MemoryType.ENTITY, "home_city", "I live in Shanghai", created_at=now))
        store.upsert(MemoryRecord(MemoryType.ENTITY, "current_city", "I live in Berlin now (moved from Shanghai)",
                                  created_at=now + timedelta(days=2)))
        return len(store.list_all())


def _count_with_current_city(answer: Any) -> Verdict:
    if isinstance(answer, bool) or not isinstance(answer, int):
        return wrong("answer with a whole number of records", "请用一个整数（记录条数）作答")
    expected = _records_with_a_second_subject()
    if answer == expected:
        return right(f"{expected}: 'current_city' is a different subject, so the Berlin record is added next to "
                     "Shanghai instead of replacing it, and a later question about the city gets both back.",
                     f"{expected}：'current_city' 是另一个主题，所以柏林那条记录被加在上海旁边，而不是替换它；"
                     "以后问到城市时，两条都会被召回。")
    if answer < expected:
        return wrong("an update finds its target by subject; does 'current_city' find the record filed as 'home_city'?",
                     "更新靠主题找到要替换的记录；'current_city' 能找到以 'home_city' 存的那条吗？")
    return wrong("count again what the gate let in: one of the three section-2c messages was never written, and the "
                 "TypeScript preference shares a subject with the Python one",
                 "再数一遍写入门放进来的：2c 节的三条消息里有一条根本没写入，TypeScript 偏好和 Python 偏好是同一个主题")


# the decision's two halves, each in either language ("Remember: …" in English is as good)
_MEANING = (("mcp server",), ("安全章节", "security chapter", "security section"))


def _decision_kept(answer: Any) -> Verdict:
    if not isinstance(answer, str) or not answer.strip():
        return wrong("write the message as a string", "请把消息写成一个字符串")
    decision = MemoryPolicy().decide(answer)
    if not decision.accepted:
        return wrong(f"the gate still does not write it ({decision.rule}): which of its durable signals could this "
                     "sentence carry without changing what it says?",
                     f"写入门仍然没有写入（{decision.rule}）：这句话能带上写入门认得的哪一种持久信号，而又不改变它的意思？")
    content = decision.record.content if decision.record else ""
    if not all(any(word in content.lower() for word in half) for half in _MEANING):
        return wrong("the gate wrote something, but not the whole decision: the memory must still say that the MCP "
                     "Server article is done and the security chapter comes later",
                     "写入门写了点东西，但不是完整的决定：这条记忆仍要说明 MCP Server 文章已完成、安全章节往后放")
    return right(f"written as {decision.record.memory_type.value if decision.record else '?'} ({decision.rule}): "
                 "an explicit request to remember is one of the gate's durable signals. The user (or an extractor "
                 "you gate the same way) says what is worth keeping; the gate does not guess.",
                 f"以 {decision.record.memory_type.value if decision.record else '?'} 写入（{decision.rule}）：明确要求"
                 "“记住”是写入门认得的持久信号之一。值得保留什么由用户（或同样经过写入门的抽取器）说出来，写入门不去猜。")


TURNS = [
    Turn(key="01.1", check=_count_with_current_city, example=4, wrong_answers=(3, 2, 5, 6, "4"),
         explain={"en": "4: the Python and TypeScript preferences share the subject response_style (one record), the "
                        "task is one, the mood was skipped, and Shanghai (home_city) and Berlin (current_city) are "
                        "two subjects, so both stay as competing facts.",
                  "zh": "4：Python 和 TypeScript 两条偏好共用主题 response_style（一条记录），任务一条，情绪被跳过，"
                        "上海（home_city）和柏林（current_city）是两个主题，于是两条都留下，互相矛盾。"}),
    Turn(key="01.2", check=_decision_kept, example="记住：上次已经完成 MCP Server 文章，但安全章节先后置。",
         wrong_answers=("上次已经完成 MCP Server 文章，但安全章节先后置。", "记住：上次已经完成 MCP Server 文章",
                        "Remember: the MCP Server article is done.",
                        "以后所有回答都先说 MCP Server 文章已完成", 4),
         explain={"en": "'记住：上次已经完成 MCP Server 文章，但安全章节先后置。' (or 'Remember: …'): the explicit "
                        "记住 / remember is a durable signal, so the gate writes the decision after the colon.",
                  "zh": "“记住：上次已经完成 MCP Server 文章，但安全章节先后置。”（或 “Remember: …”）：明确的"
                        "“记住 / remember”是持久信号，写入门会把冒号后面的决定写入。"}),
]
