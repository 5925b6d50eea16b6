"""Notebook 14's tasks, in reading order: write the check at the heart of the rules-after pass for
e-mail addresses (the engineering guide's; the library's is ``keep_well_formed``) (14.1), and a model's
proposal that survives the checks and the gate (14.2)."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from memcourse.course.inline_tasks import Turn, Verdict, right, wrong
from memcourse.extraction import LLMExtractor, Message
from memcourse.policy import MemoryPolicy

MESSAGE = "I switched from vim to Helix last month, and I love it."
_AT = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)


class _NoModel:
    """``LLMExtractor.validate`` reads no reply; nothing here calls a model."""

    model = "your-turn"

    def complete(self, *args: Any, **kwargs: Any) -> str:  # pragma: no cover - never called
        raise RuntimeError("the 14.2 check does not call a model")


def _survives(answer: Any) -> Verdict:
    if not isinstance(answer, dict):
        return wrong("write one item as a dict, like GOOD in section 3", "像第 3 节的 GOOD 那样，写一个 dict")
    message = Message(MESSAGE, "task-13", _AT, "lin")
    candidate, problem = LLMExtractor(_NoModel()).validate(dict(answer), message)  # type: ignore[arg-type]
    if candidate is None:
        kind = problem.split(":", 1)[0]
        return wrong(f"the extractor drops it as {kind}; read its reason: {problem}",
                     f"抽取器以 {kind} 丢弃了它；看看原因：{problem}")
    decision = MemoryPolicy(clock=lambda: _AT).evaluate(candidate.to_record())
    if not decision.accepted:
        return wrong(f"the extractor keeps it, but the write gate refuses it [{decision.rule}]: {decision.reason}",
                     f"抽取器保留了它，但写入门拒绝了 [{decision.rule}]：{decision.reason}")
    return right(f"the item passes every check and the gate admits it as [{decision.rule}] "
                 f"({candidate.memory_type.value}, subject {candidate.subject!r}, source llm_inferred).",
                 f"这个条目通过了每项检查，写入门以 [{decision.rule}] 接纳了它"
                 f"（{candidate.memory_type.value}，subject {candidate.subject!r}，source llm_inferred）。")


# (message, the model's content, should the rule keep it?)
EMAIL_CASES = [
    ("My email is lin.wei@example.com.", "User's email is lin.wei@example.com", True),
    ("My email is lin.wei@example.com.", "User's email is lin.wei@exmaple.com", False),
    ("My email is lin.wei@example.com.", "User's email is linwei@example.com", False),
    ("Write to lin.wei@example.com or ops@tidewater.io", "Team contact: ops@tidewater.io", True),
    ("I like Rust.", "User likes Rust", True),
    ("我的邮箱是 mei_2026@example.cn", "用户邮箱是 mei_2026@example.com", False),
]


def _email_rule(answer: Any) -> Verdict:
    if not callable(answer):
        return wrong("write a function: def email_kept(content, message): ...",
                     "请写一个函数：def email_kept(content, message): ...")
    for message, content, expected in EMAIL_CASES:
        got = answer(content, message)
        if not isinstance(got, bool):
            return wrong(f"return True or False; got {got!r} for content {content!r}",
                         f"请返回 True 或 False；对内容 {content!r} 得到了 {got!r}")
        if got != expected:
            verb = ("keeps", "保留了") if got else ("drops", "丢弃了")
            return wrong(f"it {verb[0]} {content!r} for the message {message!r}; compare each address in the content "
                         "with the message, character for character",
                         f"对消息 {message!r}，它{verb[1]} {content!r}；把内容里的每个地址和消息逐字符比较")
    return right(f"all {len(EMAIL_CASES)} cases right: a model's e-mail address is kept only when the user wrote "
                 "exactly that address. That is the guide's rules-after pass for strong entities.",
                 f"{len(EMAIL_CASES)} 个用例全对：只有用户写过一模一样的地址，模型给出的邮箱才会被保留。"
                 "这就是指南里“规则在后”处理强实体的那一步。")


def _example_email_kept(content: str, message: str) -> bool:
    import re

    return all(address in message for address in re.findall(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+", content))


TURNS = [
    Turn(key="14.1", check=_email_rule, example=_example_email_kept,
         wrong_answers=(lambda content, message: True,
                        lambda content, message: "@" not in content or "@" in message,
                        lambda content, message: all(part.split("@")[-1] in message
                                                     for part in content.split() if "@" in part)),
         explain={"en": "Find every address in the content (a pattern such as [\\w.+-]+@[\\w-]+(\\.[\\w-]+)+) and "
                        "keep the item only if each one occurs in the message exactly: "
                        "all(a in message for a in re.findall(pattern, content)). A content with no address has "
                        "nothing to check. Checking only that an '@' is present, or only the domain, lets "
                        "'linwei@example.com' through.",
                  "zh": "找出内容里的每个地址（例如用模式 [\\w.+-]+@[\\w-]+(\\.[\\w-]+)+），只有每个地址都原样出现在"
                        "消息里才保留：all(a in message for a in re.findall(pattern, content))。内容里没有地址就没有"
                        "要查的。只查有没有“@”或只查域名，会放过“linwei@example.com”。"}),
    Turn(key="14.2", check=_survives,
         example={"kind": "memory", "type": "preference", "subject": "editor", "content": "User loves the Helix editor",
                  "confidence": 0.85, "importance": 0.5, "evidence": "I switched from vim to Helix"},
         wrong_answers=(
             {"kind": "memory", "type": "preference", "subject": "editor", "content": "User loves the Helix editor",
              "confidence": 0.7, "importance": 0.5, "evidence": "I switched from vim to Helix"},
             {"kind": "memory", "type": "preference", "subject": "editor", "content": "User loves the Helix editor",
              "confidence": 0.9, "importance": 0.5, "evidence": "The user moved from vim to Helix"},
             {"kind": "memory", "type": "preference", "subject": "The user's editor", "content": "User uses Helix",
              "confidence": 0.9, "importance": 0.5, "evidence": "I switched from vim to Helix"},
             {"kind": "memory", "type": "preference", "subject": "editor", "content": "User has used Helix for 2 years",
              "confidence": 0.9, "importance": 0.5, "evidence": "I switched from vim to Helix"},
             "editor = Helix"),
         explain={"en": "For example {'kind': 'memory', 'type': 'preference', 'subject': 'editor', 'content': 'User "
                        "loves the Helix editor', 'confidence': 0.85, 'importance': 0.5, 'evidence': 'I switched from "
                        "vim to Helix'}: every field of the schema and no other, a snake_case subject, evidence copied "
                        "from the message, no number the user did not say, and confidence at least 0.8, the gate's bar "
                        "for a model's guess (llm_inferred).",
                  "zh": "例如 {'kind': 'memory', 'type': 'preference', 'subject': 'editor', 'content': 'User loves the "
                        "Helix editor', 'confidence': 0.85, 'importance': 0.5, 'evidence': 'I switched from vim to "
                        "Helix'}：schema 的字段一个不多一个不少，subject 是 snake_case，evidence 从消息里原样摘抄，"
                        "没有用户没说过的数字，confidence 至少 0.8，这是写入门对模型猜测（llm_inferred）的门槛。"}),
]
