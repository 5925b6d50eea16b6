"""Graded tests for exercise 14: strict reply parsing, item checks, reconciliation decisions."""

from __future__ import annotations

import json

import pytest

from memcourse import MemoryRecord, MemoryType, Source, Status


@pytest.fixture(scope="module")
def ex(exercise):
    return exercise("ex14_extraction_and_reconciliation")


ITEM = {"kind": "memory", "type": "preference", "subject": "favourite_language", "content": "User likes TypeScript",
        "confidence": 0.9, "importance": 0.6, "evidence": "I like TypeScript"}
MESSAGE = "Honestly, I like TypeScript more than Java."


def item(**changes):
    data = dict(ITEM)
    data.update(changes)
    return {k: v for k, v in data.items() if v is not ...}


# -- parse_reply -------------------------------------------------------------------------------
@pytest.mark.parametrize("text", [
    '{"memories": []}',
    '  \n{"memories": [{"kind": "memory"}]}\n  ',
    '```json\n{"memories": []}\n```',
    '```\n{"memories": []}\n```',
    '```JSON\n{"memories": []}\n```',
    '\n  ```json\n{"memories": []}\n```\n\n',
])
def test_parse_reply_accepts_an_object_or_one_fenced_object(ex, text):
    assert ex.parse_reply(text)["memories"] is not None


@pytest.mark.parametrize("text, why", [
    ("", "an empty reply"),
    ("   ", "a blank reply"),
    ('Sure! Here is the JSON: {"memories": []}', "prose before the JSON: strict means no searching for braces"),
    ('{"memories": []} Hope this helps!', "prose after the JSON"),
    ('Here you go:\n```json\n{"memories": []}\n```', "prose around the fence"),
    ('```json\n{"memories": []}\n```\n```json\n{"memories": []}\n```', "two fences: which one is the answer?"),
    ('[{"kind": "memory"}]', "a list is not an object"),
    ('"memories"', "a string is not an object"),
    ('{"memories": [', "truncated JSON"),
    ("{'memories': []}", "single quotes are not JSON"),
    ('{"memories": [], "confidence": NaN}', "NaN is not JSON (Python's json accepts it unless told not to)"),
    ('{"memories": [], "x": Infinity}', "Infinity is not JSON"),
    ('{"memories": [], "memories": [{"kind": "memory"}]}', "a duplicate key hides one of two answers"),
])
def test_parse_reply_refuses_everything_else_with_value_error(ex, text, why):
    with pytest.raises(ValueError):
        ex.parse_reply(text)
        pytest.fail(f"parse_reply accepted {text!r}: {why}")


def test_parse_reply_refuses_a_reply_with_no_text(ex):
    with pytest.raises(ValueError):
        ex.parse_reply(None)
        pytest.fail("parse_reply(None) returned: a reply with no text (a chat API's content is None when the model "
                    "called a tool) is a bad reply, ValueError like any other, not an AttributeError")


# -- check_item ---------------------------------------------------------------------------------
def test_a_good_item_passes(ex):
    assert ex.check_item(item(), MESSAGE) is None
    assert ex.check_item(item(confidence=1, importance=0), MESSAGE) is None, "0 and 1 are inside [0, 1]"
    assert ex.check_item(item(confidence=1.0, importance=0.0), MESSAGE) is None


@pytest.mark.parametrize("bad, expected, why", [
    (["not", "a", "dict"], "fields", "an item must be an object"),
    (item(reasoning="the user said so"), "fields", "an extra field is not in the schema"),
    (item(evidence=...), "fields", "a missing field"),
    (item(confidence="0.9"), "type", "a number written as a string"),
    (item(confidence=True), "type", "True is an int in Python, not a confidence"),
    (item(importance=None), "type", "null importance"),
    (item(content=["TypeScript"]), "type", "content as a list"),
    (item(subject=7), "type", "subject as a number"),
    (item(confidence=1.7), "range", "confidence above 1"),
    (item(importance=-0.01), "range", "importance below 0"),
    (item(importance=5), "range", "a 1-10 scale is not [0, 1]"),
    (item(confidence=float("nan")), "range", "NaN is in no range"),
    (item(subject="The user likes TypeScript"), "subject", "a sentence is not a key"),
    (item(subject="Favourite_language"), "subject", "keys are lower case"),
    (item(subject="x"), "subject", "one character is too short"),
    (item(subject="favourite-language"), "subject", "snake_case, not kebab-case"),
    (item(evidence="I love TypeScript"), "ungrounded", "the user did not write these words"),
    (item(evidence=""), "ungrounded", "empty evidence proves nothing"),
    (item(evidence="   "), "ungrounded", "blank evidence proves nothing"),
])
def test_each_bad_item_names_its_check(ex, bad, expected, why):
    assert ex.check_item(bad, MESSAGE) == expected, why


def test_checks_run_in_order_and_stop_at_the_first_failure(ex):
    assert ex.check_item(item(confidence="high", subject="Not A Key"), MESSAGE) == "type", "type before subject"
    assert ex.check_item(item(confidence=2, evidence="never said"), MESSAGE) == "range", "range before grounding"
    assert ex.check_item(item(subject="BAD", evidence="never said"), MESSAGE) == "subject"
    assert ex.check_item(item(extra=1, confidence="x"), MESSAGE) == "fields", "fields before type"


def test_evidence_matching_ignores_case_and_whitespace_runs_only(ex):
    message = "Honestly,  I LIKE\n  TypeScript more than Java."
    assert ex.check_item(item(evidence="i like typescript"), message) is None
    assert ex.check_item(item(evidence="  I like   TypeScript  "), message) is None
    assert ex.check_item(item(evidence="I like TypeScript!"), message) == "ungrounded", "punctuation is not whitespace"
    assert ex.check_item(item(evidence="ILikeTypeScript"), message) == "ungrounded", "removing spaces changes words"


def test_check_item_does_not_change_the_item(ex):
    data = item()
    before = json.dumps(data, sort_keys=True)
    ex.check_item(data, MESSAGE)
    assert json.dumps(data, sort_keys=True) == before


# -- decide ---------------------------------------------------------------------------------------
def rec(content, subject="favourite_language", *, source=Source.USER_STATED, user="lin", status=Status.ACTIVE,
        memory_id=None):
    return MemoryRecord(MemoryType.PREFERENCE, subject, content, source=source, user_id=user, status=status,
                        memory_id=memory_id)


def test_nothing_stored_is_an_add(ex):
    assert ex.decide(rec("User likes TypeScript"), []) == ("ADD", None)
    other_subject = rec("User likes Rust", "learning_language")
    assert ex.decide(rec("User likes "
                         "TypeScript"), [other_subject]) == ("ADD", None), "another subject is another memory"


def test_a_new_value_for_the_same_memory_is_an_update(ex):
    old = rec("User likes Java")
    assert ex.decide(rec("User likes TypeScript"), [old]) == ("UPDATE", old.memory_id)
    llm_old = rec("User likes Java", source=Source.LLM_INFERRED)
    assert ex.decide(rec("User likes TypeScript"), [llm_old]) == ("UPDATE", llm_old.memory_id), (
        "what the user says replaces a model's guess")
    admin = rec("Answers use TypeScript", source=Source.ADMIN_CONFIGURED)
    assert ex.decide(rec("Answers use Go", source=Source.ADMIN_CONFIGURED), [admin])[0] == "UPDATE", "equal trust"


@pytest.mark.parametrize("again", ["User likes TypeScript.", "user likes typescript", "User  likes TypeScript!!",
                                   "Ｕｓｅｒ ｌｉｋｅｓ ＴｙｐｅＳｃｒｉｐｔ", "User, likes: TypeScript"])
def test_the_same_words_again_are_a_noop(ex, again):
    old = rec("User likes TypeScript")
    assert ex.decide(rec(again), [old]) == ("NOOP", old.memory_id), (
        f"{again!r} says what is stored: punctuation, spacing, width and case do not make a new fact")


def test_chinese_restatements_are_noops_too(ex):
    old = rec("我养了一只猫叫年糕", "pet")
    assert ex.decide(rec("我养了一只猫，叫年糕。", "pet"), [old]) == ("NOOP", old.memory_id)
    assert ex.decide(rec("我养了一只狗叫年糕", "pet"), [old]) == ("UPDATE", old.memory_id), (
        "one changed character is a new value"
    )


def test_a_less_trusted_candidate_never_overwrites(ex):
    said = rec("User likes TypeScript")
    guess = rec("User likes Rust", source=Source.LLM_INFERRED)
    assert ex.decide(guess, [said]) == ("NOOP", said.memory_id), "a model's guess leaves the user's own words alone"
    tool = rec("User likes Rust", source=Source.TOOL_OBSERVED)
    assert ex.decide(tool, [said]) == ("NOOP", said.memory_id), "tool_observed is less trusted than user_stated"
    assert ex.decide(rec("User likes Rust"), [rec("x likes y", source=Source.TOOL_OBSERVED)])[0] == "UPDATE", (
        "user_stated is more trusted than tool_observed")


def test_only_active_memories_of_the_same_user_count(ex):
    candidate = rec("User likes TypeScript")
    retired = rec("User likes Java", status=Status.SUPERSEDED)
    assert ex.decide(candidate, [retired]) == ("ADD", None), "a superseded memory is history, not the current value"
    deleted = rec("User likes Java", status=Status.DELETED)
    assert ex.decide(candidate, [deleted]) == ("ADD", None)
    foreign = rec("User likes Java", user="mallory", memory_id=candidate.memory_id)
    assert ex.decide(candidate, [foreign]) == ("ADD", None), "another user's record is never this user's memory"


def test_a_retraction_deletes_the_same_memory_or_does_nothing(ex):
    old = rec("User likes TypeScript")
    assert ex.decide(rec("User likes TypeScript"), [old], retraction=True) == ("DELETE", old.memory_id)
    assert ex.decide(rec("whatever the wording"), [old], retraction=True) == ("DELETE", old.memory_id), (
        "a retraction names the memory by its subject; the words do not need to match")
    assert ex.decide(rec("User likes Rust", "learning_language"), [old], retraction=True) == ("NOOP", None), (
        "nothing with that subject: nothing to delete (and never ADD a retraction)")
    retired = rec("User likes TypeScript", status=Status.SUPERSEDED)
    assert ex.decide(rec("User likes TypeScript"), [retired], retraction=True) == ("NOOP", None)


def test_decide_does_not_modify_its_inputs(ex):
    old = rec("User likes Java")
    records = [old]
    ex.decide(rec("User likes TypeScript"), records)
    assert records == [old] and old.content == "User likes Java" and old.status is Status.ACTIVE
