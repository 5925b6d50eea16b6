"""Supersede by similarity: restatements merge, distinct facts never do."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from memcourse.recall.dedupe import DEFAULT_THRESHOLD, may_supersede
from memcourse.records import MemoryRecord, MemoryType
from memcourse.same_fact import one_word_swapped, same_specifics, specifics


def rec(kind: str, content: str, subject: str = "s", **extra) -> MemoryRecord:
    return MemoryRecord(kind, subject, content, **extra)


def test_a_restatement_of_a_preference_supersedes():
    old = rec("preference", "The user prefers short answers", "answer_length")
    new = rec("preference", "The user likes answers to be short", "short_answers")
    assert may_supersede(old, new, 0.95)
    assert not may_supersede(old, new, DEFAULT_THRESHOLD - 0.01), "below the threshold: distinct"


@pytest.mark.parametrize("similarity", [0.93, 0.99, 1.0])
def test_events_are_never_superseded_by_similarity(similarity):
    """A second, similar event is another event (notebook 02: an event is not replaced)."""
    old = rec("event", "Went to an LGBTQ art show", "show_1")
    new = rec("event", "Went to an LGBTQ art show", "show_2")
    assert not may_supersede(old, new, similarity)


def test_the_sup_ticket_pair_stays_two_memories():
    """The shipped set's pair: cosine 0.97 with the default model, two different tickets."""
    old = rec("entity", "Ticket SUP-69636 was closed after restarting the worker pool", "ticket_78")
    new = rec("entity", "Ticket SUP-59189 was closed after restarting the worker pool", "ticket_89")
    assert not may_supersede(old, new, 0.973)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("次日留存上个月是 56%", "次日留存上个月是 96%"),
        ("Deploy v2.4.0 to staging first", "Deploy v2.5.0 to staging first"),
        ("The user's budget is 5000 dollars", "The user's budget is 8000 dollars"),
        ("Standup moved to 2024-03-04", "Standup moved to 2024-03-11"),
        ("Order 2024081703 is a keyboard", "Order 2024081704 is a keyboard"),
        ("Prefers meetings at 9", "Prefers meetings"),  # a number on one side only
    ],
)
def test_near_duplicates_with_different_specifics_are_distinct(a, b):
    assert not same_specifics(rec("entity", a), rec("entity", b))
    assert not may_supersede(rec("entity", a), rec("entity", b), 0.99)


def test_specifics_are_numbers_ids_and_dates():
    assert specifics("Ticket SUP-69636 closed on 3 May, retention 56%") == {"sup-69636", "69636", "3", "56"}
    assert specifics("no digits here") == frozenset()


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (rec("preference", "Likes tea", user_id="a"), rec("preference", "Likes tea", user_id="b")),
        (rec("preference", "Likes tea", agent_id="x"), rec("preference", "Likes tea", agent_id="y")),
        (rec("preference", "Likes tea"), rec("entity", "Likes tea")),
    ],
)
def test_scope_and_type_must_match(old, new):
    assert not may_supersede(old, new, 1.0)


def test_bad_arguments_are_refused():
    a = rec("preference", "Likes tea")
    with pytest.raises(TypeError):
        may_supersede(a, "Likes tea", 0.99)
    for bad in (float("nan"), "0.99", True):
        with pytest.raises(ValueError):
            may_supersede(a, a, bad)


def test_zero_wrong_supersessions_on_the_shipped_recall_set():
    """Loading the shipped set (labelled answers plus generated distractors: tickets, metrics
    and orders that differ only by a number) with the default threshold supersedes no
    distinct fact. The only merge allowed is an exact restatement (the generator produces
    one: two distractors with the same text), and every labelled answer stays active."""
    import tempfile

    from memcourse.evaluations.recall_set import load_eval_set
    from memcourse.stores.chroma import ChromaMemoryStore

    eval_set = load_eval_set()
    records = eval_set.records()
    with tempfile.TemporaryDirectory() as tmp:
        store = ChromaMemoryStore(path=tmp)
        try:
            store.upsert_many(records)
            stored = {r.memory_id: store.get(r.memory_id) for r in records}
        finally:
            store.close()
    wrong = []
    for record in stored.values():
        if record.status.value == "active":
            continue
        successor = stored.get(record.superseded_by)
        if successor is None or successor.content != record.content:
            wrong.append((record.content, successor.content if successor else record.superseded_by))
    assert wrong == [], f"distinct facts superseded (old, by): {wrong[:5]}"
    answers = {r.memory_id for r in eval_set.memories.values()}
    assert all(stored[i].status.value == "active" for i in answers), "a labelled answer was superseded"


def test_only_events_are_never_merged_by_similarity():
    from memcourse.recall.dedupe import merged_by_similarity

    assert [t for t in MemoryType if not merged_by_similarity(t)] == [MemoryType.EVENT]


@pytest.mark.parametrize("a, b", [
    ("报销相关的提醒发短信就可以", "报销相关的提醒发电话就可以"),   # the channel changed: another value
    ("周末常去健身房跑步", "周末常去江边跑步"),
    ("決定代碼評審改用飛書", "決定代碼評審改用Trello"),            # traditional script, a Latin word for a Chinese one
    ("The user's team deploys on Thursday", "The user's team deploys on Friday"),
    ("The user has a cat named Mochi", "The user has a dog named Mochi"),
    ("Die Nutzerin trinkt morgens Tee", "Die Nutzerin trinkt morgens Kaffee"),
])
def test_one_swapped_word_is_a_changed_value_never_a_restatement(a, b):
    old, new = MemoryRecord(MemoryType.PREFERENCE, "a", a), MemoryRecord(MemoryType.PREFERENCE, "b", b)
    assert one_word_swapped(a, b) and one_word_swapped(b, a)
    assert not may_supersede(old, new, 0.99), "a model that reads the language scores these as near-duplicates"


@pytest.mark.parametrize("a, b", [
    ("用户住在上海", "用户现在住在上海"),                              # a word added
    ("The user does not like email notifications", "The user doesn't like email notifications"),
    ("The user likes tea", "The user like tea"),                    # an ending, not a word
    ("The user has a cat", "The user has the cat"),                 # a stopword
    ("The user prefers Python for code examples", "The user prefers Python code examples"),
    ("用户住在上海", "用户住在上海。"),
])
def test_rephrasings_are_not_swaps(a, b):
    assert not one_word_swapped(a, b)
    old, new = MemoryRecord(MemoryType.PREFERENCE, "a", a), MemoryRecord(MemoryType.PREFERENCE, "b", b)
    assert may_supersede(old, new, 0.99)


def _pair_scorer():
    path = Path(__file__).resolve().parents[1] / "scripts" / "score_supersede_pairs.py"
    spec = importlib.util.spec_from_file_location("score_supersede_pairs", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_saved_pair_cosines_exercise_08_grades_on_are_what_the_models_give():
    scorer = _pair_scorer()
    saved = json.loads(scorer.COSINES.read_text(encoding="utf-8"))
    assert scorer.stale(saved, scorer.score()) == [], "run scripts/score_supersede_pairs.py"


def test_a_stale_cosine_file_is_named_stale():
    scorer = _pair_scorer()
    now = {"pairs_sha256": "a", "cosines": {"minilm": [0.5, 0.9]}}
    assert scorer.stale(now, now) == []
    assert scorer.stale({**now, "pairs_sha256": "b"}, now) == ["the pairs file changed since the cosines were saved"]
    assert scorer.stale({**now, "cosines": {"minilm": [0.5, 0.91]}}, now) == ["minilm: a cosine moved by 0.01"]
    assert scorer.stale({**now, "cosines": {"minilm": [0.5]}}, now) == ["minilm: 1 saved cosines for 2 pairs"]
    assert scorer.stale({**now, "cosines": {}}, now) == ["minilm: 0 saved cosines for 2 pairs"]
