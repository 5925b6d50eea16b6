"""Exercise 07 — design a fusion of two channels' scores, and prove it beats RRF.

Difficulty: ★★★★ · Expected time: 50 minutes · Notebook: 07_hybrid_recall_chroma.ipynb

Why: the vector channel answers with cosine similarities (0.2–0.9), BM25 with unbounded sums
(0–30). Adding them is meaningless; Reciprocal Rank Fusion keeps only the ranks, and with them
throws away how sure each channel is. Notebook 07 measured plain RRF and kept it only as the
baseline. Here you build the measuring tools, then design your own fusion and beat RRF, measured.

Build four functions. The first three are the yardstick (specified exactly); the fourth is yours
to design (only its requirements are given).

``rrf_fuse(rankings, *, k=60) -> list[tuple[str, float]]``
    ``rankings`` maps a channel name ("vector", "keyword", …) to the ids it returned, best
    first. Every id any channel returned gets ``Σ 1 / (k + rank)`` over the channels that
    returned it (rank is 1-based; an id listed twice by one channel counts once, at its better
    rank). Return ``(id, score)`` pairs, best first. Ties: the better *best single-channel*
    rank first, then the id. ``k`` must be > 0 (else ``ValueError``).

``recall_at_k(ranked, relevant, k) -> float``
    The share of the distinct ``relevant`` ids found in ``ranked[:k]`` (``relevant`` may be any
    iterable, a generator too: read it once, into a set; ``ValueError`` when it is empty or
    ``k < 1``).

``mean_reciprocal_rank(results) -> float``
    ``results`` is a list of ``(ranked, relevant)`` pairs, one per query. For each query take
    ``1 / rank`` of the first relevant id in ``ranked`` (0 if none is there), and return the
    mean over queries (``0.0`` for no queries).

``fuse_scores(channels) -> list[str]``
    ``channels`` maps ``"vector"`` to ``[(id, cosine), …]`` and ``"keyword"`` to
    ``[(id, bm25_score), …]``, each best first; either may be empty. Return ids, best first.
    Design the scoring yourself; it must:

    - list every id any channel returned, exactly once (an id one channel lists twice counts
      at its better score, as in ``rrf_fuse``);
    - be deterministic: equal scores are ordered by id, whatever order the input came in;
    - not care about a channel's units: multiplying every BM25 score by 10, or adding a
      constant to every cosine, must not change the order (so a raw sum is out);
    - ignore a channel that returned nothing (same result as leaving it out);
    - use the scores, not only the ranks: when one channel puts ``a`` far above ``b`` and the
      other puts ``b`` barely above ``a``, ``a`` comes first (and the other way round);
    - reward agreement: an id near the top of both channels beats one that tops only one
      channel and is last (or missing) in the other;
    - win, measured: on the graded labelled set (``memcourse/data/ex07_fusion_channels.json``,
      the recall set's queries with both channels' candidates) its MRR must beat plain RRF
      (k = 60) on the same candidates by at least 0.01, and must not lose to either channel
      alone. There plain RRF scores 0.871, so the bar is 0.881: lower than notebook 07's figures,
      because every distractor is in, each channel keeps 20 candidates, and there is no
      identifier route.

Done when ``memcourse grade 07`` shows 07 at 100%.

中文说明（练习 07 · 设计两个通道分数的融合，并证明它胜过 RRF）

难度：★★★★ · 预计时间：50 分钟 · Notebook：notebooks/zh/07_hybrid_recall_chroma.ipynb

为什么：向量通道（vector channel）给出的是余弦相似度（cosine similarity，0.2–0.9），BM25 给出的是
没有上界的和（0–30）。把它们相加毫无意义；倒数排名融合（RRF，Reciprocal Rank Fusion）只保留名次，也就丢掉了每个
通道有多确定。Notebook 07 度量了朴素 RRF，只把它留作基线。这里你先写好度量工具，再设计自己的
融合，并用度量证明它胜过 RRF。

写四个函数。前三个是量尺（规格完全给定）；第四个由你设计（只给出要求）。

``rrf_fuse(rankings, *, k=60) -> list[tuple[str, float]]``
    ``rankings`` 把通道名（"vector"、"keyword"……）映射到该通道返回的 id，最好的在前。任一通道
    返回的每个 id，在返回了它的通道上得到 ``Σ 1 / (k + rank)``（rank 从 1 开始；同一通道列出两次的
    id 只算一次，按较好的名次）。返回 ``(id, score)`` 对，最好的在前。平局时：*单个通道最好名次*
    更好的在前，再按 id。``k`` 必须 > 0（否则 ``ValueError``）。

``recall_at_k(ranked, relevant, k) -> float``
    ``relevant`` 中（去重后）的 id 出现在 ``ranked[:k]`` 里的比例（``relevant`` 可以是任何可迭代对象，
    包括生成器：只读一次，先转成集合；它为空或 ``k < 1`` 时抛出 ``ValueError``）。

``mean_reciprocal_rank(results) -> float``
    ``results`` 是 ``(ranked, relevant)`` 对的列表，每个查询一对。对每个查询取 ``ranked`` 中第一个
    相关 id 的 ``1 / rank``（没有则为 0），返回所有查询的平均值（没有查询时为 ``0.0``）。

``fuse_scores(channels) -> list[str]``
    ``channels`` 把 ``"vector"`` 映射到 ``[(id, 余弦), …]``，把 ``"keyword"`` 映射到
    ``[(id, bm25 分数), …]``，都是最好的在前；任一个都可能为空。返回 id，最好的在前。
    打分方式由你设计；它必须：

    - 列出任一通道返回的每个 id，恰好一次（同一通道列出两次的 id，按较好的分数算，与 ``rrf_fuse``
      一样）；
    - 是确定的：分数相同时按 id 排序，与输入的先后无关；
    - 不在乎通道的单位：把每个 BM25 分数乘以 10，或给每个余弦加上同一个常数，顺序都不能变
      （所以直接相加原始分数不行）；
    - 忽略什么也没返回的通道（结果与不传这个通道相同）；
    - 用分数，而不只是名次：一个通道把 ``a`` 排得远高于 ``b``，另一个通道把 ``b`` 排得只比 ``a``
      略高时，``a`` 排在前面（反过来也一样）；
    - 奖励一致：在两个通道都靠前的 id，胜过只在一个通道排第一、在另一个通道垫底（或没有出现）的 id；
    - 用度量取胜：在评分用的带标注数据（``memcourse/data/ex07_fusion_channels.json``，召回集的
      查询及两个通道各自的候选）上，它的 MRR 必须比同一批候选上的朴素 RRF（k = 60）高至少
      0.01，并且不能输给任何一个单独的通道。在这份数据上朴素 RRF 的 MRR 为 0.871，所以门槛是
      0.881；比 Notebook 07 里的数字低，因为包含全部干扰项、每个通道只留 20 个候选，也没有标识符路由。

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


def fuse_scores(channels: Mapping[str, Sequence[tuple[str, float]]]) -> list[str]:
    raise NotImplementedError("ex07 fuse_scores: not written yet (stuck? memcourse hint 07)")
