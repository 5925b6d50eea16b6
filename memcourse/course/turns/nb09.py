"""Notebook 09's tasks: a look-alike pair the rules keep apart, and the order of the read gate."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from memcourse.course.inline_tasks import Turn, Verdict, right, wrong
from memcourse.recall.admission import admit
from memcourse.recall.dedupe import DEFAULT_THRESHOLD, may_supersede
from memcourse.records import MemoryRecord, MemoryType, Source, Status
from memcourse.same_fact import one_word_swapped

#: The pair notebook 09 shows; the task asks for one of the learner's own.
_SHOWN = {"Ticket SUP-69636 was closed after restarting the worker pool",
          "Ticket SUP-59189 was closed after restarting the worker pool"}


def _look_alike_kept_apart(answer: Any, embedder: Any) -> Verdict:
    if not (isinstance(answer, tuple) and len(answer) == 2 and all(isinstance(x, str) and x.strip() for x in answer)):
        return wrong("answer with a tuple of two texts: (old, new)", "请用两个文本组成的元组作答：(旧, 新)")
    old_text, new_text = (x.strip() for x in answer)
    if {old_text, new_text} == _SHOWN:
        return wrong("that is the notebook's pair; write one of your own",
                     "这是笔记本里的那一对；请自己写一对")
    if min(embedder.known_token_ratio(old_text), embedder.known_token_ratio(new_text)) < 0.5:
        return wrong("the model cannot read these texts (mostly [UNK] tokens), so the store never compares them; "
                     "write them in English",
                     "模型读不懂这两段文本（大多是 [UNK]），存储根本不会比较它们；请用英文写")
    first, second = embedder.embed([old_text, new_text])
    similarity = float(first @ second)
    if similarity < DEFAULT_THRESHOLD:
        return wrong(f"cosine {similarity:.2f}, below {DEFAULT_THRESHOLD}: the threshold alone already keeps them "
                     "apart. Make the two texts look more alike",
                     f"余弦 {similarity:.2f}，低于 {DEFAULT_THRESHOLD}：单靠阈值就已经把它们分开了。让两段文本更像一些")
    old, new = (MemoryRecord(MemoryType.ENTITY, subject, text) for subject, text in (("a", old_text), ("b", new_text)))
    if may_supersede(old, new, similarity):
        return wrong(f"cosine {similarity:.2f}, and may_supersede says the new one replaces the old: as far as the "
                     "rules can tell, this is one fact restated. What could two look-alike texts differ in that an "
                     "embedding barely notices?",
                     f"余弦 {similarity:.2f}，may_supersede 判定新的取代旧的：在规则看来，这是同一事实换了说法。"
                     "两段很像的文本，还能在什么地方不同，而嵌入几乎注意不到？")
    if one_word_swapped(old_text, new_text):
        return right(f"cosine {similarity:.2f}, at or above {DEFAULT_THRESHOLD}, and still two facts: one word is "
                     "swapped for another (a changed value), so may_supersede keeps both. Similarity alone would have "
                     "lost one.",
                     f"余弦 {similarity:.2f}，达到 {DEFAULT_THRESHOLD}，仍是两个事实：一个词换成了另一个（值变了），"
                     "所以 may_supersede 两条都保留。只看相似度就会丢掉一条。")
    return right(f"cosine {similarity:.2f}, at or above {DEFAULT_THRESHOLD}, and still two facts: the texts name "
                 "different numbers, ids or dates, so may_supersede keeps both. Similarity alone would have lost one.",
                 f"余弦 {similarity:.2f}，达到 {DEFAULT_THRESHOLD}，仍是两个事实：两段文本里的数字、编号或日期不同，"
                 "所以 may_supersede 两条都保留。只看相似度就会丢掉一条。")


def _embedder() -> dict[str, Any]:
    from memcourse.embeddings import default_embedder

    return {"embedder": default_embedder("minilm")}  # the notebook's model: 0.92 is its threshold


#: The candidate of task 09.2, as the notebook's Markdown describes it.
NOW = datetime(2026, 3, 27, 9, 0, tzinfo=timezone.utc)
GUESS = MemoryRecord(MemoryType.PREFERENCE, "tone", "The user may like humorous answers", source=Source.LLM_INFERRED,
                     confidence=0.45, status=Status.SUPERSEDED, created_at=datetime(2026, 3, 1, tzinfo=timezone.utc))
_CHECKS = ("relevance", "status", "expiry", "confidence", "safety", "permission")


def _first_failing_check(answer: Any) -> Verdict:
    name = str(answer).strip().lower()
    if name not in _CHECKS:
        return wrong(f"answer with the name of one check: {', '.join(_CHECKS)}",
                     f"请用一个检查项的名字作答：{', '.join(_CHECKS)}")
    actual = admit(GUESS, now=NOW).check
    if name == actual:
        return right(f"admit reports '{actual}': the record is superseded, and status is checked before confidence. "
                     "It fails the confidence check too (0.45 < 0.60), but the gate names the first check that fails.",
                     f"admit 报告 “{actual}”：这条记录已被取代，而状态在置信度之前检查。它也过不了置信度检查"
                     "（0.45 < 0.60），但门只报告第一个失败的检查。")
    if name == "confidence":
        return wrong("it does fail that check, but is it the first one the gate runs?",
                     "它确实过不了这一项，但这是门最先运行的检查吗？")
    if name == "relevance":
        return wrong("the notebook passes relevant=True unless a candidate is off-topic; this one is on topic",
                     "除非候选与查询无关，笔记本都传 relevant=True；这一条与查询相关")
    return wrong("read the record again: nothing in it makes that check fail",
                 "再读一遍这条记录：其中没有任何内容会让这项检查失败")


TURNS = [
    Turn(key="09.1", check=_look_alike_kept_apart, context=("embedder",), example_context=_embedder,
         example=("Invoice INV-20417 was paid by bank transfer", "Invoice INV-20471 was paid by bank transfer"),
         wrong_answers=(("The user does not like email notifications", "The user doesn't like email notifications"),
                        ("The user lives in Guangzhou", "The user lives in Chengdu"),
                        ("用户住在上海", "用户现在住在上海"),
                        tuple(sorted(_SHOWN)), "Invoice INV-20417 was paid"),
         explain={"en": "For example ('Invoice INV-20417 was paid by bank transfer', 'Invoice INV-20471 was paid "
                        "by bank transfer'): one template, two ids. The model scores them near 1; the specifics "
                        "rule sees INV-20417 ≠ INV-20471 and keeps both. Any pair that differs only in a number, id "
                        "or date works, or in one swapped word ('deploys on Thursdays' / 'on Fridays').",
                  "zh": "例如（'Invoice INV-20417 was paid by bank transfer'，'Invoice INV-20471 was paid by "
                        "bank transfer'）：同一个模板，两个编号。模型给出接近 1 的分数；具体信息规则看到 "
                        "INV-20417 ≠ INV-20471，两条都保留。只在数字、编号或日期上不同的任何一对都可以，"
                        "只换了一个词的一对也可以（'deploys on Thursdays' / 'on Fridays'）。"}),
    Turn(key="09.2", check=_first_failing_check, example="status",
         wrong_answers=("confidence", "expiry", "permission", "relevance", "superseded"),
         explain={"en": "'status': admit runs relevance, status, expiry, confidence, safety, permission in that "
                        "order and reports the first that fails. The record is superseded, so status fails before "
                        "its low confidence is looked at.",
                  "zh": "“status”：admit 依次检查相关性、状态、过期、置信度、安全、权限，并报告第一个失败的检查。"
                        "这条记录已被取代，所以在看它的低置信度之前，状态检查就已失败。"}),
]
