"""Conventions every course notebook keeps, checked on the committed files (no kernel needed).

- Test markers are cell tags that nbval reads, not ``# NBVAL_...`` comments in learner code.
- The output answering a "**Predict**" prompt is collapsed until the learner opens it.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))


def _refresh_module():
    spec = importlib.util.spec_from_file_location("refresh_notebooks", ROOT / "scripts" / "refresh_notebooks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


refresh = _refresh_module()


@pytest.fixture(params=NOTEBOOKS, ids=lambda path: path.stem)
def notebook(request):
    return request.param.name, nbformat.read(request.param, as_version=4)


def test_there_are_notebooks():
    assert len(NOTEBOOKS) >= 13


def test_no_nbval_comment_markers_in_learner_code(notebook):
    name, nb = notebook
    offenders = [
        index for index, cell in enumerate(nb.cells)
        if cell.cell_type == "code" and re.search(r"^\s*#\s*NBVAL_", cell.source, re.MULTILINE)
    ]
    assert not offenders, (
        f"{name}: cells {offenders} carry a '# NBVAL_...' comment; use the cell tag instead "
        "(scripts/refresh_notebooks.py --markers-only converts them)"
    )


def test_predict_outputs_are_collapsed(notebook):
    name, nb = notebook
    exposed = [
        index for index in range(1, len(nb.cells))
        if nb.cells[index].cell_type == "code" and refresh.is_predict_prompt(nb.cells[index - 1])
        and not (nb.cells[index].metadata.get("jupyter", {}).get("outputs_hidden")
                 and "predict" in nb.cells[index].metadata.get("tags", []))
    ]
    assert not exposed, (
        f"{name}: cells {exposed} answer a **Predict** prompt but show their output; "
        "run scripts/refresh_notebooks.py --markers-only on the notebook"
    )


def test_checked_cells_use_tags_nbval_knows(notebook):
    from nbval.plugin import metadata_tags

    name, nb = notebook
    ours = {"predict"}
    unknown = {
        tag for cell in nb.cells for tag in cell.metadata.get("tags", [])
        if tag.startswith("nbval") and tag not in metadata_tags and tag not in ours
    }
    assert not unknown, f"{name}: tags nbval does not know: {sorted(unknown)}"


def test_apply_markers_converts_comments_and_collapses_predictions():
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_markdown_cell("Some context.\n\n**Predict:** how many?"),
        nbformat.v4.new_code_cell("# NBVAL_CHECK_OUTPUT\nprint(3)"),
        nbformat.v4.new_markdown_cell("**Predict** mentioned early.\n\nThen an ordinary paragraph."),
        nbformat.v4.new_code_cell("#NBVAL_IGNORE_OUTPUT\nx = 1\n# a normal comment"),
    ]
    refresh.apply_markers(nb)
    first, second = nb.cells[1], nb.cells[3]
    assert first.source == "print(3)"
    assert first.metadata["tags"] == ["nbval-check-output", "predict"]
    assert first.metadata["jupyter"]["outputs_hidden"] is True
    assert second.source == "x = 1\n# a normal comment"
    assert second.metadata["tags"] == ["nbval-ignore-output"]
    assert "jupyter" not in second.metadata, "a Predict that is not the last paragraph is not a prompt"
    nb.cells[0].source = "No longer a prompt."
    refresh.apply_markers(nb)
    assert "predict" not in first.metadata["tags"] and "jupyter" not in first.metadata
    assert first.metadata["tags"] == ["nbval-check-output"], "the nbval tag stays when the prompt goes"
