"""Notebook 02's tasks: what an upsert by subject leaves in the store, and the validation a record does itself."""

from __future__ import annotations

import dataclasses
import tempfile
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from memcourse import JsonMemoryStore, MemoryRecord, MemoryType
from memcourse.course.inline_tasks import Turn, Verdict, right, wrong

#: The four writes of task 02.1, as the notebook lists them: (type, subject, content).
WRITES = [
    (MemoryType.PREFERENCE, "response_style", "代码示例尽量用 Python"),
    (MemoryType.PREFERENCE, "Response_Style", "代码示例优先用 TypeScript"),
    (MemoryType.ENTITY, "response_style", "the team's style guide is PEP 8"),
    (MemoryType.PREFERENCE, "response_style ", "代码示例用 Go"),
]


def _after_the_writes() -> tuple[int, int]:
    now = datetime(2026, 1, 5, 9, 0, tzinfo=timezone.utc)
    with tempfile.TemporaryDirectory() as folder:
        store = JsonMemoryStore(Path(folder) / "memories.json", clock=lambda: now)
        for memory_type, subject, content in WRITES:
            store.upsert(MemoryRecord(memory_type, subject, content, created_at=now))
        records = store.list_all()
        preference = next(r for r in records if r.memory_type is MemoryType.PREFERENCE)
        return len(records), len(preference.history)


def _records_and_history(answer: Any) -> Verdict:
    if not (isinstance(answer, tuple) and len(answer) == 2 and all(isinstance(n, int) for n in answer)):
        return wrong("answer with two whole numbers: (records, history entries)",
                     "请用两个整数作答：(记录条数, 历史条数)")
    expected = _after_the_writes()
    records, history = answer
    if (records, history) == expected:
        return right(f"{expected}: the three preference writes are one subject (case and surrounding spaces are "
                     "ignored), so one record whose history holds the two it replaced; the entity is another type, "
                     "so another record.",
                     f"{expected}：三次偏好写入是同一个主题（大小写和首尾空格不算），所以只有一条记录，历史里是它替换掉的"
                     "两个版本；实体是另一种类型，所以是另一条记录。")
    if records > expected[0]:
        return wrong("which of these writes name the same memory? The subject is compared with case and surrounding "
                     "spaces ignored", "这些写入里哪些指向同一条记忆？比较主题时忽略大小写和首尾空格")
    if records < expected[0]:
        return wrong("the same memory needs the same subject and the same type", "同一条记忆要主题相同，类型也相同")
    return wrong("the record count is right; now count the versions an update keeps: every replaced one, not only "
                 "the last", "记录条数对了；再数一下更新保留的版本：每一个被替换的版本都在，不只最后一个")


#: The fields the notebook's cell already tried; a new finding must touch another one.
TRIED = frozenset({"confidence", "memory_type", "subject", "created_at", "content", "tags", "source"})
GOOD = {"memory_type": "preference", "subject": "response_style", "content": "Answer briefly"}


def _a_ninth_refusal(answer: Any) -> Verdict:
    if not isinstance(answer, dict) or not answer:
        return wrong("answer with a dict of keyword arguments, like the values in `attempts`: {'field': value}",
                     "请用关键字参数的 dict 作答，和 attempts 里的值一样：{'字段': 值}")
    fields = {field.name for field in dataclasses.fields(MemoryRecord)}
    unknown = sorted(set(answer) - fields)
    if unknown:
        return wrong(f"{unknown} is not a field of MemoryRecord: look at the fields the diagram and the table name",
                     f"{unknown} 不是 MemoryRecord 的字段：看看图和表里列出的字段")
    if set(answer) <= TRIED:
        return wrong("the cell already tried that field; find any field it did not try",
                     "上面的单元格已经试过这个字段；找另一个（来源、生命周期、作用域）")
    try:
        MemoryRecord(**{**GOOD, **answer})
    except (TypeError, ValueError) as error:
        return right(f"refused, and the error names the field: {error}", f"被拒绝，错误信息说出了字段：{error}")
    return wrong("MemoryRecord accepts that value: which value would make a later comparison or lookup lie?",
                 "MemoryRecord 接受了这个值：什么样的值会让以后的比较或查找出错？")


TURNS = [
    Turn(key="02.1", check=_records_and_history, example=(2, 2),
         wrong_answers=((4, 0), (1, 3), (2, 1), (3, 1), 2),
         explain={"en": "(2, 2): 'response_style', 'Response_Style' and 'response_style ' are one subject of one "
                        "type, so one preference record (Go) with Python and TypeScript in its history; the entity "
                        "with the same subject is a different type, so a second record.",
                  "zh": "(2, 2)：'response_style'、'Response_Style' 和 'response_style ' 是同一类型的同一主题，所以只有"
                        "一条偏好记录（Go），历史里是 Python 和 TypeScript；同主题的实体类型不同，所以是第二条记录。"}),
    Turn(key="02.2", check=_a_ninth_refusal, example={"importance": 2.0},
         wrong_answers=({"confidence": -0.5}, {"user_id": "bob"}, {"colour": "red"}, {"status": "superseded"},
                        "importance=2"),
         explain={"en": "For example {'importance': 2.0} (importance must be in [0, 1]), {'expires_at': "
                        "datetime(2026, 2, 1)} (naive), {'access_count': -1} or {'user_id': ''}: each is refused "
                        "with the field named.",
                  "zh": "例如 {'importance': 2.0}（importance 必须在 [0, 1] 内）、{'expires_at': datetime(2026, 2, 1)}"
                        "（不带时区）、{'access_count': -1} 或 {'user_id': ''}：每一个都会被拒绝，并说出字段名。"}),
]
