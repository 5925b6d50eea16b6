"""A memory-aware agent: read before reasoning, write after acting.

One turn of :class:`MemoryAwareAgent` is the whole memory lifecycle in miniature:

1. **Read.** Load the user's standing preferences (they shape *every* answer, whatever the
   question) and search for memories relevant to this message. Every recalled memory then
   passes the read gate (:func:`memcourse.recall.admission.admit`): active, unexpired,
   confident, permitted (no user-made rules), safe (a planted instruction or secret that
   slipped into the store through another door still never reaches the answer).
2. **Reason.** Compose the answer from the message and the recalled memories. The default
   composer is deterministic and needs no LLM, on purpose: with a model in the loop, fluent
   text can hide that nothing was recalled. Pass ``composer=`` to plug in a model.
3. **Write.** Offer the message to the policy gate; only what it accepts is upserted. With
   ``writer=`` (a :class:`~memcourse.writer.BackgroundMemoryWriter`) this happens on the cold
   path, after the reply has been returned.

The run's own steps live in a :class:`ShortTermState` that is returned for inspection and
then thrown away: run state is checkpoint material, never long-term memory.
"""

from __future__ import annotations

import re
from concurrent.futures import Future
from datetime import datetime
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable

from memcourse.recall.admission import admit
from memcourse.recall.packing import escape_field
from memcourse.policy import MemoryPolicy, PolicyDecision
from memcourse.records import DEFAULT_AGENT, DEFAULT_USER, MemoryRecord, MemoryType, utc_now
from memcourse.state import ShortTermState
from memcourse.stores.base import MAX_QUERY_CHARS, MemoryStore
from memcourse.text import has_cjk, token_set

if TYPE_CHECKING:
    from memcourse.extraction.base import Extractor
    from memcourse.extraction.pipeline import MemoryPipeline
    from memcourse.writer import BackgroundMemoryWriter

Composer = Callable[[str, list[MemoryRecord], PolicyDecision], str]

_LANGUAGES = ["TypeScript", "JavaScript", "Python", "Java", "Go", "Rust", "C++", "C#", "Kotlin", "Swift", "SQL"]
_PREFERENCE_LABELS = {"response_language": ("回答语言：", "Answer language: "),
                      "response_length": ("回答篇幅：", "Answer length: ")}
_MEMORY_TOPIC = {"memory", "memories", "记忆", "记忆系统", "长期记忆"}


@dataclass
class AgentReply:
    answer: str
    retrieved: list[MemoryRecord]
    written: MemoryRecord | None
    decision: PolicyDecision
    state: dict[str, Any] = field(default_factory=dict)  # this turn's ShortTermState snapshot
    blocked: list[MemoryRecord] = field(default_factory=list)  # recalled but refused by the read guard
    pending: "Future[PolicyDecision] | None" = None  # the cold-path write, when a writer is used


class MemoryAwareAgent:
    def __init__(
        self,
        store: MemoryStore,
        policy: MemoryPolicy | None = None,
        *,
        user_id: str = DEFAULT_USER,
        agent_id: str = DEFAULT_AGENT,
        recall_limit: int = 3,
        composer: Composer | None = None,
        conversation_id: str | None = None,
        writer: "BackgroundMemoryWriter | None" = None,
        clock: Callable[[], datetime] = utc_now,
        pipeline: "MemoryPipeline | None" = None,
        extractor: "Extractor | None" = None,
    ):
        """``pipeline`` (a :class:`~memcourse.extraction.MemoryPipeline`) or just ``extractor``
        (rules, a model, or both) replaces the plain policy write with extraction, the gate,
        reconciliation and (if the pipeline has one) the audit log. Without either, the
        policy's rule recognisers decide, offline, as in the first notebooks."""
        self.store = store
        self.policy = policy or MemoryPolicy()
        if pipeline is None and extractor is not None:
            from memcourse.extraction.pipeline import MemoryPipeline

            pipeline = MemoryPipeline(store, extractor=extractor, policy=self.policy, clock=clock)
        self.pipeline = pipeline
        self.user_id = user_id
        self.agent_id = agent_id
        self.recall_limit = recall_limit
        self.composer = composer or compose_answer
        self.conversation_id = conversation_id
        self.writer = writer
        self.clock = clock

    def reply(self, message: str) -> AgentReply:
        if not isinstance(message, str):
            raise TypeError(f"message must be a string, got {type(message).__name__}")
        if not message.strip():
            raise ValueError("message must not be empty")
        state = ShortTermState(goal=f"answer: {message.strip()[:80]}")

        state.add_step("read: load standing preferences and search relevant memories")
        retrieved, refused = self._recall(message)
        blocked = [record for record, _ in refused]
        for record, reason in refused:
            state.add_observation(f"read gate dropped {record.memory_id}: {reason}")

        if self.writer is not None:
            # Cold path: the policy and the store run in the background; the reply does not wait.
            state.add_step("write: hand the message to the background memory writer")
            pending = self.writer.submit(
                message, user_id=self.user_id, agent_id=self.agent_id, conversation_id=self.conversation_id
            )
            decision = PolicyDecision(None, "queued for the background memory writer", "queued")
            state.add_step("reason: compose the answer from the message and recalled memories")
            answer = self.composer(message, retrieved, decision)
            return AgentReply(answer, retrieved, None, decision, state.snapshot(), blocked, pending)

        if self.pipeline is not None:
            from memcourse.extraction.base import Message

            state.add_step("write: extract, gate, reconcile and store through the memory pipeline")
            result = self.pipeline.process(
                Message(message, self.conversation_id, self.clock(), self.user_id, self.agent_id)
            )
            for step in result.steps:
                if step.decision is not None:
                    state.add_observation(f"reconcile: {step.decision}")
            state.add_step("reason: compose the answer from the message and recalled memories")
            answer = self.composer(message, retrieved, result.decision)
            written = result.written[0] if result.written else None
            return AgentReply(answer, retrieved, written, result.decision, state.snapshot(), blocked)

        state.add_step("decide: offer the message to the write policy")
        decision = self.policy.decide(
            message, user_id=self.user_id, agent_id=self.agent_id, conversation_id=self.conversation_id
        )
        state.add_step("reason: compose the answer from the message and recalled memories")
        answer = self.composer(message, retrieved, decision)

        written = None
        if decision.accepted:
            state.add_step("write: upsert the accepted memory")
            written = self.store.upsert(decision.record)
        state.add_observation(f"policy: {decision.rule}")
        return AgentReply(answer, retrieved, written, decision, state.snapshot(), blocked)

    def _recall(self, message: str) -> tuple[list[MemoryRecord], list[tuple[MemoryRecord, str]]]:
        """Standing preferences first, then the best matches for this message, no duplicates;
        split into what the read gate admits and what it refuses (with the reason)."""
        standing = self.store.list_all(
            user_id=self.user_id, agent_id=self.agent_id, memory_type=MemoryType.PREFERENCE
        )
        relevant = self.store.search(  # a pasted document is searched by its first part
            message[:MAX_QUERY_CHARS], limit=self.recall_limit, user_id=self.user_id, agent_id=self.agent_id
        ) if token_set(message) else []
        seen: dict[str, MemoryRecord] = {}
        for record in standing + relevant:
            seen.setdefault(record.memory_id, record)
        admitted, refused = [], []
        now = self.clock()
        for record in seen.values():
            verdict = admit(record, now=now)
            if verdict:
                admitted.append(record)
            else:
                refused.append((record, verdict.reason))
        return admitted, refused


#: Why a message was not stored, per write-gate rule, in the answer's language. The policy's own
#: reason (English, with the matched detail) stays in the decision and the logs; an answer never
#: switches language in mid-sentence.
_REFUSALS = {
    "secret": ("这条内容没有写入长期记忆：其中有密钥或个人身份信息。",
               "Not saved to long-term memory: it contains a secret or a personal identifier."),
    "injection": ("这条内容没有写入长期记忆：它像是对助手下达的指令（提示注入）。",
                  "Not saved to long-term memory: it looks like an instruction aimed at the assistant (prompt injection)."),
    "rule_from_non_admin": ("这条内容没有写入长期记忆：这是一条行为规则；用户可以说明偏好，只有管理员可以设定规则。",
                            "Not saved to long-term memory: it is a behaviour rule; users may state preferences, "
                            "only an administrator may set rules."),
    "low_confidence": ("这条内容没有写入长期记忆：模型推断的置信度不够。",
                       "Not saved to long-term memory: the model's inference is not confident enough."),
}
_ASKS_ENGLISH = re.compile(r"英文|英语|\benglish\b", re.IGNORECASE)
_ASKS_CHINESE = re.compile(r"中文|汉语|普通话|\b(?:chinese|mandarin)\b", re.IGNORECASE)


def answer_in_chinese(message: str, retrieved: list[MemoryRecord], decision: PolicyDecision) -> bool:
    """The answer's language: the one the user asked for (a ``response_language`` preference,
    just stated or recalled), else the language of the message."""
    stated = decision.record if decision.accepted else None
    asked = [r for r in [stated, *retrieved] if r is not None and r.subject == "response_language"]
    for record in asked:  # the one just stated comes first: it is the newest wish
        english, chinese = _ASKS_ENGLISH.search(record.content), _ASKS_CHINESE.search(record.content)
        if english and not chinese:
            return False
        if chinese and not english:
            return True
    return has_cjk(message)


def compose_answer(message: str, retrieved: list[MemoryRecord], decision: PolicyDecision) -> str:
    """The deterministic answer: what was remembered, what was refused, what was recalled.

    One language throughout: the one the user asked for with a ``response_language``
    preference, else Chinese when the message has Chinese in it, otherwise English.
    """
    zh = answer_in_chinese(message, retrieved, decision)
    lines: list[str] = []
    if decision.accepted:
        record = decision.record
        assert record is not None
        if zh:
            lines += [f"已写入长期记忆（{record.memory_type.value} / {record.subject}）：{record.content}",
                      "这类信息会跨会话保留；本轮的推理步骤只留在短期状态里。"]
        else:
            lines += [f"Saved to long-term memory ({record.memory_type.value} / {record.subject}): {record.content}",
                      "This carries over to later sessions; this turn's reasoning steps stay in short-term state."]
        return "\n".join(lines)
    if decision.rule in _REFUSALS:
        lines.append(_REFUSALS[decision.rule][0 if zh else 1])

    for record in retrieved:
        if record.memory_type is MemoryType.PREFERENCE:
            language = _programming_language(record.content)
            if language:
                lines.append(f"回答风格：优先给{language}代码示例。" if zh else f"Answer style: code examples in {language}.")
            else:
                label = _PREFERENCE_LABELS.get(record.subject, ("回答风格：", "Answer style: "))
                lines.append(label[0 if zh else 1] + escape_field(record.content))
        elif record.memory_type is MemoryType.TASK:
            lines.append(("当前任务：" if zh else "Current task: ") + escape_field(record.content))
        elif record.subject == "project_name":
            lines.append(("当前项目：" if zh else "Current project: ") + escape_field(record.content))
        elif record.subject == "home_location":
            lines.append(("所在地：" if zh else "Location: ") + escape_field(record.content))

    if token_set(message) & _MEMORY_TOPIC:
        lines.append(
            "建议关注三件事：长期记忆写入策略、相关记忆召回、记忆更新与冲突处理。" if zh else
            "Focus on three things: the write policy, relevant recall, and updating memories when facts change."
        )
    if retrieved:
        lines.append("本次召回的长期记忆：" if zh else "Long-term memories recalled for this answer:")
        # each memory quoted on its own line (escape_field): recalled text never becomes structure
        lines += [f"- {escape_field(record.content)}" for record in retrieved]
    else:
        lines.append("没有召回到相关的长期记忆。" if zh else "No relevant long-term memories were recalled.")
    return "\n".join(lines)


def _programming_language(text: str) -> str | None:
    """The programming language a preference names (the earliest mention wins)."""
    found = []
    for name in _LANGUAGES:
        flags = 0 if name == "Go" else re.IGNORECASE  # "go" is also an English verb
        m = re.search(rf"(?<![A-Za-z+#]){re.escape(name)}(?![A-Za-z+#])", text, flags)
        if m:
            found.append((m.start(), name))
    return min(found)[1] if found else None
