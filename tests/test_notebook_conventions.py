"""Conventions every course notebook keeps, checked on the committed files (no kernel needed).

- Test markers are cell tags that nbval reads, not ``# NBVAL_...`` comments in learner code.
- The output answering a "**Predict**" prompt is collapsed until the learner opens it.
- A figure the prose quotes is one the notebook's outputs show (see ``quoted_figures``).
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


# -- figures in prose --------------------------------------------------------------------------
#: A decimal (0.74, 13.9) or a percentage (22 %, 97.5%) in running text.
_FIGURE = re.compile(r"(?<![\w.\-/])(\d+\.\d+|\d+(?:\.\d+)?\s?%)(?![\w.]*\d)")
#: Just before a number, these make it a setting, not a result: "cosine ≥ 0.92", "b = 0.75".
_SETTING = re.compile(r"(?:[=≥≤<>]|threshold|at least|at most|up to|above|below|reach(?:es)?)\s*\(?$", re.I)
#: Arithmetic the reader can check on the spot: "ln(1 + 4.5/1.5) ≈ 1.39", "1/70 ≈ 0.0143".
_ARITHMETIC_BEFORE = re.compile(r"(?:[\d)]\s*[-+*/×÷^]\s*|≈\s*|ln\s*\(\s*[\d.\s+\-*/]*)$")
_ARITHMETIC_AFTER = re.compile(r"^\s*[-+*/×÷^]\s*[\d(]")
#: Section, version and tool references: "§5.2", "section 3.1", "Python 3.11", "0.5 or later".
_REFERENCE_BEFORE = re.compile(r"(?:§|sections?|version|python|v)\s*$", re.I)


def _prose(markdown: str) -> str:
    """The markdown without code (fenced blocks, `spans`, <code>), same length, so positions hold."""
    blank = lambda match: " " * len(match.group())  # noqa: E731
    markdown = re.sub(r"```.*?```", blank, markdown, flags=re.S)
    markdown = re.sub(r"`[^`]*`", blank, markdown)
    return re.sub(r"<code>.*?</code>", blank, markdown, flags=re.S)


def quoted_figures(markdown: str) -> list[tuple[str, str]]:
    """``(figure, context)`` for each number the prose states as a result.

    The rule the notebooks follow: a measured or computed figure in prose must be visible in
    an output of the same notebook (print it, or render the sentence with
    ``IPython.display.Markdown`` from the result), so the text cannot drift from the run. Not
    figures: numbers in code (settings belong there: `0.92`), settings marked as such
    ("threshold 0.92", "≥ 0.92"), arithmetic shown in full, references (§5.2, version 0.5),
    and 0% / 100% (a goal, not a measurement).
    """
    text = _prose(markdown)
    found = []
    for match in _FIGURE.finditer(text):
        figure = match.group(1)
        before, after = text[max(0, match.start() - 40):match.start()], text[match.end():match.end() + 20]
        if figure.replace(" ", "") in ("100%", "0%") or re.match(r"\s*or later", after):
            continue
        if _SETTING.search(before) or _REFERENCE_BEFORE.search(before):
            continue
        if _ARITHMETIC_BEFORE.search(before) or _ARITHMETIC_AFTER.search(after):
            continue
        found.append((figure, " ".join((before + "⟦" + figure + "⟧" + after).split())))
    return found


def _outputs_text(nb) -> str:
    parts = []
    for cell in nb.cells:
        for output in cell.get("outputs", []) if cell.cell_type == "code" else []:
            parts.append(output.get("text", ""))
            parts.extend(value for value in output.get("data", {}).values() if isinstance(value, str))
    return "\n".join(parts)


def test_quoted_figures_rule():
    prose = ("Hybrid has the best MRR (0.74 vs 0.69); at cosine ≥ 0.92 it supersedes; b = 0.75; "
             "ln(1 + 4.5/1.5) ≈ 1.39; see §5.2 and section 3.1; Ollama 0.5 or later; done at 100%; "
             "`0.81` in code; 22 % of its weight.")
    assert [figure for figure, _ in quoted_figures(prose)] == ["0.74", "0.69", "22 %"]


def test_prose_quotes_only_figures_the_outputs_show(notebook):
    name, nb = notebook
    shown = _outputs_text(nb)
    missing = [
        f"cell {index}: {figure!r} in “…{context}…”"
        for index, cell in enumerate(nb.cells) if cell.cell_type == "markdown"
        for figure, context in quoted_figures(cell.source)
        if figure.replace(" ", "").rstrip("%") not in shown
    ]
    assert not missing, (
        f"{name}: the prose quotes figures no output shows; print them from the result (or render the "
        "sentence with IPython.display.Markdown), or write a setting as code:\n" + "\n".join(missing)
    )


def test_the_top_cell_states_a_time_of_at_most_45_minutes(notebook):
    """One sitting: a notebook that needs more than ~45 minutes of reading holds two ideas."""
    name, nb = notebook
    match = re.search(r"\*\*Time:\*\*\s*about\s+(\d+)\s+minutes", nb.cells[0].source)
    assert match, f"{name}: the first cell states '**Time:** about N minutes, plus M for the exercise.'"
    assert int(match.group(1)) <= 45, f"{name}: {match.group(1)} minutes of reading; split it or move material"


# -- hint() ------------------------------------------------------------------------------------
_DEFINES_HINT = re.compile(r"^\s*(?:from memcourse\.course(?:\.hints)? import [^\n]*\bhint\b|def hint\b|hint\s*=)", re.M)


def hint_problems(nb) -> list[str]:
    """Why ``hint("NN")`` would raise NameError somewhere in this notebook, if it would.

    ``hint`` must be defined in the setup cell (the first code cell), so that a learner who
    opens a new cell anywhere, or reads "use hint(...)" in any markdown cell, finds it; and no
    cell may mention ``hint(`` before a code cell has defined it.
    """
    code = [index for index, cell in enumerate(nb.cells) if cell.cell_type == "code"]
    defined = [index for index in code if _DEFINES_HINT.search(nb.cells[index].source)]
    problems = []
    if not code or not _DEFINES_HINT.search(nb.cells[code[0]].source):
        problems.append("the setup cell (first code cell) does not import hint: "
                        "add `from memcourse.course import hint`")
    mentions = [index for index, cell in enumerate(nb.cells) if "hint(" in _strip_definitions(cell.source)]
    early = [index for index in mentions if not defined or index < defined[0]
             or (index == defined[0] and nb.cells[index].cell_type == "markdown")]
    if early:
        problems.append(f"cells {early} use hint( before any code cell defines it")
    return problems


def _strip_definitions(source: str) -> str:
    return _DEFINES_HINT.sub("", source)


def test_hint_is_defined_before_first_use(notebook):
    name, nb = notebook
    assert not hint_problems(nb), f"{name}: " + "; ".join(hint_problems(nb))


def test_hint_check_catches_a_late_import():
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("import json"), nbformat.v4.new_markdown_cell('Stuck? `hint("03")`.'),
                nbformat.v4.new_code_cell("from memcourse.course import hint, show_progress\nshow_progress(['03'])")]
    assert len(hint_problems(nb)) == 2
    nb.cells[0].source = "import json\nfrom memcourse.course import hint  # a nudge"
    assert hint_problems(nb) == []
    nb.cells.insert(0, nbformat.v4.new_markdown_cell('Use hint("03") below.'))
    assert hint_problems(nb) == ["cells [0] use hint( before any code cell defines it"]


def test_hint_in_the_setup_cell_runs(capsys):
    """What the setup cell imports is the real thing: a level-1 hint for every notebook's exercise."""
    from memcourse.course import hint

    for path in NOTEBOOKS:
        hint(path.name[:2])
        assert f"ex{path.name[:2]}" in capsys.readouterr().out
