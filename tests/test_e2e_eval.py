"""End-to-end evaluation: the shipped benchmark, the grading rules, the run and the command."""

from __future__ import annotations

import json
from collections import Counter
from datetime import datetime, timezone

import pytest

from memcourse.cli import main as cli_main
from memcourse.e2e_eval import (
    ABILITIES,
    ABSTAIN_EN,
    DeterministicAnswerer,
    ModelAnswerer,
    Question,
    Session,
    UserHistory,
    is_correct,
    load_benchmark,
    main,
    question_time,
    run,
)
from memcourse.llm import LoopbackChatServer, OpenAICompatibleComposer
from memcourse.text import has_cjk

UTC = timezone.utc
ASKED = datetime(2026, 6, 1, tzinfo=UTC)


@pytest.fixture(scope="module")
def shipped():
    """One run of the shipped benchmark, shared (it takes a few seconds)."""
    return run()


def q(ability, text, *groups, qid="q"):
    return Question(qid, "u", ability, text, tuple(tuple(g) for g in groups), ASKED)


# -- the benchmark ----------------------------------------------------------------------------
def test_the_shipped_benchmark_is_big_enough_and_bilingual():
    users = load_benchmark()
    questions = [question for user in users for question in user.questions]
    assert len(users) >= 6 and len(questions) >= 120
    assert all(len(user.sessions) >= 3 for user in users)
    per_ability = Counter(question.ability for question in questions)
    assert set(per_ability) == set(ABILITIES) and min(per_ability.values()) >= 20
    chinese = sum(has_cjk(question.question) for question in questions)
    assert 0.3 < chinese / len(questions) < 0.7
    assert len({question.id for question in questions}) == len(questions)


def test_a_broken_benchmark_is_reported_by_item(tmp_path):
    path = tmp_path / "b.json"
    path.write_text(json.dumps({"format": "memcourse.e2e-benchmark", "users": [{
        "user_id": "u", "asked_at": "2026-06-01T00:00:00Z",
        "sessions": [{"id": "s", "time": "2026-01-01T00:00:00Z", "messages": ["hi"]}],
        "questions": [{"id": "q1", "ability": "abstention", "question": "?", "expect": [["x"]]}]}]}))
    with pytest.raises(ValueError, match="q1"):
        load_benchmark(path)
    assert main(["--dataset", str(path)]) == 2


# -- reading the time a question asks about ---------------------------------------------------
@pytest.mark.parametrize("text,expected", [
    ("Which city did I live in in February 2026?", datetime(2026, 2, 15, 12, tzinfo=UTC)),
    ("2026年3月我住在哪个城市？", datetime(2026, 3, 15, 12, tzinfo=UTC)),
    ("２０２６年３月５日我在哪？", datetime(2026, 3, 5, 12, tzinfo=UTC)),
    ("What happened on 2026-04-02?", datetime(2026, 4, 2, 12, tzinfo=UTC)),
    ("Which meetup did I present at in May?", None),
    ("Where do I live now?", None),
])
def test_question_time(text, expected):
    assert question_time(text) == expected


# -- grading ----------------------------------------------------------------------------------
def test_abstaining_is_right_only_when_nothing_was_said():
    unanswerable = q("abstention", "What is my dog's name?")
    answerable = q("extraction", "Where do I live?", ["Porto"])
    assert is_correct(unanswerable, ABSTAIN_EN) and is_correct(unanswerable, "我不知道。")
    assert not is_correct(unanswerable, "Your dog is called Rex")
    assert not is_correct(answerable, ABSTAIN_EN)
    assert not is_correct(answerable, "I don't know, maybe Porto?")  # hedging both ways is not an answer


def test_every_group_must_be_answered():
    question = q("multi_session", "Who and what?", ["Rita"], ["Tidewater", "TW"])
    assert is_correct(question, "Rita runs Tidewater")
    assert is_correct(question, "rita, tw")
    assert not is_correct(question, "Rita")


# -- the run ----------------------------------------------------------------------------------
def history(*questions):
    sessions = (
        Session("s1", datetime(2026, 1, 10, tzinfo=UTC), ("I live in Lisbon.", "My project is called Tidewater.")),
        Session("s2", datetime(2026, 4, 3, tzinfo=UTC), ("I moved to Porto last week.", "我今天有点困。")),
    )
    return [UserHistory("u", sessions, tuple(questions))]


def test_the_pipeline_answers_updates_and_as_of_questions():
    report = run(history(
        q("knowledge_update", "Which city do I live in? Lisbon or Porto", ["Porto"], qid="now"),
        q("temporal", "Which city did I live in in February 2026?", ["Lisbon"], qid="then"),
        q("extraction", "What is my project called?", ["Tidewater"], qid="project"),
        q("abstention", "What is my salary?", qid="salary"),
    ))
    assert {o.question_id: o.correct for o in report.outcomes} == {
        "now": True,
        "then": True,
        "project": True,
        "salary": True,
    }
    assert report.outcomes[1].as_of.startswith("2026-02-15")


def test_without_validity_time_the_past_is_lost():
    question = q("temporal", "Which city did I live in in February 2026?", ["Lisbon"])
    assert run(history(question)).accuracy() == 1.0
    assert run(history(question), use_as_of=False).accuracy() == 0.0


def test_validity_time_helps_on_the_shipped_benchmark(shipped):
    with_time, without = shipped, run(use_as_of=False)
    assert with_time.accuracy("temporal") > without.accuracy("temporal")
    for ability in ("extraction", "knowledge_update"):
        assert with_time.accuracy(ability) == without.accuracy(ability)


def test_the_report_is_computed_from_its_outcomes(shipped):
    report = shipped
    rows = report.by_ability()
    for ability, row in rows.items():
        outcomes = [o for o in report.outcomes if o.ability == ability]
        assert row["questions"] == len(outcomes) and row["correct"] == sum(o.correct for o in outcomes)
    assert report.abstention_rate == sum(o.abstained for o in report.outcomes) / len(report.outcomes)
    assert report.false_abstentions + report.hallucinated <= len(report.outcomes)
    assert rows["abstention"]["in_recall"] is None


def test_the_deterministic_answerer_cannot_combine_sessions(shipped):
    """Honest by construction: it returns one memory, so questions needing two mostly fail,
    even where recall holds every piece (the gap a model would close)."""
    rows = shipped.by_ability()
    assert rows["multi_session"]["accuracy"] < rows["multi_session"]["in_recall"]


def test_a_model_answers_from_recalled_memories_with_their_dates():
    replies = iter(["You live in Porto.", "I don't know."])
    with LoopbackChatServer(lambda body: next(replies)) as server:
        composer = OpenAICompatibleComposer(server.base_url, "scripted")
        answerer = ModelAnswerer(composer.complete, name="model:scripted")
        report = run(history(q("knowledge_update", "Which city did I move to last week?", ["Porto"], qid="a"),
                             q("abstention", "What is my salary?", qid="b")), answerer=answerer)
        system = server.requests[0]["body"]["messages"][0]["content"]
    assert [o.correct for o in report.outcomes] == [True, True]
    assert "valid 2026-04-03 to now" in system and "Porto" in system and "background facts" in system


# -- the command ------------------------------------------------------------------------------
def test_the_command_prints_every_ability_and_writes_outcomes(tmp_path, capsys, shipped):
    out_file = tmp_path / "outcomes.json"
    assert cli_main(["eval", "--e2e", "--json", str(out_file), "--failures"]) == 0
    printed = capsys.readouterr().out
    for ability in (*ABILITIES, "overall", "abstention rate", "wrong answers"):
        assert ability in printed
    outcomes = json.loads(out_file.read_text(encoding="utf-8"))
    assert [o["correct"] for o in outcomes] == [o.correct for o in shipped.outcomes]


def test_the_model_answerer_needs_a_configured_model(monkeypatch, capsys):
    monkeypatch.delenv("MEMCOURSE_LLM_BASE_URL", raising=False)
    monkeypatch.delenv("MEMCOURSE_LLM_MODEL", raising=False)
    assert main(["--answerer", "model"]) == 2
    assert "MEMCOURSE_LLM_BASE_URL" in capsys.readouterr().err


def test_the_deterministic_answerer_abstains_in_the_questions_language():
    answer = DeterministicAnswerer()
    assert answer(q("abstention", "我的狗叫什么？"), [], None) == "我不知道。"
    assert answer(q("abstention", "Dog's name?"), [], None) == ABSTAIN_EN


def test_the_default_run_goes_through_the_extraction_pipeline(shipped):
    assert shipped.ingestion.startswith("pipeline")
    from memcourse.e2e_eval import RuleIngestion

    gate_only = run(ingestion=RuleIngestion())
    assert gate_only.ingestion == "policy only"
    assert len(gate_only.outcomes) == len(shipped.outcomes)


def test_a_hybrid_extractor_needs_a_configured_model(monkeypatch, capsys):
    monkeypatch.delenv("MEMCOURSE_LLM_BASE_URL", raising=False)
    monkeypatch.delenv("MEMCOURSE_LLM_MODEL", raising=False)
    assert main(["--extractor", "hybrid"]) == 2
    assert "MEMCOURSE_LLM" in capsys.readouterr().err


def test_the_same_run_works_on_the_chroma_store(tmp_path):
    from memcourse.stores.chroma import ChromaMemoryStore

    question = q("temporal", "Which city did I live in in February 2026?", ["Lisbon"], qid="then")
    report = run(history(question, q("extraction", "What is my project called?", ["Tidewater"], qid="p")),
                 store_factory=lambda folder, clock: ChromaMemoryStore(folder / "chroma", clock=clock))
    assert [o.correct for o in report.outcomes] == [True, True]


@pytest.mark.parametrize("text,rest", [
    ("Which city did I live in in February 2026?", "Which city did I live in ?"),
    ("2026年3月 GPU 集群有多少张 A100？", "GPU 集群有多少张 A100?"),
    ("Where do I live now?", "Where do I live now?"),
])
def test_the_date_a_question_names_becomes_the_filter_not_a_search_term(text, rest):
    from memcourse.e2e_eval import split_question_time

    assert split_question_time(text)[1] == rest
