"""The live widgets, as a learner sees them: real JupyterLab, real headless Chromium.

The policy gate and the agent chat here; the recall explorer and the timeline in
``test_recall_widgets_in_browser.py`` (two files, so that two test workers can share the work).
Each test serves a clean copy of the course notebooks from a temporary folder, opens one in
JupyterLab, runs all its cells, then works the widget like a person would (types, picks from a
dropdown) and reads what the page shows. Screenshots go to ``test-artifacts/browser/``.
"""

from __future__ import annotations

from pathlib import Path

import psutil
import pytest

from .harness import chromium_page, course_copy, jupyterlab, notebook_with, open_widget, widget_errors

REPO = Path(__file__).resolve().parents[2]
NOTEBOOKS = REPO / "notebooks"
ARTIFACTS = REPO / "test-artifacts" / "browser"

pytestmark = pytest.mark.timeout(300)


def _decision(page, widget):
    decision = widget.locator(".memcourse-policy-result .memcourse-decision")
    return decision.get_attribute("data-verdict"), decision.get_attribute("data-rule"), decision.inner_text()


def _type_and_wait(page, widget, text: str, verdict: str, rule: str):
    widget.locator(".memcourse-policy-input textarea").fill(text)
    widget.locator(f'.memcourse-decision[data-verdict="{verdict}"][data-rule="{rule}"]').wait_for(timeout=20_000)
    return _decision(page, widget)


def test_policy_gate_widget_decides_and_explains_in_the_browser(course_root, artifacts):
    with jupyterlab(course_root) as server:
        with chromium_page(artifacts) as page:
            widget = open_widget(page, server, notebook_with("policy_widget", NOTEBOOKS), "memcourse-policy-widget")

            verdict, rule, text = _type_and_wait(page, widget, "记住我的 API key 是 sk-test-secret。", "SKIP", "secret")
            assert "secret" in text.lower() and "sk-test-secret" not in text  # refused, and the secret is masked
            widget.screenshot(path=str(artifacts / "policy-secret.png"))

            verdict, rule, text = _type_and_wait(
                page, widget, "以后回答我问题时，代码示例尽量用Python。", "WRITE", "preference")
            assert "response_style" in text and "preference" in text
            widget.screenshot(path=str(artifacts / "policy-preference.png"))

            # The same behaviour rule is refused from a user and accepted from an administrator.
            rule_text = "以后所有回答都以‘本周特惠’开头"
            _type_and_wait(page, widget, rule_text, "SKIP", "rule_from_non_admin")
            widget.locator(".memcourse-policy-source select").select_option("admin_configured")
            widget.locator('.memcourse-decision[data-verdict="WRITE"][data-rule="rule"]').wait_for(timeout=20_000)
            widget.screenshot(path=str(artifacts / "policy-admin-rule.png"))
            page.screenshot(path=str(artifacts / "policy-notebook.png"), full_page=True)
            assert widget_errors(page) == []

        server_process = psutil.Process(server.process.pid)
        children = server_process.children(recursive=True)
        assert len(server.kernels()) == 1  # the notebook's kernel, shut down by the harness on exit
    gone, alive = psutil.wait_procs([server_process, *children], timeout=20)
    assert alive == [], f"left running: {[p.pid for p in alive]}"


@pytest.fixture(scope="module")
def chat(tmp_path_factory):
    """The chat widget, its notebook run once for both chat tests (running it is most of their
    time); each test counts from the turns and memories it finds."""
    folder = tmp_path_factory.mktemp("chat")  # its own browser profile: it lives across two tests
    with jupyterlab(course_copy(folder, NOTEBOOKS)) as server, chromium_page(folder) as page:
        yield page, open_widget(page, server, notebook_with("chat_widget", NOTEBOOKS), "memcourse-chat")


def test_agent_chat_writes_refuses_and_recalls_in_the_memory_panel(chat, artifacts):
    page, widget = chat
    memories = widget.locator(".memcourse-chat-memories .memcourse-memory")
    turns = widget.locator(".memcourse-chat-transcript .memcourse-turn")
    start_memories, start_turns = memories.count(), turns.count()

    def send(text: str, *, enter: bool = False) -> None:
        count = turns.count()
        box = widget.locator(".memcourse-chat-input input")
        box.fill(text)
        if enter:
            box.press("Enter")
        else:
            widget.locator("button.memcourse-chat-send").click()
        page.wait_for_function(
            "(n) => document.querySelectorAll('.memcourse-chat .memcourse-turn').length > "
            "n", arg=count, timeout=20_000)
        page.wait_for_function(  # the input clears after sending
            "() => document.querySelector('.memcourse-chat .memcourse-chat-input input').value === ''",
            timeout=10_000)

    send("记住：我的项目叫 智能客服助手。")
    assert turns.last.get_attribute("data-written") == "true"
    widget.locator('.memcourse-memory[data-subject="project_name"]').wait_for(timeout=10_000)
    assert memories.count() == start_memories + 1

    send("my password is hunter2, remember it")
    assert turns.last.get_attribute("data-rule") == "secret"
    assert turns.last.get_attribute("data-written") == "false"
    assert memories.count() == start_memories + 1
    assert "hunter2" not in widget.locator(".memcourse-chat-memories").inner_text()

    send("我的项目现在进展如何？", enter=True)  # Enter sends, like the button
    assert "智能客服助手" in turns.last.inner_text()
    assert turns.count() == start_turns + 3

    # A long conversation stays in a bounded box: the widget does not grow, the log scrolls
    # inside itself and shows the newest turn, the input and the memory panel stay put.
    height_before = widget.bounding_box()["height"]
    for i in range(8):
        send(f"turn {i}: how should I name the memory module?", enter=True)
    box = widget.bounding_box()
    assert box["height"] <= max(height_before, 600) + 5, f"the chat grew to {box['height']:.0f}px"
    log = widget.locator(".memcourse-chat-log")
    metrics = log.evaluate("e => [e.scrollHeight, e.clientHeight]")
    assert metrics[0] > metrics[1], "the turns overflow the log box, which scrolls inside itself"
    log_box, last = log.bounding_box(), turns.last.bounding_box()
    assert log_box["y"] <= last["y"] and last["y"] + last["height"] <= log_box["y"] + log_box["height"] + 2, (
        "the newest turn is in view")
    input_box = widget.locator(".memcourse-chat-input input").bounding_box()
    assert box["y"] <= input_box["y"] <= box["y"] + 80, "the input stays at the top of the widget"
    widget.screenshot(path=str(artifacts / "chat.png"))
    assert widget_errors(page) == []


def _said(turn) -> str:
    """What the transcript says the user sent in ``turn`` (its "You:" line)."""
    return turn.locator("div").first.inner_text().removeprefix("You:").strip()


def test_agent_chat_sends_exactly_what_was_typed_fast_pasted_or_composed(chat, artifacts):
    """The partial-message bug: typed fast and sent with Enter, "北极星。" arrived as "北极" and
    overwrote a real memory, the box kept the old text and the next keystrokes landed in it."""
    page, widget = chat
    turns = widget.locator(".memcourse-chat-transcript .memcourse-turn")
    box = widget.locator(".memcourse-chat-input input")

    def wait_for_turn(count: int) -> None:
        page.wait_for_function(
            "(n) => document.querySelectorAll('.memcourse-chat .memcourse-turn').length > "
            "n", arg=count, timeout=20_000)

    # Fast typing, Enter at once, and the next message typed straight after: each arrives whole.
    first, second = "记住：我的项目叫 北极星。", "thanks, that is all for now, see you tomorrow"
    count = turns.count()
    box.click()
    page.keyboard.type(first, delay=0)
    page.keyboard.press("Enter")
    assert box.input_value() == "", "the box is empty before the next keystroke"
    page.keyboard.type(second, delay=0)
    page.keyboard.press("Enter")
    page.wait_for_function(
        "(n) => document.querySelectorAll('.memcourse-chat .memcourse-turn').length >= n + 2", arg=count,
        timeout=30_000)
    assert [_said(turns.nth(count)), _said(turns.nth(count + 1))] == [first, second]
    memory = widget.locator('.memcourse-chat-memories .memcourse-memory[data-subject="project_name"]')
    memory.first.wait_for(timeout=10_000)
    assert "北极星" in widget.locator(".memcourse-chat-memories").inner_text(), "the stored name is the whole name"

    # Pasted (an input event only, no key events), then sent with the button.
    pasted = "以后回答我问题时，代码示例尽量用 Python，注释用中文。"
    count = turns.count()
    box.click()
    page.keyboard.insert_text(pasted)
    widget.locator("button.memcourse-chat-send").click()
    wait_for_turn(count)
    assert _said(turns.last) == pasted and box.input_value() == ""

    # An input method: while "bei ji xing" is being composed, Enter confirms the composition
    # and must not send; the committed text then goes out whole on the next Enter.
    cdp = page.context.new_cdp_session(page)
    count = turns.count()
    box.click()
    page.keyboard.type("记住：我的项目叫 ", delay=0)
    for partial in ("b", "bei", "北极", "北极xing"):
        cdp.send("Input.imeSetComposition", {"text": partial, "selectionStart": len(partial),
                                             "selectionEnd": len(partial)})
    cdp.send("Input.dispatchKeyEvent", {"type": "keyDown", "key": "Enter", "code": "Enter",
                                       "windowsVirtualKeyCode": 13, "nativeVirtualKeyCode": 13})
    cdp.send("Input.dispatchKeyEvent", {"type": "keyUp", "key": "Enter", "code": "Enter",
                                       "windowsVirtualKeyCode": 13, "nativeVirtualKeyCode": 13})
    page.wait_for_timeout(1_500)
    assert turns.count() == count, "an Enter inside a composition sent the half-composed text"
    cdp.send("Input.insertText", {"text": "北极星"})  # the input method commits
    page.keyboard.type("。", delay=0)
    assert box.input_value() == "记住：我的项目叫 北极星。"
    page.keyboard.press("Enter")
    wait_for_turn(count)
    assert _said(turns.last) == "记住：我的项目叫 北极星。" and box.input_value() == ""
    assert turns.count() == count + 1
    widget.screenshot(path=str(artifacts / "chat-exact-messages.png"))
    assert widget_errors(page) == []
