"""make_memory_id: one stable id per (type, subject, user, agent), Chinese subjects included.

The seed article's bug: an ASCII-only slug turned every Chinese subject into ``_``, so the
second Chinese memory silently overwrote the first.
"""

from __future__ import annotations

import re
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memcourse.records import MemoryRecord, MemoryType, make_memory_id

ID_FORMAT = re.compile(r"^(?P<type>[a-z]+):(?P<slug>[^:]+):(?P<hash>[0-9a-f]{16})$")


def test_id_is_stable_across_calls():
    assert make_memory_id(MemoryType.PREFERENCE, "response_style") == make_memory_id("preference", "response_style")


@pytest.mark.parametrize(
    ("memory_type", "subject", "slug"),
    [
        (MemoryType.PREFERENCE, "response_style", "response_style"),
        (MemoryType.TASK, "phase4_current_task", "phase4_current_task"),
        (MemoryType.ENTITY, "项目名称", "项目名称"),
        (MemoryType.ENTITY, "用户喜欢短回答", "用户喜欢短回答"),
        (MemoryType.ENTITY, "Home City", "home_city"),
        (MemoryType.ENTITY, "what's up?", "what_s_up"),
        (MemoryType.ENTITY, "!!!", "memory"),  # nothing readable left: a placeholder slug
    ],
)
def test_id_has_the_documented_format(memory_type, subject, slug):
    memory_id = make_memory_id(memory_type, subject)
    match = ID_FORMAT.match(memory_id)
    assert match, memory_id
    assert match["type"] == memory_type.value
    assert match["slug"] == slug


def test_slug_is_truncated_but_the_hash_keeps_long_subjects_apart():
    common = "a" * 40
    first, second = make_memory_id("entity", common + "_one"), make_memory_id("entity", common + "_two")
    assert first.split(":")[1] == second.split(":")[1] == "a" * 32
    assert first != second


def test_two_chinese_subjects_get_two_ids():
    first = make_memory_id(MemoryType.ENTITY, "用户喜欢短回答")
    second = make_memory_id(MemoryType.ENTITY, "项目使用向量数据库")
    assert first != second
    assert "用户喜欢短回答" in first and "项目使用向量数据库" in second


@pytest.mark.parametrize(
    "variant",
    ["Response_Style", "RESPONSE_STYLE", "  response_style  ", "ｒｅｓｐｏｎｓｅ＿ｓｔｙｌｅ"],  # last: full-width
)
def test_subjects_compare_case_width_and_space_insensitively(variant):
    assert make_memory_id("preference", variant) == make_memory_id("preference", "response_style")


def test_inner_whitespace_is_collapsed():
    assert make_memory_id("entity", "home   city") == make_memory_id("entity", "home city")
    assert make_memory_id("entity", "home city") != make_memory_id("entity", "homecity")


def test_type_is_part_of_the_identity():
    assert make_memory_id("entity", "phase4") != make_memory_id("task", "phase4")


def test_user_and_agent_scope_the_id():
    base = make_memory_id("preference", "response_style")
    alice = make_memory_id("preference", "response_style", user_id="alice")
    bob = make_memory_id("preference", "response_style", user_id="bob")
    other_agent = make_memory_id("preference", "response_style", user_id="alice", agent_id="coder")
    assert len({base, alice, bob, other_agent}) == 4
    assert base == make_memory_id("preference", "response_style", user_id="default", agent_id="default")


def test_record_uses_its_scope_for_the_id():
    alice = MemoryRecord("preference", "response_style", "简短", user_id="alice")
    bob = MemoryRecord("preference", "response_style", "简短", user_id="bob")
    assert alice.memory_id != bob.memory_id


@pytest.mark.parametrize("subject, error", [("", ValueError), ("   ", ValueError), (None, TypeError), (12, TypeError)])
def test_empty_or_non_string_subject_is_refused(subject, error):
    with pytest.raises(error, match="subject"):
        make_memory_id("entity", subject)


def test_unknown_type_is_refused():
    with pytest.raises(ValueError):
        make_memory_id("fact", "x")


# -- properties ---------------------------------------------------------------------------------
def normalised(subject: str) -> str:
    """What the id treats as 'the same subject': NFKC, case-folded to lower, spaces collapsed."""
    return re.sub(r"\s+", " ", unicodedata.normalize("NFKC", subject).strip().lower())


chinese = st.text(alphabet=st.characters(min_codepoint=0x4E00, max_codepoint=0x9FFF), min_size=1, max_size=20)
subjects = st.one_of(chinese, st.text(min_size=1, max_size=30), chinese.map(lambda s: f"{s} {s[::-1]}")).filter(
    lambda s: s.strip()
)


@settings(max_examples=300, deadline=None)
@given(subjects, subjects, st.sampled_from(list(MemoryType)))
def test_distinct_normalised_subjects_get_distinct_ids(first, second, memory_type):
    same = normalised(first) == normalised(second)
    assert (make_memory_id(memory_type, first) == make_memory_id(memory_type, second)) == same


@settings(max_examples=200, deadline=None)
@given(subjects, st.sampled_from(list(MemoryType)))
def test_same_subject_same_id_and_format_holds(subject, memory_type):
    memory_id = make_memory_id(memory_type, subject)
    assert memory_id == make_memory_id(memory_type, subject)
    assert ID_FORMAT.match(memory_id), memory_id


@settings(max_examples=100, deadline=None)
@given(chinese)
def test_chinese_subjects_keep_their_characters_in_the_slug(subject):
    assert subject[:32] in make_memory_id("entity", subject)


@settings(max_examples=100, deadline=None)
@given(st.lists(chinese, min_size=2, max_size=8, unique=True))
def test_many_chinese_subjects_never_share_an_id(subject_list):
    ids = {make_memory_id("entity", subject) for subject in subject_list}
    assert len(ids) == len(subject_list)
