"""Notebook 12's tasks: how several processes share a store, and what one new record in a batch costs."""

from __future__ import annotations

import itertools
import tempfile
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from memcourse.course.inline_tasks import Turn, Verdict, choice, right, wrong
from memcourse.records import MemoryRecord, MemoryType

NOW = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)
NEW_TICKET = "Ticket 40-{n}: a patient team-plan customer wrote about webhooks; answered with the docs link."
_RUNS = itertools.count(1)  # each check adds a ticket the store has never seen, however often it runs


def _batch_cost(answer: Any, store: Any, tickets: list[MemoryRecord]) -> Verdict:
    if not (isinstance(answer, tuple) and len(answer) == 2 and all(isinstance(x, int) and not isinstance(x, bool)
                                                                   for x in answer)):
        return wrong("answer with a tuple of two integers: (model calls, texts embedded)",
                     "请用两个整数组成的元组作答：(模型调用次数, 嵌入的文本数)")
    embedder = store.embedder
    n = next(_RUNS)
    new = MemoryRecord(MemoryType.EVENT, f"ticket_40_{n}", NEW_TICKET.format(n=n), user_id="support", created_at=NOW)
    before = embedder.stats
    store.upsert_many([*tickets, new])
    after = embedder.stats
    measured = (after.model_calls - before.model_calls, after.misses - before.misses)
    if answer == measured:
        return right(f"measured {measured}: the store embedded only the text it had not seen, in one call for the "
                     f"whole batch; the {len(tickets)} unchanged records cost no model call at all.",
                     f"实测 {measured}：存储只嵌入它没见过的文本，整批一次调用；{len(tickets)} 条未变的记录"
                     "一次模型调用都没花。")
    calls, texts = answer
    if texts > measured[1]:
        return wrong("fewer texts than that were embedded. Which records of the batch had the store already seen, "
                     "with the same content?",
                     "实际嵌入的文本比这少。这一批里哪些记录存储已经见过、内容也没变？")
    if calls > measured[0]:
        return wrong("fewer model calls than that. How does upsert_many send the texts it must embed?",
                     "模型调用比这少。upsert_many 是怎样把需要嵌入的文本送给模型的？")
    return wrong("too few: nothing has seen the new ticket's text yet, so it must be embedded",
                 "太少了：还没有谁见过新工单的文本，所以它必须被嵌入")


def _batched_store() -> dict[str, Any]:
    """A store like the notebook's ``batched``, with three tickets written once (for the tests)."""
    from memcourse.embeddings import Embedder
    from memcourse.stores.chroma import ChromaMemoryStore

    store = ChromaMemoryStore(Path(tempfile.mkdtemp(prefix="memcourse-turn12-")) / "store", embedder=Embedder())
    tickets = [MemoryRecord(MemoryType.EVENT, f"ticket_{i}", f"Ticket {i}: a customer wrote about {topic}.",
                            user_id="support", created_at=NOW) for i, topic in enumerate(("billing", "login", "SSO"))]
    store.upsert_many(tickets)
    return {"store": store, "tickets": tickets}


TURNS = [
    choice("12.1", "b", options="abc",
           explain={"en": "(b): several processes share one server (chroma run, or PostgreSQL in section 5), each "
                          "with its own client. An embedded store runs the engine and its index inside the process "
                          "that opened it, so it takes a lock and refuses every other process, whatever it means to "
                          "do with the files.",
                    "zh": "(b)：多个进程共享一个服务器（chroma run，或第 5 节的 PostgreSQL），各自用自己的客户端。"
                          "嵌入式存储把引擎和索引放在打开它的进程里，所以它会加锁，拒绝其他任何进程，不管那个进程"
                          "打算拿这些文件做什么。"},
           nudges={"a": ("look at what happened when this notebook opened the worker's directory",
                         "看看本笔记本打开那个工作进程的目录时发生了什么"),
                   "c": ("does the lock ask the second process what it means to do with the store?",
                         "这把锁会问第二个进程打算拿存储做什么吗？")}),
    Turn(key="12.2", check=_batch_cost, context=("store", "tickets"), example_context=_batched_store,
         example=(1, 1), wrong_answers=((41, 41), (1, 41), (0, 0), (2, 1)),
         explain={"en": "(1, 1): upsert_many re-embeds no record whose content the store already holds (no model "
                        "call; on a server, a new version row that reuses the stored vector) and embeds the rest in "
                        "one call; here the rest is the new ticket.",
                  "zh": "(1, 1)：upsert_many 不会重新嵌入内容已存在的记录（不调用模型；在服务器上，新增一个复用已存"
                        "向量的版本行），其余的一次调用全部嵌入；这里“其余的”就是那张新工单。"}),
]
