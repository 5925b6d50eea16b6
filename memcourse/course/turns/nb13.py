"""Notebook 13's tasks: what a checkpointer is keyed by, and what a word-overlap judge cannot read."""

from __future__ import annotations

import re
from typing import Any

from memcourse.course.inline_tasks import Turn, Verdict, choice, right, wrong
from memcourse.integrations.grounding import grounding_report, support
from memcourse.integrations.memory_graph import DOCUMENTS
from memcourse.text import split_sentences

# A small, explicit list: the check needs to see a reversal, not to parse every language.
_NEGATION = re.compile(r"\b(?:not|no|never|nothing|none|cannot)\b|n't|[不没无别]", re.I)


def _sentences() -> list[str]:
    return [s for doc in DOCUMENTS for text in (doc["en"], doc["zh"]) for s in split_sentences(text)]


def _reversal_that_passes(answer: Any) -> Verdict:
    if not isinstance(answer, str) or not answer.strip():
        return wrong("write one sentence, as a string", "请写一句话（字符串）")
    claim = answer.strip()
    if not grounding_report([claim], list(DOCUMENTS), [])["grounded"]:
        return wrong("the check removed it: too few of its words are in any one document. Start from a document "
                     "sentence and change its meaning with as few new words as you can",
                     "核查把它删掉了：它的词在任何一篇文档里都不够多。从文档里的一句话出发，用尽量少的新词改变它的意思")
    closest = max(_sentences(), key=lambda sentence: support(claim, sentence))
    if bool(_NEGATION.search(claim)) == bool(_NEGATION.search(closest)):
        return wrong(f"the check passes it, but it says what the closest document sentence says ({closest!r}); "
                     "make it say the opposite",
                     f"核查让它通过了，但它和最接近的文档句子（{closest!r}）说的是同一件事；让它说相反的意思")
    return right(f"the check counts it as supported although it reverses {closest!r}: word overlap sees the same "
                 "words and cannot read a 'not'. That is why production systems judge claims with an entailment "
                 "model or an LLM judge, still shown the documents only.",
                 f"核查认为它有依据，尽管它把 {closest!r} 的意思反了过来：词重叠只看到相同的词，读不懂“不”。"
                 "所以生产系统用蕴含（NLI）模型或 LLM 评审来判断论断，而且仍然只给它看文档。")


TURNS = [
    choice("13.1", "b", options="abc",
           explain={"en": "(b): a checkpoint is keyed by thread_id, persistent or not. A database checkpointer keeps "
                          "a thread longer (across restarts); it still restores only that thread. A preference "
                          "reaches a new thread only through the store, read at recall_memories.",
                    "zh": "(b)：checkpoint 按 thread_id 存放，持久与否都一样。数据库 checkpointer 让一个线程保存得更久"
                          "（重启后还在），但它仍然只恢复这个线程。偏好只能经由 store 到达新线程，在 recall_memories "
                          "读取。"},
           nudges={"a": ("persistence changes how long a checkpoint lives, not which threads it is restored into",
                         "持久化改变的是 checkpoint 能保存多久，而不是它会被恢复到哪些线程"),
                   "c": ("look at what the checkpointer was asked for in section 3: a thread_id. What would make it "
                         "look up another thread's state?",
                         "看看第 3 节里 checkpointer 用什么来查找：thread_id。什么会让它去查另一个线程的状态？")}),
    Turn(key="13.2", check=_reversal_that_passes, example="checkpointer 不保存单个线程的运行状态，让这个线程可以恢复。",
         wrong_answers=("checkpointer 保存单个线程的运行状态，让这个线程可以恢复。",
                        "checkpoint 可以跨线程保存用户偏好",
                        "A checkpointer does not save anything.", 42),
         explain={"en": "For example 'checkpointer 不保存单个线程的运行状态，让这个线程可以恢复。': seven of its eight "
                        "words are in doc:checkpointer (0.875 ≥ 0.8), so the check supports a sentence that says "
                        "the opposite. Overlap is a stand-in for a real judge (NLI or an LLM), not a replacement.",
                  "zh": "例如“checkpointer 不保存单个线程的运行状态，让这个线程可以恢复。”：它八个词里有七个在 "
                        "doc:checkpointer 里（0.875 ≥ 0.8），于是核查支持了一句意思相反的话。词重叠只是真正评审"
                        "（NLI 或 LLM）的替身，不能代替它。"}),
]
