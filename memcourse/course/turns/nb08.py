"""Notebook 08's tasks: a Chinese question only the multilingual model answers, and a floor that
belongs to another model."""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from memcourse.course.inline_tasks import Turn, Verdict, choice, right, wrong

#: The probe's memories, as the notebook lists them (subject, content).
MEMORIES = (
    ("commute", "我每天骑自行车上班，大概二十分钟。"),
    ("pet", "我家有一只橘猫，名字叫馒头。"),
    ("diet", "I stopped eating meat last spring."),
    ("editor", "I write all my notes in Obsidian."),
    ("deploy", "周五下午不要部署 production 服务。"),
    ("allergy", "I am allergic to peanuts."),
)
#: The English memories a learner's question may aim at; "diet" is the one the notebook already asks about.
TARGETS = ("editor", "allergy")
_HAN = re.compile(r"[\u3400-\u9fff]")
_LATIN = re.compile(r"[A-Za-z\uff21-\uff3a\uff41-\uff5a]")


def _nearest(model: Any, question: str) -> str:
    documents = np.asarray(model.embed([content for _, content in MEMORIES]))
    cosines = documents @ np.asarray(model.embed_query(question))
    return MEMORIES[int(np.argmax(cosines))][0]


def _only_the_multilingual_model_answers(answer: Any, probe_models: Any) -> Verdict:
    if not isinstance(answer, str) or not answer.strip():
        return wrong("answer with a question in Chinese, as a string", "请用一句中文问题作答（字符串）")
    question = answer.strip()
    if not _HAN.search(question) or _LATIN.search(question):
        return wrong("write the question in Chinese characters only: no Latin letters, so no word is shared with "
                     "the English memory",
                     "只用汉字写这个问题：不要拉丁字母，这样它和英文记忆没有任何共同的词")
    readers = [model for model in probe_models.values() if model.profile.reads_cjk]
    others = [model for model in probe_models.values() if not model.profile.reads_cjk]
    if not readers or not others:
        return wrong("pass probe_models=probe_models: the English model and the multilingual one",
                     "请传入 probe_models=probe_models：英文模型和多语言模型")
    by_multilingual, by_english = _nearest(readers[0], question), _nearest(others[0], question)
    if by_multilingual not in TARGETS:
        return wrong(f"the multilingual model answers it with '{by_multilingual}', not with one of the English "
                     f"memories {', '.join(TARGETS)}: ask about what one of them says",
                     f"多语言模型给出的是 “{by_multilingual}”，而不是英文记忆 {'、'.join(TARGETS)} 之一："
                     "请问其中一条记忆说的内容")
    if by_english == by_multilingual:
        return wrong(f"both models answer with '{by_english}'; find a question the English model gets "
                     "wrong, for instance one whose characters it does not know",
                     f"两个模型都给出 “{by_english}”；换一个英文模型会答错的问题，"
                     "比如用它不认识的汉字")
    return right(f"the multilingual model finds '{by_multilingual}', the English model '{by_english}': a Chinese "
                 "question reached an English memory with no word in common. That is cross-lingual recall.",
                 f"多语言模型找到 “{by_multilingual}”，英文模型找到 “{by_english}”：一句中文问题在没有任何"
                 "共同词的情况下找到了英文记忆。这就是跨语言召回。")


def _probe_models() -> dict[str, Any]:
    from memcourse.embeddings import Embedder

    models = {"MiniLM (English)": Embedder("minilm"), "USE (multilingual)": Embedder("use-multilingual")}
    return {"probe_models": models}


TURNS = [
    Turn(key="08.1", check=_only_the_multilingual_model_answers, context=("probe_models",),
         example_context=_probe_models, example="用户对什么食物过敏？",
         wrong_answers=("What is the user allergic to?", "", "用户吃素吗 meat?", "用户每天怎么上班？", 42),
         explain={"en": "For example 用户对什么食物过敏？ (what food is the user allergic to?): the multilingual "
                        "model ranks 'I am allergic to peanuts.' first; to the English model the question is "
                        "mostly [UNK], so its nearest memory is an accident of length and punctuation.",
                  "zh": "例如“用户对什么食物过敏？”：多语言模型把 “I am allergic to peanuts.” 排在第一；"
                        "对英文模型来说，这句问题大多是 [UNK]，它的最近邻只是长度和标点造成的巧合。"}),
    choice("08.2", "a", options="abc",
           explain={"en": "(a): e5's cosines sit between about 0.75 and 0.99 for any two texts, so a floor set for "
                          "USE (printed in the profile table) is below almost every pair: it keeps every vector "
                          "hit, related or not. A floor is a property of the model's cosine scale.",
                    "zh": "(a)：e5 对任意两段文本的余弦大约都在 0.75 到 0.99 之间，所以为 USE 设定的下限"
                          "（见档案表）几乎低于每一对：不管相关与否，每个向量命中都会留下。下限是模型余弦尺度的属性。"},
           nudges={"b": ("compare the floor with where e5's cosines sit: are they above it or below it?",
                         "把这个下限和 e5 余弦所在的区间比一比：余弦是在它之上，还是之下？"),
                   "c": ("the floor is compared with the raw cosine the model produces: does the model's scale not "
                         "matter?",
                         "下限比较的是模型算出的原始余弦：模型的尺度难道无关紧要吗？")}),
]
