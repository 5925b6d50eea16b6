"""Notebook 14's extraction widget, as a learner sees it: real JupyterLab, real headless Chromium.

The notebook runs top to bottom in the browser; then the test types turns into the widget and
reads what the page shows: the candidate, the gate's verdict and the reconciliation decision
(ADD, then DELETE on a retraction), a secret refused before any extraction, the memory panel
and the audit log changing with them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .harness import chromium_page, copy_without_outputs, jupyterlab, open_widget, widget_errors

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "test-artifacts" / "browser-extraction"  # its own: the Chromium profile lives there
NOTEBOOK = "14_extraction_and_reconciliation.ipynb"

pytestmark = pytest.mark.timeout(300)


@pytest.fixture
def course_root(tmp_path) -> Path:
    root = tmp_path / "course"
    root.mkdir()
    copy_without_outputs(REPO / "notebooks" / NOTEBOOK, root / NOTEBOOK)
    return root


def test_extraction_widget_shows_candidate_gate_decision_and_audit(course_root):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with jupyterlab(course_root) as server, chromium_page(ARTIFACTS) as page:
        widget = open_widget(page, server, NOTEBOOK, "memcourse-extraction")
        turn = widget.locator(".memcourse-extraction-result .memcourse-extraction-turn")
        memories = widget.locator(".memcourse-extraction-memories")
        audit = widget.locator(".memcourse-extraction-audit")
        # The notebook opens the widget with one turn already sent.
        widget.locator('.memcourse-extraction-turn[data-actions="ADD"]').wait_for(timeout=30_000)
        memories.locator('.memcourse-memory[data-subject="favourite_language"]').wait_for(timeout=10_000)

        def send(text: str, outcome: str, actions: str, *, enter: bool = False) -> None:
            box = widget.locator(".memcourse-extraction-input input")
            box.fill(text)
            if enter:
                box.press("Enter")
            else:
                widget.locator("button.memcourse-extraction-send").click()
            widget.locator(f'.memcourse-extraction-turn[data-outcome="{outcome}"][data-actions="{actions}"]'
                           ).wait_for(timeout=20_000)
            page.wait_for_function(
                "() => document.querySelector('.memcourse-extraction .memcourse-extraction-input input').value === ''",
                timeout=10_000)

        send("We decided to move standups to Tuesday.", "ok", "ADD")
        candidate = turn.locator(".memcourse-candidate")
        assert candidate.get_attribute("data-gate") == "WRITE"
        text = turn.inner_text()
        assert "llm_inferred" in text and "gate: WRITE" in text and "decision: ADD" in text
        memories.locator('.memcourse-memory[data-subject="team_decision"]').wait_for(timeout=10_000)
        widget.screenshot(path=str(ARTIFACTS / "extraction-add.png"))

        send("Forget that we decided to move standups to Tuesday.", "ok", "DELETE", enter=True)
        assert "decision: DELETE" in turn.inner_text()
        page.wait_for_function(
            "() => !document.querySelector('.memcourse-extraction-memories [data-subject=\"team_decision\"]')",
            timeout=10_000)
        # Each panel is its own widget and reaches the page in its own message: the memory panel
        # can change before the audit log does, so the test waits for the log too.
        page.wait_for_function(
            "() => document.querySelector('.memcourse-extraction .memcourse-extraction-audit')"
            ".innerText.includes('DELETE')", timeout=10_000)
        assert "standups" not in audit.inner_text()

        send("my password is hunter2, remember it", "refused", "")
        assert "REFUSED" in turn.inner_text() and "hunter2" not in widget.inner_text()
        widget.screenshot(path=str(ARTIFACTS / "extraction-refused.png"))
        assert widget_errors(page) == []
