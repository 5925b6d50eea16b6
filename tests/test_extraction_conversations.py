"""Short conversations written apart from the shipped set: what the rules-only pipeline ends
with, and where the fallback needs a model (a changed free-form fact)."""

from __future__ import annotations

import json

from memcourse import JsonMemoryStore
from memcourse.agent.compose import OpenAICompatibleComposer
from memcourse.extraction import MemoryPipeline, Reconciler
from memcourse.testing import LoopbackChatServer


def run(store, conversation, reconciler=None, clock=None):
    pipeline = MemoryPipeline(store, reconciler=reconciler, **({"clock": clock} if clock else {}))
    actions = []
    for user, text in conversation:
        result = pipeline.process(text, user_id=user, conversation_id=f"{user}-1")
        actions.append([step.decision.action for step in result.steps if step.decision])
    return actions


def test_an_english_user_updates_restates_and_retracts(tmp_path, clock):
    store = JsonMemoryStore(tmp_path / "m.json", clock=clock)
    actions = run(store, [
        ("kim", "My project is called Orion."),
        ("kim", "Actually my project is called Orion-2."),
        ("kim", "Please keep answers short from now on."),
        ("kim", "From now on keep answers short, please."),
        ("kim", "I live in Boston."),
        ("kim", "I moved to Denver."),
        ("kim", "Forget that I live in Denver."),
    ], clock=clock)
    assert actions == [["ADD"], ["UPDATE"], ["ADD"], ["NOOP"], ["ADD"], ["UPDATE"], ["DELETE"]]
    final = {r.subject: r.content for r in store.list_all(user_id="kim")}
    assert set(final) == {"project_name", "response_length"} and "Orion-2" in final["project_name"]


def test_a_chinese_user_moves_changes_a_preference_and_retracts(tmp_path, clock):
    store = JsonMemoryStore(tmp_path / "m.json", clock=clock)
    actions = run(store, [
        ("zhao", "我住在北京"),
        ("zhao", "我现在住在深圳了"),
        ("zhao", "以后回答尽量简洁"),
        ("zhao", "以后的回答尽量简洁一点"),
        ("zhao", "别再记着我住在深圳了"),
    ], clock=clock)
    assert actions == [["ADD"], ["UPDATE"], ["ADD"], ["UPDATE"], ["DELETE"]]
    assert [r.subject for r in store.list_all(user_id="zhao")] == ["response_length"]


def test_a_changed_free_form_fact_needs_a_model_to_be_linked(tmp_path, clock):
    """'周会在周三' then '周会改到周四': the words overlap too little for the fallback, which
    keeps both (its documented limit); a model shown the old memory links them."""
    said = [("zhao", "记住：我们的周会在周三下午"), ("zhao", "记住：我们的周会改到周四下午了")]
    plain = JsonMemoryStore(tmp_path / "plain.json", clock=clock)
    assert run(plain, said, clock=clock) == [["ADD"], ["ADD"]]
    judged = JsonMemoryStore(tmp_path / "judged.json", clock=clock)
    answer = json.dumps({"action": "SUPERSEDE", "target": "m1", "reason": "the meeting moved to Thursday"})
    with LoopbackChatServer(answer) as server:
        reconciler = Reconciler(judged, model=OpenAICompatibleComposer(server.base_url, "judge", timeout=10))
        assert run(judged, said, reconciler, clock=clock) == [["ADD"], ["SUPERSEDE"]]
    assert [r.content for r in judged.list_all(user_id="zhao")] == ["我们的周会改到周四下午了"]
