"""Exercise 08 — calibrate a model's near-duplicate threshold from labelled pairs.

Difficulty: ★★★☆ · Expected time: 35 minutes · Notebook: 08_reading_chinese.ipynb

Why: a store merges two memories when their cosine is at or above the model's near-duplicate
threshold. The engineering guide gives 0.92 as if it were a law; it is a property of one model.
Switch models and the same number merges distinct facts, or nothing at all. You will write the
calibration a new model needs before it may merge anything: measure what a threshold does on
labelled pairs, then choose the lowest threshold whose merges are precise enough.

Build two functions. A *scored pair* is ``(cosine, same_fact)``: the model's cosine for two
memories, and whether a person labelled them the same fact (``True``) or two facts that are true
together (``False``). Merging a pair means ``cosine >= threshold``.

``merge_report(scored_pairs, threshold) -> dict``
    ``{"merged": int, "precision": float, "recall": float, "lost_distinct": int}``:
    ``merged`` pairs at or above the threshold; ``precision`` the share of them that are the same
    fact (``1.0`` when nothing is merged: no merge, no mistake); ``recall`` the share of all
    same-fact pairs that are merged (``0.0`` when there are none); ``lost_distinct`` the distinct
    pairs merged, each one a fact the store would lose. ``ValueError`` for no pairs.

``choose_threshold(scored_pairs, *, min_precision) -> float``
    The *lowest* threshold, taken from the observed cosines, whose merges have precision of at
    least ``min_precision``. Precision is not monotone in the threshold (a distinct pair high up
    can be outweighed by same-fact pairs below it), so look at every candidate. Pairs with equal
    cosines cannot be separated by any threshold. If no candidate reaches ``min_precision``,
    return ``math.inf`` (merge nothing). ``ValueError`` for no pairs, or ``min_precision``
    outside (0, 1] (NaN included).

Done when ``memcourse grade 08`` shows 08 at 100%.

中文说明（练习 08 · 用带标注的句对校准模型的近似重复阈值）

难度：★★★☆ · 预计时间：35 分钟 · Notebook：notebooks/zh/08_reading_chinese.ipynb

为什么：当两条记忆的余弦达到或超过模型的近似重复阈值时，存储会合并它们。工程指南把 0.92 写得
像定律一样；它其实是某一个模型的属性。换一个模型，同一个数字要么会合并不同的事实，要么什么也不
合并。你要写的，是新模型在允许合并任何东西之前需要的校准：先在带标注的句对上测量一个阈值会做什么，
再选出合并足够精确的最低阈值。

写两个函数。一个*打分句对*是 ``(cosine, same_fact)``：模型给两条记忆算出的余弦，以及人工标注
它们是同一事实（``True``）还是同时成立的两个事实（``False``）。合并一对，意味着
``cosine >= threshold``。

``merge_report(scored_pairs, threshold) -> dict``
    ``{"merged": int, "precision": float, "recall": float, "lost_distinct": int}``：
    ``merged`` 是达到阈值的句对数；``precision`` 是其中同一事实所占比例（什么都没合并时为
    ``1.0``：不合并就不会出错）；``recall`` 是所有同一事实句对中被合并的比例（没有同一事实
    句对时为 ``0.0``）；``lost_distinct`` 是被合并的不同事实句对数，每一对都是存储会丢掉的一个
    事实。没有句对时抛出 ``ValueError``。

``choose_threshold(scored_pairs, *, min_precision) -> float``
    从观测到的余弦中取出、合并精确率至少为 ``min_precision`` 的*最低*阈值。精确率对阈值不是
    单调的（高处的一对不同事实，可能被下方的同一事实句对抵消），所以要检查每一个候选。余弦相等
    的句对无法被任何阈值分开。如果没有候选达到 ``min_precision``，返回 ``math.inf``（什么都
    不合并）。没有句对，或 ``min_precision`` 不在 (0, 1] 内（包括 NaN）时抛出 ``ValueError``。

完成标准：``memcourse grade 08`` 显示 08 为 100%。提示：``MEMCOURSE_LANG=zh memcourse hint 08``。
"""

from __future__ import annotations

from typing import Sequence


def merge_report(scored_pairs: Sequence[tuple[float, bool]], threshold: float) -> dict:
    raise NotImplementedError("ex08 merge_report: not written yet (stuck? memcourse hint 08)")


def choose_threshold(scored_pairs: Sequence[tuple[float, bool]], *, min_precision: float) -> float:
    raise NotImplementedError("ex08 choose_threshold: not written yet (stuck? memcourse hint 08)")
