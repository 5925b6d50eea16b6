"""Notebook 15's tasks: an answer the grader accepts, and the score of an answerer that always
abstains, predicted before the notebook computes it."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from memcourse.course.inline_tasks import Turn, Verdict, right, wrong
from memcourse.evaluations.e2e import abstained, is_correct
from memcourse.evaluations.e2e_set import Question, load_benchmark


@lru_cache(maxsize=1)
def _probe() -> Question:
    """The notebook's multi-session question: the first user's first multi_session question."""
    return next(q for q in load_benchmark()[0].questions if q.ability == "multi_session")


def _graded_right(answer: Any) -> Verdict:
    if not isinstance(answer, str) or not answer.strip():
        return wrong("write the answer as a string", "请把答案写成字符串")
    question = _probe()
    if is_correct(question, answer):
        return right("graded right: one accepted spelling of every group, and no abstention.",
                     "判为正确：每一组都有一个被接受的写法，而且没有弃答。")
    if abstained(answer):
        return wrong("the grader reads this as an abstention: on an answerable question a hedge counts as "
                     "'I don't know', whatever follows it", "评分器把它当作弃答：在可回答的问题上，含糊其辞就算"
                     "“我不知道”，不管后面写了什么")
    missing = [group for group in question.expect if not any(s.lower() in answer.lower() for s in group)]
    return wrong(f"{len(missing)} of the {len(question.expect)} groups has no accepted spelling in your answer. The "
                 "grader matches spellings, not meaning: which spellings does the question list?",
                 f"{len(question.expect)} 组里有 {len(missing)} 组在你的答案里找不到被接受的写法。评分器匹配写法，"
                 "不理解意思：题目列出了哪些写法？")


def _always_abstains_overall(answer: Any) -> Verdict:
    if isinstance(answer, bool) or not isinstance(answer, int | float):
        return wrong("answer with a number: a share such as 0.25, or a percentage such as 25",
                     "请用数字作答：比例如 0.25，或百分数如 25")
    questions = [q for user in load_benchmark() for q in user.questions]
    expected = sum(not q.answerable for q in questions) / len(questions)
    share = answer / 100 if answer > 1 else answer
    if abs(share - expected) <= 0.006:
        return right(f"{expected:.1%}: it is right exactly on the unanswerable questions, "
                     f"{sum(not q.answerable for q in questions)} of {len(questions)}, and wrong on all others.",
                     f"{expected:.1%}：它只在不可回答的问题上正确，{len(questions)} 题中的 "
                     f"{sum(not q.answerable for q in questions)} 题，其余全错。")
    if share >= 0.99:
        return wrong("it is right on every abstention question, but how is it graded on a question that has an "
                     "answer?", "它在每道弃答题上都对，但在有答案的问题上怎么评分？")
    if share <= 0.01:
        return wrong("on some questions 'I don't know' is the right answer: how many?",
                     "有些问题的正确答案就是“我不知道”：有多少道？")
    return wrong("count questions, not abilities: the five abilities do not have the same number of questions "
                 "(section 3 printed them)", "按题目数算，不是按能力数：五种能力的题数不一样（第 3 节打印过）")


TURNS = [
    Turn(key="15.1", check=_graded_right, example="Ines turns seven, and her party is on May 23.",
         wrong_answers=("Ines turns 7.", "I don't know, maybe seven, on May 23?",
                        "Ines turns 7; the party is on the 23rd of May.", 7),
         explain={"en": "For example 'Ines turns seven, and her party is on May 23.': one spelling from each group "
                        "(['7', 'seven'] and ['May 23', '23 May']). 'the 23rd of May' is right to a person and wrong "
                        "to this grader: spelling-based grading is cheap and reproducible, and it under-counts "
                        "answers phrased another way, which is why papers also report a model judge.",
                  "zh": "例如 'Ines turns seven, and her party is on May 23.'：每组各有一个写法（['7', 'seven'] 和 "
                        "['May 23', '23 May']）。'the 23rd of May' 对人来说是对的，对这个评分器却是错的：按写法评分"
                        "便宜、可复现，但会少算换了说法的答案，所以论文还会报告模型评审的结果。"}),
    Turn(key="15.2", check=_always_abstains_overall, example=0.19,
         wrong_answers=(1.0, 0.0, 0.2, 100, "19%"),
         explain={"en": "About 19%: overall accuracy counts questions, and the answerer is right only on the "
                        "unanswerable ones (the abstention questions of the shipped benchmark), wrong on every other.",
                  "zh": "约 19%：总体准确率按题目数算，这个回答者只在不可回答的问题上正确（随附基准里的弃答题），"
                        "其余全错。"}),
]
