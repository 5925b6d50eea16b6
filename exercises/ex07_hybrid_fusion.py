"""Exercise 07 — fuse two rankings with RRF, and measure the result.

Difficulty: ★★★☆ · Expected time: 35 minutes · Notebook: 07_hybrid_recall_chroma.ipynb

Why: the vector channel answers with cosine similarities (0.2–0.9), BM25 with unbounded sums
(0–30). Adding them is meaningless; Reciprocal Rank Fusion keeps only the ranks. And "hybrid is
better" is a claim until Recall@k and MRR say so on labelled queries.

Build three functions.

``rrf_fuse(rankings, *, k=60) -> list[tuple[str, float]]``
    ``rankings`` maps a channel name ("vector", "keyword", …) to the ids it returned, best
    first. Every id any channel returned gets ``Σ 1 / (k + rank)`` over the channels that
    returned it (rank is 1-based; an id listed twice by one channel counts once, at its better
    rank). Return ``(id, score)`` pairs, best first. Ties: the better *best single-channel*
    rank first, then the id. ``k`` must be > 0 (else ``ValueError``).

``recall_at_k(ranked, relevant, k) -> float``
    The share of the ``relevant`` ids found in ``ranked[:k]`` (``ValueError`` when ``relevant``
    is empty or ``k < 1``).

``mean_reciprocal_rank(results) -> float``
    ``results`` is a list of ``(ranked, relevant)`` pairs, one per query. For each query take
    ``1 / rank`` of the first relevant id in ``ranked`` (0 if none is there), and return the
    mean over queries (``0.0`` for no queries).

Done when ``memcourse grade 07`` shows 07 at 100%.

中文说明（练习 07 · 用 RRF 融合两个排序，并度量结果）

难度：★★★☆ · 预计时间：35 分钟 · Notebook：notebooks/zh/07_hybrid_recall_chroma.ipynb

为什么：向量通道（vector channel）给出的是余弦相似度（cosine similarity，0.2–0.9），BM25 给出的是
没有上界的和（0–30）。把它们相加毫无意义；融合（RRF，倒数排名融合）只保留名次。而"混合检索
（hybrid retrieval）更好"在 Recall@k 和 MRR 于带标注的查询上证实之前，只是一个说法。

写三个函数。

``rrf_fuse(rankings, *, k=60) -> list[tuple[str, float]]``
    ``rankings`` 把通道名（"vector"、"keyword"……）映射到该通道返回的 id，最好的在前。任一通道
    返回的每个 id，在返回了它的通道上得到 ``Σ 1 / (k + rank)``（rank 从 1 开始；同一通道列出两次的
    id 只算一次，按较好的名次）。返回 ``(id, score)`` 对，最好的在前。平局时：*单个通道最好名次*
    更好的在前，再按 id。``k`` 必须 > 0（否则 ``ValueError``）。

``recall_at_k(ranked, relevant, k) -> float``
    ``relevant`` 中的 id 出现在 ``ranked[:k]`` 里的比例（``relevant`` 为空或 ``k < 1`` 时抛出
    ``ValueError``）。

``mean_reciprocal_rank(results) -> float``
    ``results`` 是 ``(ranked, relevant)`` 对的列表，每个查询一对。对每个查询取 ``ranked`` 中第一个
    相关 id 的 ``1 / rank``（没有则为 0），返回所有查询的平均值（没有查询时为 ``0.0``）。

完成标准：``memcourse grade 07`` 显示 07 为 100%。提示：``MEMCOURSE_LANG=zh memcourse hint 07``。
"""

from __future__ import annotations

from typing import Iterable, Mapping, Sequence


def rrf_fuse(rankings: Mapping[str, Sequence[str]], *, k: float = 60) -> list[tuple[str, float]]:
    raise NotImplementedError("ex07 rrf_fuse: not written yet (stuck? memcourse hint 07)")


def recall_at_k(ranked: Sequence[str], relevant: Iterable[str], k: int) -> float:
    raise NotImplementedError("ex07 recall_at_k: not written yet (stuck? memcourse hint 07)")


def mean_reciprocal_rank(results: Sequence[tuple[Sequence[str], Iterable[str]]]) -> float:
    raise NotImplementedError("ex07 mean_reciprocal_rank: not written yet (stuck? memcourse hint 07)")
