"""Every notebook's diagrams, rendered by JupyterLab itself in a real Chromium.

A Mermaid fence that does not parse still shows as text on GitHub and as a grey warning box in
JupyterLab; only a browser tells the two apart from a drawing. Notebooks are opened without
running them (Markdown needs no kernel), all on one page, and every diagram must become an image,
not a warning.
Screenshots go to ``test-artifacts/diagrams/``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .harness import chromium_page, jupyterlab

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


def diagram_sheet(target: Path) -> tuple[int, list[str]]:
    """One notebook holding every notebook's Mermaid cells, in course order.

    A diagram renders from its Markdown alone, so one page shows all of them: one page load and
    one kernel instead of one per notebook. Returns the number of cells and one label per
    diagram ("07_hybrid_recall_chroma-2"), in page order.
    """
    import nbformat

    sheet = nbformat.v4.new_notebook()
    sheet.metadata = nbformat.read(NOTEBOOKS[0], as_version=4).metadata
    labels: list[str] = []
    for notebook in NOTEBOOKS:
        for cell in nbformat.read(notebook, as_version=4).cells:
            if cell.cell_type == "markdown" and "```mermaid" in cell.source:
                sheet.cells.append(nbformat.v4.new_markdown_cell(cell.source))
                first = sum(label.startswith(f"{notebook.stem}-") for label in labels) + 1
                labels += [f"{notebook.stem}-{n}" for n in range(first, first + cell.source.count("```mermaid"))]
    nbformat.write(sheet, target)
    return len(sheet.cells), labels


def test_every_diagram_renders_in_jupyterlab(tmp_path):
    root = tmp_path / "course"
    root.mkdir()
    cells, labels = diagram_sheet(root / "diagrams.ipynb")
    expected = len(labels)
    assert expected == sum(mermaid_count(notebook) for notebook in NOTEBOOKS)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    problems: list[str] = []
    # Every cell in the page at once: JupyterLab otherwise keeps only the cells near the view.
    unwindowed = {"@jupyterlab/notebook-extension/tracker": {"windowingMode": "none"}}
    with jupyterlab(root, settings=unwindowed) as server, chromium_page(ARTIFACTS) as page:
        page.goto(server.notebook_url("diagrams.ipynb"))
        page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=120_000)
        page.wait_for_function("n => document.querySelectorAll('.jp-MarkdownCell').length >= n",
                               arg=cells, timeout=60_000)
        try:  # Mermaid draws asynchronously, after the Markdown itself
            page.wait_for_function(
                "n => document.querySelectorAll('.jp-RenderedMermaid svg, .jp-RenderedMermaid img').length >= n",
                arg=expected, timeout=120_000)
        except Exception:
            pass
        diagrams = page.locator(".jp-RenderedMermaid")
        rendered = diagrams.count()
        for index in range(rendered):
            diagram = diagrams.nth(index)
            label = labels[index] if index < len(labels) else f"extra-{index + 1}"
            if "jp-mod-warning" in (diagram.get_attribute("class") or "") or diagram.locator("svg, "
               "img").count() == 0:
                problems.append(f"{label}: the diagram did not draw: {diagram.inner_text()[:200]}")
                continue
            diagram.scroll_into_view_if_needed()
            diagram.screenshot(path=str(ARTIFACTS / f"{label}.png"))
        if rendered != expected:
            problems.append(f"{expected} Mermaid fences, {rendered} rendered diagrams")
    assert not problems, "\n".join(problems)
