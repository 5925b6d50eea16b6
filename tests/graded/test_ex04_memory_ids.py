"""Graded tests for exercise 04: slug + hash memory ids that survive Chinese subjects."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memcourse import MemoryType

ID_SHAPE = re.compile(r"^(?P<type>[a-z]+):(?P<slug>[^:]+):(?P<digest>[0-9a-f]{16})$")


@pytest.fixture(scope="module")
def ex(exercise):
    return exercise("ex04_memory_ids")


def parts(memory_id: str) -> dict[str, str]:
    match = ID_SHAPE.match(memory_id)
    assert match, f"{memory_id!r} is not '<type>:<slug>:<16 hex digits>'"
    return match.groupdict()


def test_shape_and_readable_english_slug(ex):
    memory_id = ex.make_id(MemoryType.PREFERENCE, "response_style")
    assert parts(memory_id)["type"] == "preference", "the id starts with the type value"
    assert parts(memory_id)["slug"] == "response_style", "an ASCII subject is its own slug"
    assert ex.make_id("preference", "response_style") == memory_id, "the type may be given as a string"


def test_chinese_slug_stays_readable(ex):
    slug = parts(ex.make_id(MemoryType.ENTITY, "用户喜欢短回答"))["slug"]
    assert slug == "用户喜欢短回答", "keep CJK characters in the slug; an id should still say something"


def test_two_chinese_subjects_get_two_ids(ex):
    first = ex.make_id(MemoryType.ENTITY, "用户喜欢短回答")
    second = ex.make_id(MemoryType.ENTITY, "项目使用向量数据库")
    assert first != second, "the ASCII-only slug bug: both became 'entity:_' and the second overwrote the first"


def test_same_subject_is_stable_and_normalised(ex):
    base = ex.make_id(MemoryType.PREFERENCE, "response_style")
    assert ex.make_id(MemoryType.PREFERENCE, "response_style") == base, "ids must be stable across calls"
    assert ex.make_id(MemoryType.PREFERENCE, "  Response_Style ") == base, "case and outer spaces do not matter"
    assert ex.make_id(MemoryType.ENTITY, "项目  名称") == ex.make_id(MemoryType.ENTITY, "项目 名称"), (
        "runs of whitespace collapse to one"
    )
    assert ex.make_id(MemoryType.ENTITY, "ＡＢＣ项目") == ex.make_id(MemoryType.ENTITY, "abc项目"), (
        "full-width letters normalise (NFKC) to the same subject"
    )


def test_type_is_part_of_identity(ex):
    assert ex.make_id(MemoryType.TASK, "phase4") != ex.make_id(MemoryType.EVENT, "phase4"), (
        "the type goes into the hash too"
    )


def test_subjects_that_share_a_long_prefix_do_not_collide(ex):
    prefix = "关于智能客服助手项目的长期记忆条目编号" * 3
    a = ex.make_id(MemoryType.ENTITY, prefix + "一")
    b = ex.make_id(MemoryType.ENTITY, prefix + "二")
    assert parts(a)["slug"] == parts(b)["slug"], "the slug is cut to 32 characters, so these slugs are equal..."
    assert len(parts(a)["slug"]) <= 32, "cut the slug to 32 characters"
    assert a != b, "...and the hash of the full subject is what keeps the ids apart"


def test_symbol_only_subjects_fall_back_to_memory_and_stay_distinct(ex):
    a = ex.make_id(MemoryType.ENTITY, "🙂🙂")
    b = ex.make_id(MemoryType.ENTITY, "🚀")
    assert parts(a)["slug"] == "memory" and parts(b)["slug"] == "memory", "an empty slug becomes 'memory'"
    assert a != b, "same slug ('memory'), different subjects: only the hash can tell them apart"


@pytest.mark.parametrize("subject", ["", "   ", "\n\t"])
def test_empty_subject_is_refused(ex, subject):
    with pytest.raises(ValueError):
        ex.make_id(MemoryType.ENTITY, subject)


def _normal(text: str) -> str:
    import unicodedata

    return re.sub(r"\s+", " ", unicodedata.normalize("NFKC", text).strip().lower())


subjects = st.text(
    alphabet=st.sampled_from(list("用户喜欢短回答项目使用向量数据库智能客服助手偏好任务abcXYZ_- 0123")),
    min_size=1, max_size=40,
).filter(lambda s: s.strip())


@settings(max_examples=200, deadline=None, database=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(a=subjects, b=subjects)
def test_property_distinct_subjects_get_distinct_ids(ex, a, b):
    id_a = ex.make_id(MemoryType.ENTITY, a)
    id_b = ex.make_id(MemoryType.ENTITY, b)
    if _normal(a) == _normal(b):
        assert id_a == id_b, f"{a!r} and {b!r} are the same subject after normalising"
    else:
        assert id_a != id_b, f"{a!r} and {b!r} collide on {id_a!r}"


@settings(max_examples=100, deadline=None, database=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(subject=subjects, suffix=st.sampled_from(["!", "?", "。", "！", "#1", "…", "  x"]))
def test_property_same_slug_still_different_ids(ex, subject, suffix):
    """Punctuation disappears from the slug, so only the hash can tell these apart."""
    assert ex.make_id(MemoryType.ENTITY, subject) != ex.make_id(MemoryType.ENTITY, subject + suffix), (
        f"{subject!r} and {subject + suffix!r} differ only in what the slug drops; hash the full subject"
    )


@settings(max_examples=100, deadline=None, database=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(subject=subjects)
def test_property_ids_have_the_documented_shape(ex, subject):
    info = parts(ex.make_id(MemoryType.TASK, subject))
    assert info["type"] == "task", "the id starts with the type value"
    assert 1 <= len(info["slug"]) <= 32, "the slug is 1 to 32 characters"
    assert re.fullmatch(r"[a-z0-9_\-\u4e00-\u9fff]+", info["slug"]), info["slug"]


def test_the_digest_is_the_documented_hash_of_the_normalised_subject(ex):
    import hashlib

    memory_id = ex.make_id(MemoryType.PREFERENCE, "  Response   Style ")
    expected = hashlib.sha256("preference\x1fresponse style".encode("utf-8")).hexdigest()[:16]
    assert parts(memory_id)["digest"] == expected, (
        "digest = sha256(f'{type}\\x1f{normalised subject}'.encode('utf-8')).hexdigest()[:16], where the "
        "normalised subject is NFKC, stripped, lower-cased, with whitespace runs collapsed to ONE space"
    )


@pytest.mark.parametrize(
    ("subject", "slug"),
    [
        ("My Project.v2 (beta)", "my_project_v2__beta"),
        ("项目 名称", "项目_名称"),
        ("  user-name  ", "user-name"),
        ("a" * 40, "a" * 32),
        ("订单#2024", "订单_2024"),
    ],
)
def test_the_slug_follows_the_rules(ex, subject, slug):
    got = parts(ex.make_id(MemoryType.ENTITY, subject))["slug"]
    assert got == slug, (
        f"slug of {subject!r}: expected {slug!r}, got {got!r} (whitespace -> '_', every other character outside "
        "a-z 0-9 _ - CJK -> '_', strip '_' at both ends, cut to 32)"
    )


def test_inner_whitespace_is_part_of_the_subject(ex):
    assert ex.make_id(MemoryType.ENTITY, "ab") != ex.make_id(MemoryType.ENTITY, "a b"), (
        "runs of whitespace collapse to one space; they do not vanish: 'a b' is not 'ab'"
    )
