"""Notebook 04's tasks: find a collision of the ASCII-only slug, and predict what the normalisation merges."""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from memcourse import make_memory_id
from memcourse.course.inline_tasks import Turn, Verdict, right, wrong

CJK = re.compile(r"[\u3000-\u9fff\uff00-\uffef]")
#: The collisions the notebook already shows (section 2).
SHOWN = {frozenset(pair) for pair in [("C++ tips", "C# tips"), ("Tokyo office", "tokyo-office"),
                                      ("Q&A notes", "Q/A notes")]}


def buggy_slug(subject: str) -> str:
    """The notebook's first id function, without the type prefix: lower-case, every non a-z0-9 run becomes '_'."""
    return re.sub(r"[^a-z0-9]+", "_", subject.strip().lower())


def _normalise(subject: str) -> str:
    return re.sub(r"\s+", " ", unicodedata.normalize("NFKC", subject).strip().lower())


def _a_new_collision(answer: Any) -> Verdict:
    if not (isinstance(answer, tuple) and len(answer) == 2 and all(isinstance(s, str) and s.strip() for s in answer)):
        return wrong("answer with two subjects as strings: (a, b)", "请用两个字符串主题作答：(a, b)")
    a, b = answer
    if frozenset((a, b)) in SHOWN:
        return wrong("that pair is in the cell above; find one of your own", "这一对在上面的单元格里；找一对你自己的")
    if CJK.search(a + b):
        return wrong("Chinese (and full-width) characters collapse too easily; find a pair without them",
                     "中文（和全角）字符太容易塌缩了；找一对不含它们的")
    if _normalise(a) == _normalise(b):
        return wrong("those are the same subject after normalisation, so sharing an id is right",
                     "规范化之后它们是同一个主题，共用一个 id 是对的")
    if buggy_slug(a) != buggy_slug(b):
        return wrong(f"the buggy slug keeps them apart ('{buggy_slug(a)}' vs '{buggy_slug(b)}'): which characters "
                     "does it throw away?",
                     f"有 bug 的 slug 把它们分开了（'{buggy_slug(a)}' 和 '{buggy_slug(b)}'）：它丢掉了哪些字符？")
    if make_memory_id("entity", a) == make_memory_id("entity", b):
        return wrong("make_memory_id merges them too; look for a pair it keeps apart",
                     "make_memory_id 也把它们合并了；找一对它能分开的")
    return right(f"both become '{buggy_slug(a)}' in the buggy id, two memories in the fixed one: the slug throws "
                 "away every character outside a-z and 0-9, the hash keeps the whole subject.",
                 f"在有 bug 的 id 里两者都变成 '{buggy_slug(a)}'，在修好的 id 里是两条记忆：slug 丢掉了 a-z 和 0-9 "
                 "以外的所有字符，哈希保留了完整的主题。")


#: Task 04.2's subjects, as the notebook lists them.
VARIANTS = ["用户喜欢短回答", "用户喜欢短回答 ", "用户喜欢  短回答", "用户喜欢短回答。", "ＡＰＩ文档", "api文档"]


def _distinct_ids(answer: Any) -> Verdict:
    if isinstance(answer, bool) or not isinstance(answer, int):
        return wrong("answer with a whole number of distinct ids", "请用一个整数（不同 id 的个数）作答")
    expected = len({make_memory_id("entity", subject) for subject in VARIANTS})
    if answer == expected:
        return right(f"{expected}: a trailing space and full-width letters (NFKC, lower-case) are normalised away; "
                     "a space inside the subject and the final 。 are part of it.",
                     f"{expected}：末尾空格和全角字母（NFKC、小写）在规范化时被去掉；主题中间的空格和结尾的“。”是主题的一部分。")
    if answer > expected:
        return wrong("normalisation runs before the hash: which of these become the same string after NFKC, "
                     "lower-casing and trimming?",
                     "规范化在哈希之前进行：哪些经过 NFKC、小写和去首尾空格后变成同一个字符串？")
    return wrong("normalisation only folds width, case and whitespace; punctuation and a space inside the subject "
                 "stay", "规范化只处理全角半角、大小写和空白；标点和主题中间的空格会保留")


TURNS = [
    Turn(key="04.1", check=_a_new_collision, example=("naïve Bayes", "na ve Bayes"),
         wrong_answers=(("C++ tips", "C# tips"), ("Tokyo office", " tokyo office"), ("用户住在上海", "周五不部署"),
                        ("apple pie", "apple tart"), "C++ tips"),
         explain={"en": "For example ('naïve Bayes', 'na ve Bayes'), ('R&D budget', 'R/D budget') or ('Москва', "
                        "'Київ'): every character outside a-z and 0-9 becomes '_', so the ï, the & or a whole "
                        "Cyrillic word is lost, and the ids collide.",
                  "zh": "例如 ('naïve Bayes', 'na ve Bayes')、('R&D budget', 'R/D budget') "
                        "或 ('Москва', 'Київ')：a-z 和 "
                        "0-9 以外的字符都变成 '_'，于是 ï、& 或整个西里尔字母单词都丢了，id 就撞在一起。"}),
    Turn(key="04.2", check=_distinct_ids, example=4, wrong_answers=(6, 3, 5, 1, "4"),
         explain={"en": "4: '用户喜欢短回答' and '用户喜欢短回答 ' are one (trailing space), "
                        "'ＡＰＩ文档' and 'api文档' are one (NFKC, lower-case); "
                        "'用户喜欢  短回答' (a space inside) and '用户喜欢短回答。' (a full stop) "
                        "are subjects of their own.",
                  "zh": "4：'用户喜欢短回答' 和 '用户喜欢短回答 ' 是同一个（末尾空格），"
                        "'ＡＰＩ文档' 和 'api文档' 是同一个（NFKC、小写）；"
                        "'用户喜欢  短回答'（中间有空格）和 '用户喜欢短回答。'（有句号）各是一个主题。"}),
]
