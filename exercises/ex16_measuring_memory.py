"""Exercise 16 — grading answers the way users feel them, and answering "as of" a time.

Difficulty: ★★★☆ · Expected time: 30 minutes · Notebook: 16_measuring_memory.ipynb

Why: a user does not see a ranking, they see an answer, and "I don't know" is sometimes the
only right one. A metric that counts every abstention as a failure rewards a system for
making things up; one that counts every abstention as a success rewards it for saying nothing.
And a fact that changed ("I lived in Guangzhou, now Chengdu") has two answers, one per period:
the past value is right for a question about the past, and the boundary between the two
periods must belong to exactly one of them.

Build three functions:

``grade(expect, answer) -> bool``
    ``expect`` is a list of groups of accepted spellings (``[["Porto"], ["May 23", "23 May"]]``);
    an empty list means the question cannot be answered from memory.
    - Unanswerable: right exactly when the answer abstains
      (``memcourse.evaluations.e2e.abstained(answer)`` says so: "I don't know", "我不知道", ...).
    - Answerable: wrong if the answer abstains (even if it hedges with the right word);
      otherwise right when *every* group has at least one spelling contained in the answer,
      compared case-insensitively after ``unicodedata.normalize("NFKC", ...)``.

``accuracy_by_ability(questions, answers) -> dict[str, float]``
    ``questions``: dicts with ``id``, ``ability``, ``expect``; ``answers``: ``{id: answer}``
    (a missing answer counts as ``""``). Return the share of right answers per ability, for
    every ability that has questions.

``recall_as_of(records, moment) -> list[tuple[str, str]]``
    For each record (in order), the value that held at ``moment`` as ``(memory_id, content)``;
    records with no value then are left out. A record's values are its ``history`` entries
    (each with ``valid_from`` and ``valid_to`` set, oldest first) and then its current
    content, valid from ``record.valid_from`` (or ``record.created_at`` when that is ``None``)
    until ``record.valid_to`` (``None``: still valid). Intervals are half-open,
    ``start <= moment < end``: at the moment a value changes, the *new* value holds.
    Skip records whose status is ``deleted`` and records already expired at ``moment``
    (``expires_at <= moment``).

Done when ``memcourse grade 16`` shows 16 at 100%.

中文说明（练习 16 · 按用户的感受给回答评分，并"按某一时点"作答）

难度：★★★☆ · 预计时间：30 分钟 · Notebook：notebooks/zh/16_measuring_memory.ipynb

为什么：用户看不到排序，他们看到的是回答，而"我不知道"有时是唯一正确的回答。把每次弃答都算作失败
的指标，会奖励一个胡编乱造的系统；把每次弃答都算作成功的指标，会奖励一个什么都不说的系统。而一个
变过的事实（"我以前住广州，现在住成都"）有两个答案，每个时期一个：对于关于过去的问题，过去的值才是
对的，并且两个时期之间的边界必须恰好属于其中一个。这就是时点查询（as-of）。

写三个函数：

``grade(expect, answer) -> bool``
    ``expect`` 是若干组可接受写法的列表（``[["Porto"], ["May 23", "23 May"]]``）；空列表表示这个
    问题无法从记忆中回答。
    - 无法回答：当且仅当回答弃答时正确（由 ``memcourse.evaluations.e2e.abstained(answer)`` 判定："I don't
      know"、"我不知道"……）。
    - 可以回答：回答弃答就是错的（即使它含糊其辞地带上了正确的词）；否则当*每一组*都至少有一种写法
      出现在回答中时正确，比较前先做 ``unicodedata.normalize("NFKC", ...)``，且不区分大小写。

``accuracy_by_ability(questions, answers) -> dict[str, float]``
    ``questions``：含 ``id``、``ability``、``expect`` 的 dict；``answers``：``{id: answer}``（缺失的
    回答按 ``""`` 计）。对每种有问题的能力，返回答对的比例。

``recall_as_of(records, moment) -> list[tuple[str, str]]``
    对每条记录（按顺序），以 ``(memory_id, content)`` 返回在 ``moment`` 时成立的值；那时没有值的记录
    不出现。一条记录的值依次是它的 ``history`` 条目（每条都设置了 ``valid_from`` 和 ``valid_to``，
    最旧的在前），然后是它的当前内容，有效期（validity）从 ``record.valid_from``（为 ``None`` 时用
    ``record.created_at``）到 ``record.valid_to``（``None``：仍然有效）。区间左闭右开，
    ``start <= moment < end``：在值发生变化的那一刻，成立的是*新*值。跳过状态为 ``deleted`` 的记录，
    以及在 ``moment`` 时已经过期的记录（``expires_at <= moment``）。

完成标准：``memcourse grade 16`` 显示 16 为 100%。提示：``MEMCOURSE_LANG=zh memcourse hint 16``。
"""

from __future__ import annotations

from datetime import datetime

from memcourse.records import MemoryRecord


def grade(expect: list[list[str]], answer: str) -> bool:
    raise NotImplementedError("ex16 grade: not written yet (stuck? memcourse hint 16)")


def accuracy_by_ability(questions: list[dict], answers: dict[str, str]) -> dict[str, float]:
    raise NotImplementedError("ex16 accuracy_by_ability: not written yet (stuck? memcourse hint 16)")


def recall_as_of(records: list[MemoryRecord], moment: datetime) -> list[tuple[str, str]]:
    raise NotImplementedError("ex16 recall_as_of: not written yet (stuck? memcourse hint 16)")
