"""Exercise 06 — BM25 scoring by hand, then time decay on top.

Difficulty: ★★★☆ · Expected time: 40 minutes · Notebook: 06_ranking_and_recall.ipynb

Why: keyword overlap counts shared words, so "的" and a rare order number weigh the same, and a
memory used yesterday ranks like one untouched for a year. BM25 fixes the first, decay the
second. Writing both yourself is the fastest way to trust (and tune) the library's versions.

Build two functions.

``bm25_scores(query_tokens, docs, *, k1=1.5, b=0.75) -> dict[str, float]``
    ``docs`` maps a document id to its token list (already tokenised, e.g. by
    ``memcourse.text.tokenize``). For every document, sum over the query's *distinct* tokens
    ``t`` that the document contains::

        idf(t)  = ln(1 + (N - df + 0.5) / (df + 0.5))     N = number of documents,
                                                            df = documents containing t
        part(t) = tf / (tf + k1 * (1 - b + b * len / avg_len))
        score   = Σ idf(t) * part(t)

    where ``tf`` is how often ``t`` occurs in the document, ``len`` its token count and
    ``avg_len`` the mean token count over all documents. Return only documents scoring > 0
    (no shared token, no entry). No documents, or no query tokens: ``{}``.
    (These are the numbers ``memcourse.recall.bm25.BM25Index`` computes with bm25s.)

``decay_rank(scores, last_used, now, *, lam=0.05) -> list[tuple[str, float]]``
    Multiply each ``scores[doc_id]`` by ``exp(-lam * days)``, where ``days`` is the fractional
    number of days from ``last_used[doc_id]`` to ``now`` (a ``last_used`` in the future counts
    as 0 days: clock skew must never *boost* a memory). Return ``(doc_id, decayed score)``
    pairs, highest first; equal scores ordered by doc_id.

Done when ``memcourse grade 06`` shows 06 at 100%.

中文说明（练习 06 · 手写 BM25 打分，再叠加时间衰减）

难度：★★★☆ · 预计时间：40 分钟 · Notebook：notebooks/zh/06_ranking_and_recall.ipynb

为什么：关键词重叠只数共有的词，于是"的"和一个罕见的订单号分量相同，昨天刚用过的记忆和一年没碰过
的记忆排名一样。BM25 解决第一个问题，衰减（decay）解决第二个。亲手写一遍两者，是信任（并调优）
库中对应实现的最快途径。

写两个函数。

``bm25_scores(query_tokens, docs, *, k1=1.5, b=0.75) -> dict[str, float]``
    ``docs`` 把文档 id 映射到它的 token 列表（已分词，例如用 ``memcourse.text.tokenize``）。对每篇
    文档，在它所包含的查询*不同* token ``t`` 上求和（公式见上面英文部分）：``idf(t)`` 中 ``N`` 是
    文档数，``df`` 是包含 ``t`` 的文档数；``tf`` 是 ``t`` 在该文档中出现的次数，``len`` 是它的
    token 数，``avg_len`` 是所有文档的平均 token 数。只返回得分 > 0 的文档（没有共同 token 就没有
    条目）。没有文档或没有查询 token 时返回 ``{}``。（这些就是 ``memcourse.recall.bm25.BM25Index``
    用 bm25s 算出的数字。）

``decay_rank(scores, last_used, now, *, lam=0.05) -> list[tuple[str, float]]``
    把每个 ``scores[doc_id]`` 乘以 ``exp(-lam * days)``，``days`` 是从 ``last_used[doc_id]`` 到
    ``now`` 的天数（可以是小数；位于未来的 ``last_used`` 按 0 天计：时钟偏差绝不能*抬高*一条记忆）。
    返回 ``(doc_id, 衰减后的得分)`` 对，得分最高的在前；得分相同按 doc_id 排序。

完成标准：``memcourse grade 06`` 显示 06 为 100%。提示：``MEMCOURSE_LANG=zh memcourse hint 06``。
"""

from __future__ import annotations

from datetime import datetime
from typing import Mapping, Sequence


def bm25_scores(
    query_tokens: Sequence[str], docs: Mapping[str, Sequence[str]], *, k1: float = 1.5, b: float = 0.75
) -> dict[str, float]:
    raise NotImplementedError("ex06 bm25_scores: not written yet (stuck? memcourse hint 06)")


def decay_rank(
    scores: Mapping[str, float],
    last_used: Mapping[str, datetime],
    now: datetime,
    *,
    lam: float = 0.05,
) -> list[tuple[str, float]]:
    raise NotImplementedError("ex06 decay_rank: not written yet (stuck? memcourse hint 06)")
