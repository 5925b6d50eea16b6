"""ShortTermState: a checkpoint of one run, never long-term memory."""

from __future__ import annotations

import pytest

from memcourse.state import SNAPSHOT_KEYS, ShortTermState


@pytest.fixture
def state() -> ShortTermState:
    state = ShortTermState(goal="学习 Agent Memory")
    state.add_step("理解短期状态和长期记忆的边界")
    state.add_observation("LangGraph checkpoint 更像执行状态，不等于长期记忆")
    state.add_pending_action("写单元测试")
    return state


def test_snapshot_has_exactly_the_run_state_and_no_memories(state):
    snapshot = state.snapshot()
    assert "memories" not in snapshot
    assert tuple(snapshot) == SNAPSHOT_KEYS == ("goal", "steps", "observations", "pending_actions")
    assert snapshot == {
        "goal": "学习 Agent Memory",
        "steps": ["理解短期状态和长期记忆的边界"],
        "observations": ["LangGraph checkpoint 更像执行状态，不等于长期记忆"],
        "pending_actions": ["写单元测试"],
    }


def test_mutating_the_snapshot_never_changes_the_state(state):
    snapshot = state.snapshot()
    snapshot["steps"].append("偷偷加的一步")
    snapshot["observations"].clear()
    snapshot["pending_actions"][0] = "改掉"
    snapshot["goal"] = "别的目标"
    assert state.snapshot() == {
        "goal": "学习 Agent Memory",
        "steps": ["理解短期状态和长期记忆的边界"],
        "observations": ["LangGraph checkpoint 更像执行状态，不等于长期记忆"],
        "pending_actions": ["写单元测试"],
    }


def test_changing_the_state_never_changes_an_earlier_snapshot(state):
    snapshot = state.snapshot()
    state.add_step("第二步")
    state.add_observation("新观察")
    state.complete_action("写单元测试")
    assert snapshot["steps"] == ["理解短期状态和长期记忆的边界"]
    assert snapshot["observations"] == ["LangGraph checkpoint 更像执行状态，不等于长期记忆"]
    assert snapshot["pending_actions"] == ["写单元测试"]


def test_snapshot_lists_are_not_the_state_lists(state):
    snapshot = state.snapshot()
    for key in ("steps", "observations", "pending_actions"):
        assert snapshot[key] is not getattr(state, key)


def test_restore_round_trips(state):
    restored = ShortTermState.restore(state.snapshot())
    assert restored == state
    assert restored.snapshot() == state.snapshot()


def test_restore_copies_so_the_snapshot_stays_reusable(state):
    snapshot = state.snapshot()
    restored = ShortTermState.restore(snapshot)
    restored.add_step("恢复后的新步骤")
    assert "恢复后的新步骤" not in snapshot["steps"]
    again = ShortTermState.restore(snapshot)
    assert again.steps == ["理解短期状态和长期记忆的边界"]


def test_restore_refuses_an_incomplete_snapshot(state):
    snapshot = state.snapshot()
    del snapshot["pending_actions"]
    with pytest.raises(ValueError, match="pending_actions"):
        ShortTermState.restore(snapshot)


def test_restore_refuses_bad_entries(state):
    snapshot = state.snapshot()
    snapshot["steps"].append("")
    with pytest.raises(ValueError, match="step"):
        ShortTermState.restore(snapshot)


def test_complete_action_moves_it_to_the_steps(state):
    state.complete_action("写单元测试")
    assert state.pending_actions == []
    assert state.steps[-1] == "写单元测试"


def test_completing_an_unknown_action_is_an_error(state):
    with pytest.raises(ValueError, match="no pending action"):
        state.complete_action("从没计划过")


@pytest.mark.parametrize("method", ["add_step", "add_observation", "add_pending_action"])
@pytest.mark.parametrize("value", ["", "   ", None, 3])
def test_empty_or_non_string_entries_are_refused(state, method, value):
    before = state.snapshot()
    with pytest.raises(ValueError):
        getattr(state, method)(value)
    assert state.snapshot() == before


@pytest.mark.parametrize("key", ["steps", "observations", "pending_actions"])
def test_restore_refuses_a_string_where_a_list_belongs(state, key):
    snapshot = state.snapshot()
    snapshot[key] = "abc"  # would otherwise restore as three one-character entries
    with pytest.raises(ValueError, match=key):
        ShortTermState.restore(snapshot)
