"""Notebook 07's tasks: what Reciprocal Rank Fusion rewards, and why hybrid misses a paraphrase."""

from __future__ import annotations

import math
from typing import Any

from memcourse.course.inline_tasks import Turn, Verdict, choice, right, wrong
from memcourse.recall.fusion import rrf


def _rrf_of_b() -> tuple[float, float]:
    """B's and A's fused scores, computed by the library: A is first in one channel, B second in both."""
    fused = {doc_id: score for doc_id, score, _ in rrf({"keyword": ["A", "B"], "vector": ["X", "B"]}, k=60)}
    return fused["B"], fused["A"]


def _both_channels_win(answer: Any) -> Verdict:
    if isinstance(answer, bool) or not isinstance(answer, (int, float)) or not math.isfinite(answer):
        return wrong("answer with a number, for example a sum of fractions such as 1/70 + 1/80",
                     "请用一个数作答，例如 1/70 + 1/80 这样的分数之和")
    b, a = _rrf_of_b()
    if math.isclose(answer, b, abs_tol=1e-4):
        return right(f"B = 1/62 + 1/62 ≈ {b:.4f}, A = 1/61 ≈ {a:.4f}: being found by both channels beats being first "
                     "in one, which is what RRF rewards.",
                     f"B = 1/62 + 1/62 ≈ {b:.4f}，A = 1/61 ≈ {a:.4f}：被两路同时找到，胜过只在一路排第一，"
                     "这正是 RRF 奖励的东西。")
    if math.isclose(answer, a, abs_tol=1e-4):
        return wrong("that is A's score; B was found by two channels, so its score has two terms",
                     "这是 A 的分数；B 被两路找到，所以它的分数有两项")
    if math.isclose(answer, 1 / 62, abs_tol=1e-4):
        return wrong("one term per channel that found B: how many channels found it?",
                     "每一路找到 B 就加一项：有几路找到了它？")
    if answer > 0.1:
        return wrong("RRF adds k to the rank before taking the reciprocal: the terms are small",
                     "RRF 先把 k 加到名次上再取倒数：每一项都很小")
    return wrong("each channel that found B adds 1/(k + its rank there); B is second in both",
                 "找到 B 的每一路都加上 1/(k + B 在该路的名次)；B 在两路都排第二")


TURNS = [
    Turn(key="07.1", check=_both_channels_win, example=1 / 62 + 1 / 62,
         wrong_answers=(1 / 61, 1 / 62, 1 / 2 + 1 / 2, 2 / 63, "1/62 + 1/62"),
         explain={"en": "1/62 + 1/62 ≈ 0.0323: B is second in both channels, one term each. A is first in one "
                        "channel only: 1/61 ≈ 0.0164. Found by both beats first in one.",
                  "zh": "1/62 + 1/62 ≈ 0.0323：B 在两路都排第二，每路一项。A 只在一路排第一：1/61 ≈ 0.0164。"
                        "两路都找到，胜过一路第一。"}),
    choice("07.2", "b", options="abcd",
           explain={"en": "(b): BM25's best match shares one word, like, with the question. Each channel's scores "
                          "are divided by that channel's best, so the newsletter scores 1.0 on the keyword side, "
                          "and the keyword channel carries the larger weight (the weights are printed on the "
                          "[hybrid] line). One common word outweighs the vector channel's right answer.",
                    "zh": "(b)：BM25 的最佳匹配和问题只共有一个词 like。每一路的分数都除以该路的最高分，所以"
                          "这条 newsletter 记忆在关键词一侧得 1.0，而关键词通道的权重更大（[hybrid] 那一行打印了"
                          "权重）。一个常见词压过了向量通道的正确答案。"},
           nudges={"a": ("look at the vec rank and cos columns: did the vector channel return anything?",
                         "看看 vec rank 和 cos 两列：向量通道有没有返回结果？"),
                   "c": ("the question holds no order number, ticket or version: is any fused score above 1?",
                         "问题里没有订单号、工单号或版本号：有没有哪个 fused 分数超过 1？"),
                   "d": ("every memory in this store was written at the same moment, T0",
                         "这个存储里的每条记忆都是在同一时刻 T0 写入的")}),
]
