"""Notebook 00's tasks: where a memory lives, and what is worth keeping."""

from __future__ import annotations

from typing import Any

from memcourse.course.inline_tasks import Turn, Verdict, choice, right, wrong


def _memory_is_the_file(answer: Any) -> Verdict:
    if not isinstance(answer, bool):
        return wrong("answer True or False", "请回答 True 或 False")
    if answer:
        return right("the forgetful Monday agent wrote the preference to monday-only.json; any agent that opens "
                     "that file recalls it. The memory is the store, not the agent object.",
                     "“健忘”的周一智能体已经把偏好写进了 monday-only.json；任何打开这个文件的智能体都能召回它。"
                     "记忆在存储里，不在智能体对象里。")
    return wrong("look at what forgetful_monday.reply(monday) did to its store before the session ended",
                 "看看 forgetful_monday.reply(monday) 在会话结束前对它的存储做了什么")


TURNS = [
    Turn(key="00.1", check=_memory_is_the_file, example=True, wrong_answers=(False, "yes", 1),
         explain={"en": "True: the preference was written to monday-only.json, so a new agent on that file recalls "
                        "it. What made Tuesday forget was opening a different, empty file.",
                  "zh": "True：偏好已写入 monday-only.json，新的智能体打开这个文件就能召回。周二“忘记”的原因是它打开了"
                        "另一个空文件。"}),
    choice("00.2", "b", options="abc",
           explain={"en": "(b): a stable fact about the user that changes later answers. A greeting or a one-off "
                          "question is not worth a long-term memory; notebook 03 turns this into a gate.",
                    "zh": "(b)：关于用户的稳定事实，会影响以后的回答。寒暄或一次性的问题不值得写成长期记忆；"
                          "笔记本 03 会把这个判断做成写入门。"},
           nudges={"a": ("a question about today's weather is useful for one answer, then stale",
                         "关于今天天气的问题只对这一次回答有用，之后就过时了"),
                   "c": ("a thank-you carries nothing a later session could use",
                         "一句感谢里没有以后的会话用得上的内容")}),
]
