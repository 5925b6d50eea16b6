"""The write threshold: explainable parts, nothing dropped silently, repetition lifts, and forgetting
reaches the pending mentions."""

from datetime import datetime, timedelta, timezone

import pytest

from memcourse.extraction import AuditLog, MemoryPipeline, Message
from memcourse.extraction.base import Candidate, Extraction
from memcourse.extraction.importance import WRITE_THRESHOLD, judge
from memcourse.extraction.mentions import PendingMentions
from memcourse.records import MemoryType, Source
from memcourse.stores.json_store import JsonMemoryStore

T0 = datetime(2026, 4, 6, 9, 0, tzinfo=timezone.utc)


class OneCandidate:
    """An extractor proposing one fixed model candidate per message (the real pipeline does the rest)."""

    name = "fixed"

    def __init__(self, memory_type: str, content: str):
        self.memory_type, self.content = MemoryType(memory_type), content

    def extract(self, message, context=None):
        candidate = Candidate(self.memory_type, "fact", self.content, confidence=0.9, importance=0.9,
                              evidence=message.text, source=Source.LLM_INFERRED, extractor=self.name, message=message)
        return Extraction(self.name, "ok", [candidate])


def pipeline(tmp_path, extractor, **kwargs):
    clock = {"t": T0}
    store = JsonMemoryStore(tmp_path / "m.json", clock=lambda: clock["t"])
    pipe = MemoryPipeline(store, extractor=extractor, audit=AuditLog(tmp_path / "audit"), clock=lambda: clock["t"],
                          mentions=PendingMentions(tmp_path / "mentions"), **kwargs)
    return pipe, clock


def test_parts_are_visible_and_add_up():
    j = judge("event", "用户昨天把 PostgreSQL 迁移脚本跑通了", goals=["Phase3 的当前任务是迁移到 PostgreSQL"],
              earlier_mentions=1)
    names = [p.name for p in j.parts]
    assert names == ["stability", "goal", "repetition"]
    assert j.score == pytest.approx(sum(p.points for p in j.parts))
    assert "postgresql" in j.reason and "below" not in j.reason


def test_passing_states_and_small_events_are_below_plain_facts_above():
    assert not judge("event", "User is tired today").passes
    assert not judge("event", "User had pizza for lunch").passes
    for memory_type in ("entity", "preference", "task", "decision"):
        assert judge(memory_type, "User uses Helix").passes


def test_admin_rules_and_explicit_requests_are_never_dropped():
    assert judge("event", "我今天有点累", explicit=True).passes
    assert judge("rule", "tired", admin=True, threshold=1.0).passes
    assert judge("event", "我今天有点累", explicit=True, threshold=1.0).exempt


@pytest.mark.parametrize("bad", [-0.1, 1.5, "0.5", True])
def test_a_bad_threshold_is_a_clear_error(tmp_path, bad):
    with pytest.raises(ValueError):
        pipeline(tmp_path, OneCandidate("event", "x"), write_threshold=bad)


def test_below_threshold_is_reported_not_written_then_repetition_lifts_it(tmp_path):
    pipe, clock = pipeline(tmp_path, OneCandidate("event", "User goes climbing every Saturday morning"))
    first = pipe.process(Message("I go climbing every Saturday morning.", "s1", T0, "ana"))
    assert first.written == [] and first.steps[0].below_threshold
    assert first.decision.rule == "below_threshold"
    line = [e for e in pipe.audit.entries("ana") if e["stage"] == "importance"][0]
    assert line["decision"] == "BELOW_THRESHOLD" and line["importance"]["parts"][0]["name"] == "stability"
    assert pipe.store.list_all(user_id="ana") == []
    clock["t"] = T0 + timedelta(days=7)
    second = pipe.process(Message("Climbing on Saturday morning is my routine.", "s2", clock["t"], "ana"))
    assert len(second.written) == 1
    assert [p.name for p in second.steps[0].judgement.parts] == ["stability", "repetition"]
    assert second.written[0].importance >= WRITE_THRESHOLD
    assert pipe.mentions.entries("ana") == []  # the memory now stands for its mentions


def test_a_different_fact_does_not_count_as_a_repetition(tmp_path):
    pipe, clock = pipeline(tmp_path, OneCandidate("event", "User had pizza for lunch"))
    pipe.process(Message("I had pizza for lunch.", "s1", T0, "ana"))
    pipe.extractor = OneCandidate("event", "User watched a film yesterday evening")
    clock["t"] = T0 + timedelta(days=1)
    assert pipe.process(Message("I watched a film yesterday evening.", "s1", clock["t"], "ana")).written == []


def test_pending_mentions_persist_across_pipelines_and_expire(tmp_path):
    pipe, _ = pipeline(tmp_path, OneCandidate("event", "User goes climbing every Saturday morning"))
    pipe.process(Message("I go climbing every Saturday morning.", "s1", T0, "ana"))
    again = PendingMentions(tmp_path / "mentions")
    assert again.count("ana", "default", "User goes climbing every Saturday morning", now=T0 + timedelta(days=1)) == 1
    assert again.count("ana", "default", "User goes climbing every Saturday morning", now=T0 + timedelta(days=400)) == 0


def test_forgetting_removes_pending_mentions(tmp_path):
    pipe, clock = pipeline(tmp_path, OneCandidate("event", "User goes climbing every Saturday morning"))
    pipe.process(Message("I go climbing every Saturday morning.", "s1", T0, "ana"))
    clock["t"] = T0 + timedelta(days=1)
    written = pipe.process(Message("Climbing every Saturday morning, as always.", "s2", clock["t"], "ana")).written
    # a third mention after the write is a restatement of a stored memory, so it passes (no pending entry)
    pipe.forget(written[0].memory_id)
    assert pipe.mentions.entries("ana") == []
    clock["t"] = T0 + timedelta(days=2)
    after = pipe.process(Message("I go climbing every Saturday morning.", "s3", clock["t"], "ana"))
    assert after.written == []  # forgotten means forgotten: it starts again from zero
    pipe.forget_user("ana")
    assert pipe.mentions.entries("ana") == []
    assert not list((tmp_path / "mentions").glob("mentions-*.json"))


def test_a_retraction_removes_pending_mentions_even_when_nothing_was_stored(tmp_path):
    pipe, clock = pipeline(tmp_path, OneCandidate("event", "User goes climbing every Saturday morning"))
    pipe.process(Message("I go climbing every Saturday morning.", "s1", T0, "ana"))
    pipe.extractor = MemoryPipeline(pipe.store).extractor  # the rule extractor: retractions
    clock["t"] = T0 + timedelta(minutes=5)
    pipe.process(Message("Forget that I go climbing every Saturday morning.", "s1", clock["t"], "ana"))
    assert pipe.mentions.entries("ana") == []


def test_an_explicit_request_is_written_whatever_its_score(tmp_path):
    pipe, _ = pipeline(tmp_path, OneCandidate("event", "用户今天有点累"))
    result = pipe.process(Message("记住：我今天有点累", "s1", T0, "ana"))
    assert len(result.written) == 1 and result.steps[0].judgement.exempt
