"""Notebook 06's tasks: what a common word is worth to BM25, and λ from a half-life."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from memcourse.course.inline_tasks import Turn, Verdict, right, wrong
from memcourse.recall.decay import lambda_for_half_life
from memcourse.text import token_set

#: The order memories of notebook 06, section 3 (what the tests pass as ``orders``).
ORDERS = {
    "o1": "订单 2024081702 已发货，快递是顺丰",
    "o2": "订单 2024081705 已发货，预计周五送达",
    "o3": "订单 2024081703 的收货地址是杭州市西湖区",
    "o4": "订单 2024081709 已发货，用户要求放快递柜",
    "p1": "代码示例尽量用 Python",
}


def _number(answer: Any) -> bool:
    return not isinstance(answer, bool) and isinstance(answer, (int, float)) and math.isfinite(answer)


def _idf(term: str, docs: Mapping[str, str]) -> tuple[float, int, int]:
    df = sum(term in token_set(text) for text in docs.values())
    n = len(docs)
    return math.log(1 + (n - df + 0.5) / (df + 0.5)), df, n


def _idf_of_shipped(answer: Any, orders: Mapping[str, str]) -> Verdict:
    if not _number(answer):
        return wrong("answer with a number: the idf of 发货", "请用一个数作答：发货 的 idf")
    idf, df, n = _idf("发货", orders)
    if math.isclose(answer, idf, abs_tol=0.01):
        return right(f"df = {df} of N = {n}, so idf = ln(1 + {n - df + 0.5}/{df + 0.5}) ≈ {idf:.2f}: a word most "
                     "order memories share says little, the order number (df = 1) says far more.",
                     f"df = {df}，N = {n}，所以 idf = ln(1 + {n - df + 0.5}/{df + 0.5}) ≈ {idf:.2f}："
                     "多数订单记忆都有的词"
                     "信息很少，订单号（df = 1）信息多得多。")
    if math.isclose(answer, _idf("订单", orders)[0], abs_tol=0.01):
        return wrong("count again which memories contain 发货: o3 is about a delivery address (收货)",
                     "再数一遍哪些记忆含有 发货：o3 讲的是收货地址（收货）")
    if math.isclose(answer, math.log((n - df + 0.5) / (df + 0.5)), abs_tol=0.01):
        return wrong("the formula adds 1 inside the logarithm, so idf is never negative",
                     "公式在对数里加了 1，所以 idf 不会是负数")
    if math.isclose(answer, math.log10(1 + (n - df + 0.5) / (df + 0.5)), abs_tol=0.01):
        return wrong("BM25's idf uses the natural logarithm, ln", "BM25 的 idf 用的是自然对数 ln")
    return wrong("N is the number of memories, df how many of them contain the term; count 发货 in tokenize(text)",
                 "N 是记忆总数，df 是其中含该词的条数；用 tokenize(text) 数一数 发货")


def _lambda_for_60_days(answer: Any) -> Verdict:
    if not _number(answer):
        return wrong("answer with a number: λ per day", "请用一个数作答：每天的 λ")
    lam = lambda_for_half_life(60)
    if math.isclose(answer, lam, rel_tol=0.02):
        return right(f"λ = ln 2 / 60 ≈ {lam:.4f}: after 60 days exp(−λ·60) = 0.5.",
                     f"λ = ln 2 / 60 ≈ {lam:.4f}：60 天后 exp(−λ·60) = 0.5。")
    if math.isclose(answer, 1 / 60, rel_tol=0.02):
        return wrong("with λ = 1/60, exp(−λ·60) = exp(−1) ≈ 0.37 after 60 days, not 0.5",
                     "λ = 1/60 时，60 天后 exp(−λ·60) = exp(−1) ≈ 0.37，不是 0.5")
    if math.isclose(answer, 60 / math.log(2), rel_tol=0.02):
        return wrong("that is a number of days; λ is per day, the other way round",
                     "这是天数；λ 是“每天”的速率，倒过来")
    return wrong("half-life = ln 2 / λ: solve it for λ", "半衰期 = ln 2 / λ：解出 λ")


TURNS = [
    Turn(key="06.1", check=_idf_of_shipped, example=math.log(1 + 2.5 / 3.5),
         wrong_answers=(math.log(1 + 1.5 / 4.5), math.log(2.5 / 3.5), math.log10(1 + 2.5 / 3.5),
                        math.log(1 + 4.5 / 1.5), "0.54"),
         context=("orders",), example_context=lambda: {"orders": dict(ORDERS)},
         explain={"en": "ln(1 + 2.5/3.5) ≈ 0.54: 发货 is in o1, o2 and o4 (df = 3) of N = 5 memories. The order "
                        "number is in one: ln(1 + 4.5/1.5) ≈ 1.39.",
                  "zh": "ln(1 + 2.5/3.5) ≈ 0.54：发货 出现在 o1、o2、o4 中（df = 3），共 N = 5 条记忆。订单号只出现在"
                        "一条里：ln(1 + 4.5/1.5) ≈ 1.39。"}),
    Turn(key="06.2", check=_lambda_for_60_days, example=math.log(2) / 60,
         wrong_answers=(1 / 60, 60 / math.log(2), 0.05, 0.5 / 60),
         explain={"en": "λ = ln 2 / 60 ≈ 0.0116 per day: exp(−0.0116 · 60) = 0.5.",
                  "zh": "λ = ln 2 / 60 ≈ 0.0116（每天）：exp(−0.0116 · 60) = 0.5。"}),
]
