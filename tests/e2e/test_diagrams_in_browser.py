"""Every notebook's diagrams, rendered by JupyterLab itself in a real Chromium.

A Mermaid fence that does not parse still shows as text on GitHub and as a grey warning box in
JupyterLab; only a browser tells the two apart from a drawing. Notebooks are opened without
running them (Markdown needs no kernel) and every diagram must become an image, not a warning.
Screenshots go to ``test-artifacts/diagrams/``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .harness import chromium_page, copy_without_outputs, jupyterlab

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "test-artifacts" / "diagrams"
NOTEBOOKS = sorted((REPO / "notebooks").glob("[0-9][0-9]_*.ipynb"))

pytestmark = pytest.mark.timeout(600)


def mermaid_count(path: Path) -> int:
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return sum("".join(cell["source"]).count("```mermaid") for cell in cells if cell["cell_type"] == "markdown")


def test_every_notebook_has_a_diagram():
    missing = [path.name for path in NOTEBOOKS if mermaid_count(path) == 0]
    assert not missing, f"a diagram where structure matters: these notebooks have none: {missing}"


def test_every_diagram_renders_in_jupyterlab(tmp_path):
    root = tmp_path / "course"
    root.mkdir()
    for notebook in NOTEBOOKS:
        copy_without_outputs(notebook, root / notebook.name)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    problems: list[str] = []
    with jupyterlab(root) as server, chromium_page(ARTIFACTS) as page:
        for notebook in NOTEBOOKS:
            expected = mermaid_count(notebook)
            page.goto(server.notebook_url(notebook.name))
            page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=120_000)
            cells = page.locator(".jp-MarkdownCell")
            for index in range(cells.count()):  # a cell far below the fold may render only when seen
                cells.nth(index).scroll_into_view_if_needed()
            try:  # Mermaid draws asynchronously, after the Markdown itself
                page.wait_for_function(
                    "n => document.querySelectorAll('.jp-RenderedMermaid svg, .jp-RenderedMermaid img').length >= n",
                    arg=expected, timeout=60_000)
            except Exception:
                pass
            diagrams = page.locator(".jp-RenderedMermaid")
            rendered = diagrams.count()
            for index in range(rendered):
                diagram = diagrams.nth(index)
                if "jp-mod-warning" in (diagram.get_attribute("class") or "") or diagram.locator("svg, "
                   "img").count() == 0:
                    problems.append(f"{notebook.name}: diagram {index + 1} did not draw: {diagram.inner_text()[:200]}")
                    continue
                diagram.scroll_into_view_if_needed()
                diagram.screenshot(path=str(ARTIFACTS / f"{notebook.stem}-{index + 1}.png"))
            if rendered != expected:
                problems.append(f"{notebook.name}: {expected} Mermaid fences, {rendered} rendered diagrams")
    assert not problems, "\n".join(problems)
