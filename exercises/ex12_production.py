"""Exercise 12 — a batched writer that retries what is worth retrying, and nothing else.

Difficulty: ★★★☆ · Expected time: 35 minutes · Notebook: 12_production.ipynb

Why: in production, memory writes go over a network to a vector database. Writing one record
per call wastes round trips, so you batch (``upsert_many``). Networks fail now and then, so you
retry, but a careless retry loop causes its own incidents: it hammers a struggling server
(no backoff), replays batches that already succeeded, writes batches out of order (an older
"Java" landing after a newer "Go"), or retries a bad record forever. This writer does none of
those.

Build one function:

``write_in_batches(records, write_batch, *, batch_size=50, max_attempts=3, base_delay=0.1, sleep=time.sleep)``
    - Raise ``ValueError`` (before any write) if ``batch_size < 1`` or ``max_attempts < 1``.
    - Split ``records`` into consecutive batches of ``batch_size`` (the last may be shorter)
      and call ``write_batch(batch)`` with each batch (a new ``list`` for every attempt: a client
      library may change the list it was given), **in order**. A batch is
      written only after the previous one succeeded.
    - **Transient** failures are retried: ``ConnectionError`` and ``TimeoutError``. Before
      retry number *n* (1, 2, ...) of a batch, call ``sleep(base_delay * 2 ** (n - 1))``
      (0.1, 0.2, 0.4 ... with the defaults). A batch is tried at most ``max_attempts`` times;
      if the last attempt fails too, re-raise that error (later batches are not attempted).
    - Any **other** exception is a bug or a bad record: re-raise it at once, no retry, no sleep.
    - A batch that succeeded is never written again.
    - Return a dict: ``{"batches": number of batches written, "written": number of records
      written, "attempts": total calls to write_batch, "retries": attempts - batches}``.
      No records: no calls, and all four numbers are 0.

Done when ``memcourse grade 12`` shows 12 at 100%.

中文说明（练习 12 · 批量写入器：只重试值得重试的，别的一概不重试）

难度：★★★☆ · 预计时间：35 分钟 · Notebook：notebooks/zh/12_production.ipynb

为什么：在生产环境中，记忆写入要经过网络到达向量数据库。每次调用只写一条记录浪费往返，所以要批量
写（``upsert_many``）。网络时不时会出故障，所以要重试，但粗心的重试循环会自己酿成事故：猛敲一台
已经吃力的服务器（没有退避）、重放已经成功的批、乱序写入（较旧的"Java"落在较新的"Go"之后），或者
对一条坏记录无休止地重试。这个写入器一样都不犯。

写一个函数：

``write_in_batches(records, write_batch, *, batch_size=50, max_attempts=3, base_delay=0.1, sleep=time.sleep)``
    - 如果 ``batch_size < 1`` 或 ``max_attempts < 1``，抛出 ``ValueError``（在任何写入之前）。
    - 把 ``records`` 切成每批 ``batch_size`` 条的连续批（最后一批可以更短），**按顺序**对每批调用
      ``write_batch(batch)``（每次尝试都传一个新的 ``list``：客户端库可能会修改传给它的列表）。
      只有前一批成功之后才写下一批。
    - **暂时性**故障会重试：``ConnectionError`` 和 ``TimeoutError``。在某批的第 *n* 次重试（1、2……）
      之前，调用 ``sleep(base_delay * 2 ** (n - 1))``（默认值下为 0.1、0.2、0.4……）。每批最多尝试
      ``max_attempts`` 次；最后一次也失败时，重新抛出该错误（后面的批不再尝试）。
    - **其他**任何异常都是 bug 或坏记录：立即重新抛出，不重试，不 sleep。
    - 成功的批绝不再写第二次。
    - 返回一个 dict：``{"batches": 写入的批数, "written": 写入的记录数, "attempts": 调用 write_batch
      的总次数, "retries": attempts - batches}``。没有记录：不调用，四个数都是 0。

完成标准：``memcourse grade 12`` 显示 12 为 100%。提示：``MEMCOURSE_LANG=zh memcourse hint 12``。
"""

from __future__ import annotations

import time
from typing import Any, Callable, Sequence


def write_in_batches(
    records: Sequence[Any],
    write_batch: Callable[[list[Any]], Any],
    *,
    batch_size: int = 50,
    max_attempts: int = 3,
    base_delay: float = 0.1,
    sleep: Callable[[float], Any] = time.sleep,
) -> dict[str, int]:
    raise NotImplementedError("ex12 write_in_batches: not written yet (stuck? memcourse hint 12)")
