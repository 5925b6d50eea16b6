"""Re-execute course notebooks in a fresh kernel and save them with clean outputs.

Run it after a library change that alters what a notebook prints:

    .venv/bin/python scripts/refresh_notebooks.py                 # every notebook
    .venv/bin/python scripts/refresh_notebooks.py notebooks/07_*.ipynb
    .venv/bin/python scripts/refresh_notebooks.py --markers-only  # only the cell markers below (and stream merging)

Each notebook runs from ``notebooks/`` (as nbval runs it), top to bottom. The saved file has
sequential execution counts and stable cell ids (an existing id is never renumbered), and no
widget state (it would change on every
run). The script refuses to save a notebook whose outputs hold an error or a temporary path.

Cell markers live in cell metadata, never in the code a learner reads:

- nbval's tags (``nbval-check-output``, ``nbval-ignore-output``, ``nbval-skip``,
  ``raises-exception``) say how the test run treats a cell. A leftover comment marker such as
  ``# NBVAL_CHECK_OUTPUT`` is turned into its tag and removed from the source.
- The code cell right after a markdown cell whose last paragraph asks the learner to **Predict**
  (bold) gets the tag ``predict`` and its output is collapsed (``jupyter.outputs_hidden``, which JupyterLab honours;
  ``collapsed`` for the classic notebook), so the answer is not on screen before the guess.
  nbval still executes and compares it. Tags and collapse state survive re-execution; the
  ``predict`` tag follows the markdown (reword the prompt away and the output shows again).
"""

from __future__ import annotations

import re
import sys
import time
from pathlib import Path

import nbformat

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"

#: nbval's comment markers and the cell tags it reads instead (see nbval.plugin.metadata_tags).
COMMENT_TAGS = {
    "NBVAL_CHECK_OUTPUT": "nbval-check-output",
    "NBVAL_IGNORE_OUTPUT": "nbval-ignore-output",
    "NBVAL_SKIP": "nbval-skip",
    "NBVAL_RAISES_EXCEPTION": "nbval-raises-exception",
}
PREDICT_TAG = "predict"
_MARKER_LINE = re.compile(r"^\s*#\s*(" + "|".join(COMMENT_TAGS) + r")\s*$")
#: A markdown cell that asks for a prediction: "**Predict:**", "**Predict first.**", "**predict**".
PREDICT_PROMPT = re.compile(r"\*\*Predict\b", re.IGNORECASE)


def _add_tag(cell: nbformat.NotebookNode, tag: str) -> None:
    tags = cell.metadata.setdefault("tags", [])
    if tag not in tags:
        tags.append(tag)


def _unhide(cell: nbformat.NotebookNode) -> None:
    cell.metadata["tags"].remove(PREDICT_TAG)
    if not cell.metadata["tags"]:
        del cell.metadata["tags"]
    cell.metadata.pop("collapsed", None)
    jupyter = cell.metadata.get("jupyter", {})
    jupyter.pop("outputs_hidden", None)
    if not jupyter:
        cell.metadata.pop("jupyter", None)


def is_predict_prompt(cell: nbformat.NotebookNode) -> bool:
    """The prompt is the markdown cell's last paragraph, the one the learner reads just before
    the code cell (a "Predict" mentioned earlier in a long cell is prose, not a prompt)."""
    if cell.cell_type != "markdown":
        return False
    paragraphs = [p for p in re.split(r"\n\s*\n", cell.source.strip()) if p.strip()]
    return bool(paragraphs) and bool(PREDICT_PROMPT.search(paragraphs[-1]))


def apply_markers(notebook: nbformat.NotebookNode) -> None:
    """Comment markers become tags; the cell answering a prediction is tagged and collapsed."""
    previous = None
    for cell in notebook.cells:
        if cell.cell_type == "code":
            kept = []
            for line in cell.source.splitlines():
                match = _MARKER_LINE.match(line)
                if match:
                    _add_tag(cell, COMMENT_TAGS[match.group(1)])
                else:
                    kept.append(line)
            if len(kept) != len(cell.source.splitlines()):
                cell.source = "\n".join(kept).strip("\n")
            if previous is not None and is_predict_prompt(previous):
                _add_tag(cell, PREDICT_TAG)
                cell.metadata.setdefault("jupyter", {})["outputs_hidden"] = True
                cell.metadata["collapsed"] = True
            elif PREDICT_TAG in cell.metadata.get("tags", []):  # the prompt was reworded away
                _unhide(cell)
        previous = cell


def merge_streams(outputs: list) -> list:
    """Adjacent writes to the same stream as one output. Where the kernel cuts a stream depends on
    timing, so without this a re-execution splits a printed list at a new place each time (a gap
    in static renderers, and a diff in every re-executed notebook); nbval compares streams joined."""
    merged: list = []
    for output in outputs:
        previous = merged[-1] if merged else None
        if (output.get("output_type") == "stream" and previous is not None
                and previous.get("output_type") == "stream" and previous.get("name") == output.get("name")):
            previous["text"] = previous.get("text", "") + output.get("text", "")
        else:
            merged.append(output)
    return merged


def clean(notebook: nbformat.NotebookNode, name: str) -> None:
    notebook.metadata.pop("widgets", None)
    seen: set[str] = set()
    for index, cell in enumerate(notebook.cells):
        # Ids stay as they are: the Chinese edition's translations are keyed by them, so a cell
        # inserted in the middle must not shift every id after it. Only a missing or repeated id
        # gets a new one.
        if not cell.get("id") or cell["id"] in seen:
            candidates = (f"cell-{index:02d}{suffix}" for suffix in ("", *"abcdefghijklmnopqrstuvwxyz"))
            cell["id"] = next(c for c in candidates if c not in seen)
        seen.add(cell["id"])
        cell.metadata.pop("execution", None)
        if cell.cell_type != "code":
            continue
        cell.outputs = merge_streams(cell.outputs)
        for output in cell.outputs:
            if output.get("output_type") == "error":
                raise SystemExit(f"{name}, cell {index}: {output.get('ename')}: {output.get('evalue')}")
            data = output.get("data", {})
            data.pop(WIDGET_VIEW, None)
            texts = [output.get("text", "")] + [v for v in data.values() if isinstance(v, str)]
            if any("/tmp/" in text for text in texts):
                raise SystemExit(f"{name}, cell {index}: an output shows a temporary path")


def refresh(path: Path) -> float:
    from nbclient import NotebookClient

    notebook = nbformat.read(path, as_version=4)
    apply_markers(notebook)
    for cell in notebook.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    start = time.perf_counter()
    NotebookClient(notebook, timeout=300, kernel_name="python3", record_timing=False,
                   resources={"metadata": {"path": str(NOTEBOOKS)}}).execute()
    clean(notebook, path.name)
    nbformat.write(notebook, path)
    return time.perf_counter() - start


def mark_only(path: Path) -> None:
    notebook = nbformat.read(path, as_version=4)
    apply_markers(notebook)
    for cell in notebook.cells:
        if cell.cell_type == "code":
            cell.outputs = merge_streams(cell.outputs)
    nbformat.write(notebook, path)


def main(argv: list[str]) -> int:
    markers_only = "--markers-only" in argv
    argv = [arg for arg in argv if arg != "--markers-only"]
    paths = [Path(arg).resolve() for arg in argv] or sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))
    for path in paths:
        if markers_only:
            mark_only(path)
            print(f"{path.name}: markers applied", flush=True)
        else:
            print(f"{path.name}: executed in {refresh(path):.1f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
