"""The course speaks Chinese when asked, completely, and English stays the source.

- the language comes from MEMCOURSE_LANG, else the locale (LC_ALL, LC_MESSAGES, LANG), else English;
- every English message a course module passes to ``t()`` (read from the source, so a new message
  is covered without editing this test) and every label table it translates has a Chinese entry,
  and each Chinese entry keeps exactly the English template's ``{fields}``;
- no Chinese entry is left over from a message that no longer exists;
- the progress table, a hint and the policy widget come out in Chinese, aligned.
"""

from __future__ import annotations

import ast
import string
from pathlib import Path

import pytest

from memcourse.course import i18n
from memcourse.course.grading import TITLES, CaseOutcome, ExerciseScore, GradeReport
from memcourse.course.hints import LEVEL_NAMES
from memcourse.course.messages_zh import ZH
from memcourse.course.widgets import chat, extraction, policy, recall, timeline

COURSE = Path(i18n.__file__).parent
#: Messages translated through a table or a constant, not a literal ``t("...")``.
TABLES = [
    *TITLES.values(), *LEVEL_NAMES.values(), "done", "in progress", "not started", "does not load",
    "rule", "reason", "type", "subject", "content", "confidence", "found",  # the policy widget's rows
    *(name for name in recall.COLUMNS if name not in {"#", "BM25"}),
    *timeline.STATE_LABELS.values(), *timeline.CHANGE_LABELS.values(),
    policy.EMPTY_PROMPT, recall.EMPTY_QUERY, recall.NO_HITS, timeline.NOT_FOUND,
    chat.EMPTY_TRANSCRIPT, chat.EMPTY_MEMORIES, extraction.EMPTY_PROMPT,
    "run `make setup` from the course folder (it reinstalls into .venv/ whatever is missing or does not import)",
]


def literal_messages() -> dict[str, str]:
    """``{english template: "file:line"}`` for every ``t("...")`` call under memcourse/course."""
    found = {}
    for path in sorted(COURSE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "t" and node.args
                    and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
                found.setdefault(node.args[0].value, f"{path.relative_to(COURSE)}:{node.lineno}")
    return found


def fields(template: str) -> list[tuple[str, str]]:
    return sorted((name, spec) for _, name, spec, _ in string.Formatter().parse(template) if name is not None)


@pytest.mark.parametrize(("env", "expected"), [
    ({"MEMCOURSE_LANG": "zh"}, "zh"), ({"MEMCOURSE_LANG": "zh_CN.UTF-8"}, "zh"), ({"MEMCOURSE_LANG": "zh-TW"}, "zh"),
    ({"MEMCOURSE_LANG": "en", "LANG": "zh_CN.UTF-8"}, "en"), ({"LANG": "zh_CN.UTF-8"}, "zh"),
    ({"LC_ALL": "C.UTF-8", "LANG": "zh_CN.UTF-8"}, "en"), ({"LC_MESSAGES": "zh_TW.UTF-8", "LANG": "en_GB"}, "zh"),
    ({"LANG": "C.UTF-8"}, "en"), ({}, "en"),
])
def test_language_from_the_variable_then_the_locale(monkeypatch, env, expected):
    for name in ("MEMCOURSE_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert i18n.language() == expected


def test_an_unknown_language_warns_and_speaks_english(monkeypatch):
    monkeypatch.setenv("MEMCOURSE_LANG", "klingon")
    with pytest.warns(UserWarning, match="not a course language"):
        assert i18n.language() == "en"
    assert i18n.t("Send") == "Send"


def test_every_course_message_has_a_chinese_translation():
    messages = {**literal_messages(), **{m: "a label table" for m in TABLES}}
    assert len(messages) > 100, "the scan found too few messages: is t() still called t?"
    missing = [f"{where}: {message!r}" for message, where in messages.items() if message not in ZH]
    assert not missing, "add these to memcourse/course/messages_zh.py:\n" + "\n".join(missing)


def test_no_translation_is_left_over():
    used = set(literal_messages()) | set(TABLES)
    assert sorted(set(ZH) - used) == [], "entries of messages_zh.py that no course module says any more"


def test_translations_keep_the_fields():
    wrong = [f"{key!r}: {fields(key)} vs {fields(value)}" for key, value in ZH.items() if fields(key) != fields(value)]
    assert not wrong, "\n".join(wrong)


def test_english_is_the_source(monkeypatch):
    monkeypatch.setenv("MEMCOURSE_LANG", "en")
    assert i18n.t("still to write: {names} (exercises/{module}.py)", names="f", module="ex00_warmup") == \
        "still to write: f (exercises/ex00_warmup.py)"
    monkeypatch.setenv("MEMCOURSE_LANG", "zh")
    assert i18n.t("a message nobody translated {x}", x=1) == "a message nobody translated 1"


def test_fit_counts_chinese_characters_as_two_columns():
    assert i18n.display_width("热身：记忆") == 10
    assert i18n.fit("热身：记忆是类型化记录", 9) == "热身：记…"
    assert i18n.display_width(i18n.fit("热身：记忆是类型化记录", 9)) == 9
    assert i18n.fit("Memory tools: scope from the runtime", 20) == "Memory tools: scope…"  # cut at a word


def _report(tmp_path) -> GradeReport:
    done = ExerciseScore("00", "ex00_warmup", "", [CaseOutcome("a", True)])
    todo = ExerciseScore(
        "03", "ex03_policy_gate", "", [CaseOutcome("b", False, "expected SKIP")], unwritten=["usable_memory"]
    )
    for score in (done, todo):
        score.title = i18n.t(TITLES[score.module])
    return GradeReport("exercises", [done, todo], tmp_path)


def test_progress_table_in_chinese_is_aligned(monkeypatch, tmp_path):
    from memcourse.course.progress import format_report, render_html

    monkeypatch.setenv("MEMCOURSE_LANG", "zh")
    text = format_report(_report(tmp_path))
    assert "热身：记忆是类型化记录" in text and "完成" in text and "进行中" in text and "还要写：usable_memory" in text
    assert "总计：1/2 个测试通过（50%）" in text
    rows = [line for line in text.splitlines() if line.startswith(("  00", "  03"))]
    bars = [i18n.display_width(line[:line.index("█" if "█" in line else "░")]) for line in rows]
    assert len(set(bars)) == 1, f"progress bars start at different columns: {bars}\n{text}"
    html = render_html(_report(tmp_path))
    assert 'data-status="done"' in html and ">完成<" in html and "<b>进度</b>" in html


def test_hints_in_chinese_or_english_with_a_note(monkeypatch, tmp_path):
    from memcourse.course.hints import format_hints, load_hints

    root = tmp_path / "course"
    (root / "tests" / "graded").mkdir(parents=True)
    (root / "exercises" / "hints" / "zh").mkdir(parents=True)
    for number, module in (("00", "ex00_warmup"), ("01", "ex01_three_layers")):
        (root / "tests" / "graded" / f"test_{module}.py").write_text("", encoding="utf-8")
        (root / "exercises" / "hints" / f"{module}.md").write_text(
            f"## f\n\n### 1\nEnglish {number}\n", encoding="utf-8"
        )
    (root / "exercises" / "hints" / "zh" / "ex00_warmup.md").write_text("## f\n\n### 1\n中文提醒\n", encoding="utf-8")
    monkeypatch.setenv("MEMCOURSE_LANG", "zh")
    chinese = format_hints(load_hints("00", root=root))
    assert "中文提醒" in chinese and "级别 1/3：一点提醒" in chinese and "英文提示" not in chinese
    fallback = format_hints(load_hints("01", root=root))
    assert "English 01" in fallback and "ex01 还没有中文提示" in fallback
    monkeypatch.setenv("MEMCOURSE_LANG", "en")
    assert "English 00" in format_hints(load_hints("00", root=root))


def test_widgets_speak_chinese(monkeypatch):
    monkeypatch.setenv("MEMCOURSE_LANG", "zh")
    html = policy.render_policy_html(policy.policy_decision_view("以后回答我问题时，代码示例尽量用Python。"))
    assert ">规则<" in html and ">主题<" in html and "（来源：user_stated）" in html
    assert 'data-verdict="WRITE"' in html and 'class="memcourse-rule"' in html  # hooks stay English
    assert policy.render_policy_html(None).count("输入一条消息") == 1
    assert "这里没有记忆" in timeline.render_timeline_html([])
    assert "在这个模式下" in recall.render_recall_html([], query="x")
