"""Graded tests for exercise 16: grading that treats abstention fairly, per-ability accuracy, and
"as of" recall with half-open validity intervals."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from memcourse.records import HistoryEntry, MemoryRecord, MemoryType, Status

T0 = datetime(2026, 1, 10, 9, 0, tzinfo=timezone.utc)
MOVE = T0 + timedelta(days=60)


@pytest.fixture(scope="module")
def ex(exercise):
    return exercise("ex16_measuring_memory")


def moved() -> MemoryRecord:
    """Lived in Guangzhou from T0, in Chengdu from MOVE on."""
    return MemoryRecord(
        MemoryType.ENTITY, "home_location", "I moved to Chengdu", created_at=T0, valid_from=MOVE,
        history=[HistoryEntry("I live in Guangzhou", 0.9, "user_stated", MOVE, valid_from=T0, valid_to=MOVE)],
    )


# -- grade -----------------------------------------------------------------------------------
@pytest.mark.parametrize("answer", ["I don't know.", "我不知道。", "Sorry, I do not know that."])
def test_abstaining_is_right_when_nothing_was_said(ex, answer):
    assert ex.grade([], answer) is True, (
        "an empty expect means memory cannot answer: abstaining is the right answer, not a failure"
    )


def test_making_something_up_is_wrong_when_nothing_was_said(ex):
    assert ex.grade([], "Your dog is called Rex.") is False, "an unanswerable question answered anyway is wrong"


def test_abstaining_on_an_answerable_question_is_wrong_even_when_hedged(ex):
    assert ex.grade([["Porto"]], "I don't know.") is False, "an answerable question needs an answer"
    assert ex.grade([["Porto"]], "I don't know, maybe Porto?") is False, (
        "an answer that abstains is not an answer, even if it names the right city on the way"
    )


def test_every_group_must_be_answered(ex):
    expect = [["7", "seven"], ["May 23", "23 May"]]
    assert ex.grade(expect, "She turns seven; the party is on 23 May.") is True
    assert ex.grade(expect, "She turns seven.") is False, "one spelling from *every* group is needed"


def test_spellings_compare_case_and_width_insensitively(ex):
    assert ex.grade([["Tidewater"]], "the project is TIDEWATER") is True, "compare case-insensitively"
    assert ex.grade([["N2"]], "目标是考 Ｎ２") is True, "normalise with NFKC first (full-width Ｎ２ is N2)"


# -- accuracy_by_ability ---------------------------------------------------------------------
def test_accuracy_is_per_ability_and_counts_abstention_fairly(ex):
    questions = [
        {"id": "a", "ability": "extraction", "expect": [["Porto"]]},
        {"id": "b", "ability": "extraction", "expect": [["Lisbon"]]},
        {"id": "c", "ability": "abstention", "expect": []},
        {"id": "d", "ability": "abstention", "expect": []},
        {"id": "e", "ability": "temporal", "expect": [["Lisbon"]]},
    ]
    answers = {"a": "Porto", "b": "I don't know.", "c": "I don't know.", "d": "Rex", "e": "Lisbon"}
    assert ex.accuracy_by_ability(questions, answers) == {"extraction": 0.5, "abstention": 0.5, "temporal": 1.0}, (
        "per ability: share of questions graded right; the abstention 'I don't know' on c is right, "
        "the made-up 'Rex' on d is wrong"
    )


def test_a_missing_answer_is_an_empty_answer(ex):
    questions = [{"id": "a", "ability": "extraction", "expect": [["Porto"]]}]
    assert ex.accuracy_by_ability(questions, {}) == {"extraction": 0.0}


# -- recall_as_of ----------------------------------------------------------------------------
def test_a_moment_in_the_past_gets_the_value_that_held_then(ex):
    record = moved()
    assert ex.recall_as_of([record], T0 + timedelta(days=30)) == [(record.memory_id, "I live in Guangzhou")], (
        "in the old interval the old value answers; the current content is not the past"
    )
    assert ex.recall_as_of([record], MOVE + timedelta(days=1)) == [(record.memory_id, "I moved to Chengdu")]


def test_the_change_moment_belongs_to_the_new_value(ex):
    record = moved()
    assert ex.recall_as_of([record], MOVE) == [(record.memory_id, "I moved to Chengdu")], (
        "intervals are half-open (start <= moment < end): at the very moment of the change only the new "
        "value holds; an inclusive end returns both, or the old one"
    )
    assert ex.recall_as_of([record], MOVE - timedelta(microseconds=1)) == [(record.memory_id, "I live in Guangzhou")]


def test_nothing_held_before_the_first_value(ex):
    assert ex.recall_as_of([moved()], T0 - timedelta(seconds=1)) == []


def test_the_current_value_starts_at_valid_from_or_at_creation(ex):
    plain = MemoryRecord(MemoryType.ENTITY, "pet", "I have a cat", created_at=T0)
    told_later = MemoryRecord(MemoryType.ENTITY, "job", "I teach physics", created_at=T0 + timedelta(days=5),
                              valid_from=T0 + timedelta(days=1))
    moment = T0 + timedelta(days=2)
    assert ex.recall_as_of([plain, told_later], moment) == [(plain.memory_id, "I have a cat"),
                                                          (told_later.memory_id, "I teach physics")], (
        "the current value holds from valid_from when set (here before it was written), else from created_at"
    )


def test_an_ended_value_is_gone_after_its_end(ex):
    ended = MemoryRecord(MemoryType.ENTITY, "office", "I work at the Hangzhou office", created_at=T0,
                         valid_to=T0 + timedelta(days=10))
    assert ex.recall_as_of([ended], T0 + timedelta(days=10)) == [], "valid_to is exclusive: gone at its end"
    assert len(ex.recall_as_of([ended], T0 + timedelta(days=9))) == 1


def test_deleted_and_expired_records_are_in_no_view(ex):
    deleted = MemoryRecord(MemoryType.ENTITY, "a", "gone", created_at=T0, status=Status.DELETED)
    expiring = MemoryRecord(MemoryType.ENTITY, "b", "parking B12", created_at=T0, expires_at=T0 + timedelta(days=3))
    assert ex.recall_as_of([deleted, expiring], T0 + timedelta(days=1)) == [(expiring.memory_id, "parking B12")]
    assert ex.recall_as_of([deleted, expiring], T0 + timedelta(days=3)) == [], "expired at the moment: not recalled"


def test_records_keep_their_order(ex):
    first, second = moved(), MemoryRecord(MemoryType.ENTITY, "pet", "I have a cat", created_at=T0)
    assert [m for m, _ in ex.recall_as_of([second, first], MOVE)] == [second.memory_id, first.memory_id]


def test_one_value_per_record_even_when_its_intervals_overlap(ex):
    """Stored data is not always tidy: a correction can be back-dated so that it overlaps the value
    it replaced. The question is still "what held then?", and a record answers it once."""
    record = MemoryRecord(MemoryType.ENTITY, "home_city", "I moved to Chengdu", created_at=T0 + timedelta(days=20),
                          valid_from=T0 + timedelta(days=10))
    record.history = [HistoryEntry("I live in Guangzhou", 0.8, "user_stated", T0 + timedelta(days=20),
                                   valid_from=T0, valid_to=T0 + timedelta(days=20))]
    view = ex.recall_as_of([record], T0 + timedelta(days=15))
    assert len(view) == 1, f"one record, one value as of a moment; got {view}"
