"""tokenize: mixed Chinese/English text into the words keyword recall and BM25 match on."""

from __future__ import annotations

import pytest

from memcourse.text import STOPWORDS, has_cjk, token_set, tokenize


def test_whitespace_split_fails_on_chinese_which_is_why_we_segment():
    assert "用户喜欢短回答".split() == ["用户喜欢短回答"]
    tokens = tokenize("用户喜欢短回答")
    assert "用户" in tokens and "喜欢" in tokens and "回答" in tokens


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("智能客服助手", {"智能", "客服"}),
        ("我的项目叫智能客服助手", {"项目", "智能", "客服", "助手"}),
        ("项目使用向量数据库", {"项目", "向量", "数据库"}),
        ("代码示例尽量用Python", {"代码", "示例", "python"}),
    ],
)
def test_chinese_is_segmented_into_words(text, expected):
    assert expected <= set(tokenize(text))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("AgentMemorySystem", ["agentmemorysystem", "agent", "memory", "system"]),
        ("phase4_current_task", ["phase4_current_task", "phase4", "current", "task"]),
        ("HTTPServer", ["httpserver", "http", "server"]),
        ("ai-agent-learn", ["ai-agent-learn", "ai", "agent", "learn"]),
    ],
)
def test_identifiers_are_split_and_kept_whole(text, expected):
    assert tokenize(text) == expected


@pytest.mark.parametrize("text", ["Phase4", "phase4", "Phase4当前任务", "学习Phase4Memory"])
def test_phase4_stays_one_token(text):
    tokens = tokenize(text)
    assert "phase4" in tokens
    assert "phase" not in tokens and "4" not in tokens


def test_mixed_text_keeps_order_and_lowercases():
    assert tokenize("Phase4 memory Python 示例") == ["phase4", "memory", "python", "示例"]


def test_duplicates_are_kept_for_term_frequency():
    assert tokenize("memory memory 记忆").count("memory") == 2


@pytest.mark.parametrize(
    ("text", "negation"),
    [
        ("我不喜欢邮件通知", "不"),
        ("我没有养猫", "没有"),
        ("I do not like email", "not"),
        ("no emails please", "no"),
        ("never call me", "never"),
    ],
)
def test_negations_are_never_dropped(text, negation):
    assert negation in tokenize(text)


def test_negation_changes_the_token_set():
    assert token_set("不喜欢邮件通知") != token_set("喜欢邮件通知")


def test_no_negation_is_a_stopword():
    assert not {"不", "没", "没有", "别", "not", "no", "never", "无"} & STOPWORDS


def test_stopwords_are_dropped_unless_asked_for():
    assert tokenize("the answer is 的") == ["answer"]
    assert tokenize("the answer", keep_stopwords=True) == ["the", "answer"]


def test_full_width_text_is_normalised():
    assert tokenize("ＰＹＴＨＯＮ") == ["python"]


def test_punctuation_and_empty_text_give_no_tokens():
    assert tokenize("") == []
    assert tokenize("，。！？ ... --- ") == []


@pytest.mark.parametrize("value", [None, b"bytes", 42, ["list"]])
def test_non_string_is_a_type_error(value):
    with pytest.raises(TypeError, match="string"):
        tokenize(value)


def test_has_cjk():
    assert has_cjk("hello 世界") and not has_cjk("hello world")


# -- keyword tokens: English stems, everything else exact -----------------------------------------
from memcourse.text import identifiers, keyword_tokens, stem  # noqa: E402


def test_english_words_are_stemmed_for_the_index():
    assert keyword_tokens("painted paintings paints") == ["paint", "paint", "paint"]
    assert keyword_tokens("researching adoption agencies") == keyword_tokens("researched adopt agency")


@pytest.mark.parametrize("token", ["v2.4.0", "sup-69636", "2023", "c000123", "москва", "客服", "phase4_task"])
def test_identifiers_numbers_and_other_scripts_are_not_stemmed(token):
    assert stem(token) == token


def test_surface_tokens_are_not_stemmed():
    assert tokenize("paintings memory") == ["paintings", "memory"]


def test_may_is_not_a_stopword_because_it_is_a_month():
    assert "may" in tokenize("what happened in May 2023")


def test_apostrophe_leftovers_are_dropped():
    assert tokenize("Caroline's friend") == ["caroline", "friend"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Ticket SUP-69636 was closed", ["sup-69636"]),
        ("订单 2024081703 已发货", ["2024081703"]),
        ("upgrade to v2.4.0 soon", ["v2.4.0"]),
        ("ref C000123", ["c000123"]),
        ("退货单号 RT-55102", ["rt-55102"]),
        ("in May 2023 during Phase4, Python 3.5", []),
    ],
)
def test_identifiers(text, expected):
    assert identifiers(text) == expected


def test_dotted_identifier_stays_whole_next_to_other_scripts():
    assert "v2.4.0" in tokenize("版本v2.4.0上线") and "v2.4.0" in tokenize("версия v2.4.0")
