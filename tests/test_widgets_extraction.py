"""The extraction widget (notebook 14): the plain functions it wraps, and the wiring."""

from __future__ import annotations

import json

import pytest

from memcourse import JsonMemoryStore
from memcourse.agent.compose import OpenAICompatibleComposer
from memcourse.course.widgets.extraction import (
    INPUT_CLASS,
    RESULT_CLASS,
    SEND_CLASS,
    WIDGET_CLASS,
    demo_model,
    extraction_turn,
    extraction_widget,
    render_audit_html,
    render_memories_html,
    render_turn_html,
)
from memcourse.extraction import AuditLog, HybridExtractor, LLMExtractor, MemoryPipeline
from memcourse.testing import LoopbackChatServer


@pytest.fixture
def pipeline(tmp_path, clock):
    with LoopbackChatServer(demo_model({"scripted turn": '{"memories": []}'})) as server:
        model = LLMExtractor(OpenAICompatibleComposer(server.base_url, "demo", timeout=10))
        yield MemoryPipeline(JsonMemoryStore(tmp_path / "m.json", clock=clock), extractor=HybridExtractor(model),
                             audit=AuditLog(tmp_path / "audit"), clock=clock)


def test_a_turn_shows_candidate_gate_and_decision_with_reasons(pipeline):
    view = extraction_turn(pipeline, "I like TypeScript.", user_id="sam")
    assert view["outcome"] == "ok" and view["actions"] == ["ADD"]
    [step] = view["steps"]
    assert step["gate"] == "WRITE" and step["candidate"]["source"] == "llm_inferred"
    assert step["reason"] and step["gate_reason"] and step["by"] == "rules"
    assert [m["subject"] for m in view["memories"]] == ["favourite_typescript"]
    assert view["audit"][-1]["decision"] == "ADD"
    html = render_turn_html(view)
    assert 'data-actions="ADD"' in html and 'data-gate="WRITE"' in html and "TypeScript" in html


def test_a_retraction_a_refusal_and_a_dropped_item_are_shown(pipeline):
    extraction_turn(pipeline, "I like TypeScript.", user_id="sam")
    gone = extraction_turn(pipeline, "Forget that I like TypeScript.", user_id="sam")
    assert gone["actions"] == ["DELETE"] and gone["memories"] == []
    assert gone["steps"][0]["gate"] == "-"
    secret = extraction_turn(pipeline, "my password is hunter2", user_id="sam")
    assert secret["refused"] and secret["outcome"] == "refused" and secret["screen_rule"] == "secret"
    assert "REFUSED" in render_turn_html(secret) and "hunter2" not in render_turn_html(secret)
    nothing = extraction_turn(pipeline, "scripted turn", user_id="sam")
    assert nothing["outcome"] == "nothing" and nothing["steps"] == []


def test_the_demo_model_answers_like_a_model_would_and_only_for_what_it_knows():
    answer = demo_model({"hello": "scripted"})

    def ask(text):
        return answer({"messages": [{"role": "user", "content": "User message:\n" + json.dumps(text)}]})

    assert ask("hello") == "scripted"
    assert json.loads(ask("我最喜欢用 Rust"))["memories"][0]["content"] == "用户喜欢 Rust"
    assert json.loads(ask("We decided to ship on Monday."))["memories"][0]["type"] == "decision"
    assert json.loads(ask("What time is it?")) == {"memories": []}
    assert json.loads(answer({"messages": [{"role": "user", "content": "no json"}]})) == {"memories": []}


def test_rendering_escapes_everything():
    view = {"message": "<script>x</script>", "refused": True, "screen_rule": "injection", "screen_reason": "<b>",
            "outcome": "refused", "actions": []}
    html = render_turn_html(view)
    assert "<script>" not in html and "&lt;script&gt;" in html
    memories = render_memories_html([{"memory_id": "i", "memory_type": "entity", "subject": "<s>", "content": "<c>",
                                      "source": "user_stated", "confidence": 0.9, "importance": 0.5, "tags": [],
                                      "history": 0}])
    assert "<s>" not in memories and "<c>" not in memories
    assert "&lt;" in render_audit_html([{"at": "", "stage": "x", "decision": "<d>", "by": "", "reason": ""}])
    assert render_turn_html(None).startswith('<div class="memcourse-extraction-turn"')


def test_the_widget_wires_the_box_to_the_functions(pipeline):
    box = extraction_widget(pipeline, user_id="sam", messages=["I like TypeScript."])
    assert WIDGET_CLASS in box._dom_classes
    [row, result, _, memories, _, audit] = box.children
    text = row
    assert INPUT_CLASS in text._dom_classes and text.send_class == SEND_CLASS
    assert RESULT_CLASS in result._dom_classes and 'data-actions="ADD"' in result.value
    text._handle_custom_msg({"event": "submit", "text": "Forget that I like TypeScript."}, [])  # Enter or Send
    assert 'data-actions="DELETE"' in result.value
    assert len(box.turns) == 2 and "No active memories" in memories.value
    assert "DELETE" in audit.value
    text._handle_custom_msg({"event": "submit", "text": "I like Rust."}, [])
    assert len(box.turns) == 3 and 'data-actions="ADD"' in result.value
    text._handle_custom_msg({"event": "submit"}, [])  # a submit without its text sends nothing
    assert len(box.turns) == 3


def test_the_widget_stores_exactly_the_submitted_text(pipeline):
    """Not a lagging synced value: the turn's text is the one in the submit message."""
    box = extraction_widget(pipeline, user_id="sam")
    text = box.children[0]
    assert "value" not in text.keys
    text._handle_custom_msg({"event": "submit", "text": "I like TypeScript."}, [])
    [turn] = box.turns
    contents = [m["content"] for m in turn["memories"]]
    assert any("TypeScript" in c for c in contents), contents
