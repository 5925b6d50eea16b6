"""Notebook 05's tasks: a typed search that finds nothing still deletes, and what cures lost updates."""

from __future__ import annotations

from typing import Any

from memcourse.course.inline_tasks import Turn, Verdict, choice, right, wrong


def _empty_search_still_deletes(answer: Any) -> Verdict:
    if isinstance(answer, bool) or not isinstance(answer, int):
        return wrong("answer with a whole number of memories", "请用一个整数（记忆的条数）作答")
    if answer == 1:
        return right("one: search() saves `records` whether or not anything matched, and `records` holds only the "
                     "entity. A typed search that finds nothing deletes as surely as one that finds something.",
                     "一条：无论有没有命中，search() 都会保存 `records`，而 `records` 里只剩那条实体。"
                     "什么都没找到的类型化搜索，和找到了的一样会删数据。")
    if answer == 3:
        return wrong("look at where `_save` is called in BuggyStore.search: does it depend on the hits?",
                     "看看 BuggyStore.search 里 `_save` 是在哪里调用的：它取决于有没有命中吗？")
    if answer == 0:
        return wrong("the filter keeps the records of the requested type, whether or not they match the query",
                     "过滤保留的是所请求类型的记录，不管它们是否匹配查询")
    return wrong("which records are in `records` at the moment `_save(records)` runs?",
                 "`_save(records)` 执行的那一刻，`records` 里有哪些记录？")


TURNS = [
    Turn(key="05.1", check=_empty_search_still_deletes, example=1, wrong_answers=(3, 0, 2, "1"),
         explain={"en": "1: BuggyStore.search filters `records` to the entity, finds no hit for \"Kubernetes\", and "
                        "still calls `_save(records)`: the preference and the task are gone. The write-back does not "
                        "depend on the hits.",
                  "zh": "1：BuggyStore.search 把 `records` 过滤成只剩那条实体，\"Kubernetes\" 没有命中，但仍然调用了 "
                        "`_save(records)`：偏好和任务都没了。写回和有没有命中无关。"}),
    choice("05.2", "c", options="abcd",
           explain={"en": "(c): a lost update happens between one writer's read and its write. Only a lock held "
                          "across both keeps a second writer from reading the old list in between; atomic replace "
                          "and fsync make each file whole, not complete.",
                    "zh": "(c)：丢失更新发生在一个写入者“读”与“写”之间。只有跨越读和写都持有的锁，才能阻止另一个写入者"
                          "在中间读到旧列表；原子替换和 fsync 只保证每个文件完整，不保证内容齐全。"},
           nudges={"a": ("section 5 measured atomic replace without a lock: count what it lost",
                         "第 5 节测过不加锁的原子替换：数数它丢了多少"),
                   "b": ("fsync decides whether bytes survive a power cut, not which records a writer saw",
                         "fsync 决定字节能否熬过断电，而不决定写入者看到了哪些记录"),
                   "d": ("a retry helps a reader that caught a torn file; the lost record was never in the file "
                         "it read",
                         "重试只帮得了读到残缺文件的读者；丢失的记录从来不在它读到的文件里")}),
]
