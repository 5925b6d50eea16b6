"""Notebook 16's tasks: an answer a person accepts and the grader does not, and the score of an
answerer that always abstains, predicted before the notebook computes it."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from memcourse.course.inline_tasks import Turn, Verdict, right, wrong
from memcourse.evaluations.e2e import abstained, is_correct
from memcourse.evaluations.e2e_set import Question, load_benchmark


@lru_cache(maxsize=1)
def _probe() -> Question:
    """The notebook's multi-session question: the first user's first multi_session question."""
    return next(q for q in load_benchmark()[0].questions if q.ability == "multi_session")


def _right_to_a_person_wrong_to_the_grader(answer: Any) -> Verdict:
    if not isinstance(answer, str) or not answer.strip():
        return wrong("write the answer as a string", "请把答案写成字符串")
    question = _probe()
    if is_correct(question, answer):
        return wrong("the grader marks this one right: find a way of saying the same two facts that it marks wrong",
                     "评分器判这个答案正确：找一种说出同样两件事、却被它判错的说法")
    if abstained(answer):
        return wrong("the grader reads this as an abstention, and so would a person: the task wants an answer that "
                     "gives both facts", "评分器把它当作弃答，人也会这样看：任务要的是给出两件事的答案")
    text = answer.lower()
    has_age = bool(re.search(r"\b7\b|seven|七", text))
    has_date = "23" in text and ("may" in text or "5月" in text or "五月" in text)
    if not (has_age and has_date):
        return wrong("a person would not call this right either: it needs Ines's age and the party's date, May 23",
                     "人也不会认为这是对的：它需要 Ines 的年龄和派对的日期（5 月 23 日）")
    return right("a person reads both facts; the grader, matching accepted spellings only, marks it wrong. "
                 "Spelling-based grading is cheap and reproducible and under-counts answers phrased another way: "
                 "report the judge with the score, and check a sample of its verdicts by hand.",
                 "人能读出两件事；评分器只匹配被接受的写法，判它错。按写法评分便宜、可复现，但会少算换了说法的答案："
                 "报告分数时要同时说明评判方式，并人工抽查一部分判决。")


def _as_share(answer: Any) -> tuple[float, bool] | None:
    """The answer as a share of 1, and whether it was written as a plain integer above 1 (maybe a count).

    A number above 1 is read as a percentage; a string may carry a trailing "%" ("19%" is 0.19)."""
    if isinstance(answer, str):
        text = answer.strip().replace("％", "%")
        percent = text.endswith("%")
        try:
            value = float(text.rstrip("%").strip())
        except ValueError:
            return None
        if percent:
            return value / 100, False
        answer = value
    if isinstance(answer, bool) or not isinstance(answer, int | float):
        return None
    whole = float(answer).is_integer() and answer > 1
    return (answer / 100 if answer > 1 else float(answer)), whole


def _always_abstains_overall(answer: Any) -> Verdict:
    read = _as_share(answer)
    if read is None:
        return wrong("answer with a number: a share such as 0.25 or a percentage such as 25 (\"25%\" works too)",
                     "请用数字作答：比例如 0.25，或百分数如 25（写成 \"25%\" 也可以）")
    share, whole = read
    questions = [q for user in load_benchmark() for q in user.questions]
    unanswerable = sum(not q.answerable for q in questions)
    expected = unanswerable / len(questions)
    if abs(share - expected) <= 0.006:
        return right(f"{expected:.1%}: it is right exactly on the unanswerable questions, "
                     f"{unanswerable} of {len(questions)}, and wrong on all others.",
                     f"{expected:.1%}：它只在不可回答的问题上正确，{len(questions)} 题中的 "
                     f"{unanswerable} 题，其余全错。")
    if share >= 0.99:
        return wrong("it is right on every abstention question, but how is it graded on a question that has an "
                     "answer?", "它在每道弃答题上都对，但在有答案的问题上怎么评分？")
    if share <= 0.01:
        return wrong("on some questions 'I don't know' is the right answer: how many?",
                     "有些问题的正确答案就是“我不知道”：有多少道？")
    if whole and _answer_is_count(share * 100, expected, len(questions)):
        return wrong("that is a count; divide by the number of questions", "这是题数；再除以题目总数")
    if abs(share - 0.2) <= 0.006:
        return wrong("count questions, not abilities: the five abilities do not have the same number of questions "
                     "(section 3 printed them)", "按题目数算，不是按能力数：五种能力的题数不一样（第 3 节打印过）")
    return wrong("not that share: how many questions have 'I don't know' as the right answer, out of how many? "
                 "(section 3 printed them)",
                 "不是这个比例：正确答案是“我不知道”的题有几道，一共多少道？（第 3 节打印过）")


def _answer_is_count(number: float, expected: float, total: int) -> bool:
    """A whole number above 1 that no one would write as this percentage: a count of questions, not yet divided."""
    return number <= total and abs(number - 100 * expected) > 3


TURNS = [
    Turn(key="16.1", check=_right_to_a_person_wrong_to_the_grader,
         example="Ines turns 7, and the party is on the 23rd of May.",
         wrong_answers=("Ines turns seven, and her party is on May 23.", "I don't know, maybe seven, on May 23?",
                        "Ines turns 7.", 7),
         explain={"en": "For example 'Ines turns 7, and the party is on the 23rd of May.': a person reads both "
                        "facts, but the question accepts only 'May 23' or '23 May' for the date, so the grader "
                        "marks it wrong. A grader that matches spellings under-counts; one that asks a model to "
                        "judge has its own errors. Say which one produced a score.",
                  "zh": "例如 'Ines turns 7, and the party is on the 23rd of May.'："
                        "人能读出两件事，但这道题的日期只接受 "
                        "'May 23' 或 '23 May'，所以评分器判它错。匹配写法的评分器会少算；让模型来评判的评分器也有"
                        "自己的错误。报告分数时要说明是哪一种评出来的。"}),
    Turn(key="16.2", check=_always_abstains_overall, example="19%",
         wrong_answers=(1.0, 0.0, 0.2, 100, 24, "24%", "about a fifth"),
         explain={"en": "About 19%: overall accuracy counts questions, and the answerer is right only on the "
                        "unanswerable ones (the abstention questions of the shipped benchmark), wrong on every other.",
                  "zh": "约 19%：总体准确率按题目数算，这个回答者只在不可回答的问题上正确（随附基准里的弃答题），"
                        "其余全错。"}),
]
