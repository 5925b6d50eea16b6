"""The recall explorer and the timeline, as a learner sees them: real JupyterLab, real headless
Chromium (the other widgets: ``test_widgets_in_browser.py``).

Each test serves a clean copy of the course notebooks from a temporary folder, opens the notebook
that builds the widget in JupyterLab, runs all its cells, then works the widget like a person would
(clicks a mode, types into a slider's readout, picks from a dropdown) and reads what the page shows.
Screenshots go to ``test-artifacts/browser-recall/``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .harness import chromium_page, jupyterlab, notebook_with, open_widget, widget_errors

REPO = Path(__file__).resolve().parents[2]
NOTEBOOKS = REPO / "notebooks"
ARTIFACTS = REPO / "test-artifacts" / "browser-recall"  # its own folder: the Chromium profile lives there

pytestmark = pytest.mark.timeout(300)


def _rows(widget) -> list[list[str]]:
    return widget.locator("tr.memcourse-hit").evaluate_all(
        "rows => rows.map(r => [...r.querySelectorAll('td')].map(td => td.innerText.trim()))")


def _set_slider(widget, css_class: str, value: str) -> None:
    """Type into the slider's readout, as a learner can, instead of dragging the handle."""
    readout = widget.locator(f".{css_class} .widget-readout")
    readout.click()
    readout.press("Control+A")
    readout.type(value)
    readout.press("Enter")


def test_recall_explorer_controls_change_the_ranked_table(course_root, artifacts):
    with jupyterlab(course_root) as server, chromium_page(artifacts) as page:
        widget = open_widget(page, server, notebook_with("recall_explorer", NOTEBOOKS), "memcourse-recall-explorer")
        hits = widget.locator("tr.memcourse-hit")
        hits.first.wait_for(timeout=30_000)
        assert 1 <= hits.count() <= 4  # the notebook opens the explorer with limit=4
        widget.screenshot(path=str(artifacts / "recall-hybrid.png"))

        # Days idle comes from the store's records (not the throwaway copy the explorer searches,
        # which has just "used" every hit): the notebook's memories were last used days ago.
        idle = [float(row[11]) for row in _rows(widget)]
        assert any(days > 0 for days in idle), f"days idle reads 0 on every row: {idle}"
        # Each header is its own cell with room around it: "= final" and "days idle" do not touch.
        boxes = widget.locator("table.memcourse-recall-table th").evaluate_all(
            "ths => ths.map(th => { const r = document.createRange(); r.selectNodeContents(th);"
            " const b = r.getBoundingClientRect(); return [th.innerText.trim(), b.left, b.right]; })")
        names = [name for name, _, _ in boxes]
        assert names[-2:] == ["= final", "days idle"], names
        assert boxes[-1][1] - boxes[-2][2] >= 8, f"headers run together: {boxes[-2:]}"

        # Columns: #, memory, vec rank, kw rank, cosine, BM25, fused, × decay, × boost, × task, = final, days idle
        widget.locator(".memcourse-recall-mode button", has_text="keyword").click()
        page.wait_for_function(
            """() => { const rows = [...document.querySelectorAll('.memcourse-recall-explorer tr.memcourse-hit')];
                       return rows.length > 0
                           && rows.every(r => r.querySelectorAll('td')[2].innerText.trim() === '–'); }""",
            timeout=20_000,
        )
        assert all(row[3] != "–" for row in _rows(widget)), "keyword mode ranks by BM25 only"

        widget.locator(".memcourse-recall-mode button", has_text="hybrid").click()
        _set_slider(widget, "memcourse-recall-lambda", "0.3")
        widget.get_by_text("half-life ≈ 2.3 days").wait_for(timeout=20_000)  # ln 2 / 0.3
        _set_slider(widget, "memcourse-recall-lambda", "0")
        widget.get_by_text("no decay").wait_for(timeout=20_000)
        assert all(row[7] == "1.000" for row in _rows(widget)), "λ = 0: nothing decays"

        _set_slider(widget, "memcourse-recall-limit", "1")
        page.wait_for_function(
            "() => document.querySelectorAll('.memcourse-recall-explorer tr.memcourse-hit').length === 1",
            timeout=20_000)
        widget.screenshot(path=str(artifacts / "recall-no-decay-limit-1.png"))

        # Plain RRF sums 1/(k + rank): a few hundredths. Weighted fusion mixes normalised scores.
        assert float(_rows(widget)[0][6]) < 0.05
        widget.locator(".memcourse-recall-fusion button", has_text="weighted").click()
        page.wait_for_function(
            """() => { const row = document.querySelector('.memcourse-recall-explorer tr.memcourse-hit');
                       return row && parseFloat(row.querySelectorAll('td')[6].innerText) > 0.05; }""",
            timeout=20_000)
        # ipywidgets marks a disabled slider with a "disabled" attribute and a read-only readout.
        assert widget.locator(".memcourse-recall-k [disabled]").count() >= 1, "weighted fusion has no k"
        assert widget.locator('.memcourse-recall-k .widget-readout[contenteditable="false"]').count() == 1
        widget.screenshot(path=str(artifacts / "recall-weighted.png"))
        assert widget_errors(page) == []


def test_timeline_shows_the_chain_of_the_chosen_memory(course_root, artifacts):
    with jupyterlab(course_root) as server, chromium_page(artifacts) as page:
        widget = open_widget(page, server, notebook_with("timeline_widget", NOTEBOOKS), "memcourse-timeline")
        events = widget.locator(".memcourse-timeline-event")
        events.first.wait_for(timeout=30_000)
        before = events.evaluate_all("els => els.map(e => e.dataset.memoryId + '|' + e.dataset.status)")
        assert any(item.endswith("|superseded") for item in before), before
        assert sum(item.endswith("|active") for item in before) == 1, before
        widget.screenshot(path=str(artifacts / "timeline-chain.png"))

        select = widget.locator(".memcourse-timeline-select select")
        options = select.locator("option").evaluate_all("els => els.map(e => e.value)")
        current = select.input_value()
        other = next(value for value in options if value != current)
        select.select_option(other)
        page.wait_for_function(
            """(before) => { const now = [...document.querySelectorAll('.memcourse-timeline .memcourse-timeline-event')]
                               .map(e => e.dataset.memoryId + '|' + e.dataset.status);
                             return now.length > 0 && now.join() !== before.join(); }""",
            arg=before, timeout=20_000)
        widget.screenshot(path=str(artifacts / "timeline-other.png"))
        assert widget_errors(page) == []
