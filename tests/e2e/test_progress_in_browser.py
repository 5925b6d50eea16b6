"""The progress view of notebook 00, as a learner sees it in JupyterLab: an HTML table with one
bar per exercise, the graded folder named, failing tests folded under their exercise, and no
hints. Screenshots go to ``test-artifacts/progress/``."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from memcourse.course.layout import available_exercises

from .harness import chromium_page, copy_without_outputs, jupyterlab, open_and_run_notebook

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "test-artifacts" / "progress"  # not browser/: that folder is emptied by the widget tests

pytestmark = pytest.mark.timeout(300)


def test_progress_view_in_notebook_00(tmp_path):
    root = tmp_path / "course"
    root.mkdir()
    for notebook in sorted((REPO / "notebooks").glob("*.ipynb")):
        copy_without_outputs(notebook, root / notebook.name)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with jupyterlab(root) as server, chromium_page(ARTIFACTS) as page:
        page.set_viewport_size({"width": 1200, "height": 1800})  # room for the whole table
        open_and_run_notebook(page, server, "00_start_here.ipynb")
        view = page.locator(".mc-progress").first
        view.wait_for(timeout=120_000)
        view.scroll_into_view_if_needed()

        head = view.locator(".mc-head").inner_text()
        assert "graded:" in head and "exercises" in head, f"the view names the folder it graded: {head!r}"
        rows = view.locator("tr.mc-row")
        assert rows.count() == len(available_exercises(REPO)), "one row per exercise, found from the files"
        widths = view.locator(".mc-fill").evaluate_all("els => els.map(e => e.style.width)")
        assert len(widths) == rows.count() and all(re.fullmatch(r"\d+%", w) for w in widths), widths
        text = view.inner_text()
        assert "not written yet" not in text and "level 3" not in text.lower(), "no hints unless asked"
        view.screenshot(path=str(ARTIFACTS / "progress-notebook.png"))

        details = view.locator("tr.mc-row details").first
        assert details.get_attribute("open") is None, "what is left is folded until the learner opens it"
        details.locator("summary").click()
        page.wait_for_function("() => document.querySelector('.mc-progress tr.mc-row details').open === true")
        assert "still to write" in details.inner_text()
        view.screenshot(path=str(ARTIFACTS / "progress-notebook-open.png"))
